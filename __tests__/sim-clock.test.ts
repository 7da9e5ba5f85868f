// Unit tier: the clocks' waits. The jumping clock of the scenario tier (sim/clock.js) jumps to a
// wait, never to an alarm (a guard on work under way), and an alarm rings when a jump passes it;
// the system clock's waits end by their signal when longer than a timer can hold.
import { describe, it, expect, afterEach } from '@jest/globals'
import { JumpingClock } from '../sim/clock.js'
import { systemClock } from '../src/deadline.js'

const tick = (): Promise<void> => new Promise(resolve => setImmediate(resolve))
const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await tick()
}

/** Whether `p` has settled, looked at after a few turns of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false
  void p.then(() => (done = true))
  await ticks(5)
  return done
}

const clocks: JumpingClock[] = []
function jumping(): JumpingClock {
  const clock = new JumpingClock()
  clock.setJumping(true)
  clocks.push(clock)
  return clock
}
afterEach(() => {
  for (const clock of clocks.splice(0)) clock.setJumping(false)
})

describe('the jumping clock and its alarms', () => {
  it('never jumps to an alarm: with only an alarm due, the time stays', async () => {
    const clock = jumping()
    const ended = new AbortController()
    const alarm = clock.alarm(60_000, ended.signal)
    expect(await settled(alarm)).toBe(false)
    expect(clock.offset).toBe(0)
    ended.abort()
    expect(await settled(alarm)).toBe(true)
  })

  it('jumps to a wait, and rings the alarms the jump passes, not the later ones', async () => {
    const clock = jumping()
    const ended = new AbortController()
    const early = clock.alarm(1_000, ended.signal)
    const late = clock.alarm(9_000, ended.signal)
    await clock.sleep(5_000)
    expect(clock.offset).toBeGreaterThanOrEqual(4_900)
    expect(await settled(early)).toBe(true)
    expect(await settled(late)).toBe(false)
    ended.abort()
  })

  it('rings an alarm when the time limit of a call it holds is jumped to (a hung page)', async () => {
    const clock = jumping()
    // As the pager does: its guard is set first, and a page's time limit is what is left of it
    // (set after it, so never earlier): a jump to the limit passes the alarm.
    const alarm = clock.alarm(3_000)
    const release = clock.hold()
    const limit = clock.limit(3_000)
    await new Promise(resolve => limit.signal.addEventListener('abort', resolve))
    release('closed')
    expect(await settled(alarm)).toBe(true)
    expect(clock.offset).toBeGreaterThanOrEqual(2_900)
  })

  it('an alarm no timer can hold (an unbounded deadline) never rings, and is no jump', async () => {
    const clock = jumping()
    const ended = new AbortController()
    const alarm = clock.alarm(Infinity, ended.signal)
    await clock.sleep(1_000)
    expect(await settled(alarm)).toBe(false)
    expect(clock.offset).toBeLessThan(2_000)
    ended.abort()
    expect(await settled(alarm)).toBe(true)
  })
})

describe('the system clock', () => {
  it('a wait longer than a timer can hold ends only by its signal (Node would fire it at once)', async () => {
    for (const wait of [systemClock.sleep, systemClock.alarm]) {
      const ended = new AbortController()
      const waiting = wait(2 ** 31, ended.signal)
      expect(await settled(waiting)).toBe(false)
      ended.abort()
      expect(await settled(waiting)).toBe(true)
    }
  })

  it('an alarm whose signal has already aborted ends at once', async () => {
    const ended = new AbortController()
    ended.abort()
    expect(await settled(systemClock.alarm(60_000, ended.signal))).toBe(true)
  })
})

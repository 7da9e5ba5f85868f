// A clock the test moves by hand, for unit tests of what waits: sleeping moves it at once, so a
// loop that waits minutes runs instantly and deterministically. Alarms (a guard on work under way)
// ring whenever the time is moved past them, by a sleep or by the test (`t`, `advance`). Scenario
// runs use the jumping clock of sim/clock.js instead, which the simulators share.
import { Deadline, type Clock } from '../src/deadline.js'

export interface HandClock extends Clock {
  /** The time now; setting it moves the clock (ringing the alarms it passes). */
  t: number
  /** Moves the clock `ms` ahead, as work that takes that long would. */
  advance(ms: number): void
  /** Alarms set and not yet rung or cancelled. */
  readonly alarms: number
  /** A deadline `ms` from now on this clock. */
  deadline(ms: number): Deadline
}

export function handClock(start = 1_000): HandClock {
  let time = start
  const alarms = new Set<{ at: number; ring: () => void }>()
  const moveTo = (to: number): void => {
    time = to
    for (const alarm of [...alarms]) if (alarm.at <= time) alarm.ring()
  }
  const c: HandClock = {
    get t() {
      return time
    },
    set t(to: number) {
      moveTo(to)
    },
    now: () => time,
    sleep: (ms: number) => {
      moveTo(time + ms)
      return Promise.resolve()
    },
    alarm: (ms: number, signal?: AbortSignal) =>
      new Promise<void>(resolve => {
        const alarm = {
          at: time + ms,
          ring: () => {
            alarms.delete(alarm)
            signal?.removeEventListener('abort', alarm.ring)
            resolve()
          }
        }
        if (ms <= 0 || signal?.aborted) return resolve()
        alarms.add(alarm)
        signal?.addEventListener('abort', alarm.ring, { once: true })
      }),
    advance: (ms: number) => moveTo(time + ms),
    get alarms() {
      return alarms.size
    },
    // Calls in unit tests answer by themselves: a limit that never fires.
    limit: () => ({ signal: new AbortController().signal, end: () => undefined }),
    deadline: (ms: number) => Deadline.after(ms, c)
  }
  return c
}

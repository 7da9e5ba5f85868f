// Unit tier: the one deadline and the one "time is up" error, on a hand-moved clock.
import { describe, it, expect } from '@jest/globals'
import { messageOf, TimeUpError } from '../src/errors.js'
import { Deadline } from '../src/deadline.js'
import { handClock } from './clock.js'

describe('the one deadline and the one "time is up" error', () => {
  it('says which limit ran out, what the run waited for, how far it got and why', () => {
    const err = new TimeUpError(
      'the next page (offset 500)',
      new Error('503 Service Unavailable.'),
      {
        rows: 500,
        pages: 2
      }
    )
    expect(err.message).toBe(
      'The time allowed (`wait-timeout`) ran out after reading 500 rows (2 pages) while waiting ' +
        'for the next page (offset 500); it had failed: 503 Service Unavailable.'
    )
  })

  it('a deadline knows what is left, and fails with the one "time is up" error', () => {
    const clock = handClock(1_000)
    const d = new Deadline(clock)
    expect(d.left()).toBe(Infinity)
    d.limit(500)
    expect(d.left()).toBe(500)
    expect(d.allows(499)).toBe(true)
    expect(d.allows(500)).toBe(false)
    expect(() => d.check('the job')).not.toThrow()
    clock.t = 1_500
    expect(d.passed()).toBe(true)
    expect(d.left()).toBe(0)
    expect(() => d.check('the job')).toThrow(
      'The time allowed (`wait-timeout`) ran out while waiting for the job.'
    )
  })

  it('counts from the start of the run, then again from the answer; waits on its clock', async () => {
    const clock = handClock(10_000)
    const d = new Deadline(clock)
    d.limit(90_000)
    expect(d.startedAt).toBe(10_000)
    await d.sleep(30_000)
    expect(d.left()).toBe(60_000)
    expect(d.elapsed()).toBe(30_000)
    d.restartFrom(clock.now())
    expect(d.left()).toBe(90_000)
    expect(d.startedAt).toBe(10_000)
    // A call's time limit: its own, or what is left, but at least the floor.
    expect(d.clamp(30_000, 5_000)).toBe(30_000)
    clock.t += 88_000
    expect(d.clamp(30_000, 5_000)).toBe(5_000)
    expect(d.clamp(30_000)).toBe(2_000)
  })

  it('messageOf never gives a stack', () => {
    expect(messageOf(new Error('boom'))).toBe('boom')
    expect(messageOf('text')).toBe('text')
  })
})

import { describe, it, expect } from '@jest/globals'
import { Deadline, messageOf, runDeadline, TimeUpError } from '../src/errors.js'

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

  it('a deadline knows what is left, and fails with its own limit in the words', () => {
    let now = 1_000
    const d = new Deadline(1_500, '`wait-timeout` (0.5 s)', () => now)
    expect(d.left()).toBe(500)
    expect(() => d.check('the job')).not.toThrow()
    now = 1_500
    expect(d.passed()).toBe(true)
    expect(d.left()).toBe(0)
    expect(() => d.check('the job')).toThrow(
      'The time allowed (`wait-timeout` (0.5 s)) ran out while waiting for the job.'
    )
  })

  it('a run deadline counts from the start of the run', () => {
    const d = runDeadline(10_000, 90_000)
    expect(d.at).toBe(100_000)
    expect(d.what).toBe('`wait-timeout` (90 s, counted from the start of the run)')
  })

  it('messageOf never gives a stack', () => {
    expect(messageOf(new Error('boom'))).toBe('boom')
    expect(messageOf('text')).toBe('text')
  })
})

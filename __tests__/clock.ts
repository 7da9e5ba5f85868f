// A clock the test moves by hand, for unit tests of what waits: sleeping moves it at once, so a
// loop that waits minutes runs instantly and deterministically. Scenario runs use the jumping
// clock of sim/clock.js instead, which the simulators share.
import { Deadline, type Clock } from '../src/deadline.js'

export interface HandClock extends Clock {
  t: number
  /** A deadline `ms` from now on this clock. */
  deadline(ms: number): Deadline
}

export function handClock(start = 1_000): HandClock {
  const c: HandClock = {
    t: start,
    now: () => c.t,
    sleep: (ms: number) => {
      c.t += ms
      return Promise.resolve()
    },
    // Calls in unit tests answer by themselves: a limit that never fires.
    limit: () => ({ signal: new AbortController().signal, end: () => undefined }),
    deadline: (ms: number) => Deadline.after(ms, c)
  }
  return c
}

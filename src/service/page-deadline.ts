// The wait for a page in its turn (pages.ts), bounded by the run's deadline: woken by an alarm on
// the run's clock when the deadline passes, and a short grace in which a page still awaited may
// say why it failed.
import type { Deadline } from '../deadline.js'

/** What the wait gives when the deadline passes before the page. */
export const TIME_UP = Symbol('time up')

/**
 * Wakes the wait for the page in its turn when the deadline passes: an alarm on the run's clock,
 * the clock the client checks too. Not a promise raced against each page: every race would leave
 * a reaction on it holding that page's rows until the deadline.
 */
export class DeadlineGuard {
  private passed = false
  private wake = (): void => undefined
  private readonly ended = new AbortController()

  constructor(private readonly deadline: Deadline) {
    void deadline.passing(this.ended.signal).then(() => {
      if (this.ended.signal.aborted) return
      this.passed = true
      this.wake()
    })
  }

  /** The page's outcome, or TIME_UP when the deadline passes first. */
  async race<T>(outcome: Promise<T>): Promise<T | typeof TIME_UP> {
    if (this.passed) return TIME_UP
    try {
      return await new Promise<T | typeof TIME_UP>(resolve => {
        this.wake = () => resolve(TIME_UP)
        void outcome.then(resolve)
      })
    } finally {
      this.wake = () => undefined
    }
  }

  /** The outcome if it settles within `ms` on the run's clock, else undefined. */
  async grace<T>(outcome: Promise<T>, ms: number): Promise<T | undefined> {
    const settled = new AbortController()
    const late = this.deadline.clock.alarm(ms, settled.signal).then(() => undefined)
    try {
      return await Promise.race([outcome, late])
    } finally {
      settled.abort()
    }
  }

  end(): void {
    this.ended.abort()
  }
}

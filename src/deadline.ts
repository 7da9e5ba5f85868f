// The run's one clock and its one deadline. `main` builds a Deadline once and hands the object to
// everything that waits or sends: the service client, the GitHub client, paging, cursors and the
// job's wait. Nothing else computes "start plus wait-timeout" or "time left": they ask it.
// The clock is injected, so a test can hand in one whose waits take no real time.
import { TimeUpError, type ReadSoFar } from './errors.js'

/** Where time comes from. */
export interface Clock {
  now(): number
  /** A pure wait (a backoff, a poll's delay): resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /**
   * A guard on work under way (a page being read when the deadline comes): resolves once `ms`
   * have passed on this clock, or at once when `signal` aborts. Unlike `sleep` it is nobody's
   * wait: a clock that jumps never jumps to it, since the work it guards decides what comes next.
   */
  alarm(ms: number, signal?: AbortSignal): Promise<void>
  /**
   * A time limit on one call to the network: `signal` aborts after `ms`. `end()` says the call
   * has its answer (a clock that jumps must not jump past a call still being answered).
   */
  limit(ms: number): TimeLimit
}

export interface TimeLimit {
  readonly signal: AbortSignal
  end(): void
}

// Timers cannot wait longer than about 24.8 days (Node fires a longer one at once): such a wait
// ends only by its signal.
const MAX_TIMER_MS = 2 ** 31 - 1

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = ms <= MAX_TIMER_MS ? setTimeout(done, ms) : undefined
    if (signal?.aborted) done()
    else signal?.addEventListener('abort', done, { once: true })
  })
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: wait,
  // Real time does not jump: an alarm is a timer like any wait.
  alarm: wait,
  // Node's own timeout signal, whose timer never holds the process open; nothing to end.
  limit: ms => ({ signal: AbortSignal.timeout(ms), end: () => undefined })
}

/**
 * `wait-timeout` of one run. Unbounded until `limit()` gives it the input's value, counted from the
 * start of the run; a job's wait counts again from the service's answer (`restartFrom`).
 */
export class Deadline {
  /** When the run started (ms since the epoch, on this clock). */
  readonly startedAt: number
  private from: number
  private limitMs = Infinity

  constructor(readonly clock: Clock = systemClock) {
    this.startedAt = clock.now()
    this.from = this.startedAt
  }

  /** A deadline `limitMs` after now: for tests and tools that need one alone. */
  static after(limitMs: number, clock: Clock = systemClock): Deadline {
    const d = new Deadline(clock)
    d.limit(limitMs)
    return d
  }

  /** The limit (`wait-timeout`), once the settings say it. */
  limit(limitMs: number): void {
    this.limitMs = limitMs
  }

  /** A job's wait is counted from the service's answer to the instruction (contract). */
  restartFrom(at: number): void {
    this.from = at
  }

  now(): number {
    return this.clock.now()
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(Math.max(0, ms), signal)
  }

  /**
   * Resolves when the deadline passes (never while it is unbounded), or at once when `signal`
   * aborts: the clock's alarm, for work under way when time runs out.
   */
  passing(signal: AbortSignal): Promise<void> {
    return this.clock.alarm(this.left(), signal)
  }

  /** Milliseconds left, never below 0; Infinity while unbounded. */
  left(): number {
    return Math.max(0, this.from + this.limitMs - this.now())
  }

  passed(): boolean {
    return this.left() === 0
  }

  /** False when a wait of `ms` from now would reach the deadline. */
  allows(ms: number): boolean {
    return ms < this.left()
  }

  /** A time limit for one call: `maxMs`, or what is left when that is less, but at least `minMs`. */
  clamp(maxMs: number, minMs = 0): number {
    return Math.max(minMs, Math.min(maxMs, this.left()))
  }

  /** That time limit, on this clock: the call ends it when it settles. */
  limitCall(maxMs: number, minMs = 0): TimeLimit & { ms: number } {
    const ms = this.clamp(maxMs, minMs)
    return { ...this.clock.limit(ms), ms }
  }

  /** Milliseconds since `since` (default: the start of the run), on this clock. */
  elapsed(since = this.startedAt): number {
    return this.now() - since
  }

  /** Throws the one "time is up" error when the deadline has passed. */
  check(waitingFor: string): void {
    if (this.passed()) throw this.error(waitingFor)
  }

  /** The one "time is up" error: what the run was waiting for, why it had not come, how far a read got. */
  error(waitingFor: string, cause?: unknown, read?: ReadSoFar): TimeUpError {
    return new TimeUpError(waitingFor, cause, read)
  }
}

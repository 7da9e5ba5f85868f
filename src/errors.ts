// What every room shares about failure: the one way to turn anything thrown into a message, the
// one deadline of a run, and the one error that says the time allowed ran out.

/** A thrown value as the text a user reads: no stack trace, ever. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * The run's one deadline (`wait-timeout`), built once by the command and handed to every loop.
 * `what` says what the limit is, for the error: "`wait-timeout` (30 s, counted from the start
 * of the run)".
 */
export class Deadline {
  constructor(
    /** Epoch ms; Infinity for none. */
    readonly at: number,
    readonly what: string = '`wait-timeout`',
    private readonly now: () => number = Date.now
  ) {}

  /** Milliseconds left, never below 0. */
  left(): number {
    return Math.max(0, this.at - this.now())
  }

  passed(): boolean {
    return this.now() >= this.at
  }

  /** Throws the one "time is up" error when the deadline has passed. */
  check(waitingFor: string): void {
    if (this.passed()) throw this.error(waitingFor)
  }

  error(waitingFor: string, cause?: unknown): TimeUpError {
    return new TimeUpError(this.what, waitingFor, cause)
  }
}

/** The time allowed ran out; the message says which limit, and what the run was waiting for. */
export class TimeUpError extends Error {
  constructor(
    readonly limit: string,
    /** What the run was waiting for or about to start: "the next page (offset 500)". */
    readonly waitingFor: string,
    /** Why that had not come, when it failed on its own (a 429, a timeout). */
    override readonly cause?: unknown
  ) {
    const why = cause === undefined ? '' : `; it had failed: ${messageOf(cause).replace(/\.$/, '')}`
    super(`The time allowed (${limit}) ran out while waiting for ${waitingFor}${why}.`)
    this.name = 'TimeUpError'
  }
}

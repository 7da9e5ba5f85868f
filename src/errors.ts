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
    return new TimeUpError(waitingFor, cause, undefined, this.what)
  }
}

/**
 * The deadline of a command that `wait-timeout` bounds from the start of the run (`visitors`,
 * `report`); a job's wait is counted from the service's answer instead.
 */
export function runDeadline(startedAt: number, waitTimeoutMs: number): Deadline {
  const seconds = Math.round(waitTimeoutMs / 100) / 10
  const what = `\`wait-timeout\` (${seconds} s, counted from the start of the run)`
  return new Deadline(startedAt + waitTimeoutMs, what)
}

/** How far a read had got when its time ran out. */
export interface ReadSoFar {
  rows: number
  pages: number
}

/**
 * The one "time is up" error: the time allowed ran out. Its message says which limit, and what
 * the run was waiting for (and, for a read, how far it had got).
 */
export class TimeUpError extends Error {
  constructor(
    /** What the run was waiting for or about to start: "the next page (offset 500)". */
    readonly waitingFor: string,
    /** Why that had not come, when it failed on its own (a 429, a timeout). */
    override readonly cause?: unknown,
    readonly read?: ReadSoFar,
    readonly limit = '`wait-timeout`'
  ) {
    const why = cause === undefined ? '' : `; it had failed: ${messageOf(cause).replace(/\.$/, '')}`
    const got = read ? ` after reading ${read.rows} rows (${read.pages} pages)` : ''
    super(`The time allowed (${limit}) ran out${got} while waiting for ${waitingFor}${why}.`)
    this.name = 'TimeUpError'
  }
}

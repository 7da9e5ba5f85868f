// What every room shares about failure: the one way to turn anything thrown into a message, the
// one error that names an input and what it accepts (settings/ throws it; the workspace and proxy
// rules too), and the one error that says the time allowed ran out (the deadline is deadline.ts).

/** A thrown value as the text a user reads: no stack trace, ever. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
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

/** Bad input: names the input and the form it accepts, so the reader of the log knows what to fix. */
export class InputError extends Error {
  constructor(
    readonly input: string,
    problem: string
  ) {
    super(`Input \`${input}\`: ${problem}`)
    this.name = 'InputError'
  }
}

/** A value as the error shows it: quoted, and clipped so a huge input cannot flood the log. */
export function quote(value: string): string {
  const max = 80
  return value.length <= max
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`
}

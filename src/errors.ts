// What every room shares about failure: the one way to turn anything thrown into a message, the
// one error that names an input and what it accepts (settings/ throws it; the workspace and proxy
// rules too), the one error that says the time allowed ran out (the deadline is deadline.ts), and
// what a known cause of failure is as data (causes.ts decides it; every room words it).

/** A thrown value as the text a user reads: no stack trace, ever. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** A sentence of ours as a clause: "The proxy…" → "the proxy…" (a name in capitals stays). */
export function asClause(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

/** A message ending its sentence, before another one follows. */
export function withStop(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text : `${text}.`
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

/**
 * Who can fix a cause: whoever keeps this workflow (its secrets, inputs, variables and
 * `permissions:`), the network's administrators (a proxy that will not let the run through), or
 * nobody: it passes, and a re-run is the fix.
 */
export type Fixer = 'workflow' | 'network' | 'rerun'

/**
 * A cause of failure the run knows, decided once (causes.ts) from the error it ended with, and
 * worded from this in the log, the answer on GitHub, the code pull request's comment and the
 * report's issue: what went wrong, who fixes it, what to change, whether a re-run can help.
 */
export interface RunCause {
  kind:
    | 'key-expired'
    | 'key-scope'
    | 'key-refused'
    | 'project'
    | 'job'
    | 'address'
    | 'network'
    | 'github-token'
    | 'notify-token'
    | 'issue'
    | 'budget'
    | 'passing'
  /** What went wrong, a clause in plain words (names in backticks only): "the service refused the API key (401)". */
  what: string
  /** What to change, a clause of ours (Markdown: inputs as code), without "then re-run". */
  fix: string
  fixer: Fixer
  /** Running the same again can help: a 5xx, a 429, a time-out, a dropped connection. */
  retry: boolean
}

/**
 * Who fixes it, as the subject of a sentence: "this workflow's maintainers" (on a code pull
 * request, `codeSide`: "the maintainers of the docs workflow in octo/docs"), "the network's
 * administrators (the proxy's)"; undefined for a cause that passes.
 */
export function whoFixes(fixer: Fixer, codeSide?: string): string | undefined {
  if (fixer === 'network') return "the network's administrators (the proxy's)"
  if (fixer === 'rerun') return undefined
  return codeSide === undefined
    ? "this workflow's maintainers"
    : `the maintainers of the docs workflow in ${codeSide}`
}

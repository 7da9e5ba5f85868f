// Failures of the documentation service as data: the status, the service's own words, and for an
// instruction whether it was delivered. Callers branch on these fields, never on the message,
// which is written for the person reading the log.
import { STATUS_CODES } from 'node:http'
import { asClause, TimeUpError } from '../errors.js'
import { causeFix, causeWords, type NetworkCause } from '../network.js'
import { oneLine } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import { mayHaveBeenDelivered, type Outcome } from './retry.js'
import { addressSetting, statusHint } from './hints.js'
import { sentenceStart } from './operations.js'

/** Was the instruction (a POST) taken by the service? `no` for every GET. */
export type Delivery = 'no' | 'maybe' | 'yes'

/** A request that failed for good; `message` is written for the person reading the log. */
export class ServiceError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the service answered: callers tell transient failures by it. */
    readonly status?: number,
    /**
     * The status and the service's own words ("403 Forbidden: …"), without the request or our
     * advice: a caller whose situation the generic hint misreads says its own.
     */
    readonly serviceText?: string,
    readonly delivery: Delivery = 'no',
    /**
     * For readers of a comment: what went wrong without the request (no API path), and the
     * action's advice for it apart (Markdown: inputs as code).
     */
    readonly forReaders: { problem?: string; hint?: string } = {},
    /**
     * The client stopped because the run's time (`wait-timeout`) left no room for another attempt
     * or the wait before it: a reader whose time is up reports the run's time-up, with this as why.
     */
    readonly timeUp = false,
    /** No answer came, for this cause (a proxy's refusal, TLS, an address nobody answers on). */
    readonly network?: NetworkCause
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

/**
 * A 429 asked to wait past the deadline or past the longest wait allowed: the run must stop and
 * send nothing else, since every further request spends the same exhausted quota.
 */
export class RateLimitError extends ServiceError {
  constructor(
    message: string,
    /** When the service said the limit resets. */
    readonly resetAt: Date,
    /** False when the service did not say (a 429 without Retry-After): within the hour. */
    readonly resetKnown = true
  ) {
    super(message, 429)
    this.name = 'RateLimitError'
  }
}

/**
 * `max-requests` is spent: the next request would pass it, so it was not sent. Like the quota,
 * it ends every reading at once: each later request would be refused the same way.
 */
export class BudgetError extends Error {
  constructor(
    readonly maxRequests: number,
    /** The request that was not sent, in words (operations.ts). */
    readonly request: string
  ) {
    super(
      `${sentenceStart(request)}: not sent, as this run may send at most ${maxRequests} ` +
        'requests to the service (`max-requests`), and has sent them all'
    )
    this.name = 'BudgetError'
  }
}

/** The caller's AbortSignal ended the request; it is never retried. */
export class RequestCancelledError extends Error {
  constructor(request: string) {
    super(`${request} was cancelled`)
    this.name = 'AbortError'
  }
}

/** Whether `err` says the run's time ran out: the one TimeUpError, or a call given up for it. */
export function isTimeUp(err: unknown): boolean {
  return err instanceof TimeUpError || (err instanceof ServiceError && err.timeUp)
}

/**
 * Why a reader whose page said its time ran out had no page: the failure the client gave up on
 * (a 503, no answer in time); nothing more for a bare time-up (a request it did not send).
 */
export function timeUpCause(err: unknown): unknown {
  return err instanceof TimeUpError ? err.cause : err
}

/** " Not Found" for 404: the reason phrase, with its leading space, or nothing. */
export function reason(status: number): string {
  const phrase = STATUS_CODES[status]
  return phrase ? ` ${phrase}` : ''
}

/** What an attempt that failed left to say: its outcome, and why in words (already redacted). */
export interface FailedAttempt {
  outcome: Outcome
  why: string
  /** Why no answer came, when the errors show it (`why` says it in words). */
  network?: NetworkCause
}

/**
 * Why the client gave up before its attempts ran out: the run's time left no room for the next
 * attempt, or for the wait the service asked for first (`Retry-After`, in ms).
 */
export type GaveUp = { time: true } | { retryAfterMs: number }

function gaveUpWords(gaveUp: GaveUp): string {
  return 'retryAfterMs' in gaveUp
    ? `the service asked to wait ${seconds(gaveUp.retryAfterMs)} (Retry-After)`
    : 'the time allowed (`wait-timeout`) ran out'
}

/**
 * The error a request ends with after `attempts` tries: the request, why, our hint for the
 * status, and for a POST whether the instruction may have been delivered (`delivery`).
 */
export function requestFailure(
  request: string,
  failed: FailedAttempt,
  attempts: number,
  method: 'GET' | 'POST',
  gaveUp?: GaveUp,
  /**
   * The request in words (operations.ts: the message is read on the run's page), and the
   * service's address, for what a network cause asks to check.
   */
  about: { operation?: string; baseUrl?: string } = {}
): ServiceError {
  const operation = about.operation ?? request
  // The service's words (an error text, a value a check quoted) cleaned as text from the public:
  // nothing hidden reaches a log line, an annotation or a comment.
  failed = { ...failed, why: oneLine(failed.why) }
  const { outcome } = failed
  const status = outcome.kind === 'network' ? undefined : outcome.status
  const tries = attempts > 1 ? ` after ${attempts} attempts` : ''
  let message =
    outcome.kind === 'malformed'
      ? `Unexpected response (HTTP ${status ?? '?'}) while ${operation}${tries}: ${failed.why}`
      : `${sentenceStart(operation)} failed${tries}: ${failed.why}`
  if (gaveUp) message += `; gave up because ${gaveUpWords(gaveUp)}`
  const hint =
    status !== undefined && outcome.kind === 'answer'
      ? statusHint(status, failed.why, request)
      : failed.network
        ? asClause(causeFix(failed.network, addressSetting(about.baseUrl)))
        : undefined
  if (hint) message += ` (${hint})`
  // Whether the instruction arrived is a field: whoever reports the failure says it in words.
  const maybe = method === 'POST' && mayHaveBeenDelivered(outcome)
  const said = outcome.kind === 'answer' ? redact(failed.why) : undefined
  return new ServiceError(
    redact(message),
    status,
    said,
    maybe ? 'maybe' : 'no',
    {
      problem: redact(readersProblem(failed, tries)),
      ...(hint && (outcome.kind === 'answer' || failed.network) ? { hint } : {}),
      ...(outcome.kind === 'redirect'
        ? { hint: 'redirects are not followed: check `base-url`' }
        : {})
    },
    gaveUp !== undefined,
    failed.network
  )
}

/**
 * A request not sent: an earlier one found that the run cannot reach the service (a proxy's
 * refusal, nobody at its address), and this one would end the same way. Said without a request.
 */
export class NotReachedError extends ServiceError {
  constructor(operation: string, network: NetworkCause) {
    const why = `not reached: ${causeWords(network)}`
    super(
      `${sentenceStart(operation)}: not sent, ${why}`,
      undefined,
      undefined,
      'no',
      { problem: why },
      false,
      network
    )
    this.name = 'NotReachedError'
  }
}

/** What went wrong, for a comment's reader: no request, no redirect target. */
function readersProblem(failed: FailedAttempt, tries: string): string {
  const { outcome } = failed
  if (outcome.kind === 'redirect') return `${outcome.status}${reason(outcome.status)}${tries}`
  if (outcome.kind === 'malformed')
    return `unexpected response (HTTP ${outcome.status ?? '?'})${tries}: ${failed.why}`
  return `${failed.why}${tries}`
}

/**
 * "404 Not Found: <the service's error text> (<details>)", from an error body: JSON with `error`
 * or `message` and `details`, or plain text (the service answers a 429 that way). Redacted
 * before it is clipped, so a clip can never leave part of a secret that redaction would have
 * recognised whole.
 */
export function statusWhy(status: number, text: string): string {
  let said: string
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; details?: unknown }
    const main =
      typeof body.error === 'string'
        ? body.error
        : typeof body.message === 'string'
          ? body.message
          : ''
    const details = Array.isArray(body.details)
      ? (body.details as unknown[])
          .slice(0, 20)
          .map(d => (typeof d === 'object' && d && 'message' in d ? String(d.message) : ''))
          .filter(Boolean)
      : []
    said = [main, details.length ? `(${details.join('; ')})` : ''].filter(Boolean).join(' ')
  } catch {
    said = text.trim().startsWith('<') ? '' : text.trim()
  }
  // Cleaned as text from the public: nothing hidden reaches a log line, an annotation or a reader.
  said = oneLine(redact(said))
  if (said.length > 500) said = `${said.slice(0, 500)}…`
  return `${status}${reason(status)}${said ? `: ${said}` : ''}`
}

/** Milliseconds as the log says them. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}

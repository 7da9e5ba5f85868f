// The documentation service's one request loop: Bearer auth, retries with backoff, Retry-After,
// the run's deadline, the rate-limit stop, and the count of what the run spent. One attempt on
// the wire is http.ts; failures as data are errors.ts; the operations are agent-api.ts and
// analytics.ts. No stack trace ever reaches a user.
import { HttpClient } from '@actions/http-client'
import type { Deadline } from '../deadline.js'
import type { ProxyChoice } from '../proxy.js'
import { isFinal } from '../network.js'
import { Agents } from './agents.js'
import { messageOf, TimeUpError } from '../errors.js'
import {
  BudgetError,
  NotReachedError,
  RateLimitError,
  RequestCancelledError,
  requestFailure,
  ServiceError,
  seconds,
  type FailedAttempt,
  type GaveUp
} from './errors.js'
import { publicText } from '../public-text.js'
import { attempt, type Answered, type Attempt, type Check, type Method } from './http.js'
import { operationOf, sentenceStart } from './operations.js'
import { backoffDelay, isRetryable, parseRetryAfter } from './retry.js'

export type { Answered, Check } from './http.js'

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  userAgent: string
  /** Longest time for one attempt, answer and body included. */
  requestTimeoutMs?: number
  retryBaseMs?: number
  retryCapMs?: number
  maxAttempts?: number
  /** Longest Retry-After a 429 may ask for before the run stops instead of waiting. */
  maxRateLimitWaitMs?: number
  /**
   * The waits before each retry of a 429 that names no Retry-After (as the real service answers):
   * two, about a minute in all; a third such 429 ends the run.
   */
  quotaRetryWaitsMs?: number[]
  /** The most requests this run may send (`max-requests`); 0 for no cap. */
  maxRequests?: number
  /** The run's deadline and clock: no attempt starts after it; retries wait on its clock. */
  deadline: Deadline
  /** The proxy requests to `baseUrl` go through, or why not (proxy.ts decided). */
  proxy?: ProxyChoice
  debug?: (line: string) => void
  info?: (line: string) => void
  /** What an answer's check noticed and lived with (each text once). */
  warn?: (line: string) => void
  random?: () => number
}

export interface CallOptions<T> {
  method: Method
  /** Relative to `base-url`, query included, segments already encoded. */
  path: string
  body?: string
  check: Check<T>
  maxAttempts?: number
  /** Aborting it ends the request at once with RequestCancelledError, never retried. */
  signal?: AbortSignal
  /** Statuses that end the call at once, unretried: the caller answers them itself. */
  noRetry?: readonly number[]
  /** Told of every answer (its status and rate-limit headers): the set-up check's profile. */
  onAnswer?: (answer: Answered) => void
}

/** Options of a GET made through getJson. */
export type GetOptions = Pick<
  CallOptions<unknown>,
  'signal' | 'noRetry' | 'onAnswer' | 'maxAttempts'
>

/** A call's attempts so far, and what it is called in the log and in words. */
interface Retrying {
  request: string
  operation: string
  maxAttempts: number
  /** 429s without Retry-After retried so far. */
  quotaRetries: number
  last?: FailedAttempt
}

type Failed = Extract<Attempt<unknown>, { ok: false }>

/** A POST is sent at most this many times in all (only ever retried where it was not taken). */
const MAX_POST_ATTEMPTS = 3
/** A request path in a log or error line: a hostile cursor must not make every line huge. */
const MAX_REQUEST_CHARS = 300

export class ServiceClient {
  private readonly http: HttpClient
  private readonly postHttp: HttpClient
  private readonly agents: Agents
  private readonly postAgents: Agents
  private readonly o: Required<Omit<ClientOptions, 'debug' | 'info' | 'warn' | 'proxy'>> &
    Pick<ClientOptions, 'debug' | 'info' | 'warn' | 'proxy'>
  private readonly warned = new Set<string>()
  private sent = 0
  /** Requests let through the `max-requests` check that have not yet connected (or given up). */
  private reserved = 0
  private rateLimited: RateLimitError | undefined
  /** A request that could not reach the service for a cause a moment does not change. */
  private unreached: ServiceError | undefined
  private halted = false
  private readonly haltController = new AbortController()

  constructor(options: ClientOptions) {
    this.o = {
      requestTimeoutMs: 30_000,
      retryBaseMs: 1_000,
      retryCapMs: 30_000,
      maxAttempts: 5,
      maxRateLimitWaitMs: 10 * 60_000,
      quotaRetryWaitsMs: [20_000, 40_000],
      maxRequests: 0,
      random: Math.random,
      ...options
    }
    // Redirects are never followed: a hop could take the key to another origin, or re-send the
    // follow-up. Requests go through requestRaw, which follows none anyway; this says it twice.
    const common = {
      allowRetries: false,
      maxRetries: 0,
      allowRedirects: false,
      socketTimeout: this.o.requestTimeoutMs
    }
    // GETs share kept-alive connections (an export makes many); the POST always opens a fresh
    // one, so a stale pooled socket can never turn into a "may have been delivered" reset.
    this.http = new HttpClient(options.userAgent, [], { ...common, keepAlive: true })
    this.postHttp = new HttpClient(options.userAgent, [], { ...common, keepAlive: false })
    this.agents = new Agents(options.proxy ?? {}, true)
    this.postAgents = new Agents(options.proxy ?? {}, false)
  }

  /**
   * Requests sent to the service so far, retries included: what the run spent of its quota.
   * An attempt whose connection was refused never reached it and is not counted.
   */
  get requests(): number {
    return this.sent
  }

  /**
   * Sends nothing more: a cancelled run publishes what it spent, and no request may leave after
   * that count (one already on its way was counted as it left).
   */
  halt(): void {
    this.halted = true
    // Requests still connecting are abandoned: once the count is published, none may reach the
    // service uncounted.
    this.haltController.abort()
  }

  dispose(): void {
    this.http.dispose()
    this.postHttp.dispose()
    this.agents.dispose()
    this.postAgents.dispose()
  }

  /** GET `path` with the usual retries; what `check` makes of the JSON answer. */
  async getJson<T>(path: string, check: Check<T>, o: GetOptions = {}): Promise<T> {
    return this.call({ method: 'GET', path, check, ...o })
  }

  async call<T>(c: CallOptions<T>): Promise<T> {
    const request = publicText(
      `${c.method} ${new URL(this.o.baseUrl).pathname.replace(/\/$/, '')}${c.path}`,
      MAX_REQUEST_CHARS
    )
    try {
      return await this.attempts(c, request, operationOf(c.method, c.path))
    } catch (err) {
      // The run page's annotations name the operation in words; the log keeps the request.
      if (err instanceof ServiceError || err instanceof BudgetError || err instanceof TimeUpError)
        this.o.info?.(`${request}: ${messageOf(err)}`)
      throw err
    }
  }

  private async attempts<T>(c: CallOptions<T>, request: string, operation: string): Promise<T> {
    // An instruction is sent at most 3 times in all, and only where it was certainly not taken.
    const maxAttempts = Math.min(
      c.maxAttempts ?? this.o.maxAttempts,
      c.method === 'POST' ? MAX_POST_ATTEMPTS : Infinity
    )
    const retry: Retrying = { request, operation, maxAttempts, quotaRetries: 0 }
    for (let tries = 1; ; tries++) {
      this.mayStart(c, retry, tries)
      const result = await this.send(c)
      if (result.ok) {
        for (const note of result.notes) this.warnOnce(note)
        return result.value
      }
      if (c.signal?.aborted || this.halted) throw new RequestCancelledError(request)
      retry.last = result
      const wait = this.retryWait(c, retry, result, tries)
      const { outcome } = result
      this.o.info?.(
        `${request}: ${outcome.kind === 'malformed' ? `unexpected response (HTTP ${outcome.status}): ` : ''}${result.why}; retrying in ${seconds(wait)} (attempt ${tries + 1} of ${maxAttempts})`
      )
      await sleepUnlessAborted(this.o.deadline.sleep(wait, c.signal), c.signal)
    }
  }

  /** Throws when attempt `tries` may not start: the quota, a cancel, `max-requests`, the time. */
  private mayStart<T>(c: CallOptions<T>, retry: Retrying, tries: number): void {
    if (this.rateLimited) throw this.rateLimited
    // A proxy that refused, or nobody at its address: this request would end the same way.
    if (this.unreached?.network) throw new NotReachedError(retry.operation, this.unreached.network)
    if (c.signal?.aborted || this.halted) throw new RequestCancelledError(retry.request)
    // Reserved here, not counted once connected: pages in flight at once each pass this check
    // before any of them connects, and together they must stay within the cap.
    if (this.o.maxRequests > 0 && this.sent + this.reserved >= this.o.maxRequests)
      throw new BudgetError(this.o.maxRequests, retry.operation)
    if (!this.o.deadline.passed()) return
    if (retry.last) throw this.failure(c, retry, retry.last, tries - 1, { time: true })
    throw this.o.deadline.error(`${retry.operation} to start: it was not sent`)
  }

  /** One attempt on the wire, its place within `max-requests` held until it connects or ends. */
  private async send<T>(c: CallOptions<T>): Promise<Attempt<T>> {
    const { deadline } = this.o
    const signal = c.signal
      ? AbortSignal.any([c.signal, this.haltController.signal])
      : this.haltController.signal
    this.reserved++
    // The place is given back once: when the request connects (it is counted instead), or when
    // the attempt ends without connecting (a socket that connects after that still counts).
    let held = true
    const release = (): void => {
      if (held) this.reserved--
      held = false
    }
    return attempt({
      client: c.method === 'POST' ? this.postHttp : this.http,
      agents: c.method === 'POST' ? this.postAgents : this.agents,
      ...{ baseUrl: this.o.baseUrl, apiKey: this.o.apiKey, userAgent: this.o.userAgent },
      ...{ method: c.method, path: c.path, body: c.body, check: c.check },
      // Each attempt gets the usual limit, or what is left of the run's time if that is less.
      limit: deadline.limitCall(this.o.requestTimeoutMs, 1_000),
      signal,
      count: () => {
        release()
        this.sent++
      },
      onAnswer: c.onAnswer,
      debug: this.o.debug,
      now: () => deadline.now()
    }).finally(release)
  }

  /**
   * How long to wait before the next attempt; throws when there is none: the failure is final,
   * the attempts are spent, the rate limit stops the run, or the run's time leaves no room.
   */
  private retryWait<T>(c: CallOptions<T>, retry: Retrying, result: Failed, tries: number): number {
    const { deadline } = this.o
    const { outcome } = result
    const is429 = outcome.kind === 'answer' && outcome.status === 429
    const asked =
      outcome.kind === 'answer' ? parseRetryAfter(outcome.retryAfter, deadline.now()) : undefined
    if (is429 && asked !== undefined) {
      const tooLong =
        asked > this.o.maxRateLimitWaitMs
          ? `more than ${seconds(this.o.maxRateLimitWaitMs)}`
          : !deadline.allows(asked)
            ? 'past `wait-timeout`'
            : undefined
      if (tooLong) throw this.stopForRateLimit(retry.operation, result, asked, tooLong)
    }
    // The real service answers 429 without Retry-After (often as plain text). Its limit is
    // hourly: retry twice within about a minute, then stop rather than spend more of it.
    let quotaWait: number | undefined
    if (is429 && asked === undefined) {
      quotaWait = this.o.quotaRetryWaitsMs[retry.quotaRetries++]
      const spent = quotaWait === undefined || !deadline.allows(quotaWait)
      if (spent) throw this.stopForSpentQuota(retry.operation, result)
    }
    const answeredItself = outcome.kind === 'answer' && c.noRetry?.includes(outcome.status)
    // Said at once: a proxy's refusal (407, 403, 405) or nobody at its address is no moment's fault.
    if (result.network && isFinal(result.network))
      throw (this.unreached = this.failure(c, retry, result, tries))
    if (!isRetryable(c.method, outcome) || tries >= retry.maxAttempts || answeredItself)
      throw this.failure(c, retry, result, tries)
    const wait =
      asked ??
      quotaWait ??
      backoffDelay(tries, this.o.retryBaseMs, this.o.retryCapMs, this.o.random)
    if (deadline.allows(wait)) return wait
    throw this.failure(c, retry, result, tries, asked ?? { time: true })
  }

  private failure<T>(
    c: CallOptions<T>,
    retry: Retrying,
    failed: FailedAttempt,
    tries: number,
    gaveUp?: GaveUp | number
  ): ServiceError {
    const why = typeof gaveUp === 'number' ? { retryAfterMs: gaveUp } : gaveUp
    return requestFailure(retry.request, failed, tries, c.method, why, {
      operation: retry.operation,
      baseUrl: this.o.baseUrl
    })
  }

  private warnOnce(line: string): void {
    if (this.warned.has(line)) return
    this.warned.add(line)
    this.o.warn?.(line)
  }

  /** A 429 without Retry-After that persisted: the hourly limit is spent. */
  private stopForSpentQuota(operation: string, result: FailedAttempt): RateLimitError {
    const resetAt = new Date(this.o.deadline.now() + 3_600_000)
    this.rateLimited = new RateLimitError(
      `${sentenceStart(operation)} failed: ${result.why.replace(/\.$/, '')}. The service's hourly limit is spent (it said so without ` +
        'a Retry-After, and retrying did not help), so the run stops here and sends nothing ' +
        'more. Run it again within the hour, once the limit has reset.',
      resetAt,
      false
    )
    return this.rateLimited
  }

  private stopForRateLimit(
    operation: string,
    result: FailedAttempt,
    askedMs: number,
    tooLong: string
  ): RateLimitError {
    const resetAt = new Date(this.o.deadline.now() + askedMs)
    const when = `${resetAt.toISOString().slice(0, 19).replace('T', ' ')} UTC`
    this.rateLimited = new RateLimitError(
      `${sentenceStart(operation)} failed: ${result.why.replace(/\.$/, '')}. The rate limit resets at ${when}: the service asked to ` +
        `wait ${seconds(askedMs)} (Retry-After), ${tooLong}, so the run stops here and sends ` +
        'nothing more. Run it again after that time.',
      resetAt
    )
    return this.rateLimited
  }
}

/** A path segment: ids may hold spaces and slashes. */
export function enc(segment: string): string {
  return encodeURIComponent(segment)
}

async function sleepUnlessAborted(sleeping: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleeping
  let onAbort: (() => void) | undefined
  const aborted = new Promise<void>(resolve => {
    onAbort = resolve
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    await Promise.race([sleeping, aborted])
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}

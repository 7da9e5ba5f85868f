// The documentation service: base URL, Bearer auth, JSON in and out, retries, and errors that
// carry the request, the status and the service's own words. No stack trace ever reaches a user.
//
// The service and the network are untrusted: no redirect is ever followed (the key goes to the
// `base-url` origin and nowhere else), bodies are read up to a cap, every text that comes back
// passes redact() before anyone sees it, and no request starts once the deadline has passed or
// after a 429 that asked to wait longer than the run may.
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { HttpClient } from '@actions/http-client'
import type { RequestInfo } from '@actions/http-client/lib/interfaces'
import { redact, redactParsed } from '../secrets.js'
import {
  backoffDelay,
  isRetryable,
  mayHaveBeenDelivered,
  networkCode,
  parseRetryAfter,
  type Outcome
} from './retry.js'
import {
  checkAgentJob,
  checkVisitorsPage,
  parseJson,
  ShapeError,
  type AgentJob,
  type Note,
  type VisitorsPage
} from './schema.js'

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
  debug?: (line: string) => void
  info?: (line: string) => void
  /** What an answer's check noticed and lived with (each text once). */
  warn?: (line: string) => void
  /** Waits `ms`; may end early when `signal` aborts (the client does not rely on it). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  now?: () => number
  random?: () => number
}

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
    readonly serviceText?: string
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

/**
 * A 429 asked to wait past the deadline or past `maxRateLimitWaitMs`: the run must stop and
 * send nothing else, since every further request spends the same exhausted quota.
 */
export class RateLimitError extends ServiceError {
  constructor(
    message: string,
    /** When the service said the limit resets. */
    readonly resetAt: Date
  ) {
    super(message, 429)
    this.name = 'RateLimitError'
  }
}

/** The caller's AbortSignal ended the request; it is never retried. */
export class RequestCancelledError extends Error {
  constructor(request: string) {
    super(`${request} was cancelled`)
    this.name = 'AbortError'
  }
}

export interface VisitorsQuery {
  dateFrom?: string
  dateTo?: string
  limit: number
  offset: number
}

/** Checks a parsed answer and returns what the caller relies on; `note` collects warnings. */
export type Check<T> = (json: unknown, note: Note) => T

type Method = 'GET' | 'POST'
type Failed = { ok: false; outcome: Outcome; why: string }
type Attempt<T> = { ok: true; value: T; status: number } | Failed

const MAX_BODY_BYTES = 16 * 1024 * 1024
/** An error body is read for its message only; a hostile one cannot make the run read more. */
const MAX_ERROR_BODY_BYTES = 64 * 1024
const MAX_LOCATION_CHARS = 200
const STATUS_HINTS: Record<number, string> = {
  401: 'check `api-key`: it must be an admin API key (`mint_…`) of this organisation, not expired or revoked',
  403:
    'the API key is not allowed to do this: a read-only key cannot send or create jobs; an IP ' +
    'allowlist on the key refuses GitHub-hosted runners (their addresses change: use a ' +
    'self-hosted runner with a fixed address, or lift the allowlist); and check `project-id`',
  404: 'check `project-id` and `job-id` (and `job-path`, `base-url`)',
  429: 'the service rate limit was reached (about 100 requests per hour); try again later'
}

export class ServiceClient {
  private readonly http: HttpClient
  private readonly postHttp: HttpClient
  private readonly o: Required<Omit<ClientOptions, 'debug' | 'info' | 'warn'>> &
    Pick<ClientOptions, 'debug' | 'info' | 'warn'>
  private readonly warned = new Set<string>()
  private sent = 0
  private rateLimited: RateLimitError | undefined

  constructor(options: ClientOptions) {
    this.o = {
      requestTimeoutMs: 30_000,
      retryBaseMs: 1_000,
      retryCapMs: 30_000,
      maxAttempts: 5,
      maxRateLimitWaitMs: 10 * 60_000,
      sleep: abortableSleep,
      now: () => Date.now(),
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
  }

  /**
   * Requests sent to the service so far, retries included: what the run spent of its quota.
   * An attempt whose connection was refused never reached it and is not counted.
   */
  get requests(): number {
    return this.sent
  }

  dispose(): void {
    this.http.dispose()
    this.postHttp.dispose()
  }

  /** Sends the follow-up; never twice. Resolves to the job if the answer was one. */
  async sendMessage(
    projectId: string,
    jobId: string,
    prompt: string,
    deadline: number
  ): Promise<AgentJob | undefined> {
    const path = `/v2/agent/${enc(projectId)}/job/${enc(jobId)}/message`
    try {
      return await this.call('POST', path, JSON.stringify({ prompt }), checkAgentJob, deadline)
    } catch (err) {
      // A 2xx with an odd body still means the service took the message: say so, do not fail.
      if (err instanceof ServiceError && err.status !== undefined && err.status < 300) {
        this.o.info?.(`The service took the follow-up; its answer was odd: ${err.message}`)
        return undefined
      }
      throw err
    }
  }

  /**
   * Starts a new agent job; never twice. A 2xx whose body names no job still started one, so it
   * is an error that says so, and nothing retries it.
   */
  async createJob(projectId: string, prompt: string, deadline: number): Promise<AgentJob> {
    const path = `/v2/agent/${enc(projectId)}/job`
    try {
      return await this.call('POST', path, JSON.stringify({ prompt }), checkAgentJob, deadline)
    } catch (err) {
      if (err instanceof ServiceError && err.status !== undefined && err.status < 300)
        throw new ServiceError(
          `The service took the instruction and started a job, but its answer was odd: ${err.message}. ` +
            'Find the job among the agent jobs of the project before creating another.',
          err.status
        )
      throw err
    }
  }

  async getJob(path: string, deadline: number, maxAttempts?: number): Promise<AgentJob> {
    return this.call('GET', path, undefined, checkAgentJob, deadline, maxAttempts)
  }

  async getVisitorsPage(
    projectId: string,
    q: VisitorsQuery,
    deadline: number,
    signal?: AbortSignal
  ): Promise<VisitorsPage> {
    const params = new URLSearchParams()
    if (q.dateFrom !== undefined) params.set('dateFrom', q.dateFrom)
    if (q.dateTo !== undefined) params.set('dateTo', q.dateTo)
    params.set('limit', String(q.limit))
    params.set('offset', String(q.offset))
    const path = `/v1/analytics/${enc(projectId)}/visitors?${params.toString()}`
    return this.getJson(path, checkVisitorsPage, deadline, signal)
  }

  /**
   * GET `path` (relative to `base-url`, query included; segments already encoded) with the
   * usual retries, and return what `check` makes of the JSON answer. An aborted `signal`
   * destroys the request at once and rejects with RequestCancelledError, never retried.
   */
  async getJson<T>(
    path: string,
    check: Check<T>,
    deadline: number,
    signal?: AbortSignal
  ): Promise<T> {
    return this.call('GET', path, undefined, check, deadline, this.o.maxAttempts, signal)
  }

  private async call<T>(
    method: Method,
    path: string,
    body: string | undefined,
    check: Check<T>,
    deadline: number,
    maxAttempts = this.o.maxAttempts,
    signal?: AbortSignal
  ): Promise<T> {
    const request = `${method} ${new URL(this.o.baseUrl).pathname.replace(/\/$/, '')}${path}`
    let last: Failed | undefined
    for (let attempt = 1; ; attempt++) {
      if (this.rateLimited) throw this.rateLimited
      if (signal?.aborted) throw new RequestCancelledError(request)
      const left = deadline - this.o.now()
      if (left <= 0) {
        if (last) throw this.failure(request, last, attempt - 1, method, 'the time allowed ran out')
        throw new ServiceError(
          `${request} was not sent: the time allowed (\`wait-timeout\`) had run out`
        )
      }
      // Each attempt gets the usual limit, or what is left of the run's time if that is less.
      const limit = Math.max(1_000, Math.min(this.o.requestTimeoutMs, left))
      const result = await this.attempt(method, path, body, check, limit, signal)
      if (result.ok) return result.value
      if (signal?.aborted) throw new RequestCancelledError(request)
      last = result
      const { outcome } = result
      const asked =
        outcome.kind === 'answer' ? parseRetryAfter(outcome.retryAfter, this.o.now()) : undefined
      if (outcome.kind === 'answer' && outcome.status === 429 && asked !== undefined) {
        const tooLong =
          asked > this.o.maxRateLimitWaitMs
            ? `more than ${seconds(this.o.maxRateLimitWaitMs)}`
            : this.o.now() + asked >= deadline
              ? 'past `wait-timeout`'
              : undefined
        if (tooLong) throw this.stopForRateLimit(request, result, asked, tooLong)
      }
      if (!isRetryable(method, outcome) || attempt >= maxAttempts)
        throw this.failure(request, result, attempt, method)
      const wait =
        asked ?? backoffDelay(attempt, this.o.retryBaseMs, this.o.retryCapMs, this.o.random)
      if (this.o.now() + wait >= deadline) {
        const why =
          asked !== undefined ? `the service asked to wait ${seconds(wait)} (Retry-After)` : ''
        throw this.failure(
          request,
          result,
          attempt,
          method,
          why || 'the time allowed (`wait-timeout`) ran out'
        )
      }
      this.o.info?.(
        `${request}: ${outcome.kind === 'malformed' ? `unexpected response (HTTP ${outcome.status}): ` : ''}${result.why}; retrying in ${seconds(wait)} (attempt ${attempt + 1} of ${maxAttempts})`
      )
      await sleepUnlessAborted(this.o.sleep(wait, signal), signal)
    }
  }

  private async attempt<T>(
    method: Method,
    path: string,
    body: string | undefined,
    check: Check<T>,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<Attempt<T>> {
    const started = this.o.now()
    const client = method === 'POST' ? this.postHttp : this.http
    // One controller ends this attempt, whether its time ran out or the caller gave up.
    const controller = new AbortController()
    const onAbort = (): void => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const elapsed = (): number => this.o.now() - started
    try {
      const info = this.requestInfo(client, method, path, body, controller.signal)
      let msg: IncomingMessage
      // Counted as it leaves, so a request still in flight when the run is cancelled counts too.
      this.sent++
      try {
        msg = (await client.requestRaw(info, body ?? null)).message
      } catch (err) {
        const code = timedOut ? 'timeout' : networkCode(err)
        // A connection never made spent nothing of the quota; any other failure may have.
        if (code === 'refused' || code === 'unreachable') this.sent--
        this.o.debug?.(`${method} ${path} -> ${code} (${elapsed()} ms)`)
        return { ok: false, outcome: { kind: 'network', code }, why: networkWhy(code) }
      }
      const status = msg.statusCode ?? 0
      if (status >= 300 && status < 400) {
        // Not a byte of a redirect's body is read: it is not the answer, and it has no size cap.
        msg.destroy()
        const location = clipText(redact(header(msg, 'location') ?? ''), MAX_LOCATION_CHARS)
        this.o.debug?.(`${method} ${path} -> ${status} (${elapsed()} ms)`)
        return {
          ok: false,
          outcome: { kind: 'redirect', status },
          why: `${status}${reason(status)}${location ? ` to ${location}` : ' (no Location)'}: redirects are not followed (check \`base-url\`)`
        }
      }
      const success = status >= 200 && status < 300
      const retryAfter = header(msg, 'retry-after')
      let text: string
      try {
        text = await readText(msg, success ? MAX_BODY_BYTES : MAX_ERROR_BODY_BYTES, !success)
      } catch (err) {
        this.o.debug?.(`${method} ${path} -> ${status}, body cut off (${elapsed()} ms)`)
        if (!success)
          return { ok: false, outcome: { kind: 'answer', status, retryAfter }, why: `${status}` }
        const why = err instanceof BodyTooLarge ? err.message : 'the body was cut off'
        return { ok: false, outcome: { kind: 'malformed', status }, why }
      }
      this.o.debug?.(`${method} ${path} -> ${status} (${elapsed()} ms)`)
      if (!success) {
        const why = redact(statusWhy(status, text))
        return { ok: false, outcome: { kind: 'answer', status, retryAfter }, why }
      }
      return this.checked(msg, text, status, check)
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** A 2xx body: parsed with a depth limit, cleaned of secrets, then checked. */
  private checked<T>(
    msg: IncomingMessage,
    text: string,
    status: number,
    check: Check<T>
  ): Attempt<T> {
    const notes: string[] = []
    try {
      const value = check(redactParsed(text, parseJson(text)), line => notes.push(line))
      for (const line of notes) this.warnOnce(redact(line))
      return { ok: true, value, status }
    } catch (err) {
      const why =
        err instanceof ShapeError ? redact(err.message) : `not JSON (${describeBody(msg, text)})`
      return { ok: false, outcome: { kind: 'malformed', status }, why }
    }
  }

  /** The options a plain http(s).request needs, with the client's (proxy-aware) agent. */
  private requestInfo(
    client: HttpClient,
    method: Method,
    path: string,
    body: string | undefined,
    signal: AbortSignal
  ): RequestInfo {
    const url = new URL(this.o.baseUrl + path)
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.o.apiKey}`,
      accept: 'application/json',
      'user-agent': this.o.userAgent
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const tls = url.protocol === 'https:'
    return {
      parsedUrl: url,
      httpModule: tls ? https : http,
      options: {
        host: url.hostname,
        port: url.port ? Number(url.port) : tls ? 443 : 80,
        path: url.pathname + url.search,
        method,
        headers,
        agent: client.getAgent(url.href),
        signal
      }
    }
  }

  private warnOnce(line: string): void {
    if (this.warned.has(line)) return
    this.warned.add(line)
    this.o.warn?.(line)
  }

  private stopForRateLimit(
    request: string,
    result: Failed,
    askedMs: number,
    tooLong: string
  ): RateLimitError {
    const resetAt = new Date(this.o.now() + askedMs)
    const when = `${resetAt.toISOString().slice(0, 19).replace('T', ' ')} UTC`
    this.rateLimited = new RateLimitError(
      `${request} failed: ${result.why}. The rate limit resets at ${when}: the service asked to ` +
        `wait ${seconds(askedMs)} (Retry-After), ${tooLong}, so the run stops here and sends ` +
        'nothing more. Run it again after that time.',
      resetAt
    )
    return this.rateLimited
  }

  private failure(
    request: string,
    result: Failed,
    attempts: number,
    method: Method,
    gaveUpBecause?: string
  ): ServiceError {
    const { outcome } = result
    const status = outcome.kind === 'network' ? undefined : outcome.status
    const tries = attempts > 1 ? ` after ${attempts} attempts` : ''
    let message =
      outcome.kind === 'malformed'
        ? `Unexpected response (HTTP ${status ?? '?'}) from ${request}${tries}: ${result.why}`
        : `${request} failed${tries}: ${result.why}`
    if (gaveUpBecause) message += `; gave up because ${gaveUpBecause}`
    const hint = status !== undefined ? STATUS_HINTS[status] : undefined
    if (hint && outcome.kind === 'answer') message += ` (${hint})`
    const maybe = method === 'POST' && mayHaveBeenDelivered(outcome)
    if (maybe) {
      message +=
        '. The instruction may or may not have been delivered: check the job before sending it again.'
    }
    const said = outcome.kind === 'answer' ? redact(result.why) : undefined
    return new ServiceError(redact(message), status, said)
  }
}

/** A path segment: ids may hold spaces and slashes. */
export function enc(segment: string): string {
  return encodeURIComponent(segment)
}

function header(msg: IncomingMessage, name: string): string | undefined {
  const v = msg.headers[name]
  return Array.isArray(v) ? v[0] : v
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}

/** One line of at most `max` characters, control characters removed. */
function clipText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max)}…` : line
}

/** A timer that an abort clears, so a cancelled wait keeps nothing pending. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
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

function networkWhy(code: ReturnType<typeof networkCode>): string {
  switch (code) {
    case 'refused':
      return 'the connection was refused'
    case 'unreachable':
      return 'the host could not be reached'
    case 'reset':
      return 'the connection was reset before an answer came'
    case 'timeout':
      return 'no answer in time'
    default:
      return 'a network error'
  }
}

/** "404 Not Found: <the service's error text> (<details>)" */
function statusWhy(status: number, text: string): string {
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
  said = said.replace(/\s+/g, ' ').slice(0, 500)
  return `${status}${reason(status)}${said ? `: ${said}` : ''}`
}

function reason(status: number): string {
  const names: Record<number, string> = {
    301: 'Moved Permanently',
    302: 'Found',
    303: 'See Other',
    307: 'Temporary Redirect',
    308: 'Permanent Redirect',
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout'
  }
  return names[status] ? ` ${names[status]}` : ''
}

function describeBody(msg: IncomingMessage, text: string): string {
  const type = clipText(redact(header(msg, 'content-type') ?? 'no content type'), 100)
  return text.trim() === '' ? `empty body, ${type}` : type
}

class BodyTooLarge extends Error {
  constructor(max: number) {
    super(`the body is larger than ${max / 1024 / 1024} MiB`)
  }
}

/**
 * The body as text, at most `maxBytes`. Past that, a 2xx body is refused (a cut JSON document
 * is no answer); an error body (`keepHead`) is cut, as its first bytes hold the message. The
 * attempt's timer ends a body that never finishes (it aborts the request).
 */
function readText(msg: IncomingMessage, maxBytes: number, keepHead: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (): void => {
      done = true
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    msg.on('data', (chunk: Buffer) => {
      if (done) return
      if (size + chunk.length <= maxBytes) {
        size += chunk.length
        chunks.push(chunk)
        return
      }
      if (keepHead) {
        chunks.push(chunk.subarray(0, maxBytes - size))
        finish()
        msg.destroy()
      } else msg.destroy(new BodyTooLarge(maxBytes))
    })
    msg.on('end', () => {
      if (!done) finish()
    })
    msg.on('error', err => {
      if (!done) reject(err)
    })
    msg.on('close', () => {
      if (!done) reject(new Error('connection closed before the body ended'))
    })
  })
}

// The documentation service: base URL, Bearer auth, JSON in and out, retries, and errors that
// carry the request, the status and the service's own words. No stack trace ever reaches a user.
import type { IncomingMessage } from 'node:http'
import { HttpClient } from '@actions/http-client'
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
  ShapeError,
  type AgentJob,
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
  debug?: (line: string) => void
  info?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  random?: () => number
}

/** A request that failed for good; `message` is written for the person reading the log. */
export class ServiceError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the service answered: callers tell transient failures by it. */
    readonly status?: number
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

export interface VisitorsQuery {
  dateFrom?: string
  dateTo?: string
  limit: number
  offset: number
}

type Method = 'GET' | 'POST'
type Attempt<T> =
  { ok: true; value: T; status: number } | { ok: false; outcome: Outcome; why: string }

const MAX_BODY_BYTES = 16 * 1024 * 1024
const STATUS_HINTS: Record<number, string> = {
  401: 'check `api-key`: it must be an admin API key of this organisation',
  403: 'the API key is not allowed to do this: check `api-key` and `project-id`',
  404: 'check `project-id` and `job-id` (and `job-path`, `base-url`)',
  429: 'the service rate limit was reached (about 100 requests per hour); try again later'
}

export class ServiceClient {
  private readonly http: HttpClient
  private readonly postHttp: HttpClient
  private readonly o: Required<Omit<ClientOptions, 'debug' | 'info'>> &
    Pick<ClientOptions, 'debug' | 'info'>

  constructor(options: ClientOptions) {
    this.o = {
      requestTimeoutMs: 30_000,
      retryBaseMs: 1_000,
      retryCapMs: 30_000,
      maxAttempts: 5,
      sleep: ms => new Promise(resolve => setTimeout(resolve, ms)),
      now: () => Date.now(),
      random: Math.random,
      ...options
    }
    const common = { allowRetries: false, maxRetries: 0, socketTimeout: this.o.requestTimeoutMs }
    // GETs share kept-alive connections (an export makes many); the POST always opens a fresh
    // one, so a stale pooled socket can never turn into a "may have been delivered" reset.
    this.http = new HttpClient(options.userAgent, [], { ...common, keepAlive: true })
    this.postHttp = new HttpClient(options.userAgent, [], { ...common, keepAlive: false })
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

  async getJob(path: string, deadline: number, maxAttempts?: number): Promise<AgentJob> {
    return this.call('GET', path, undefined, checkAgentJob, deadline, maxAttempts)
  }

  async getVisitorsPage(
    projectId: string,
    q: VisitorsQuery,
    deadline: number
  ): Promise<VisitorsPage> {
    const params = new URLSearchParams()
    if (q.dateFrom !== undefined) params.set('dateFrom', q.dateFrom)
    if (q.dateTo !== undefined) params.set('dateTo', q.dateTo)
    params.set('limit', String(q.limit))
    params.set('offset', String(q.offset))
    const path = `/v1/analytics/${enc(projectId)}/visitors?${params.toString()}`
    return this.call('GET', path, undefined, checkVisitorsPage, deadline)
  }

  /** A GET of any JSON operation; `check` turns the answer into T or throws a ShapeError. */
  async getJson<T>(path: string, check: (json: unknown) => T, deadline: number): Promise<T> {
    return this.call('GET', path, undefined, check, deadline)
  }

  private async call<T>(
    method: Method,
    path: string,
    body: string | undefined,
    check: (json: unknown) => T,
    deadline: number,
    maxAttempts = this.o.maxAttempts
  ): Promise<T> {
    const request = `${method} ${new URL(this.o.baseUrl).pathname.replace(/\/$/, '')}${path}`
    for (let attempt = 1; ; attempt++) {
      const left = deadline - this.o.now()
      // Each attempt gets the usual limit, or what is left of the run's time if that is less.
      const limit = Math.max(1_000, Math.min(this.o.requestTimeoutMs, left))
      const result = await this.attempt(method, path, body, check, limit)
      if (result.ok) return result.value
      const { outcome } = result
      const retryable = isRetryable(method, outcome)
      if (!retryable || attempt >= maxAttempts) throw this.failure(request, result, attempt, method)
      const asked =
        outcome.kind === 'answer' ? parseRetryAfter(outcome.retryAfter, this.o.now()) : undefined
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
      await this.o.sleep(wait)
    }
  }

  private async attempt<T>(
    method: Method,
    path: string,
    body: string | undefined,
    check: (json: unknown) => T,
    timeoutMs: number
  ): Promise<Attempt<T>> {
    const started = this.o.now()
    const url = this.o.baseUrl + path
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.o.apiKey}`,
      accept: 'application/json'
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const http = method === 'POST' ? this.postHttp : this.http
    let msg: IncomingMessage
    try {
      const res = await withTimeout(http.request(method, url, body ?? null, headers), timeoutMs)
      msg = res.message
    } catch (err) {
      const code = networkCode(err)
      this.o.debug?.(`${method} ${path} -> ${code} (${this.o.now() - started} ms)`)
      return { ok: false, outcome: { kind: 'network', code }, why: networkWhy(code) }
    }
    const status = msg.statusCode ?? 0
    const retryAfter = header(msg, 'retry-after')
    let text: string
    try {
      text = await readText(msg, Math.max(1_000, timeoutMs - (this.o.now() - started)))
    } catch {
      this.o.debug?.(`${method} ${path} -> ${status}, body cut off (${this.o.now() - started} ms)`)
      if (status >= 200 && status < 300)
        return {
          ok: false,
          outcome: { kind: 'malformed', status },
          why: 'the body was cut off'
        }
      return { ok: false, outcome: { kind: 'answer', status, retryAfter }, why: `${status}` }
    }
    this.o.debug?.(`${method} ${path} -> ${status} (${this.o.now() - started} ms)`)
    if (status < 200 || status >= 300) {
      return {
        ok: false,
        outcome: { kind: 'answer', status, retryAfter },
        why: statusWhy(status, text)
      }
    }
    try {
      return { ok: true, value: check(JSON.parse(text) as unknown), status }
    } catch (err) {
      const why = err instanceof ShapeError ? err.message : `not JSON (${describeBody(msg, text)})`
      return { ok: false, outcome: { kind: 'malformed', status }, why }
    }
  }

  private failure<T>(
    request: string,
    result: Extract<Attempt<T>, { ok: false }>,
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
        '. The follow-up may or may not have been delivered: check the job before sending it again.'
    }
    return new ServiceError(message, status)
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
  const type = header(msg, 'content-type') ?? 'no content type'
  return text.trim() === '' ? `empty body, ${type}` : type
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('Request timeout'), { code: 'ETIMEDOUT' })),
      ms
    )
  })
  // The abandoned request is closed by the socket timeout; its late result must not go unhandled.
  promise.catch(() => undefined)
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function readText(msg: IncomingMessage, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let ended = false
    const timer = setTimeout(() => msg.destroy(new Error('body timeout')), timeoutMs)
    msg.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) msg.destroy(new Error('body too large'))
      else chunks.push(chunk)
    })
    msg.on('end', () => {
      ended = true
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    msg.on('error', err => {
      clearTimeout(timer)
      reject(err)
    })
    msg.on('close', () => {
      clearTimeout(timer)
      if (!ended) reject(new Error('connection closed before the body ended'))
    })
  })
}

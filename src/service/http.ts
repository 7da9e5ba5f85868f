// One attempt on the wire: the request with the key, a time limit, no redirect ever followed, and
// the body read up to a cap. Whatever comes back is untrusted: every text passes redact() before
// anyone sees it, and a 2xx body is parsed with a depth limit and checked.
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { TLSSocket } from 'node:tls'
import type { HttpClient } from '@actions/http-client'
import type { RequestInfo } from '@actions/http-client/lib/interfaces'
import type { TimeLimit } from '../deadline.js'
import type { Agents } from './agents.js'
import { proxyCredentials } from '../proxy.js'
import {
  bypassTimeout,
  causeWords,
  proxyRefusal,
  readCause,
  type NetworkCause,
  type Way
} from '../network.js'
import { redact, redactParsed } from '../secrets/redact.js'
import { publicText } from '../public-text.js'
import { reason, statusWhy, type FailedAttempt } from './errors.js'
import { networkCode, type Outcome } from './retry.js'
import { parseJson, ShapeError, type Note } from './schema.js'

/** Checks a parsed answer and returns what the caller relies on; `note` collects warnings. */
export type Check<T> = (json: unknown, note: Note) => T

export type Method = 'GET' | 'POST'

/** What an answer said besides its body: its status and rate-limit headers (redacted, clipped). */
export interface Answered {
  status: number
  rateLimit: Record<string, string>
  /** The answer says it is JSON (`Content-Type`): a page of HTML or text is some other server. */
  json: boolean
}

export type Attempt<T> =
  { ok: true; value: T; status: number; notes: string[] } | ({ ok: false } & FailedAttempt)

export interface AttemptRequest<T> {
  client: HttpClient
  /** The connections to use: direct, or through the run's proxy. */
  agents: Agents
  baseUrl: string
  apiKey: string
  userAgent: string
  method: Method
  /** Relative to `baseUrl`, query included, segments already encoded. */
  path: string
  body?: string
  check: Check<T>
  /** This attempt's time limit (on the run's clock); ended here when the attempt settles. */
  limit: TimeLimit
  signal?: AbortSignal
  /**
   * Called once the request's connection is made (a kept-alive one at once): a request that never
   * connected (refused, or abandoned before) never reached the service and is not counted.
   */
  count: () => void
  onAnswer?: (answer: Answered) => void
  debug?: (line: string) => void
  now: () => number
}

const MAX_BODY_BYTES = 16 * 1024 * 1024
/** An error body is read for its message only; a hostile one cannot make the run read more. */
const MAX_ERROR_BODY_BYTES = 64 * 1024
const MAX_LOCATION_CHARS = 200

export async function attempt<T>(r: AttemptRequest<T>): Promise<Attempt<T>> {
  const started = r.now()
  // One controller ends this attempt, whether its time ran out or the caller gave up.
  const controller = new AbortController()
  const onAbort = (): void => controller.abort()
  r.signal?.addEventListener('abort', onAbort, { once: true })
  let timedOut = false
  const onTimeUp = (): void => {
    timedOut = true
    controller.abort()
  }
  r.limit.signal.addEventListener('abort', onTimeUp, { once: true })
  const line = (what: string): void =>
    r.debug?.(`${r.method} ${publicText(r.path, 300)} -> ${what} (${r.now() - started} ms)`)
  try {
    const { info, way, forwarded } = requestInfo(r, controller.signal)
    let msg: IncomingMessage
    try {
      msg = (await r.client.requestRaw(info, r.body ?? null)).message
    } catch (err) {
      // No answer in time on a direct connection `NO_PROXY` chose is said with the entry.
      const network = timedOut ? bypassTimeout(way) : readCause(err, way)
      // A page read ahead that turned out not to be needed is abandoned by the reader.
      return unanswered(network, timedOut ? 'timeout' : networkCode(err), line, r.signal?.aborted)
    }
    // A 407 to a request the proxy was asked to forward is the proxy's answer, not the service's.
    const refusal = forwarded ? proxyRefusal(msg.statusCode ?? 0, way) : undefined
    if (refusal) {
      msg.destroy()
      return unanswered(refusal, 'refused', line)
    }
    return await answerOf(r, msg, line)
  } finally {
    r.limit.end()
    r.limit.signal.removeEventListener('abort', onTimeUp)
    r.signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * An attempt that got no answer from the service: its cause in words when the errors show one (a
 * proxy's refusal, TLS, nobody at the address).
 */
function unanswered(
  network: NetworkCause | undefined,
  code: ReturnType<typeof networkCode>,
  line: (what: string) => void,
  abandoned = false
): Attempt<never> {
  // A proxy's own refusal and a certificate refused at the handshake prove nothing was sent; a
  // TLS failure of another kind might come after the request was written.
  const sentNothing =
    network !== undefined &&
    (network.kind.startsWith('proxy-') || (network.kind === 'tls' && /CERT/.test(network.code)))
  const outcomeCode = sentNothing ? 'refused' : code
  line(abandoned ? 'cancelled: no longer needed' : network ? causeWords(network) : outcomeCode)
  return {
    ok: false,
    outcome: { kind: 'network', code: outcomeCode },
    why: network ? causeWords(network) : networkWhy(outcomeCode),
    ...(network ? { network } : {})
  }
}

/** What an answer says: a redirect (never followed), a refusal, or a body to check. */
async function answerOf<T>(
  r: AttemptRequest<T>,
  msg: IncomingMessage,
  line: (what: string) => void
): Promise<Attempt<T>> {
  const status = msg.statusCode ?? 0
  r.onAnswer?.({
    status,
    rateLimit: rateLimitHeaders(msg),
    json: /\bjson\b/i.test(header(msg, 'content-type') ?? '')
  })
  if (status >= 300 && status < 400) {
    // Not a byte of a redirect's body is read: it is not the answer, and it has no size cap.
    msg.destroy()
    const location = publicText(redact(header(msg, 'location') ?? ''), MAX_LOCATION_CHARS)
    line(String(status))
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
    line(`${status}, body cut off`)
    if (!success)
      return { ok: false, outcome: { kind: 'answer', status, retryAfter }, why: `${status}` }
    const why = err instanceof BodyTooLarge ? err.message : 'the body was cut off'
    return { ok: false, outcome: { kind: 'malformed', status }, why }
  }
  line(String(status))
  if (!success)
    return {
      ok: false,
      outcome: { kind: 'answer', status, retryAfter },
      why: redact(statusWhy(status, text))
    }
  return checked(msg, text, status, r.check)
}

/** A 2xx body: parsed with a depth limit, cleaned of secrets, then checked. */
function checked<T>(
  msg: IncomingMessage,
  text: string,
  status: number,
  check: Check<T>
): Attempt<T> {
  const notes: string[] = []
  try {
    // An empty body is an answer with nothing in it: the check decides what that means.
    const json = text.trim() === '' ? null : parseJson(text)
    const value = check(redactParsed(text, json), note => notes.push(redact(note)))
    return { ok: true, value, status, notes }
  } catch (err) {
    const parsed = err instanceof ShapeError
    const why = parsed ? redact(err.message) : `not JSON (${describeBody(msg, text)})`
    const outcome: Outcome = { kind: 'malformed', status, parsed }
    return { ok: false, outcome, why }
  }
}

/** TLS sockets whose handshake is done: a kept-alive one is counted at once when reused. */
const secured = new WeakSet<object>()

/**
 * Counts the request once its connection is made: for TLS, once the handshake is done (nothing is
 * written before it, so a proxy that inspects TLS, refused, never took a byte of it).
 */
function countOnConnect(socket: import('node:net').Socket, count: () => void): void {
  if ((socket as TLSSocket).encrypted) {
    if (secured.has(socket)) count()
    else
      socket.once('secureConnect', () => {
        secured.add(socket)
        count()
      })
  } else if (socket.connecting) socket.once('connect', count)
  else count()
}

/** The options a plain http(s).request needs, with the agent of the run's route (proxy or not). */
function requestInfo<T>(
  r: AttemptRequest<T>,
  signal: AbortSignal
): { info: RequestInfo; way: Way; forwarded: boolean } {
  const url = new URL(r.baseUrl + r.path)
  const headers: Record<string, string> = {
    authorization: `Bearer ${r.apiKey}`,
    accept: 'application/json',
    'user-agent': r.userAgent
  }
  if (r.body !== undefined) headers['content-type'] = 'application/json'
  const tls = url.protocol === 'https:'
  const { agent, forward, proxy, bypass } = r.agents.routeOf(url)
  // Plain http through a proxy: the request goes to the proxy and names the whole URL.
  const to = forward?.url ?? url
  if (forward) {
    headers.host = url.host
    const auth = proxyCredentials(forward)
    if (auth) headers['proxy-authorization'] = `Basic ${Buffer.from(auth).toString('base64')}`
  }
  const base = (forward ? forward.url.protocol === 'https:' : tls) ? https : http
  // Counted when the connection is made: before a byte can reach the service, and never for a
  // request that was refused or abandoned before it connected.
  const counting = {
    request: (options: http.RequestOptions, callback?: (res: IncomingMessage) => void) => {
      const req = base.request(options, callback)
      req.once('socket', socket => countOnConnect(socket, r.count))
      return req
    }
  } as unknown as typeof http
  const info: RequestInfo = {
    parsedUrl: url,
    httpModule: counting,
    options: {
      host: to.hostname.replace(/^\[|\]$/g, ''),
      port: to.port ? Number(to.port) : to.protocol === 'https:' ? 443 : 80,
      path: forward ? url.href : url.pathname + url.search,
      method: r.method,
      headers,
      agent,
      signal
    }
  }
  return {
    info,
    way: { target: url, ...(proxy ? { proxy } : {}), ...(bypass ? { bypass } : {}) },
    forwarded: forward !== undefined
  }
}

/**
 * The rate-limit header names the action knows (`X-RateLimit-*`, `RateLimit-*`, `Retry-After`):
 * no other name from the service is ever shown, so a header named after a key cannot carry it.
 */
const RATE_LIMIT_HEADER =
  /^(?:(?:x-)?ratelimit(?:-(?:limit|remaining|reset|used|resource|policy|reset-after)(?:-(?:requests|tokens))?)?|retry-after)$/

/** Headers about rate limits, by their known names only: a few, values redacted and short. */
function rateLimitHeaders(msg: IncomingMessage): Record<string, string> {
  const found: Record<string, string> = {}
  const names = Object.keys(msg.headers)
    .filter(name => name.length <= 40 && RATE_LIMIT_HEADER.test(name.toLowerCase()))
    .sort()
    .slice(0, 8)
  for (const name of names)
    found[publicText(redact(name), 40)] = publicText(redact(header(msg, name) ?? ''), 100)
  return found
}

function header(msg: IncomingMessage, name: string): string | undefined {
  const v = msg.headers[name]
  return Array.isArray(v) ? v[0] : v
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

function describeBody(msg: IncomingMessage, text: string): string {
  const type = publicText(redact(header(msg, 'content-type') ?? 'no content type'), 100)
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

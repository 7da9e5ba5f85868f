// Why a request got no answer from its target, read from what Node, `tunnel` (the service's
// tunnels) and undici (GitHub's) report and a bare "network error" would drop: the proxy's own
// status (407 wants credentials, 405 allows no tunnels, 502/504 could not reach the target: often
// a misspelt host), a proxy or host nobody answers on, a proxy given as https:// that speaks plain
// http, a tunnel the proxy opened and then dropped, a TLS certificate the runner does not trust, a
// direct connection `NO_PROXY` chose. Each cause has one wording and one fix, so a failure says
// the real cause and the check says it once for every request it stopped; a cause that a moment
// does not change (final()) is not retried, and what comes after it is not sent.
import { STATUS_CODES } from 'node:http'
import { proxyVariable, type Bypass, type Proxy } from './proxy.js'

/** What kept a request from its target, as far as the errors show it. */
export type NetworkCause =
  /** The proxy answered the request (or its tunnel) itself, with this status. */
  | { kind: 'proxy-status'; proxy: string; variable: string; target: string; status: number }
  /** Nobody answers at the proxy's address (`code`: ECONNREFUSED, ENOTFOUND…). */
  | { kind: 'proxy-unreachable'; proxy: string; variable: string; code: string }
  /** The proxy was given as `https://` but answers in plain http: the TLS to it failed. */
  | { kind: 'proxy-tls'; proxy: string; variable: string; code: string }
  /** The proxy opened the tunnel (CONNECT), then closed it before the target answered. */
  | { kind: 'proxy-dropped'; proxy: string; target: string }
  /** The TLS handshake with the target (or whoever answered for it) failed. */
  | { kind: 'tls'; target: string; code: string; proxy?: string; bypass?: Bypass }
  /** Nobody answers at the target's address, reached directly (`bypass`: `NO_PROXY` chose it). */
  | { kind: 'unreachable'; target: string; code: string; bypass?: Bypass }

/** The way a request went: its target, and the proxy it went through or bypassed (if any). */
export interface Way {
  target: URL
  proxy?: Proxy
  /** No proxy: `NO_PROXY` names the target although a proxy variable is set. */
  bypass?: Bypass
}

/** Error codes that say no connection was made at all. */
const NO_CONNECTION = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']
const NO_CONNECTION_WORD = new RegExp(`\\b(${NO_CONNECTION.join('|')})\\b`)
/** A proxy's status to a tunnel, as `tunnel` ("statusCode=407") and undici ("Proxy response (407)") say it. */
const PROXY_STATUS = /statusCode=(\d{3})|Proxy response \((\d{3})\)/
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/
/** A certificate of an authority the runner does not trust (a TLS-inspecting proxy's). */
const UNTRUSTED = /SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)/
/** TLS spoken to something that answers in plain http ("wrong version number", as OpenSSL says). */
const PLAIN_ANSWER = /WRONG_VERSION_NUMBER|wrong version number|packet length too long/i
/** A tunnel closed by the proxy before TLS began, as Node and `tunnel` say it. */
const DROPPED =
  /before secure TLS connection was established|could not be established, cause=socket hang up/
/** The statuses a proxy answers a tunnel with when it could not reach the target. */
const PROXY_COULD_NOT_REACH = [502, 503, 504]

/** The error and each of its causes, as code and message. */
function chain(err: unknown): { code: string; message: string }[] {
  const found: { code: string; message: string }[] = []
  let at: unknown = err
  for (let depth = 0; depth < 6 && typeof at === 'object' && at !== null; depth++) {
    const e = at as { code?: unknown; message?: unknown; cause?: unknown }
    found.push({
      code: typeof e.code === 'string' ? e.code : '',
      message: typeof e.message === 'string' ? e.message : ''
    })
    at = e.cause
  }
  return found
}

const hostPortOf = (url: URL): string =>
  `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`

/** The cause an error shows, or undefined when it shows none of these (a reset, a timeout). */
export function readCause(err: unknown, way: Way): NetworkCause | undefined {
  const errors = chain(err)
  const target = hostPortOf(way.target)
  const { proxy, bypass } = way
  const variable = proxyVariable(way.target)
  for (const { message } of errors) {
    const m = PROXY_STATUS.exec(message)
    if (m && proxy)
      return {
        kind: 'proxy-status',
        proxy: proxy.hostPort,
        variable,
        target,
        status: Number(m[1] ?? m[2])
      }
  }
  if (proxy) {
    const said = (e: { code: string; message: string }) => `${e.code} ${e.message}`
    // TLS to a proxy given as https:// that answers in plain http: the first handshake, the proxy's.
    const plain = errors.find(e => PLAIN_ANSWER.test(said(e)))
    if (plain && proxy.url.protocol === 'https:')
      return { kind: 'proxy-tls', proxy: proxy.hostPort, variable, code: tlsCode(plain) }
    if (errors.some(e => DROPPED.test(e.message)))
      return { kind: 'proxy-dropped', proxy: proxy.hostPort, target }
  }
  // Node's own sockets say a failed handshake as EPROTO ("wrong version number"), undici by name.
  const tls = errors.find(e => TLS_CODE.test(e.code) || e.code === 'EPROTO')
  if (tls)
    return {
      kind: 'tls',
      target,
      code: tls.code,
      ...(proxy ? { proxy: proxy.hostPort } : {}),
      ...(bypass ? { bypass } : {})
    }
  const code = errors
    .map(e => (NO_CONNECTION.includes(e.code) ? e.code : NO_CONNECTION_WORD.exec(e.message)?.[1]))
    .find(c => c !== undefined)
  if (code === undefined) return undefined
  return proxy
    ? { kind: 'proxy-unreachable', proxy: proxy.hostPort, variable, code }
    : { kind: 'unreachable', target, code, ...(bypass ? { bypass } : {}) }
}

/** The code to show for a TLS failure: OpenSSL's reason when only the message carries it. */
function tlsCode(e: { code: string; message: string }): string {
  if (e.code !== '' && e.code !== 'ECONNRESET') return e.code
  return /wrong version number/i.test(e.message) ? 'ERR_SSL_WRONG_VERSION_NUMBER' : 'EPROTO'
}

/**
 * A direct request that got no answer in time, when `NO_PROXY` sent it direct: most likely a
 * firewall that lets only the proxy out. Undefined for any other way (a slow answer is no cause).
 */
export function bypassTimeout(way: Way): NetworkCause | undefined {
  if (!way.bypass) return undefined
  return {
    kind: 'unreachable',
    target: hostPortOf(way.target),
    code: 'ETIMEDOUT',
    bypass: way.bypass
  }
}

/**
 * A cause a moment does not change: a proxy's own refusal (407, 403, 405, or its 502/504 for a
 * name it could not reach), a proxy nobody answers on or that speaks plain http where https was
 * written, a certificate refused, a name that does not resolve. Not retried, and the requests
 * after it are not sent: each would end the same way. A dropped tunnel, a refused or timed-out
 * direct connection may pass: those are retried.
 */
export function isFinal(c: NetworkCause): boolean {
  switch (c.kind) {
    case 'proxy-status':
    case 'proxy-unreachable':
    case 'proxy-tls':
      return true
    case 'proxy-dropped':
      return false
    case 'tls':
      return /CERT/.test(c.code) || UNTRUSTED.test(c.code)
    case 'unreachable':
      return c.code === 'ENOTFOUND'
  }
}

/** A 407 on a request the proxy was asked to forward (plain http): the proxy's, not the target's. */
export function proxyRefusal(status: number, way: Way): NetworkCause | undefined {
  if (status !== 407 || !way.proxy) return undefined
  return {
    kind: 'proxy-status',
    proxy: way.proxy.hostPort,
    variable: proxyVariable(way.target),
    target: hostPortOf(way.target),
    status
  }
}

function codeWords(code: string): string {
  if (code === 'ECONNREFUSED') return 'the connection was refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the name does not resolve'
  if (code === 'ETIMEDOUT') return 'no answer in time'
  return 'no route to it'
}

function tlsWords(code: string): string {
  if (UNTRUSTED.test(code))
    return 'its certificate is signed by an authority this runner does not trust'
  if (code === 'CERT_HAS_EXPIRED') return 'its certificate has expired'
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its certificate is for another name'
  return 'the TLS handshake failed'
}

/** ", reached directly: the `NO_PROXY` entry `x` matches it (the proxy p is not used)". */
function bypassWords(bypass: Bypass | undefined): string {
  return bypass
    ? `; it was reached directly, not through the proxy ${bypass.proxy}, because the \`NO_PROXY\` entry \`${bypass.entry}\` matches it`
    : ''
}

/** "407 Proxy Authentication Required": the status and its reason phrase. */
function statusWords(status: number): string {
  return `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`
}

/** The cause in words (plain text: hosts, ports, codes and names in backticks only). */
export function causeWords(c: NetworkCause): string {
  switch (c.kind) {
    case 'proxy-status': {
      const status = statusWords(c.status)
      if (c.status === 407) return `the proxy ${c.proxy} answered ${status}: it wants credentials`
      if (c.status === 405)
        return `the proxy ${c.proxy} answered ${status} to the tunnel (CONNECT): it allows no tunnels`
      if (PROXY_COULD_NOT_REACH.includes(c.status))
        return `the proxy ${c.proxy} could not reach ${c.target} (it answered ${status})`
      return `the proxy ${c.proxy} answered ${status} instead of reaching ${c.target}`
    }
    case 'proxy-unreachable':
      return `nobody answers at the proxy ${c.proxy} (${c.code}: ${codeWords(c.code)})`
    case 'proxy-tls':
      return `the proxy ${c.proxy} is given as https:// in \`${c.variable}\`, but it answers in plain http (${c.code})`
    case 'proxy-dropped':
      return `the proxy ${c.proxy} opened the tunnel to ${c.target}, then closed it before an answer came`
    case 'tls':
      return `the TLS connection to ${c.target}${c.proxy ? ` through the proxy ${c.proxy}` : ''} failed: ${tlsWords(c.code)} (${c.code})${bypassWords(c.bypass)}`
    case 'unreachable':
      return `nobody answers at ${c.target} (${c.code}: ${codeWords(c.code)})${bypassWords(c.bypass)}`
  }
}

/**
 * What to change for a cause (Markdown we wrote). `setting` names what chose the target (the
 * `base-url` input when it was set, `GITHUB_API_URL`), or nothing for the service's own address.
 */
export function causeFix(c: NetworkCause, setting?: string, hosts?: readonly string[]): string {
  const listed = (hostPort: string): string =>
    (hosts && hosts.length > 0 ? hosts : [hostPort.replace(/:\d+$/, '')]).join(', ')
  switch (c.kind) {
    case 'proxy-status':
      return proxyStatusFix(c, setting, listed)
    case 'proxy-unreachable':
      return `Nothing answers at the proxy ${c.proxy}: check its address in \`${c.variable}\` (\`host:port\`), or unset it`
    case 'proxy-tls':
      return `Write the proxy as \`http://${c.proxy}\` in \`${c.variable}\`: an \`https://\` proxy address asks for TLS to the proxy itself, which this proxy does not speak (requests to https addresses still use TLS, inside the tunnel)`
    case 'proxy-dropped':
      return `Run the workflow again; if the proxy ${c.proxy} keeps closing tunnels to ${c.target}, ask its administrators why (an idle or size limit, or a filter that drops this host)`
    case 'tls':
      if (UNTRUSTED.test(c.code))
        return (
          'A proxy or firewall that inspects TLS shows its own certificate: give Node your ' +
          "organisation's CA with `NODE_EXTRA_CA_CERTS` (the path of its PEM file on the runner; " +
          'see docs/enterprise.md)'
        )
      return /CERT/.test(c.code)
        ? `${c.target} shows a certificate this runner cannot accept: check ${setting ?? 'the address'}`
        : `${c.target} does not speak TLS as expected: check ${setting ?? 'the address'} (an https address) and the proxy`
    case 'unreachable':
      if (c.bypass)
        return (
          `Take \`${c.bypass.entry}\` out of \`NO_PROXY\`, so that requests to ${c.target} go through ` +
          `the proxy ${c.bypass.proxy}, or let this runner reach ${c.target} directly`
        )
      return setting
        ? `Nothing answers at ${c.target}: check ${setting}`
        : `This runner cannot reach ${c.target}: allow it through the firewall, or set \`HTTPS_PROXY\` to your proxy`
  }
}

/** What to change when the proxy answered the tunnel itself. */
function proxyStatusFix(
  c: Extract<NetworkCause, { kind: 'proxy-status' }>,
  setting: string | undefined,
  listed: (hostPort: string) => string
): string {
  if (c.status === 407)
    return (
      `The proxy ${c.proxy} wants credentials: put them in \`${c.variable}\` as ` +
      `\`http://user:pass@${c.proxy}\` (from a secret), or list ${listed(c.target)} in \`NO_PROXY\` ` +
      'if this runner may reach it directly'
    )
  if (c.status === 405)
    return (
      `The proxy ${c.proxy} refuses tunnels (CONNECT), which https needs: ask for CONNECT to ` +
      `${c.target} to be allowed, or list ${listed(c.target)} in \`NO_PROXY\``
    )
  // A name the proxy cannot resolve is most often a typo in the address this workflow gave.
  if (PROXY_COULD_NOT_REACH.includes(c.status))
    return (
      `Check the host ${c.target.replace(/:\d+$/, '')} in ${setting ?? 'the address'}: the proxy ` +
      'could not reach it, as it answers for a name that does not resolve; if the name is right, ' +
      'run the workflow again later'
    )
  return `The proxy ${c.proxy} does not let requests through to ${c.target}: ask its administrators to allow it, or list ${listed(c.target)} in \`NO_PROXY\``
}

/** An error that carries its cause, thrown where a request got no answer for a known cause. */
export class UnreachedError extends Error {
  constructor(
    readonly network: NetworkCause,
    /** False for a call not sent: an earlier one found this cause, and this one would too. */
    sent = true
  ) {
    super(sent ? causeWords(network) : `not sent, not reached: ${causeWords(network)}`)
    this.name = 'UnreachedError'
  }
}

/** The cause an error (or any error it wraps) carries, if one does. */
export function networkOf(err: unknown): NetworkCause | undefined {
  let at: unknown = err
  for (let depth = 0; depth < 6 && typeof at === 'object' && at !== null; depth++) {
    if (at instanceof UnreachedError) return at.network
    const carried = (at as { network?: NetworkCause }).network
    if (carried !== undefined) return carried
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

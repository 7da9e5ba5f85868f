// Why a request got no answer from its target, read from what Node, `tunnel` (the service's
// tunnels) and undici (GitHub's) report and a bare "network error" would drop: the proxy's own
// status (407 wants credentials, 405 allows no tunnels), a proxy or host nobody answers on, a TLS
// certificate the runner does not trust. Each cause has one wording and one fix, so a failure says
// the real cause and the check says it once for every request it stopped.
import { STATUS_CODES } from 'node:http'
import { proxyVariable, type Proxy } from './proxy.js'

/** What kept a request from its target, as far as the errors show it. */
export type NetworkCause =
  /** The proxy answered the request (or its tunnel) itself, with this status. */
  | { kind: 'proxy-status'; proxy: string; variable: string; target: string; status: number }
  /** Nobody answers at the proxy's address (`code`: ECONNREFUSED, ENOTFOUND…). */
  | { kind: 'proxy-unreachable'; proxy: string; variable: string; code: string }
  /** The TLS handshake with the target (or whoever answered for it) failed. */
  | { kind: 'tls'; target: string; code: string; proxy?: string }
  /** Nobody answers at the target's address, reached directly. */
  | { kind: 'unreachable'; target: string; code: string }

/** The way a request went: its target, and the proxy it went through (if any). */
export interface Way {
  target: URL
  proxy?: Proxy
}

/** Error codes that say no connection was made at all. */
const NO_CONNECTION = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']
const NO_CONNECTION_WORD = new RegExp(`\\b(${NO_CONNECTION.join('|')})\\b`)
/** A proxy's status to a tunnel, as `tunnel` ("statusCode=407") and undici ("Proxy response (407)") say it. */
const PROXY_STATUS = /statusCode=(\d{3})|Proxy response \((\d{3})\)/
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/
/** A certificate of an authority the runner does not trust (a TLS-inspecting proxy's). */
const UNTRUSTED = /SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)/

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
  const proxy = way.proxy
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
  // Node's own sockets say a failed handshake as EPROTO ("wrong version number"), undici by name.
  const tls = errors.find(e => TLS_CODE.test(e.code) || e.code === 'EPROTO')
  if (tls)
    return { kind: 'tls', target, code: tls.code, ...(proxy ? { proxy: proxy.hostPort } : {}) }
  const code = errors
    .map(e => (NO_CONNECTION.includes(e.code) ? e.code : NO_CONNECTION_WORD.exec(e.message)?.[1]))
    .find(c => c !== undefined)
  if (code === undefined) return undefined
  return proxy
    ? { kind: 'proxy-unreachable', proxy: proxy.hostPort, variable, code }
    : { kind: 'unreachable', target, code }
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
  return 'no route to it'
}

function tlsWords(code: string): string {
  if (UNTRUSTED.test(code))
    return 'its certificate is signed by an authority this runner does not trust'
  if (code === 'CERT_HAS_EXPIRED') return 'its certificate has expired'
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its certificate is for another name'
  return 'the TLS handshake failed'
}

/** The cause in words (plain text: hosts, ports and codes only). */
export function causeWords(c: NetworkCause): string {
  switch (c.kind) {
    case 'proxy-status': {
      const status = `${c.status}${STATUS_CODES[c.status] ? ` ${STATUS_CODES[c.status]}` : ''}`
      if (c.status === 407) return `the proxy ${c.proxy} answered ${status}: it wants credentials`
      if (c.status === 405)
        return `the proxy ${c.proxy} answered ${status} to the tunnel (CONNECT): it allows no tunnels`
      return `the proxy ${c.proxy} answered ${status} instead of reaching ${c.target}`
    }
    case 'proxy-unreachable':
      return `nobody answers at the proxy ${c.proxy} (${c.code}: ${codeWords(c.code)})`
    case 'tls':
      return `the TLS connection to ${c.target}${c.proxy ? ` through the proxy ${c.proxy}` : ''} failed: ${tlsWords(c.code)} (${c.code})`
    case 'unreachable':
      return `nobody answers at ${c.target} (${c.code}: ${codeWords(c.code)})`
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
      return `The proxy ${c.proxy} does not let requests through to ${c.target}: ask its administrators to allow it, or list ${listed(c.target)} in \`NO_PROXY\``
    case 'proxy-unreachable':
      return `Nothing answers at the proxy ${c.proxy}: check its address in \`${c.variable}\` (\`host:port\`), or unset it`
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
      return setting
        ? `Nothing answers at ${c.target}: check ${setting}`
        : `This runner cannot reach ${c.target}: allow it through the firewall, or set \`HTTPS_PROXY\` to your proxy`
  }
}

/** An error that carries its cause, thrown where a request got no answer for a known cause. */
export class UnreachedError extends Error {
  constructor(readonly network: NetworkCause) {
    super(causeWords(network))
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

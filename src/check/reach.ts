// Whether the check's requests reached the service and GitHub at all. When a proxy's refusal, TLS
// or an address nobody answers on kept them away, one line names the cause with its one fix (a
// proxy by host and port), and every line that needed an answer says "not reached" and points at
// it: no ✅ stands on a request that got no answer, and one cause is one fix, not one per request.
import { causeFix, causeWords, networkOf, type NetworkCause } from '../network.js'
import type { Proxy } from '../proxy.js'
import type { CheckLine } from '../report/check.js'
import type { Probe } from './probes.js'

/** The service's default address: `base-url` is named in a fix only when it was set otherwise. */
const DEFAULT_BASE_URL = 'https://api.mintlify.com'

export interface Reach {
  /** What kept every probe sent from the service, if one cause did. */
  service?: NetworkCause
  /** What kept the GitHub probe from GitHub. */
  github?: NetworkCause
  proxies: { service: Proxy | undefined; github: Proxy | undefined }
  baseUrl: string
}

/** The cause that kept every probe sent from the service: undefined when any got an answer. */
export function serviceCause(probes: readonly Probe[]): NetworkCause | undefined {
  const sent = probes.filter(p => p.notSent !== true)
  const causes = sent.map(p => (p.entry.status === undefined ? networkOf(p.error) : undefined))
  return causes.length > 0 && causes.every(c => c !== undefined) ? causes[0] : undefined
}

/** `base-url` when it was set to another address than the service's own, for a fix to name. */
function baseUrlSetting(baseUrl: string): string | undefined {
  return baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URL ? undefined : '`base-url`'
}

/** The line's name: "Proxy" unless a cause without a proxy (TLS or an address, direct) is said. */
function reachCheck(causes: readonly NetworkCause[]): string {
  return causes.some(c => !('proxy' in c) || c.proxy === undefined) ? 'Connection' : 'Proxy'
}

/** How a request went: "through the proxy host:port" or "direct". */
export function via(proxy: Proxy | undefined): string {
  return proxy ? `through the proxy ${proxy.hostPort}` : 'direct'
}

/** The connection line: the way requests went, or the one cause that kept them away, with its fix. */
export function reachLine(r: Reach): CheckLine {
  const causes = [r.service, r.github].filter((c): c is NetworkCause => c !== undefined)
  if (causes.length === 0) return wayLine('Proxy', r.proxies)
  const hosts = [...new Set(causes.map(targetHost).filter(h => h !== ''))]
  // What chose each target, for a fix to name; none for a cause both share.
  const setting = (c: NetworkCause): string | undefined =>
    c === r.github ? '`GITHUB_API_URL`' : c === r.service ? baseUrlSetting(r.baseUrl) : undefined
  // The same cause for both (one proxy's 407 to each) is one cause, naming both targets.
  const one =
    causes.length > 1 && causes.every(c => sameCause(c, causes[0]!)) ? [merged(causes)] : causes
  return {
    check: reachCheck(causes),
    verdict: 'fail',
    seen: `${one.map(causeWords).join('; ')} (${notReached(r)} not reached)`,
    fix: one.map(c => causeFix(c, setting(c), hosts)).join('. ')
  }
}

/** Two causes that differ only in their target. */
function sameCause(a: NetworkCause, b: NetworkCause): boolean {
  return JSON.stringify({ ...a, target: '' }) === JSON.stringify({ ...b, target: '' })
}

/** One cause for all: the targets named together. */
function merged(causes: readonly NetworkCause[]): NetworkCause {
  const first = causes[0]!
  if (!('target' in first)) return first
  const targets = [...new Set(causes.map(c => ('target' in c ? c.target : '')))]
  return { ...first, target: targets.join(', ') }
}

/** Which of the two the cause kept away. */
function notReached(r: Reach): string {
  if (r.service && r.github) return 'the service and GitHub'
  return r.service ? 'the service' : 'GitHub'
}

function targetHost(c: NetworkCause): string {
  return 'target' in c ? c.target.replace(/:\d+$/, '') : ''
}

/** Which proxy the requests went through: its host and port only, never its credentials. */
function wayLine(check: string, proxies: Reach['proxies']): CheckLine {
  const { service, github } = proxies
  if (!service && !github)
    return {
      check,
      verdict: 'pass',
      seen: 'none: direct connections (no `HTTPS_PROXY` or `HTTP_PROXY` applies)'
    }
  const through = (p: Proxy | undefined): string => (p ? `through ${p.hostPort}` : 'direct')
  return {
    check,
    verdict: 'pass',
    seen:
      service?.hostPort === github?.hostPort
        ? `the service and GitHub ${through(service)}`
        : `the service ${through(service)}; GitHub ${through(github)}`
  }
}

/** GitHub's API address answered with a web page: `GITHUB_API_URL` leads elsewhere. */
export function apiPageLine(check: string, api: string): CheckLine {
  return {
    check,
    verdict: 'fail',
    seen: `${api} answered with a web page, not GitHub's API`,
    fix:
      '`GITHUB_API_URL` does not lead to GitHub’s API: on GitHub Enterprise Server it is ' +
      '`https://HOST/api/v3` (the runner sets it; a workflow that sets it itself must keep `/api/v3`)'
  }
}

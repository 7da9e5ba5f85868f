// Whether the check's requests reached the service and GitHub at all. When a proxy's refusal, TLS
// or an address nobody answers on kept them away, one line names the cause with its one fix (a
// proxy by host and port), and every line that needed an answer says "not reached" and points at
// it: no ✅ stands on a request that got no answer, and one cause is one fix, not one per request.
// The proxy is ✅ only for a way an answer came back through; a direct way `NO_PROXY` chose names
// the entry that chose it.
import { causeFix, causeWords, networkOf, type NetworkCause } from '../network.js'
import type { ProxyChoice } from '../proxy.js'
import type { CheckLine } from '../report/check.js'
import { addressSetting } from '../service/hints.js'
import type { Probe } from './probes.js'

export interface Reach {
  /** What kept every probe sent from the service, if one cause did. */
  service?: NetworkCause
  /** What kept the GitHub probe from GitHub. */
  github?: NetworkCause
  proxies: { service: ProxyChoice; github: ProxyChoice }
  /** Whether an answer came back from each (GitHub: undefined when the check did not ask it). */
  answered: { service: boolean; github?: boolean }
  baseUrl: string
}

/** Whether any probe sent got an answer from the service (or whatever is at `base-url`). */
export function serviceAnswered(probes: readonly Probe[]): boolean {
  return probes.some(p => p.entry.status !== undefined)
}

/** The cause that kept every probe sent from the service: undefined when any got an answer. */
export function serviceCause(probes: readonly Probe[]): NetworkCause | undefined {
  const sent = probes.filter(p => p.notSent !== true)
  const causes = sent.map(p => (p.entry.status === undefined ? networkOf(p.error) : undefined))
  return causes.length > 0 && causes.every(c => c !== undefined) ? causes[0] : undefined
}

/** The line's name: "Proxy" unless a cause without a proxy (TLS or an address, direct) is said. */
function reachCheck(causes: readonly NetworkCause[]): string {
  return causes.some(c => !('proxy' in c) || c.proxy === undefined) ? 'Connection' : 'Proxy'
}

/** How a request went: "through the proxy host:port" or "direct". */
export function via(choice: ProxyChoice | undefined): string {
  return choice?.proxy ? `through the proxy ${choice.proxy.hostPort}` : 'direct'
}

/** The connection line: the way requests went, or the one cause that kept them away, with its fix. */
export function reachLine(r: Reach): CheckLine {
  const causes = [r.service, r.github].filter((c): c is NetworkCause => c !== undefined)
  if (causes.length === 0) return wayLine('Proxy', r)
  const hosts = [...new Set(causes.map(targetHost).filter(h => h !== ''))]
  // What chose each target, for a fix to name; none for a cause both share.
  const setting = (c: NetworkCause): string | undefined =>
    c === r.github ? '`GITHUB_API_URL`' : c === r.service ? addressSetting(r.baseUrl) : undefined
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

/** A way in words: through a proxy (and whether an answer came back through it), or direct. */
function wayWords(choice: ProxyChoice, answered: boolean | undefined): string {
  const { proxy, bypass } = choice
  if (bypass)
    return `direct: the \`NO_PROXY\` entry \`${bypass.entry}\` matches (the proxy ${bypass.proxy} is not used)`
  if (!proxy) return 'direct'
  if (answered === undefined) return `through ${proxy.hostPort} (not asked by this check)`
  return answered ? `through ${proxy.hostPort}` : `through ${proxy.hostPort}: no answer came back`
}

/**
 * Which proxy the requests went through: its host and port only, never its credentials; ✅ only
 * when an answer came back through each proxy asked, ➖ when none did (the lines that needed one
 * say why).
 */
function wayLine(check: string, r: Reach): CheckLine {
  const { service, github } = r.proxies
  if (!service.proxy && !github.proxy) {
    const entries = [service.bypass, github.bypass].flatMap(b => (b ? [`\`${b.entry}\``] : []))
    const proxy = service.bypass?.proxy ?? github.bypass?.proxy
    return {
      check,
      verdict: 'pass',
      seen:
        'none: direct connections' +
        (entries.length > 0 && proxy
          ? ` (\`NO_PROXY\` ${[...new Set(entries)].join(' and ')} matches; the proxy ${proxy} is not used)`
          : ' (no `HTTPS_PROXY` or `HTTP_PROXY` applies)')
    }
  }
  const ways: [ProxyChoice, boolean | undefined][] = [
    [service, r.answered.service],
    [github, r.answered.github]
  ]
  const silent = ways.some(([w, answered]) => w.proxy && answered === false)
  const through = ways.some(([w, answered]) => w.proxy && answered === true)
  const same =
    service.proxy?.hostPort === github.proxy?.hostPort && r.answered.service === r.answered.github
  return {
    check,
    verdict: silent || !through ? 'skip' : 'pass',
    seen: same
      ? `the service and GitHub ${wayWords(service, r.answered.service)}`
      : `the service ${wayWords(service, r.answered.service)}; GitHub ${wayWords(github, r.answered.github)}`
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

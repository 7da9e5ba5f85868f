// Causes, and who fixes them (contract): the one reading of an error a run ended with, into what
// went wrong in a few words, who can change it (this workflow's secrets and inputs, the network's
// administrators, or nobody: it passes), what to change, and whether running again as it is can
// help. "Re-run" is said only where it can: a 5xx, a 429, a time-out, a dropped connection. The
// log, the answer on GitHub, the code pull request's comment and the report's issue word the
// cause from here (agent/ending.ts, commands/job-notify.ts, commands/report-refused.ts, main.ts).
import { asClause, TimeUpError, whoFixes, withStop, type Fixer, type RunCause } from './errors.js'
import { GitHubError } from './github/errors.js'
import { IssueMissingError } from './github/issues.js'
import { causeFix, causeWords, isFinal, networkOf, type NetworkCause } from './network.js'
import { BudgetError, RateLimitError, ServiceError } from './service/errors.js'
import {
  forbiddenCause,
  forbiddenHint,
  KEY_REFUSED_HINT,
  PROJECT_HINT,
  saysProjectUnknown
} from './service/hints.js'

/** The cause an error shows, or undefined when it shows none the run knows. */
export function causeOf(err: unknown): RunCause | undefined {
  if (err instanceof TimeUpError) return err.cause === undefined ? undefined : causeOf(err.cause)
  if (err instanceof IssueMissingError)
    return {
      kind: 'issue',
      what: err.what,
      fix: err.fix,
      fixer: 'workflow',
      retry: false
    }
  if (err instanceof BudgetError)
    return {
      kind: 'budget',
      what: `this run may send at most ${err.maxRequests} requests to the service (\`max-requests\`), and has sent them all`,
      fix: 'raise `max-requests`',
      fixer: 'workflow',
      retry: false
    }
  if (err instanceof ServiceError) return serviceCause(err)
  if (err instanceof GitHubError) return gitHubCause(err)
  const network = networkOf(err)
  return network ? networkCause(network) : undefined
}

/** A cause a re-run cannot help: someone must change something first. */
export function needsAFix(c: RunCause | undefined): c is RunCause {
  return c !== undefined && !c.retry
}

function serviceCause(err: ServiceError): RunCause | undefined {
  if (err instanceof RateLimitError)
    return passing("the service's rate limit was reached (429)", 'run it again once it resets')
  const hint = err.forReaders.hint
  if (err.network) return networkCause(err.network, hint)
  const status = err.status
  const said = err.serviceText ?? ''
  if (status === 401)
    return refusal('key-expired', 'the service refused the API key (401)', KEY_REFUSED_HINT)
  if (status === 403)
    return forbiddenCause(said) === 'scope'
      ? refusal(
          'key-scope',
          'the API key may only read (403): starting or messaging a job needs an admin key',
          forbiddenHint(said)
        )
      : refusal('key-refused', 'the service refused the API key here (403)', forbiddenHint(said))
  if ((status === 404 || status === 400) && saysProjectUnknown(said))
    return refusal('project', `the service knows no such project (${status})`, PROJECT_HINT)
  if (status === 404)
    return refusal('job', 'the service answered 404', hint ?? 'check `project-id` and `job-id`')
  if (status !== undefined && status >= 300 && status < 400)
    return refusal(
      'address',
      `the service's address answered with a redirect (${status})`,
      hint ?? 'check `base-url`'
    )
  if (status === 429 || (status !== undefined && status >= 500))
    return passing(`the service failed to answer (${status})`, 'run it again later')
  if (status === undefined) return passing('no answer came from the service', 'run it again')
  return undefined
}

function gitHubCause(err: GitHubError): RunCause | undefined {
  if (err.network) return networkCause(err.network, undefined, '`GITHUB_API_URL`')
  const status = err.status
  if ((status === 401 || status === 403) && err.hint) {
    const input = err.refused?.input ?? 'github-token'
    return {
      kind: input,
      what: `GitHub refused \`${input}\` (${status})`,
      fix: err.hint,
      fixer: 'workflow',
      retry: false
    }
  }
  if (err.page && err.hint)
    return refusal('address', 'GitHub’s API address answered with a web page', err.hint)
  if (status === undefined || status === 429 || status >= 500)
    return passing(`GitHub failed to answer${status ? ` (${status})` : ''}`, 'run it again later')
  return undefined
}

/** A network cause: said in its own words; fixed by this workflow, the network's administrators, or time. */
function networkCause(c: NetworkCause, fix?: string, setting?: string): RunCause {
  const fixer = networkFixer(c)
  return {
    kind: 'network',
    what: causeWords(c),
    fix: asClause(fix ?? causeFix(c, setting)),
    fixer,
    retry: fixer === 'rerun'
  }
}

/**
 * Who fixes a network cause: a proxy that refuses by its own rule (403, 405) is its
 * administrators'; credentials, an address, a certificate authority or `NO_PROXY` are this
 * workflow's; a dropped tunnel or a refused connection may pass.
 */
function networkFixer(c: NetworkCause): Fixer {
  if (c.kind === 'proxy-status' && (c.status === 403 || c.status === 405)) return 'network'
  if (!isFinal(c) && !(c.kind === 'unreachable' && c.bypass)) return 'rerun'
  return 'workflow'
}

function refusal(kind: RunCause['kind'], what: string, fix: string): RunCause {
  return { kind, what, fix: asClause(fix), fixer: 'workflow', retry: false }
}

function passing(what: string, fix: string): RunCause {
  return { kind: 'passing', what, fix, fixer: 'rerun', retry: true }
}

/**
 * The line that fails the step for an error: its message, then for a cause a re-run cannot help
 * what to change (when the message does not say it already) and who changes it.
 */
export function failureLine(err: unknown, message: string): string {
  const c = causeOf(err)
  if (!needsAFix(c)) return message
  const said = message.toLowerCase().includes(c.fix.slice(0, 40).toLowerCase())
  const fix = said ? '' : ` To fix: ${c.fix}${/[.!?]$/.test(c.fix) ? '' : '.'}`
  return `${withStop(message)}${fix} ${fixerSentence(c)}`
}

/**
 * The run's closing words on a cause, for the log: who fixes it, and whether running again as it
 * is can help. "" for a cause that passes (the failure itself says to try again).
 */
export function fixerSentence(c: RunCause | undefined): string {
  if (!needsAFix(c)) return ''
  return `${capitalised(whoFixes(c.fixer) ?? '')} must change this first: a re-run as it is fails the same way.`
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

// The service's lines of `command: check`, from what the probes answered (verdicts.ts: what they
// mean together): each passes, fails saying what to change, or was not checked (and why). A
// failure that follows from another (every operation refused with the key) points at it instead
// of being listed twice. The GitHub token's lines are comment-rights.ts's and checks-read.ts's.
import { isAdminKeyShape, keyKindWarnings } from '../settings/credentials.js'
import { JOBS_CHECK, type CheckLine } from '../report/check.js'
import { capitalise, escapeText } from '../report/markdown.js'
import {
  DASHBOARD,
  KEY_REFUSED_HINT,
  KEYS_PAGE,
  forbiddenCause,
  forbiddenHint,
  PROJECT_HINT
} from '../service/hints.js'
import { messageOf } from '../errors.js'
import type { Operation } from '../report/check.js'
import type { Probe } from './probes.js'
import { FEEDBACK_FILTER } from './feedback-filter.js'
import {
  isPageAnswer,
  isProjectUnknown,
  knowsProject,
  notSent,
  verdictsOf,
  type Verdicts
} from './verdicts.js'
import { causeFix, networkOf } from '../network.js'

/** A short text of a probe's failure, for the summary: the service's words or the error's. */
function failureText(p: Probe): string {
  return p.said ?? messageOf(p.error)
}

/** The analytics operations a check asks, in order. */
export const ANALYTICS: readonly Exclude<Operation, 'agent'>[] = [
  'visitors',
  'views',
  'searches',
  'feedback',
  'assistant',
  'caller-stats'
]
const TITLES: Record<Operation, string> = {
  visitors: 'Analytics: visitors',
  views: 'Analytics: views',
  searches: 'Analytics: searches',
  feedback: 'Analytics: feedback by page',
  assistant: 'Analytics: assistant questions',
  'caller-stats': 'Analytics: assistant callers',
  agent: 'Agent API',
  'feedback-comments': FEEDBACK_FILTER
}

/** The line for a `base-url` that does not lead to the service. */
const WRONG_ADDRESS_FIX =
  'The service was not found at this address: check `base-url` (leave it out for the default, ' +
  '`https://api.mintlify.com`; a path prefix is kept, so it must be the API’s own)'

/**
 * The lines the key and the service's answers give (all but the GitHub token's). `unreached`
 * names the line that says why no request reached the service, when none did: each line that
 * needed an answer says "not reached" and points there.
 */
export function checkLines(
  apiKey: string,
  projectId: string,
  probes: Probe[],
  unreached?: string
): CheckLine[] {
  if (unreached === undefined)
    return [keyFormLine(apiKey), ...serviceLines(probes, projectId), ...startsJobsLine(probes)]
  const form = keyFormLine(apiKey)
  const key = form.verdict === 'pass' ? { ...form, verdict: 'skip' as const } : form
  const notReached = (check: string): CheckLine => ({
    check,
    verdict: 'fail',
    seen: 'not reached',
    because: unreached
  })
  return [
    key,
    notReached('API key accepted'),
    // Not a failure of its own (one cause, one fix), but not reached all the same.
    { ...notReached('Project found'), verdict: 'skip' },
    ...([...ANALYTICS, 'agent'] as const).map(operation => notReached(TITLES[operation]))
  ]
}

/**
 * What the check cannot verify, said as such: whether the key may start agent jobs. The service
 * offers no way to ask without starting one, and a key that may only read answers the same.
 */
function startsJobsLine(probes: readonly Probe[]): CheckLine[] {
  const agent = probes.find(p => p.entry.operation === 'agent')
  if (!agent || (agent.error !== undefined && !knowsProject(agent))) return []
  return [
    {
      check: JOBS_CHECK,
      verdict: 'skip',
      seen:
        'not verified: the service offers no way to tell without starting a job, and a key ' +
        'that may only read answers the same; the first `create` or `message` run shows it'
    }
  ]
}

function keyFormLine(apiKey: string): CheckLine {
  const check = 'API key form'
  const [warning] = keyKindWarnings(apiKey)
  // The form only: what the key may do is known from the service's answers (a read-only key has
  // the same form).
  if (!warning && isAdminKeyShape(apiKey))
    return { check, verdict: 'pass', seen: 'shaped as an admin key (`mint_…`)' }
  // Said by its shape only: the value itself is masked (`***`) wherever it would be shown.
  return {
    check,
    verdict: 'fail',
    seen: apiKey.startsWith('mint_')
      ? (warning ?? '').replace(/^Input `api-key` /, '').replace(/ Sending it anyway.*$/, '')
      : 'a key without the `mint_` prefix',
    fix:
      `Create an admin API key (it starts with \`mint_\`) on ${KEYS_PAGE} and store it as the repository ` +
      'secret passed as `api-key` (e.g. `DOCS_API_KEY`)'
  }
}

/** The key, the project, each operation, the agent API: what the probes say, line by line. */
function serviceLines(probes: Probe[], projectId: string): CheckLine[] {
  const v = verdictsOf(probes, projectId)
  return [keyLine(v), projectLine(v), ...operationLines(v)]
}

/** The key: accepted, refused, or not known (nothing answered as the service does). */
function keyLine({
  probes,
  projectId,
  answered,
  refused,
  allForbidden,
  wrongAddress
}: Verdicts): CheckLine {
  if (refused)
    return {
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'the service refuses the key',
      said: failureText(refused),
      fix: capitalise(KEY_REFUSED_HINT)
    }
  if (allForbidden)
    return {
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'every request was refused',
      said: failureText(answered[0]!),
      fix: keyForbiddenFix(answered[0]!, projectId)
    }
  if (wrongAddress)
    return {
      check: 'Service found',
      verdict: 'fail',
      seen: 'the address does not answer as the service does',
      said: failureText(answered.find(isPageAnswer) ?? answered[0]!),
      fix: WRONG_ADDRESS_FIX
    }
  if (answered.length === 0)
    return {
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'the service did not answer',
      said: failureText(probes[0]!),
      fix: 'Check the runner’s network (and `base-url`, if set: leave it out for `https://api.mintlify.com`)'
    }
  return { check: 'API key accepted', verdict: 'pass', seen: 'the service accepts it' }
}

/** The project: found, not found, or not known because the key or the address failed first. */
function projectLine(v: Verdicts): CheckLine {
  const { probes, projectId, unknown, wrongAddress } = v
  if (unknown)
    return {
      check: 'Project found',
      verdict: 'fail',
      seen: `${escapeText(projectId)} was not found`,
      said: failureText(unknown),
      fix: capitalise(PROJECT_HINT)
    }
  const anyOk = probes.some(p => p.error === undefined)
  if (!wrongAddress && (anyOk || probes.some(knowsProject)))
    return { check: 'Project found', verdict: 'pass', seen: escapeText(projectId) }
  return {
    check: 'Project found',
    verdict: 'skip',
    seen:
      v.refused || v.allForbidden
        ? 'not known: see “API key accepted”'
        : wrongAddress
          ? 'not known: see “Service found”'
          : 'not known: nothing answered'
  }
}

/** Each operation: its own verdict, unless the key or project already said why it failed. */
function operationLines({ probes, upstream }: Verdicts): CheckLine[] {
  const notAsked = upstream
    ? `not checked: see “${upstream}”`
    : probes.some(notSent)
      ? 'not checked: the requests this check may send were spent (`max-requests`)'
      : 'not checked: the hourly analytics limit is spent'
  return ([...ANALYTICS, 'agent'] as const).map(operation => {
    const p = probes.find(x => x.entry.operation === operation)
    return p
      ? operationLine(operation, p, upstream)
      : { check: TITLES[operation], verdict: 'skip', seen: notAsked }
  })
}

function operationLine(operation: Operation, p: Probe, upstream?: string): CheckLine {
  const check = TITLES[operation]
  const status = p.entry.status
  if (p.error === undefined) return { check, verdict: 'pass', seen: seenOf(p) }
  if (upstream === 'Service found')
    return { check, verdict: 'fail', seen: 'refused', because: upstream }
  if (operation === 'agent' && (status === 404 || status === 400) && !isProjectUnknown(p))
    return {
      check,
      verdict: 'pass',
      seen: `answers ${status} for a job that does not exist, as expected (nothing was started)`
    }
  if (upstream) return { check, verdict: 'fail', seen: 'refused', because: upstream }
  if (notSent(p))
    return {
      check,
      verdict: 'skip',
      seen: 'not checked: the requests this check may send were spent (`max-requests`)'
    }
  const seen = status === undefined ? 'no answer' : 'refused'
  return { check, verdict: 'fail', seen, said: failureText(p), fix: operationFix(operation, p) }
}

/** What to change when one operation fails while others pass. */
function operationFix(operation: Operation, p: Probe): string {
  const status = p.entry.status
  if (status === 403) {
    const cause = forbiddenCause(p.said ?? '')
    // Other operations answered: the key reaches this project, so the plan or the key's scope.
    if (cause === undefined || cause === 'plan')
      return operation === 'agent'
        ? 'The key or the plan does not include the agent API: check the key is an admin key ' +
            'and the plan includes the agent'
        : 'Your plan does not include this analytics, or the key lacks its scope: check the ' +
            `plan on the billing page of ${DASHBOARD}`
    return capitalise(forbiddenHint(p.said ?? ''))
  }
  if (status === 429)
    return (
      'The hourly analytics limit (about 100 requests per organisation, shared by every ' +
      'workflow) is spent now: run the check again within the hour, and give scheduled ' +
      'runs a share with `max-requests`'
    )
  if (status !== undefined && status >= 500)
    return 'The service failed to answer: run the check again later'
  const network = networkOf(p.error)
  if (network) return capitalise(causeFix(network))
  if (status === undefined)
    return 'The service did not answer: check the runner’s network, then run again'
  return 'The service answered in a way this action does not expect: report it with this summary'
}

/** A 403 on every operation: the key does not reach this project at all. */
function keyForbiddenFix(p: Probe, projectId: string): string {
  const cause = forbiddenCause(p.said ?? '')
  if (cause === 'allowlist' || cause === 'scope') return capitalise(forbiddenHint(p.said ?? ''))
  return (
    `The key is refused for project \`${projectId}\` on every operation: most likely it belongs ` +
    'to another organisation than `project-id` (use a key created in the organisation that owns ' +
    'the project, or correct `project-id`); or an IP allowlist on the key refuses this runner ' +
    '(lift it, or use a self-hosted runner with a fixed address)'
  )
}

/**
 * What a passing probe showed, in words: that it answered, and an empty answer (worth a look). The
 * status, time, rows, cursor, order and `ctr` are in the profile table below the checks, once.
 */
function seenOf(p: Probe): string {
  return p.entry.rows === 0 ? 'answers, with no rows in the last 7 days' : 'answers'
}

// The lines of `command: check`, from what the probes and GitHub answered: each passes, fails
// saying what to change, or was not checked (and why). A failure that follows from another (every
// operation refused with the key) points at it instead of being listed twice.
import type { EventInfo } from '../github/event.js'
import type { CommentRights } from '../github/rights.js'
import { keyKindWarnings } from '../inputs.js'
import type { CheckLine } from '../report/check.js'
import { capitalise, escapeText, plural } from '../report/markdown.js'
import {
  forbiddenCause,
  forbiddenHint,
  PROJECT_HINT,
  saysProjectUnknown
} from '../service/hints.js'
import { messageOf } from '../errors.js'
import type { Operation } from '../report/check.js'
import type { Probe } from './probes.js'

/** The probe ended because `max-requests` or the check's 8 were spent: it was not sent. */
export function notSent(p: Probe): boolean {
  return p.notSent === true
}

/** A short text of a probe's failure, for the summary: the service's words or the error's. */
export function failureText(p: Probe): string {
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
  agent: 'Agent API'
}

const failedWith = (p: Probe, status: number): boolean =>
  p.error !== undefined && p.entry.status === status

/**
 * An answer that shows the service found the project: the agent API's 404 for the job (not the
 * project), or a refusal for the plan (the project's plan was looked up).
 */
function knowsProject(p: Probe): boolean {
  if (p.error === undefined) return true
  const status = p.entry.status
  if (p.entry.operation === 'agent' && (status === 404 || status === 400))
    return !isProjectUnknown(p)
  return status === 403 && forbiddenCause(p.said ?? '') === 'plan'
}

export function isProjectUnknown(p: Probe): boolean {
  if (p.error === undefined) return false
  const status = p.entry.status
  if (status === 404 && p.entry.operation !== 'agent') return true
  return (status === 400 || status === 404) && saysProjectUnknown(p.said ?? '')
}

/** The lines the key and the service's answers give (all but the GitHub token's). */
export function checkLines(apiKey: string, projectId: string, probes: Probe[]): CheckLine[] {
  return [keyFormLine(apiKey), ...serviceLines(probes, projectId)]
}

function keyFormLine(apiKey: string): CheckLine {
  const [warning] = keyKindWarnings(apiKey)
  if (!warning) return { check: 'API key form', verdict: 'pass', seen: 'an admin key (`mint_…`)' }
  return {
    check: 'API key form',
    verdict: 'fail',
    seen: warning.replace(/ Sending it anyway.*$/, ''),
    fix:
      "Create an admin key on the dashboard's API keys page and store it as the repository " +
      'secret passed as `api-key` (e.g. `DOCS_API_KEY`)'
  }
}

/** The key, the project, each operation, the agent API: what the probes say, line by line. */
function serviceLines(probes: Probe[], projectId: string): CheckLine[] {
  const answered = probes.filter(p => p.entry.status !== undefined)
  const refused = probes.find(p => failedWith(p, 401))
  const allForbidden = answered.length > 0 && answered.every(p => failedWith(p, 403))
  const unknown = probes.find(isProjectUnknown)
  const anyOk = probes.some(p => p.error === undefined)
  const lines: CheckLine[] = []

  // The key.
  if (refused)
    lines.push({
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'the service refuses the key',
      said: failureText(refused),
      fix:
        'The key is invalid, expired or revoked: create an admin key on the dashboard and update ' +
        'the repository secret passed as `api-key` (e.g. `DOCS_API_KEY`)'
    })
  else if (allForbidden)
    lines.push({
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'every request was refused',
      said: failureText(answered[0]!),
      fix: keyForbiddenFix(answered[0]!, projectId)
    })
  else if (answered.length === 0)
    lines.push({
      check: 'API key accepted',
      verdict: 'fail',
      seen: 'the service did not answer',
      said: failureText(probes[0]!),
      fix: 'Check `base-url` (leave it out for `https://api.mintlify.com`) and the network'
    })
  else lines.push({ check: 'API key accepted', verdict: 'pass', seen: 'the service accepts it' })

  // The project.
  if (unknown)
    lines.push({
      check: 'Project found',
      verdict: 'fail',
      seen: `${escapeText(projectId)} was not found`,
      said: failureText(unknown),
      fix: capitalise(PROJECT_HINT)
    })
  else if (anyOk || probes.some(knowsProject))
    lines.push({ check: 'Project found', verdict: 'pass', seen: escapeText(projectId) })
  else
    lines.push({
      check: 'Project found',
      verdict: 'skip',
      seen:
        refused || allForbidden
          ? 'not known: see “API key accepted”'
          : 'not known: nothing answered'
    })

  // Each operation: its own verdict, unless the key or project already said why it failed.
  const upstream =
    refused || allForbidden ? 'API key accepted' : unknown ? 'Project found' : undefined
  const notAsked = upstream
    ? `not checked: see “${upstream}”`
    : probes.some(notSent)
      ? 'not checked: the requests this check may send were spent (`max-requests`)'
      : 'not checked: the hourly analytics limit is spent'
  for (const operation of [...ANALYTICS, 'agent'] as const) {
    const p = probes.find(x => x.entry.operation === operation)
    lines.push(
      p
        ? operationLine(operation, p, upstream)
        : { check: TITLES[operation], verdict: 'skip', seen: notAsked }
    )
  }
  return lines
}

function operationLine(operation: Operation, p: Probe, upstream?: string): CheckLine {
  const check = TITLES[operation]
  const status = p.entry.status
  if (p.error === undefined) return { check, verdict: 'pass', seen: seenOf(p) }
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
            "plan on the dashboard's billing page"
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
  if (status === undefined)
    return 'The service did not answer: check `base-url` and the runner’s network, then run again'
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

/** What a passing probe showed, in words: status, time, rows, cursor, order, `ctr`. */
function seenOf(p: Probe): string {
  const e = p.entry
  const parts = [`${e.status ?? 'answered'} in ${e.ms} ms`]
  if (e.rows !== undefined)
    parts.push(e.rows === 0 ? 'no rows in the last 7 days' : plural(e.rows, 'row'))
  if (e.sorted !== undefined) parts.push(e.sorted ? 'sorted, most first' : 'not sorted')
  if (e.cursor) parts.push(`${e.cursor} cursor`)
  if (e.ctr && e.ctr !== 'unknown') parts.push(`ctr as a ${e.ctr}`)
  return parts.join(' · ')
}

/** The GitHub token's line, from what GitHub answered a comment with no body. */
export function rightsLine(
  rights: CommentRights,
  issueNumber: number,
  event: Pick<EventInfo, 'isPullRequest' | 'forkRepository'>
): CheckLine {
  const check = 'GitHub token may comment'
  const where = `#${issueNumber}`
  if (rights.ok && rights.probe === undefined)
    return { check, verdict: 'pass', seen: `may comment on ${where}` }
  if (rights.ok && rights.probe === 'deleted')
    return {
      check,
      verdict: 'pass',
      seen:
        `may comment on ${where}: GitHub took the check's empty comment (github.com refuses ` +
        'one), and it was deleted at once'
    }
  if (rights.ok)
    return {
      check,
      verdict: 'fail',
      seen: `may comment on ${where}, but GitHub took the check's empty comment and refused to delete it`,
      fix: `Delete the empty ${typeof rights.probe === 'object' ? rights.probe.left : 'comment'} the check left`
    }
  const permission = event.isPullRequest
    ? '`pull-requests: write`'
    : '`issues: write` (and `pull-requests: write` for pull requests)'
  const fork = event.forkRepository
    ? ' This pull request comes from a fork: GitHub gives its runs a read-only token whatever ' +
      'the workflow asks.'
    : ''
  const fix =
    rights.status === 403 || rights.status === 401
      ? `Add ${permission} to the workflow's \`permissions:\` (and check Settings → Actions → ` +
        `General → Workflow permissions).${fork}`
      : rights.status === 404
        ? `Check \`issue-number\`: ${where} is not a pull request or issue of this repository the token can see`
        : 'GitHub did not answer as expected: run the check again'
  return {
    check,
    verdict: 'fail',
    seen: `GitHub refused a comment on ${where}`,
    said: rights.said,
    fix
  }
}

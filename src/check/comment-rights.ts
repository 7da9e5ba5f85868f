// The GitHub token's line of `command: check`: may it comment where the run comments, found
// from what GitHub answered a comment with no body (github/rights.ts), and what to change if not.
import type { EventInfo } from '../github/event.js'
import type { CommentRights } from '../github/rights.js'
import type { CheckLine } from '../report/check.js'

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

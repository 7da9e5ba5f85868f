// Whether the service takes the `status` filter the weekly report reads written feedback with
// (`status=pending,in_progress`, so what the team resolved or dismissed is not quoted again): one
// request of the check, sent last and only once feedback by page answered, so it never takes the
// place of another probe within the check's 8 requests. Its line passes only when the rows sent
// show the filter at work.
import type { CheckLine } from '../report/check.js'
import type { OPEN_FEEDBACK } from '../service/analytics.js'
import type { Probe } from './probes.js'

export const FEEDBACK_FILTER = 'Analytics: written feedback, `status` filter'
// The statuses the report asks for, kept equal to OPEN_FEEDBACK by the type checker: a value
// imported from service/ would bring the HTTP client into the check's lines (and the preview).
const OPEN: typeof OPEN_FEEDBACK = ['pending', 'in_progress']
const ASKED = `\`status=${OPEN.join(',')}\``

/** Asked only once feedback by page answered: the operation is there to be asked. */
export function asksFeedbackFilter(probes: readonly Probe[]): boolean {
  return probes.some(p => p.entry.operation === 'feedback' && p.error === undefined)
}

/** The filter's line: taken, ignored (the report leaves such rows out itself), or refused. */
export function feedbackFilterLine(probes: readonly Probe[]): CheckLine {
  const check = FEEDBACK_FILTER
  const p = probes.find(x => x.entry.operation === 'feedback-comments')
  if (!p) return { check, verdict: 'skip', seen: 'not checked: feedback by page did not answer' }
  if (p.notSent)
    return {
      check,
      verdict: 'skip',
      seen: 'not checked: the requests this check may send were spent (`max-requests`)'
    }
  if (p.error !== undefined) return failed(p)
  switch (p.entry.statusFilter) {
    case 'honoured':
      return {
        check,
        verdict: 'pass',
        seen: `takes ${ASKED}: the written comments it sent are all pending or in progress`
      }
    case 'ignored':
      return {
        check,
        verdict: 'skip',
        seen:
          `ignores ${ASKED}: it sent comments the team resolved or dismissed; the weekly ` +
          'report leaves them out itself, by their `status`'
      }
    default:
      return {
        check,
        verdict: 'skip',
        seen: `accepts ${ASKED}; no written comment of the last 7 days shows whether it filters`
      }
  }
}

/** Refused (a 4xx): reports quote no comments. Another failure tells nothing of the filter. */
function failed(p: Probe): CheckLine {
  const check = FEEDBACK_FILTER
  const status = p.entry.status
  const said = p.said !== undefined ? { said: p.said } : {}
  if (status !== undefined && status >= 400 && status < 500 && status !== 429)
    return {
      check,
      verdict: 'fail',
      seen: `refuses ${ASKED}`,
      ...said,
      fix:
        'Nothing to change in the workflow: the service refuses the `status` filter its API ' +
        'reference documents for written feedback, so weekly reports quote no readers’ ' +
        'comments; report it to Mintlify with this summary'
    }
  return {
    check,
    verdict: 'skip',
    seen: status === undefined ? 'not checked: no answer' : `not checked: answered ${status}`,
    ...said
  }
}

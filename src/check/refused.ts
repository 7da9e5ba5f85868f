// A check refused before any request (an input of the wrong shape, such as a secret's NAME given
// as the key) still writes its table: the refused input fails, and every line that needed an
// answer says it was not checked, so the summary shows what to change and nothing green.
import { type GetInput } from '../settings/parse.js'
import { InputError } from '../errors.js'
import { resolvePeriod } from '../period.js'
import { renderCheck, type CheckLine } from '../report/check.js'
import { SUMMARY_ROOM } from '../report/fit.js'
import { capitalise } from '../report/markdown.js'
import { CHECK_MAX_REQUESTS } from './probes.js'

const NOT_CHECKED = 'not checked: nothing was sent (an input was refused)'
const ANSWERED = [
  'API key accepted',
  'Project found',
  'Analytics',
  'Agent API',
  'GitHub token may comment'
]

/** The check's summary for inputs refused before any request, or undefined for another run. */
export function refusedCheckSummary(get: GetInput, err: unknown, now: number): string | undefined {
  if (!(err instanceof InputError) || get('command') !== 'check' || get('summary') === 'false')
    return undefined
  const problem = err.message.replace(/^Input `[^`]+`: /, '')
  const refused: CheckLine = {
    check: err.input === 'api-key' ? 'API key form' : `Input \`${err.input}\``,
    verdict: 'fail',
    seen: `\`${err.input}\` refused before any request`,
    fix: capitalise(problem)
  }
  const lines: CheckLine[] = [
    refused,
    ...ANSWERED.map(check => ({ check, verdict: 'skip' as const, seen: NOT_CHECKED }))
  ]
  return renderCheck(
    {
      projectId: get('project-id'),
      baseUrl: get('base-url') || 'https://api.mintlify.com',
      range: resolvePeriod({ kind: 'days', days: 7 }, new Date(now)),
      lines,
      profile: [],
      requests: 0,
      maxRequests: CHECK_MAX_REQUESTS,
      generatedAt: now
    },
    SUMMARY_ROOM
  )
}

// The report's sections, read one after the other: a section the service refuses is drawn in its
// place, and running out of quota stops everything at once (every later request would be refused
// too, and each one would push the reset further away). And why a report is incomplete.
import * as core from '@actions/core'
import { readAssistant } from '../analytics/sections/assistant.js'
import { readFeedbackRows } from '../analytics/sections/feedback-rows.js'
import { readSearches } from '../analytics/sections/searches.js'
import type { Section, SectionOutcome } from '../analytics/sections/outcome.js'
import type { RunLimit, SectionFailure, SectionInput } from '../analytics/sections/section.js'
import { readViews, readVisitors } from '../analytics/sections/visitors.js'
import type { SectionName } from '../analytics/section-names.js'
import type { TrendStop } from '../analytics/trend.js'
import { messageOf, TimeUpError } from '../errors.js'
import { isFinal, networkOf } from '../network.js'
import { BudgetError, RateLimitError, ServiceError } from '../service/errors.js'
import { forbiddenCause, statusHint } from '../service/hints.js'

const READERS: Record<SectionName, (input: SectionInput) => Promise<Section>> = {
  visitors: readVisitors,
  views: readViews,
  searches: readSearches,
  feedback: readFeedbackRows,
  assistant: readAssistant
}

/**
 * The order sections are read in: feedback first (one request), so the views section keeps the
 * views of the pages it names and the report can weigh their 👎 against their views. The others
 * as asked; the report shows them as asked whatever the reading order.
 */
function readOrder(names: readonly SectionName[]): SectionName[] {
  return [...names.filter(n => n === 'feedback'), ...names.filter(n => n !== 'feedback')]
}

/**
 * Every section, in the order `names` gives them. Out of quota, the sections left are not read
 * (each would only be refused, pushing the reset further away) and `stop` is the error the run
 * ends with. `sections` fills as they are read, for a cancellation to say how far it got.
 */
export async function readSections(
  names: readonly SectionName[],
  input: SectionInput,
  spent: { readonly requests: number },
  sections: SectionOutcome[]
): Promise<Error | undefined> {
  let stop: Error | undefined
  for (const name of readOrder(names)) {
    if (stop !== undefined) {
      sections.push(stoppedBy(stop, name))
      continue
    }
    const before = spent.requests
    try {
      const outcome = await readSection(name, withShownPaths(input, name, sections))
      sections.push(outcome)
      logOutcome(outcome, spent.requests - before)
    } catch (err) {
      if (!isQuotaError(err)) throw err
      stop = err
      // The service's words go to the log; the report says which limit, in the action's words.
      core.warning(`Section ${name}: ${err.message}`)
      sections.push(stoppedBy(err, name))
    }
  }
  sections.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name))
  return stop
}

/** One section, its failure caught and kept in its place unless it must end the run. */
async function readSection(name: SectionName, input: SectionInput): Promise<SectionOutcome> {
  if (input.deadline.passed())
    return skipped(name, 'time', 'the time allowed (`wait-timeout`) ran out')
  try {
    return await READERS[name](input)
  } catch (err) {
    if (endsTheRun(err)) throw err
    if (err instanceof TimeUpError) {
      core.warning(`Section ${name}: ${err.message}`)
      return skipped(name, 'time', 'the time allowed (`wait-timeout`) ran out')
    }
    const status = err instanceof ServiceError ? err.status : undefined
    return { ...failure(name, failureReason(err, status), status), ...adviceOf(err, status) }
  }
}

/**
 * A refusal's advice for the report, apart from the service's words: those are left out when
 * the advice names their cause (a plan, a project not found), so the line says it once.
 */
function adviceOf(err: unknown, status: number | undefined): Pick<SectionFailure, 'advice'> {
  if (!(err instanceof ServiceError) || !err.serviceText || (status !== 403 && status !== 404))
    return {}
  const said = err.serviceText
  const hint = statusHint(status, said, ANALYTICS_PATH)
  if (hint === undefined) return {}
  const restated = status === 404 || forbiddenCause(said) !== undefined
  return { advice: { hint, ...(restated ? {} : { said }) } }
}

/**
 * A refusal, in the service's words and what it points at: a 404 from an analytics operation
 * means the project was not found (`project-id`); a 403, the cause its words name (the key's
 * scope, an IP allowlist, the plan, a key of another organisation) or else each of them. A
 * feature that is off is not refused: it answers 200 with nothing.
 */
function failureReason(err: unknown, status: number | undefined): string {
  if (err instanceof ServiceError && err.serviceText && (status === 403 || status === 404))
    return `${err.serviceText}; ${statusHint(status, err.serviceText, ANALYTICS_PATH) ?? ''}`
  return messageOf(err)
}

/** Where the report's operations live: a 404 there means the project was not found. */
const ANALYTICS_PATH = '/v1/analytics/'

/**
 * Out of quota, a key the service rejects, or a way to it that cannot work (a proxy's refusal,
 * nobody at its address): every other section would fail the same way, each spending a request
 * or a wait.
 */
function endsTheRun(err: unknown): boolean {
  // A page that hit the quota just as the time ran out comes wrapped in the TimeUpError.
  if (err instanceof TimeUpError && err.cause !== undefined) return endsTheRun(err.cause)
  const network = networkOf(err)
  if (network && isFinal(network)) return true
  return isQuotaError(err) || (err instanceof ServiceError && err.status === 401)
}

/** A RateLimitError, or a 429 that retries could not outlast (`wait-timeout`). */
function isQuotaError(err: unknown): err is Error {
  if (err instanceof RateLimitError || err instanceof BudgetError) return true
  return err instanceof ServiceError && err.status === 429
}

function failure(name: SectionName, reason: string, status?: number): SectionFailure {
  const refused = status === 403 || status === 404
  return { name, ok: false, ...(status !== undefined ? { status } : {}), refused, reason }
}

/** A section a limit of the run kept from being read: said in the action's words. */
function skipped(name: SectionName, limit: RunLimit, why: string): SectionFailure {
  return { name, ok: false, refused: false, skipped: true, limit, reason: `not read: ${why}` }
}

function stoppedBy(stop: Error, name: SectionName): SectionFailure {
  return stop instanceof BudgetError
    ? skipped(name, 'max-requests', `\`max-requests\` (${stop.maxRequests}) was spent`)
    : skipped(name, 'quota', 'the hourly analytics limit was reached')
}

/** Which limit an error that stopped the run is. */
export function limitOf(stop: Error): RunLimit {
  return stop instanceof BudgetError ? 'max-requests' : 'quota'
}

/**
 * The pages other sections show, for the page sections to keep their rows: the visitors' top
 * pages for the views beside them, the pages with feedback for their views, and the pages a fix
 * is measured on (what the fix did weighs their 👎 against their views).
 */
function withShownPaths(
  input: SectionInput,
  name: SectionName,
  sections: readonly SectionOutcome[]
): SectionInput {
  if (name !== 'views') return input
  const paths = sections.flatMap(x => {
    if (!x.ok) return []
    if (x.name === 'visitors' || x.name === 'feedback') return x.top.map(row => row.path)
    return []
  })
  paths.push(...(input.measuredPaths ?? []))
  return paths.length > 0 ? { ...input, shownPaths: [...new Set(paths)] } : input
}

function logOutcome(outcome: SectionOutcome, calls: number): void {
  const spent = `${calls} ${calls === 1 ? 'request' : 'requests'}`
  if (outcome.ok) core.info(`Section ${outcome.name}: read in ${spent}.`)
  else if (outcome.refused)
    core.warning(`Section ${outcome.name}: the service refused it: ${outcome.reason}`)
  else core.warning(`Section ${outcome.name} failed: ${outcome.reason}`)
}

/**
 * Why the report is incomplete, and when to run again (Markdown we wrote), or undefined when
 * every section and every trend period was read (or refused: a refusal is the service's answer,
 * not a stop), and no section was read to a stop the service caused (empty pages that still said
 * more exist). `trend` names the periods of the trend left out, when it stopped short.
 */
export function incompleteReason(
  sections: readonly SectionOutcome[],
  stop: Error | undefined,
  trend?: { stop: TrendStop; missing: string }
): string | undefined {
  const short = sections.flatMap(x => (x.ok && x.incomplete ? [x.incomplete] : []))
  const limit = limitReason(sections, stop, trend)
  if (limit === undefined && short.length === 0) return undefined
  return [...(limit !== undefined ? [limit] : []), ...short].join(' ')
}

/** Why sections or trend periods were not read (a limit of the run), and when to run again. */
function limitReason(
  sections: readonly SectionOutcome[],
  stop: Error | undefined,
  trend?: { stop: TrendStop; missing: string }
): string | undefined {
  const cut = sections.filter((x): x is SectionFailure => !x.ok && x.skipped === true)
  if (cut.length === 0 && !trend) return undefined
  const what = [
    ...(cut.length > 0 ? [`${cut.map(x => x.name).join(', ')} not read`] : []),
    ...(trend ? [`the trend's ${trend.missing} not read`] : [])
  ].join(', and ')
  const limit = cut[0]?.limit ?? trend?.stop.limit
  if (limit === 'quota') {
    const limited = stop ?? trend?.stop.error
    // Without a Retry-After the service's hourly window resets within the hour of the refusal:
    // its time then is the latest it can be.
    const at = limited instanceof RateLimitError ? limited.resetAt.toISOString().slice(11, 16) : ''
    const again =
      limited instanceof RateLimitError
        ? limited.resetKnown
          ? `after ${at} UTC, when the limit resets`
          : `after ${at} UTC, by when the limit has reset (it resets within the hour)`
        : 'within the hour, once the limit has reset'
    return (
      `The service's hourly analytics limit (about 100 requests per organisation, shared by ` +
      `every analytics run) was reached: ${what}. Run the workflow again ${again}.`
    )
  }
  if (limit === 'max-requests') {
    const budget = stop ?? trend?.stop.error
    return (
      `This run may send ${budget instanceof BudgetError ? budget.maxRequests : 'only so many'} ` +
      `requests (\`max-requests\`) and spent them: ${what}. Raise \`max-requests\` ` +
      'or run the workflow again.'
    )
  }
  if (limit === 'failure')
    return (
      `The service failed to answer for a period of the trend (the log says how; trend periods ` +
      `are read once, without retries): ${what}. Run the workflow again to draw them.`
    )
  return (
    `The time allowed (\`wait-timeout\`) ran out: ${what}. Run the workflow again, ` +
    'with a longer `wait-timeout` if it keeps happening.'
  )
}

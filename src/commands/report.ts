// `command: report`: the docs-health report. Each section reads its analytics operation; a
// section the service refuses is drawn in its place, and only a report with no section left
// fails the step. Running out of quota stops everything at once: every later request would be
// refused too, and each one would push the reset further away.
import * as core from '@actions/core'
import { readAssistant } from '../analytics/sections/assistant.js'
import { readFeedback } from '../analytics/sections/feedback.js'
import { readSearches } from '../analytics/sections/searches.js'
import type { Section, SectionOutcome } from '../analytics/sections/outcome.js'
import type { RunLimit, SectionFailure, SectionInput } from '../analytics/sections/section.js'
import { readViews, readVisitors } from '../analytics/sections/visitors.js'
import { markerKey, upsertComment } from '../github/comments.js'
import { renderHealthReport, type HealthReport } from '../report/health.js'
import { BudgetError, RateLimitError, ServiceError } from '../service/errors.js'
import { messageOf, TimeUpError } from '../errors.js'
import type { SectionName } from '../analytics/section-names.js'
import { readTrend } from '../analytics/trend.js'
import { writeFileAtomic } from '../workspace.js'
import { bytes, chars, clip } from '../report/markdown.js'
import type { AnalyticsSettings } from '../settings.js'
import type { CommandContext } from './context.js'
import { describeRange, sectionInput } from './analytics-input.js'

/** Well under GitHub's 1 MiB step-summary limit, leaving room for other steps' summaries. */
const SUMMARY_MAX_BYTES = 512 * 1024
/** The `report` output and file stay small enough for any step output. */
const REPORT_JSON_MAX_BYTES = 512 * 1024

const READERS: Record<SectionName, (input: SectionInput) => Promise<Section>> = {
  visitors: readVisitors,
  views: readViews,
  searches: readSearches,
  feedback: readFeedback,
  assistant: readAssistant
}

export async function runReport(ctx: CommandContext<AnalyticsSettings>): Promise<void> {
  const s = ctx.settings
  const input = sectionInput(ctx, { withPrevious: true })
  core.info(`Docs-health report for ${describeRange(s.range)}: ${s.sections.join(', ')}.`)

  const sections: SectionOutcome[] = []
  ctx.result.onCancel = signal => {
    const read = sections.filter(x => x.ok).map(x => x.name)
    return Promise.resolve(
      `Cancelled (${signal}) while reading the report: ${read.length > 0 ? `read ${read.join(', ')}` : 'no section was read'}; nothing was published.`
    )
  }
  const stop = await readSections(s.sections, input, ctx.service, sections)
  const trend =
    s.trendRanges && stop === undefined
      ? await readTrend(input.api, s.trendRanges, trendSections(sections), line =>
          core.warning(line)
        )
      : undefined
  const requests = ctx.service.requests
  const incomplete = incompleteReason(sections, stop)

  const report: HealthReport = {
    projectId: s.projectId,
    range: s.range,
    ...(s.period ? { period: s.period } : {}),
    ...(s.previous ? { previous: s.previous } : {}),
    sections,
    requests,
    generatedAt: ctx.deadline.now(),
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {}),
    ...(s.siteUrl ? { siteUrl: s.siteUrl } : {}),
    ...(trend ? { trend } : {}),
    ...(incomplete ? { incomplete } : {})
  }
  await setOutputs(ctx, report)
  if (s.summary) ctx.result.summary = renderHealthReport(report, bytes(SUMMARY_MAX_BYTES))
  // A run stopped part way still posts, but only where no report of this range is yet: a
  // complete one is never replaced by a partial one.
  setComment(ctx, report)
  if (stop instanceof BudgetError) {
    // The cap the workflow set: what was read is the report, and the run did what it was told.
    core.warning(
      `The report stopped at \`max-requests\` (${stop.maxRequests}): the sections after it were not read.`
    )
    return
  }
  if (stop !== undefined) throw stop

  const failed = sections.filter((x): x is SectionFailure => !x.ok)
  if (failed.length === sections.length && !incomplete)
    throw new Error(
      `Every section of the report failed: ${failed.map(f => `${f.name}: ${f.reason}`).join('; ')}`
    )
  if (failed.length === sections.length)
    throw new Error(`No section of the report was read: ${stripMarkdown(incomplete ?? '')}`)
}

/**
 * Why the report is incomplete, and when to run again (Markdown we wrote), or undefined when
 * every section was read or refused. A refusal is the service's answer, not a stop.
 */
function incompleteReason(
  sections: readonly SectionOutcome[],
  stop: Error | undefined
): string | undefined {
  const cut = sections.filter((x): x is SectionFailure => !x.ok && x.skipped === true)
  if (cut.length === 0) return undefined
  const names = cut.map(x => x.name).join(', ')
  const limit = cut[0]?.limit
  if (limit === 'quota') {
    const again =
      stop instanceof RateLimitError && stop.resetKnown
        ? `after ${stop.resetAt.toISOString().slice(11, 16)} UTC, when the limit resets`
        : 'within the hour, once the limit has reset'
    return (
      `The service's hourly analytics limit (about 100 requests per organisation, shared by ` +
      `every analytics run) was reached: ${names} not read. Run the workflow again ${again}.`
    )
  }
  if (limit === 'max-requests')
    return (
      `This run may send ${stop instanceof BudgetError ? stop.maxRequests : 'only so many'} ` +
      `requests (\`max-requests\`) and spent them: ${names} not read. Raise \`max-requests\` ` +
      'or run the workflow again.'
    )
  return (
    `The time allowed (\`wait-timeout\`) ran out: ${names} not read. Run the workflow again, ` +
    'with a longer `wait-timeout` if it keeps happening.'
  )
}

function stripMarkdown(text: string): string {
  return text.replace(/`/g, '')
}

/**
 * Every section in order. Out of quota, the sections left are not read (each would only be
 * refused, pushing the reset further away) and `stop` is the error the run ends with.
 */
async function readSections(
  names: SectionName[],
  input: SectionInput,
  spent: { readonly requests: number },
  sections: SectionOutcome[]
): Promise<Error | undefined> {
  let stop: Error | undefined
  for (const name of names) {
    if (stop !== undefined) {
      sections.push(stoppedBy(stop, name))
      continue
    }
    const before = spent.requests
    try {
      const outcome = await readSection(name, withShownPaths(input, sections))
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
    return failure(name, failureReason(err, status), status)
  }
}

/**
 * A refusal, in the service's words and what it points at: a 404 from an analytics operation
 * most likely means the project was not found (`project-id`); a 403, the key (its scope, an IP
 * allowlist) or the plan. A feature that is off is not refused: it answers 200 with nothing.
 */
function failureReason(err: unknown, status: number | undefined): string {
  if (err instanceof ServiceError && err.serviceText) {
    if (status === 404) return `${err.serviceText}; the project was not found: check \`project-id\``
    if (status === 403)
      return (
        `${err.serviceText}; check the key (an admin key of this organisation, its scope, an ` +
        'IP allowlist that refuses GitHub-hosted runners) or whether your plan includes this analytics'
      )
  }
  return messageOf(err)
}

/**
 * Out of quota, or a key the service rejects: every other section would fail the same way,
 * each spending a request.
 */
function endsTheRun(err: unknown): boolean {
  // A page that hit the quota just as the time ran out comes wrapped in the TimeUpError.
  if (err instanceof TimeUpError && err.cause !== undefined) return endsTheRun(err.cause)
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

/** The views section is handed the pages the visitors section shows, to draw them side by side. */
function withShownPaths(input: SectionInput, sections: readonly SectionOutcome[]): SectionInput {
  const visitors = sections.find(x => x.name === 'visitors')
  if (!visitors?.ok || visitors.name !== 'visitors') return input
  return { ...input, shownPaths: visitors.top.map(row => row.path) }
}

function logOutcome(outcome: SectionOutcome, calls: number): void {
  const spent = `${calls} ${calls === 1 ? 'request' : 'requests'}`
  if (outcome.ok) core.info(`Section ${outcome.name}: read in ${spent}.`)
  else if (outcome.refused)
    core.warning(`Section ${outcome.name}: the service refused it: ${outcome.reason}`)
  else core.warning(`Section ${outcome.name} failed: ${outcome.reason}`)
}

async function setOutputs(
  ctx: CommandContext<AnalyticsSettings>,
  report: HealthReport
): Promise<void> {
  const s = ctx.settings
  const visitors = report.sections.find(x => x.name === 'visitors')
  if (visitors?.ok && visitors.name === 'visitors') {
    const { human, ai, total } = visitors.totals
    ctx.result.set('human', String(human))
    ctx.result.set('ai', String(ai))
    ctx.result.set('total', String(total))
    ctx.result.set('totals', JSON.stringify({ human, ai, total }))
  }
  const json = reportJson(report)
  ctx.result.set('report', json)
  if (s.outputFile) {
    await writeFileAtomic(s.outputFile.absolute, `${json}\n`)
    ctx.result.set('report-file', s.outputFile.absolute)
  }
}

/** A failed section's reason in the JSON: the service's words, and at most this much of them. */
const REASON_JSON_MAX_CHARS = 2000

/**
 * The JSON document of the `report` output and file: per section what the report shows, or its
 * error. Lists are halved until it fits the limit, and `truncated` says so; a failure's reason is
 * clipped, so no answer of the service can push the document past its budget.
 */
export function reportJson(report: HealthReport, maxBytes = REPORT_JSON_MAX_BYTES): string {
  let keep = Infinity
  for (;;) {
    const doc = {
      range: report.range,
      ...(report.previous ? { previous: report.previous } : {}),
      requests: report.requests,
      ...(report.incomplete ? { incomplete: report.incomplete } : {}),
      sections: report.sections.map(x => cutLists(x, keep)),
      ...(keep < Infinity ? { truncated: true } : {})
    }
    const json = JSON.stringify(doc)
    if (Buffer.byteLength(json) <= maxBytes || keep === 0) return json
    keep = keep === Infinity ? longestList(report.sections) >> 1 : keep >> 1
  }
}

function cutLists(x: SectionOutcome, keep: number): SectionOutcome {
  if (!x.ok) return { ...x, reason: clip(x.reason, REASON_JSON_MAX_CHARS) }
  if (keep === Infinity) return x
  switch (x.name) {
    case 'searches':
      return { ...x, top: x.top.slice(0, keep), gaps: x.gaps.slice(0, keep) }
    case 'visitors':
    case 'views':
      return {
        ...x,
        top: x.top.slice(0, keep),
        ...(x.shown ? { shown: x.shown.slice(0, keep) } : {}),
        ...(x.previousRows ? { previousRows: x.previousRows.slice(0, keep) } : {})
      }
    default:
      return { ...x, top: x.top.slice(0, keep) } as Section
  }
}

function longestList(sections: SectionOutcome[]): number {
  return Math.max(0, ...sections.map(x => (x.ok ? x.top.length : 0)))
}

function setComment(ctx: CommandContext<AnalyticsSettings>, report: HealthReport): void {
  const { octokit, target, settings: s } = ctx
  if (!octokit || !target) return
  ctx.result.comment = async () => {
    const ref = await upsertComment(octokit, target, {
      // One comment per range: a re-run edits it, a new week gets its own.
      key: markerKey('report', s.projectId, s.range.dateFrom ?? '', s.range.dateTo ?? ''),
      body: room => renderHealthReport(report, chars(room)),
      mode: report.incomplete && s.commentMode === 'upsert' ? 'if-absent' : s.commentMode,
      secret: s.apiKey
    })
    if (ref.kept)
      core.notice(
        `This report is incomplete, so it was not posted: the report of this range already on the issue (${ref.url}) stays as it is.`
      )
    return ref.url
  }
}

/** The trend draws the sections of pages that were read. */
function trendSections(sections: SectionOutcome[]): { visitors: boolean; views: boolean } {
  const read = (name: string): boolean => sections.some(x => x.name === name && x.ok)
  return { visitors: read('visitors'), views: read('views') }
}

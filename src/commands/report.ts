// `command: report`: the docs-health report. Each section reads its analytics operation; a
// section the service refuses is drawn in its place, and only a report with no section left
// fails the step. Running out of quota stops everything at once: every later request would be
// refused too, and each one would push the reset further away.
import * as core from '@actions/core'
import { readAssistant } from '../analytics/sections/assistant.js'
import { readFeedback } from '../analytics/sections/feedback.js'
import { readSearches } from '../analytics/sections/searches.js'
import type { Section, SectionOutcome } from '../analytics/sections/outcome.js'
import type { SectionFailure, SectionInput } from '../analytics/sections/section.js'
import { readViews, readVisitors } from '../analytics/sections/visitors.js'
import type { DateRange } from '../period.js'
import { markerKey, upsertComment } from '../github/comments.js'
import { renderHealthReport, type HealthReport } from '../report/health.js'
import { AnalyticsApi } from '../service/analytics.js'
import { BudgetError, RateLimitError, ServiceError } from '../service/errors.js'
import { messageOf, runDeadline, TimeUpError } from '../errors.js'
import type { SectionName } from '../analytics/section-names.js'
import { readTrend } from '../analytics/trend.js'
import { writeFileAtomic } from '../workspace.js'
import type { AnalyticsSettings } from '../settings.js'
import type { CommandContext } from './context.js'

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
  const deadline = runDeadline(ctx.startedAt, s.waitTimeoutMs).at
  const input: SectionInput = {
    api: new AnalyticsApi(ctx.service, s.projectId, deadline),
    range: s.range,
    ...(s.previous ? { previous: s.previous } : {}),
    top: s.top,
    pageSize: s.pageSize,
    maxRows: s.maxRows,
    concurrency: s.concurrency,
    deadline,
    onWarning: line => core.warning(line)
  }
  core.info(`Docs-health report for ${describe(s.range)}: ${s.sections.join(', ')}.`)

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

  const report: HealthReport = {
    projectId: s.projectId,
    range: s.range,
    ...(s.period ? { period: s.period } : {}),
    ...(s.previous ? { previous: s.previous } : {}),
    sections,
    requests,
    generatedAt: Date.now(),
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {}),
    ...(s.siteUrl ? { siteUrl: s.siteUrl } : {}),
    ...(trend ? { trend } : {})
  }
  await setOutputs(ctx, report)
  if (s.summary) ctx.result.summary = renderHealthReport(report, SUMMARY_MAX_BYTES)
  // Out of quota: the sections read are worth a summary, but a comment would replace a complete
  // report of this range on the issue with a partial one.
  if (stop instanceof BudgetError) {
    // The cap the workflow set: what was read is the report, and the run did what it was told.
    core.warning(
      `The report stopped at \`max-requests\` (${stop.maxRequests}): the sections after it were not read.`
    )
    return
  }
  if (stop !== undefined) throw stop
  setComment(ctx, report)

  const failed = sections.filter((x): x is SectionFailure => !x.ok)
  if (failed.length === sections.length)
    throw new Error(
      `Every section of the report failed: ${failed.map(f => `${f.name}: ${f.reason}`).join('; ')}`
    )
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
      sections.push(
        skipped(
          name,
          stop instanceof BudgetError
            ? `\`max-requests\` (${stop.maxRequests}) was spent before it`
            : 'the hourly analytics limit was reached before it'
        )
      )
      continue
    }
    const before = spent.requests
    try {
      const outcome = await readSection(name, input)
      sections.push(outcome)
      logOutcome(outcome, spent.requests - before)
    } catch (err) {
      if (!isQuotaError(err)) throw err
      stop = err
      if (err instanceof BudgetError)
        sections.push(skipped(name, `\`max-requests\` (${err.maxRequests}) was spent during it`))
      else sections.push(failure(name, err.message, err instanceof ServiceError ? err.status : 429))
    }
  }
  return stop
}

/** One section, its failure caught and kept in its place unless it must end the run. */
async function readSection(name: SectionName, input: SectionInput): Promise<SectionOutcome> {
  if (Date.now() >= input.deadline)
    return skipped(name, 'the time allowed (`wait-timeout`) ran out before it')
  try {
    return await READERS[name](input)
  } catch (err) {
    if (endsTheRun(err)) throw err
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

function skipped(name: SectionName, why: string): SectionFailure {
  return { name, ok: false, refused: false, skipped: true, reason: `not read: ${why}` }
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

/**
 * The JSON document of the `report` output and file: per section what the report shows, or its
 * error. Lists are halved until it fits the limit, and `truncated` says so.
 */
export function reportJson(report: HealthReport, maxBytes = REPORT_JSON_MAX_BYTES): string {
  let keep = Infinity
  for (;;) {
    const doc = {
      range: report.range,
      ...(report.previous ? { previous: report.previous } : {}),
      requests: report.requests,
      sections: report.sections.map(x => cutLists(x, keep)),
      ...(keep < Infinity ? { truncated: true } : {})
    }
    const json = JSON.stringify(doc)
    if (Buffer.byteLength(json) <= maxBytes || keep === 0) return json
    keep = keep === Infinity ? longestList(report.sections) >> 1 : keep >> 1
  }
}

function cutLists(x: SectionOutcome, keep: number): SectionOutcome {
  if (!x.ok || keep === Infinity) return x
  if (x.name === 'searches') return { ...x, top: x.top.slice(0, keep), gaps: x.gaps.slice(0, keep) }
  return { ...x, top: x.top.slice(0, keep) } as Section
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
      body: room => renderHealthReport(report, room),
      mode: s.commentMode,
      secret: s.apiKey
    })
    return ref.url
  }
}

/** The trend draws the sections of pages that were read. */
function trendSections(sections: SectionOutcome[]): { visitors: boolean; views: boolean } {
  const read = (name: string): boolean => sections.some(x => x.name === name && x.ok)
  return { visitors: read('visitors'), views: read('views') }
}

function describe(range: DateRange): string {
  if (range.dateFrom === undefined && range.dateTo === undefined) return 'all time'
  return `${range.dateFrom ?? 'the start'} to ${range.dateTo ?? 'now'} (end exclusive)`
}

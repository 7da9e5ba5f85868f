// `command: report`: the docs-health report. What earlier reports in the issue recorded comes
// first (the totals they knew need no request); then each section reads its analytics operation
// (a refusal is drawn in its place; only a report with no section left fails the step); then the
// trend, newest period first; then what to fix this week. The comment carries the records the next
// report takes up. Running out of quota stops everything at once.
import * as core from '@actions/core'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import type { SectionFailure } from '../analytics/sections/section.js'
import { suggest, type Suggestion } from '../analytics/suggestions.js'
import { subjectsToRecord } from '../analytics/fix-effect.js'
import { readTrend, type Trend, type TrendSeries } from '../analytics/trend.js'
import { reportKey, type ReportRecords } from '../records/report.js'
import { Series } from '../records/series.js'
import type { RecordThread } from '../records/thread.js'
import { periodSpan } from '../report/chart.js'
import { renderHealthReport, type HealthReport } from '../report/health.js'
import { reportJson } from '../report/health-json.js'
import { instructionFor, type NumberedSuggestion } from '../report/suggestions.js'
import { BudgetError } from '../service/errors.js'
import { writeFileAtomic } from '../workspace/files.js'
import { messageOf } from '../errors.js'
import { clip } from '../report/markdown.js'
import { chars, SUMMARY_ROOM } from '../report/fit.js'
import { parseInstant } from '../period.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { describeRange, probeIssue, sectionInput } from './analytics-input.js'
import {
  earlierSuggestions,
  effectsOf,
  fixedPages,
  fixStates,
  knownTotals,
  recall,
  recordKeys,
  reportThread,
  timesSuggested
} from './report-memory.js'
import { incompleteReason, limitOf, readSections } from './report-sections.js'
import { stalePages } from './report-stale.js'
import { sayRefused } from './report-refused.js'

export async function runReport(ctx: CommandContext<AnalyticsSettings>): Promise<void> {
  // Before anything is spent: the issue the report goes to is there.
  await probeIssue(ctx)
  const thread = reportThread(ctx)
  // A cause a re-run cannot help is said on the issue too (report-refused.ts).
  await report(ctx, thread).catch((err: unknown) => {
    sayRefused(ctx, thread, err)
    throw err
  })
}

async function report(
  ctx: CommandContext<AnalyticsSettings>,
  thread: RecordThread | undefined
): Promise<void> {
  const s = ctx.settings
  core.info(`Docs-health report for ${describeRange(s.range)}: ${s.sections.join(', ')}.`)
  const records = await recall(ctx, thread)
  const read = await readReport(ctx, records)
  const { report, keys } = await composeReport(ctx, read, records)
  await setOutputs(ctx, report)
  // The summary is on the run's page: no link to the page it is on.
  if (s.summary)
    ctx.result.summary = renderHealthReport({ ...report, runUrl: undefined }, SUMMARY_ROOM)
  setComment(ctx, thread, report, keys)
  endOfReport(read, report.incomplete)
}

/** What the service said of the range: the sections, then the trend. */
interface ReportRead {
  sections: SectionOutcome[]
  /** The error that stopped the run's reading (out of quota, `max-requests`), if any. */
  stop: Error | undefined
  trend: Trend | undefined
}

/** Each section, then the trend; the totals an earlier report recorded cost no request. */
async function readReport(
  ctx: CommandContext<AnalyticsSettings>,
  records: ReportRecords | undefined
): Promise<ReportRead> {
  const s = ctx.settings
  const known = s.previous ? records?.totals(s.previous) : undefined
  const measuredPaths = fixedPages(records)
  const input = {
    ...sectionInput(ctx, { withPrevious: true }),
    ...(known ? { known } : {}),
    ...(measuredPaths.length > 0 ? { measuredPaths } : {})
  }
  const sections: SectionOutcome[] = []
  ctx.result.onCancel = signal => {
    const read = sections.filter(x => x.ok).map(x => x.name)
    return Promise.resolve(
      `Cancelled (${signal}) while reading the report: ${read.length > 0 ? `read ${read.join(', ')}` : 'no section was read'}; nothing was published.`
    )
  }
  const stop = await readSections(s.sections, input, ctx.service, sections)
  const trend = s.trendRanges ? await readTrendOf(ctx, sections, records, stop) : undefined
  return { sections, stop, trend }
}

/**
 * The report drawn from what was read and what earlier reports recorded: what to fix this week,
 * what the last fixes did; and the keys of the records it leaves for the next report.
 */
async function composeReport(
  ctx: CommandContext<AnalyticsSettings>,
  { sections, stop, trend }: ReportRead,
  records: ReportRecords | undefined
): Promise<{ report: HealthReport; keys: string[] }> {
  const s = ctx.settings
  const fixes = await fixStates(ctx, records)
  const ages = await stalePages(ctx, sections)
  const suggested = suggest({ sections, fixes, stale: ages.stale, ...periodStart(s) })
  const suggestions = numbered(suggested.suggestions, s, ctx.deadline.now()).map(x => {
    const times = timesSuggested(records, s.range, x.id)
    return times > 1 ? { ...x, times } : x
  })
  const effects = effectsOf(records, s.range, sections, fixes)
  const incomplete = incompleteReason(sections, stop, trendCut(trend))
  const report: HealthReport = {
    projectId: s.projectId,
    range: s.range,
    ...(s.period ? { period: s.period } : {}),
    ...(s.previous ? { previous: s.previous } : {}),
    sections,
    requests: ctx.service.requests,
    generatedAt: ctx.deadline.now(),
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {}),
    ...(s.siteUrl ? { siteUrl: s.siteUrl } : {}),
    ...(trend ? { trend } : {}),
    ...(incomplete ? { incomplete } : {}),
    suggestions,
    earlier: earlierSuggestions(
      records,
      s.range,
      fixes,
      suggested.held,
      new Set(effects.map(e => e.pr))
    ),
    ...(ages.withoutFile > 0 ? { pagesWithoutFile: ages.withoutFile } : {}),
    ...(suggested.leftOut > 0 ? { leftOut: suggested.leftOut } : {}),
    ...(ages.undated > 0 ? { pagesUndated: ages.undated } : {}),
    effects
  }
  const measured = subjectsToRecord(
    suggestions.map(x => x.id),
    effects,
    fixes
  )
  return { report, keys: recordKeys(s, sections, trend, suggestions, measured) }
}

/** Where the trend stopped, and the periods it misses, for the report's "incomplete". */
function trendCut(trend: Trend | undefined) {
  return trend?.stop
    ? {
        stop: trend.stop,
        missing: periodSpan(
          trend.points.map(p => p.range),
          trend.stop.missing
        )
      }
    : undefined
}

/**
 * How the run ends once the report is published: at the workflow's `max-requests`, what was read
 * is the report; another stop, or no section read, fails the step.
 */
function endOfReport({ sections, stop, trend }: ReportRead, incomplete: string | undefined): void {
  const ended = stop ?? trend?.stop?.error
  if (ended instanceof BudgetError) {
    // The cap the workflow set: what was read is the report, and the run did what it was told.
    core.warning(
      `The report stopped at \`max-requests\` (${ended.maxRequests}): what came after it was not read.`
    )
    return
  }
  if (ended !== undefined) throw ended

  const failed = sections.filter((x): x is SectionFailure => !x.ok)
  if (failed.length === sections.length && !incomplete)
    throw new Error(
      `Every section of the report failed: ${failed.map(f => `${f.name}: ${f.reason}`).join('; ')}`
    )
  if (failed.length === sections.length)
    throw new Error(`No section of the report was read: ${stripMarkdown(incomplete ?? '')}`)
}

function stripMarkdown(text: string): string {
  return text.replace(/`/g, '')
}

/**
 * The trend of the sections of pages that were read: periods the comparison or an earlier report
 * knows cost nothing; after a stop of the run, only those are drawn.
 */
async function readTrendOf(
  ctx: CommandContext<AnalyticsSettings>,
  sections: readonly SectionOutcome[],
  records: ReportRecords | undefined,
  stop: Error | undefined
): Promise<Trend> {
  const s = ctx.settings
  const read = (name: TrendSeries): boolean => sections.some(x => x.name === name && x.ok)
  const series = (['visitors', 'views'] as const).filter(read)
  const before = ctx.service.requests
  const trend = await readTrend(sectionInput(ctx, { withPrevious: false }).api, {
    ranges: s.trendRanges ?? [],
    series,
    known: knownTotals(sections, s.previous, records),
    ...(stop
      ? {
          stopped: {
            limit: limitOf(stop),
            reason: 'the run stopped before the trend was read'
          }
        }
      : {})
  })
  core.info(
    `Trend: ${trend.known} of ${trend.points.length} periods known without a request; ` +
      `${ctx.service.requests - before} requests.`
  )
  if (trend.stop && !stop)
    core.warning(
      `Trend: stopped at the period from ${trend.stop.at.dateFrom} (read newest first, once each): ${clip(trend.stop.reason, 600)}`
    )
  return trend
}

/** Where this period begins: a fix merged before it is measured by this report. */
function periodStart(s: AnalyticsSettings): { periodStart?: number } {
  const at = s.range.dateFrom !== undefined ? parseInstant(s.range.dateFrom) : undefined
  return at !== undefined ? { periodStart: at } : {}
}

function numbered(
  list: readonly Suggestion[],
  s: AnalyticsSettings,
  now: number
): NumberedSuggestion[] {
  return list.map((x, i) => ({ ...x, n: i + 1, instruction: instructionFor(x, s.range, now) }))
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

function setComment(
  ctx: CommandContext<AnalyticsSettings>,
  thread: RecordThread | undefined,
  report: HealthReport,
  records: string[]
): void {
  const s = ctx.settings
  const { mode } = ctx.commenting
  if (!thread) return
  ctx.result.comment = async () => {
    const ref = await thread.upsert({
      // One comment per range: a re-run edits it, a new week gets its own.
      key: reportKey(s.projectId, s.range),
      // What the next report takes up, and the instructions `fix N` sends: signed, never read
      // from the comment's text.
      extraKeys: records,
      body: room => renderHealthReport({ ...report, trigger: s.trigger }, chars(room)),
      // A run stopped part way still posts, but only where no report of this range is yet: a
      // complete one is never replaced (nor hidden) by a partial one.
      mode: report.incomplete && mode !== 'create' ? 'if-absent' : mode,
      // This project's reports at this cadence (a weekly, a monthly and a roll-up are apart):
      // `upsert` and `minimize` touch only those, and none of a later range.
      series: Series.report(s.projectId, s.range)
    })
    if (ref.kept)
      core.notice(
        `This report is incomplete, so it was not posted: the report of this range already on the issue (${ref.url}) stays as it is.`
      )
    else await withCommentUrl(s, report, ref.url)
    return ref.url
  }
}

/**
 * The file again, now with the URL of the comment just written: the file is written when the
 * report is made (so a comment that fails still leaves it) and again once its comment exists, so
 * that a roll-up can link each project's report.
 */
async function withCommentUrl(
  s: AnalyticsSettings,
  report: HealthReport,
  url: string
): Promise<void> {
  if (!s.outputFile) return
  try {
    await writeFileAtomic(s.outputFile.absolute, `${reportJson(report, undefined, url)}\n`)
  } catch (err) {
    core.warning(
      `Could not add the comment's URL to \`output-file\` (${s.outputFile.path}): ${messageOf(err)}`
    )
  }
}

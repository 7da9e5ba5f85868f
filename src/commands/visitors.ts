// `command: visitors`: export every row (file, outputs), then the report (summary, comment). The
// pages are read by the report's visitors section reader: one reader, two callers.
import * as core from '@actions/core'
import type { SectionInput } from '../analytics/sections/section.js'
import {
  readPreviousPages,
  readRangePages,
  type PagesRead
} from '../analytics/sections/visitors.js'
import { openSink, type Sink } from '../analytics/sinks.js'
import type { DateRange } from '../period.js'
import { visitorsKey } from '../records/report.js'
import { chars, SUMMARY_ROOM } from '../report/fit.js'
import {
  commentFullData,
  fitVisitorsReport,
  renderVisitorsReport,
  type VisitorsReport
} from '../report/visitors.js'
import { TimeUpError } from '../errors.js'
import { readTrend } from '../analytics/trend.js'
import { BudgetError } from '../service/errors.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { describeRange, probeIssue, sectionInput } from './analytics-input.js'

export async function runVisitors(ctx: CommandContext<AnalyticsSettings>): Promise<void> {
  const s = ctx.settings
  // Before anything is spent: the issue the table goes to is there.
  await probeIssue(ctx)
  ctx.result.set('date-from', s.range.dateFrom ?? '')
  ctx.result.set('date-to', s.range.dateTo ?? '')
  core.info(`Exporting visitors for ${describeRange(s.range)} (${s.pageSize} rows per request).`)

  // The report section's reader, with this command's file and its words for warnings; the
  // period before is read below, once the export is written.
  const input = sectionInput(ctx, { withPrevious: false })
  const pages = await exportRows(ctx, input)
  setExportOutputs(ctx, pages.read)
  const report = await visitorsReport(ctx, pages, input)
  // Never reported complete when it is not: the step fails, with the summary saying why.
  const { incomplete } = pages.section
  if (incomplete)
    ctx.result.failure =
      `The visitors export is incomplete: ${incomplete}` +
      (s.outputFile ? ` The ${pages.read.rows} rows read are in ${s.outputFile.path}.` : '')
  publishReport(ctx, report)
}

/** Every row of the range, written to `output-file` page by page as it comes. */
async function exportRows(
  ctx: CommandContext<AnalyticsSettings>,
  input: SectionInput
): Promise<PagesRead> {
  const s = ctx.settings
  let sink: Sink | undefined
  let rowsRead = 0
  // Cancelled mid-export: the partial file goes, and the log says how far the export got.
  ctx.result.onCancel = async signal => {
    await sink?.abort().catch(() => undefined)
    return `Cancelled (${signal}) after reading ${rowsRead} rows: the export stopped${s.outputFile ? `, and no file was written to ${s.outputFile.path}` : ''}.`
  }
  try {
    const pages = await readRangePages('visitors', input, {
      label: '',
      onPage: async (rows, page) => {
        if (s.outputFile && !sink)
          sink = await openSink(s.outputFile.absolute, s.outputFile.format, s.range, page.totals)
        rowsRead += rows.length
        await sink?.write(rows)
      }
    })
    await sink?.close()
    return pages
  } catch (err) {
    await sink?.abort().catch(() => undefined)
    if (err instanceof BudgetError) throw budgetSpent(err, rowsRead, s.pageSize, sink !== undefined)
    throw explainTimeUp(err, sink !== undefined)
  }
}

/** What the export read, in the log and the step's outputs. */
function setExportOutputs(ctx: CommandContext<AnalyticsSettings>, read: PagesRead['read']): void {
  const s = ctx.settings
  const totals = read.first.totals
  core.info(
    `Exported ${read.rows} rows in ${requestsText(read.requests)}` +
      (read.abandoned ? ` (${read.abandoned} read ahead past the end)` : '') +
      `: ${totals.total} unique visitors (${totals.human} human, ${totals.ai} AI).`
  )
  ctx.result.set('human', String(totals.human))
  ctx.result.set('ai', String(totals.ai))
  ctx.result.set('total', String(totals.total))
  ctx.result.set(
    'totals',
    JSON.stringify({ human: totals.human, ai: totals.ai, total: totals.total })
  )
  ctx.result.set('rows', String(read.rows))
  if (s.outputFile) ctx.result.set('visitors-file', s.outputFile.absolute)
}

/** The report of the export: the range's top pages, and the period before and the trend if asked. */
async function visitorsReport(
  ctx: CommandContext<AnalyticsSettings>,
  pages: PagesRead,
  input: SectionInput
): Promise<VisitorsReport> {
  const s = ctx.settings
  const { read, section } = pages
  const report: VisitorsReport = {
    projectId: s.projectId,
    range: s.range,
    period: s.period,
    totals: read.first.totals,
    rows: read.rows,
    top: section.top,
    file: s.outputFile?.path,
    maxRowsReached: read.maxRowsReached,
    runUrl: ctx.runUrl,
    generatedAt: ctx.deadline.now(),
    ...(s.siteUrl ? { siteUrl: s.siteUrl } : {}),
    ...(section.notes ? { notes: section.notes } : {}),
    ...(section.incomplete ? { incomplete: section.incomplete } : {})
  }
  if (s.previous) report.previous = await readPrevious(pages, input, s.previous)
  if (s.trendRanges) report.trend = await readVisitorsTrend(input, s.trendRanges, report.previous)
  // The client counts every request it sent, retries included.
  report.requests = ctx.service.requests
  core.info(
    `This run spent ${requestsText(report.requests)} of the analytics quota (about 100 an hour).`
  )
  return report
}

/** The totals of the periods before the range, newest first. */
async function readVisitorsTrend(
  input: SectionInput,
  ranges: Required<DateRange>[],
  before: VisitorsReport['previous']
): Promise<NonNullable<VisitorsReport['trend']>> {
  const trend = await readTrend(input.api, {
    ranges,
    series: ['visitors'],
    // The period before is the trend's newest: the comparison already read its totals.
    known: range =>
      before && range.dateFrom === before.range.dateFrom && range.dateTo === before.range.dateTo
        ? { visitors: before.totals }
        : undefined
  })
  if (trend.stop)
    core.warning(
      `Trend: stopped at the period from ${trend.stop.at.dateFrom}: ${trend.stop.reason}`
    )
  return trend
}

/** The report in the summary (its top pages, pointing at the file) and as the comment. */
function publishReport(ctx: CommandContext<AnalyticsSettings>, report: VisitorsReport): void {
  const s = ctx.settings
  const file = s.outputFile ? `\`${s.outputFile.path}\`` : undefined
  // The summary is on the run's page: no link to the page it is on.
  const summary = fitVisitorsReport(
    { ...report, runUrl: undefined },
    { room: SUMMARY_ROOM, fullData: file }
  )
  if (s.summary) ctx.result.summary = summary.markdown
  const everyRow = commentFullData(
    s.summary && summary.rows === report.top.length,
    s.outputFile?.path,
    ctx.runUrl
  )
  const { records, target } = ctx
  if (records && target)
    ctx.result.comment = async () => {
      const ref = await records.thread(target).upsert({
        // One comment per report: a re-run edits it, a new week gets its own.
        key: visitorsKey(s.projectId, s.range),
        body: room =>
          renderVisitorsReport(
            { ...report, file: undefined },
            { room: chars(room), fullData: everyRow }
          ),
        mode: ctx.commenting.mode
      })
      return ref.url
    }
}

/** The period before: its totals, and the previous values of the shown pages only. */
async function readPrevious(
  current: PagesRead,
  input: SectionInput,
  range: Required<DateRange>
): Promise<NonNullable<VisitorsReport['previous']>> {
  core.info(`Reading the previous period for comparison: ${describeRange(range)}.`)
  let pages: PagesRead
  try {
    pages = await readPreviousPages(current, input, range, 'Previous period')
  } catch (err) {
    throw explainTimeUp(err, false, 'Reading the previous period')
  }
  const { section, previousRead } = pages
  const shown = current.section.top.length
  const byPath = new Map((section.previousRows ?? []).map(({ path, ...counts }) => [path, counts]))
  const totals = section.previous ?? { human: 0, ai: 0, total: 0 }
  if (previousRead) {
    const { read, sorted } = previousRead
    const missing = shown - byPath.size
    const how = read.stopped
      ? shown === 0
        ? 'only the totals were needed'
        : `stopped once all ${shown} shown pages were found`
      : !sorted
        ? 'read to the end: the rows did not come sorted by total'
        : missing > 0
          ? `read to the end: ${missing} shown ${missing === 1 ? 'page is' : 'pages are'} new`
          : 'read to the end'
    core.info(
      `Previous period: ${read.rows} rows in ${requestsText(read.requests)} (${how}); ` +
        `${totals.total} unique visitors.`
    )
  }
  return { range, totals, byPath }
}

/** A deadline error that says how far the read got, why the next page had not come, the file. */
function explainTimeUp(err: unknown, hadFile: boolean, what = 'The visitors export'): unknown {
  if (!(err instanceof TimeUpError) || !err.read) return err
  const next =
    err.cause instanceof Error
      ? `; the next page failed: ${err.cause.message.replace(/\.$/, '')}`
      : err.waitingFor.includes('offset')
        ? `; ${err.waitingFor} was still being read`
        : ''
  return new Error(
    `${what} did not finish within ${err.limit}: stopped after reading ${err.read.rows} rows ` +
      `(${err.read.pages} pages)${next}.` +
      (hadFile ? ' The partial file was removed.' : '')
  )
}

/**
 * `max-requests` ran out mid-export: how far it got, and what the whole export needs at least
 * (the service does not say how many pages are left, only that there are more).
 */
function budgetSpent(err: BudgetError, rows: number, pageSize: number, hadFile: boolean): Error {
  return new Error(
    `The visitors export stopped at \`max-requests\` (${err.maxRequests}): it read ${rows} rows ` +
      `(${Math.ceil(rows / pageSize)} pages of up to ${pageSize}) and there are more. The whole ` +
      'export needs at least one more request per further page: raise `max-requests` (or set 0), ' +
      'or narrow the range.' +
      (hadFile ? ' The partial file was removed.' : '')
  )
}

const requestsText = (n: number): string => `${n} request${n === 1 ? '' : 's'}`

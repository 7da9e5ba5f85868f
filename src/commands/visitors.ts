// `command: visitors`: export every row (file, outputs), then the report (summary, comment).
import * as core from '@actions/core'
import { exportVisitors, TopPages } from '../analytics/export.js'
import { openSink, type Sink } from '../analytics/sinks.js'
import type { DateRange } from '../analytics/period.js'
import { COMMENT_LIMIT, MARKER_ROOM, markerKey, upsertComment } from '../github/comments.js'
import { fitComment } from '../report/markdown.js'
import { renderVisitorsReport, type VisitorsReport } from '../report/visitors.js'
import type { VisitorCounts, VisitorsPage } from '../service/schema.js'
import type { CommandContext } from './context.js'

/** Well under GitHub's 1 MiB step-summary limit, leaving room for other steps' summaries. */
const SUMMARY_MAX_BYTES = 512 * 1024

export async function runVisitors(ctx: CommandContext): Promise<void> {
  const s = ctx.settings
  const deadline = ctx.startedAt + s.waitTimeoutMs
  core.setOutput('date-from', s.range.dateFrom ?? '')
  core.setOutput('date-to', s.range.dateTo ?? '')
  core.info(`Exporting visitors for ${describe(s.range)} (${s.pageSize} rows per request).`)

  const top = new TopPages(s.top)
  let sink: Sink | undefined
  const fetchPage = (range: DateRange) => (offset: number, limit: number) =>
    ctx.service.getVisitorsPage(s.projectId, { ...range, limit, offset }, deadline)
  let result
  try {
    result = await exportVisitors({
      fetchPage: fetchPage(s.range),
      pageSize: s.pageSize,
      maxRows: s.maxRows,
      concurrency: s.concurrency,
      onRows: async (rows, totals) => {
        if (s.outputFile && !sink)
          sink = await openSink(s.outputFile.absolute, s.outputFile.format, s.range, totals)
        top.add(rows)
        await sink?.write(rows)
      },
      onWarning: line => core.warning(line)
    })
    await sink?.close()
  } catch (err) {
    await sink?.abort().catch(() => undefined)
    throw err
  }
  const { totals } = result
  core.info(
    `Exported ${result.rows} rows in ${result.requests} requests` +
      (result.pagesPastEnd ? ` (${result.pagesPastEnd} read ahead past the end)` : '') +
      `: ${totals.total} unique visitors (${totals.human} human, ${totals.ai} AI).`
  )
  core.setOutput('human', String(totals.human))
  core.setOutput('ai', String(totals.ai))
  core.setOutput('total', String(totals.total))
  core.setOutput(
    'totals',
    JSON.stringify({ human: totals.human, ai: totals.ai, total: totals.total })
  )
  core.setOutput('rows', String(result.rows))
  if (s.outputFile) core.setOutput('visitors-file', s.outputFile.absolute)

  const report: VisitorsReport = {
    projectId: s.projectId,
    range: s.range,
    period: s.period,
    totals,
    rows: result.rows,
    top: top.list(),
    file: s.outputFile?.path,
    maxRowsReached: result.maxRowsReached,
    runUrl: ctx.runUrl,
    generatedAt: Date.now()
  }
  if (s.previous)
    report.previous = await exportPrevious(ctx, s.previous, report, fetchPage(s.previous))

  const fileHint = s.outputFile ? `\`${s.outputFile.path}\`` : undefined
  if (s.summary) {
    const md = renderVisitorsReport(report, { maxChars: SUMMARY_MAX_BYTES, fullDataHint: fileHint })
    await core.summary.addRaw(md).write()
  }
  if (ctx.octokit && ctx.target) {
    const md = renderVisitorsReport(report, {
      maxChars: COMMENT_LIMIT - MARKER_ROOM,
      fullDataHint: fileHint ?? 'the job summary'
    })
    const ref = await upsertComment(ctx.octokit, ctx.target, {
      // One comment per report: a re-run edits it, a new week gets its own.
      key: markerKey('visitors', s.projectId, s.range.dateFrom ?? '', s.range.dateTo ?? ''),
      body: fitComment(md, COMMENT_LIMIT - MARKER_ROOM),
      mode: s.commentMode,
      secret: s.apiKey
    })
    core.setOutput('comment-url', ref.url)
  }
}

/** The period before, read in full, keeping only the rows of the top pages (memory stays flat). */
async function exportPrevious(
  ctx: CommandContext,
  range: Required<DateRange>,
  report: VisitorsReport,
  fetchPage: (offset: number, limit: number) => Promise<VisitorsPage>
): Promise<NonNullable<VisitorsReport['previous']>> {
  const s = ctx.settings
  core.info(`Exporting the previous period for comparison: ${describe(range)}.`)
  const wanted = new Set(report.top.map(r => r.path))
  const byPath = new Map<string, VisitorCounts>()
  const result = await exportVisitors({
    fetchPage,
    pageSize: s.pageSize,
    maxRows: s.maxRows,
    concurrency: s.concurrency,
    onRows: rows => {
      for (const r of rows) {
        if (wanted.has(r.path) && !byPath.has(r.path))
          byPath.set(r.path, { human: r.human, ai: r.ai, total: r.total })
      }
    },
    onWarning: line => core.warning(`Previous period: ${line}`)
  })
  return { range, totals: result.totals, byPath }
}

function describe(range: DateRange): string {
  if (range.dateFrom === undefined && range.dateTo === undefined) return 'all time'
  return `${range.dateFrom ?? 'the start'} to ${range.dateTo ?? 'now'} (end exclusive)`
}

// The visitors report (job summary and comment): the answer in the headline, the totals with
// the human/AI overlap made explicit, the trend (with `trend`: the one chart, as it tells what no
// table here does), then the top pages in a table that fits the room it is given, one unit per
// column and on one line per row at a comment's 760 px. Rows that do not fit say where every row
// really is (the output file, the job summary when it holds them all), or that nothing does.

import type { DateRange, Period } from '../period.js'
import type { VisitorCounts, VisitorRow } from '../service/schema.js'
import type { Trend } from '../analytics/trend.js'
import { pageColumns, pageRow } from './pages-table.js'
import { trendBlock } from './chart.js'
import {
  escapeText,
  link,
  foldedTable,
  provenance,
  tableHead,
  tableRow,
  type Column
} from './markdown.js'
import { formatChange, formatNumber, formatPercentChange, formatShare, plural } from './numbers.js'
import { fitMarkdown, fitRows, type Room } from './fit.js'
import { previousLabel, shortRange } from './range.js'

export interface VisitorsReport {
  projectId: string
  range: DateRange
  period?: Period
  totals: VisitorCounts
  rows: number
  /** Already sorted, most total visitors first. */
  top: VisitorRow[]
  previous?: { range: DateRange; totals: VisitorCounts; byPath: Map<string, VisitorCounts> }
  file?: string
  maxRowsReached?: boolean
  runUrl?: string
  /** ms epoch the report was made. */
  generatedAt: number
  /** https address of the docs site, no trailing slash: page paths link there. */
  siteUrl?: string
  /** Analytics requests this run sent. */
  requests?: number
  /** With `trend`: the periods before the range, oldest first, and what reading them cost. */
  trend?: Trend
  /** What the service made the reading do (pages narrowed): our words. */
  notes?: string[]
  /** Why the export is not complete (empty pages that still said more exist): our words. */
  incomplete?: string
}

export interface VisitorsRenderOptions {
  /** A comment's room (characters) or the job summary's (bytes). */
  room: Room
  /**
   * Trusted Markdown naming where every row really is, e.g. "`out/visitors.csv`"; undefined when
   * no place holds them all (the note then says how to keep them).
   */
  fullData?: string
}

/** Said where rows are left out and nothing holds them all. */
const KEEP_EVERY_ROW = 'set `output-file` (and upload it as an artifact) to keep every row'

// ---------------------------------------------------------------------------------------------
// Head: headline, what and when, totals

function headline(r: VisitorsReport): string {
  const total = plural(r.totals.total, 'unique visitor')
  const when = shortRange(r.range, r.generatedAt)
  if (!r.previous) return `### ${total} · ${when}`
  const before = previousLabel(r.range, r.period)
  const change = formatPercentChange(r.totals.total, r.previous.totals.total)
  const compared = change ? `${change} vs ${before}` : `none in ${before}`
  return `### ${total}, ${compared} · ${when}`
}

/** Everything but the range (the headline says it): whose visitors, the comparison, provenance. */
function metaLine(r: VisitorsReport): string {
  return [
    `Docs visitors of project ${escapeText(r.projectId)}`,
    ...(r.previous ? [`compared with ${shortRange(r.previous.range, r.generatedAt)}`] : []),
    ...provenance({ ...r, requestNoun: 'analytics request' })
  ].join(' · ')
}

/** Visitors counted as both human and AI, when the service's numbers allow knowing it. */
function overlap(c: VisitorCounts): number | undefined {
  const both = c.human + c.ai - c.total
  return both >= 0 ? both : undefined
}

function totalsTable(r: VisitorsReport): string {
  const { totals, previous } = r
  const both = overlap(totals)
  // When human + AI falls short of the total (visitors the service classes as neither), shares
  // of the total would hide that; shares of their sum, said so in the note, stay honest.
  const whole = both === undefined ? totals.human + totals.ai : totals.total
  const change = (now: number, before: number | undefined) =>
    previous ? [formatChange(now, before)] : []
  const columns: Column[] = [
    { header: 'Traffic' },
    { header: 'Unique visitors', align: 'right' },
    { header: both === undefined ? 'Share of human + AI' : 'Share of total', align: 'right' },
    ...(previous ? [{ header: 'Change', align: 'right' as const }] : [])
  ]
  // Exclusive parts (human only, AI only, both) add up to the total and to 100 %: a share column
  // that sums past it reads as wrong, whatever a note says.
  const beforeBoth = previous ? overlap(previous.totals) : undefined
  const part = (c: VisitorCounts, key: 'human' | 'ai', b: number | undefined): number =>
    b === undefined ? c[key] : c[key] - b
  const label = (name: string): string => (both ? `${name} only` : name)
  const rows = (['human', 'ai'] as const).map(key => {
    const now = part(totals, key, both)
    const before = previous ? part(previous.totals, key, beforeBoth) : undefined
    return tableRow([
      label(key === 'human' ? 'Human' : 'AI'),
      formatNumber(now),
      formatShare(now, whole),
      ...change(now, before)
    ])
  })
  if (both !== undefined && both > 0) {
    rows.push(
      tableRow(['Both', formatNumber(both), formatShare(both, whole), ...change(both, beforeBoth)])
    )
  }
  rows.push(
    tableRow([
      'Total',
      formatNumber(totals.total),
      both === undefined ? '' : formatShare(totals.total, whole),
      ...change(totals.total, previous?.totals.total)
    ])
  )
  return `${tableHead(columns)}\n${rows.join('\n')}`
}

function totalsNote(totals: VisitorCounts): string {
  const both = overlap(totals)
  if (both === undefined)
    return (
      '_Shares are of human + AI. The total is the service’s count of unique visitors, each ' +
      'once, and is not their sum._'
    )
  if (both === 0) return '_Total counts each unique visitor once: human + AI = total._'
  return (
    `_Human only, AI only and both add up to the total: a visitor seen as human and as AI counts ` +
    `once, in "Both". The service's own figures: ${formatNumber(totals.human)} human, ` +
    `${formatNumber(totals.ai)} AI._`
  )
}

function exportedLine(r: VisitorsReport): string {
  const file = r.file ? ` to ${escapeText(r.file)}` : ''
  const limit = r.maxRowsReached ? ', stopped at `max-rows`' : ''
  return `${plural(r.rows, 'row')} exported${file}${limit}.`
}

function reportHead(r: VisitorsReport): string {
  const { dateFrom, dateTo } = r.range
  const trend =
    r.trend && dateFrom !== undefined && dateTo !== undefined
      ? trendBlock({
          trend: r.trend,
          series: ['visitors'],
          current: { range: { dateFrom, dateTo }, visitors: r.totals }
        })
      : ''
  return [
    headline(r),
    metaLine(r),
    r.incomplete ? `> ⚠️ **This export is incomplete.** ${r.incomplete}` : '',
    totalsTable(r),
    totalsNote(r.totals),
    exportedLine(r),
    ...(r.notes ?? []).map(note => `_${note}_`),
    trend
  ]
    .filter(Boolean)
    .join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Top pages

function topTitle(r: VisitorsReport): string {
  if (!r.maxRowsReached) return '#### Top pages'
  return (
    `#### Top pages among the first ${plural(r.rows, 'row')} exported\n\n` +
    '_The export stopped at `max-rows`, so pages past those rows are not ranked here; the ' +
    'totals above are the whole site’s._'
  )
}

function omittedNote(omitted: number, fullData: string | undefined): string {
  const where = fullData ? `; every row is in ${fullData}` : `: ${KEEP_EVERY_ROW}`
  return `_${plural(omitted, 'more row', 'more rows')} not shown${where}._`
}

/**
 * Where a comment's reader finds every row it leaves out: the job summary when that holds them
 * all; else the output file the run wrote (named only then: a reader cannot open a file on the
 * runner, but can find it kept as an artifact); else nowhere.
 */
export function commentFullData(
  summaryHasAll: boolean,
  file: string | undefined,
  runUrl: string
): string | undefined {
  const run = link('workflow run', runUrl || undefined)
  if (summaryHasAll) return `the job summary of the ${run}`
  if (file)
    return `${escapeText(file)}, which the ${run} wrote (upload it with \`actions/upload-artifact\` to keep it)`
  return undefined
}

/** Markdown for the visitors export, within opts.room whatever the row count. */
export function renderVisitorsReport(r: VisitorsReport, opts: VisitorsRenderOptions): string {
  return fitVisitorsReport(r, opts).markdown
}

/** The report, and how many of the top pages it shows (the rest did not fit its room). */
export function fitVisitorsReport(
  r: VisitorsReport,
  opts: VisitorsRenderOptions
): { markdown: string; rows: number } {
  const head = reportHead(r)
  const note = opts.fullData ?? `nowhere else: ${KEEP_EVERY_ROW}`
  if (r.top.length === 0) return { markdown: fitMarkdown(`${head}\n`, opts.room, note), rows: 0 }
  const title = topTitle(r)
  const columns = pageColumns(r.previous !== undefined)
  const lines = r.top.map((row, i) => pageRowOf(r, row, i + 1))
  // fitRows renders last the row count it returns.
  let shown = 0
  const build = (rows: number): string => {
    const blocks = [head, title]
    if (rows > 0) blocks.push(foldedTable(columns, lines.slice(0, rows), 'Pages'))
    const omitted = r.top.length - rows
    if (omitted > 0) blocks.push(omittedNote(omitted, opts.fullData))
    return blocks.join('\n\n') + '\n'
  }
  const markdown = fitRows(
    rows => {
      shown = rows
      return build(rows)
    },
    r.top.length,
    opts.room,
    note
  )
  return { markdown, rows: markdown.includes(title) ? shown : 0 }
}

function pageRowOf(r: VisitorsReport, row: VisitorRow, rank: number): string {
  const previous = r.previous ? { before: r.previous.byPath.get(row.path)?.total } : undefined
  return pageRow(row, rank, r.siteUrl, previous)
}

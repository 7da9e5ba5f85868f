// The visitors report (job summary and comment): the answer in the headline, the totals with
// the human/AI overlap made explicit, the trend (with `trend`), then the top pages: a bar chart
// where it shows more than the rows below it, and a table that fits the room it is given.

import type { DateRange, Period } from '../period.js'
import type { VisitorCounts, VisitorRow } from '../service/schema.js'
import type { Trend } from '../analytics/trend.js'
import { pageColumns, pageRow, pagesFoldLabel } from './pages-table.js'
import { barChart, trendBlock } from './chart.js'
import {
  escapeText,
  fitMarkdown,
  fitRows,
  foldedTable,
  formatChange,
  formatNumber,
  formatPercentChange,
  formatShare,
  provenance,
  plural,
  fitsIn,
  type Room,
  tableHead,
  tableRow,
  VISIBLE_ROWS,
  type Column
} from './markdown.js'
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
}

export interface VisitorsRenderOptions {
  /** A comment's room (characters) or the job summary's (bytes). */
  room: Room
  /** Trusted Markdown naming where the complete data is, e.g. "`out/visitors.csv`". */
  fullDataHint?: string
}

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
  const trend =
    r.trend && r.range.dateFrom !== undefined
      ? trendBlock({
          points: r.trend.points,
          current: { dateFrom: r.range.dateFrom, visitors: r.totals.total },
          requests: r.trend.requests
        })
      : ''
  return [headline(r), metaLine(r), totalsTable(r), totalsNote(r.totals), exportedLine(r), trend]
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

/**
 * The bar chart earns its place where a table alone does not show the shape of the traffic: more
 * than three pages. For three or fewer it would only draw the rows just below it again.
 */
function topPagesChart(top: readonly VisitorRow[]): string {
  if (top.length <= 3) return ''
  const bars = top.slice(0, VISIBLE_ROWS)
  return barChart({
    title: `Top ${bars.length} pages by unique visitors`,
    valueAxis: 'Unique visitors',
    // The rank matches the table's # column, so a clipped label is never ambiguous.
    bars: bars.map((row, i) => ({
      label: `#${i + 1} ${row.path || '(empty path)'}`,
      value: row.total
    }))
  })
}

function omittedNote(omitted: number, fullDataHint: string | undefined): string {
  const where = fullDataHint ? `; the full data is in ${fullDataHint}` : ''
  return `_${plural(omitted, 'more row', 'more rows')} not shown${where}._`
}

/** Markdown for the visitors export, within opts.room whatever the row count. */
export function renderVisitorsReport(r: VisitorsReport, opts: VisitorsRenderOptions): string {
  const head = reportHead(r)
  if (r.top.length === 0) return fitMarkdown(`${head}\n`, opts.room, opts.fullDataHint)
  const title = topTitle(r)
  const columns = pageColumns(r.previous !== undefined)
  const lines = r.top.map((row, i) => pageRowOf(r, row, i + 1))
  const build = (rows: number, chart: string): string => {
    const blocks = [head, title]
    if (chart) blocks.push(chart)
    if (rows > 0) blocks.push(foldedTable(columns, lines.slice(0, rows), pagesFoldLabel))
    const omitted = r.top.length - rows
    if (omitted > 0) blocks.push(omittedNote(omitted, opts.fullDataHint))
    return blocks.join('\n\n') + '\n'
  }
  // The table matters more than the chart: the chart goes when not even it fits beside the head.
  const drawn = topPagesChart(r.top)
  const chart = fitsIn(build(0, drawn), opts.room) ? drawn : ''
  return fitRows(rows => build(rows, chart), r.top.length, opts.room, opts.fullDataHint)
}

function pageRowOf(r: VisitorsReport, row: VisitorRow, rank: number): string {
  const previous = r.previous ? { before: r.previous.byPath.get(row.path)?.total } : undefined
  return pageRow(row, rank, r.siteUrl, previous)
}

// The trend as a chart (Mermaid, as GitHub draws it): the periods before the range and this one.
// Only periods that were read are drawn, never a value carried over or made up, and only the
// newest run of them (the trend is read newest first and stops at the first period that fails,
// so a gap can only be at the old end). Two series of different sizes (157k visitors, 667k views)
// on one axis from 0 are two flat lines, so together they are drawn as a share of their own
// average: page views as bars, unique visitors as a line, which tells them apart without colour.
import type { Trend, TrendPoint, TrendSeries } from '../analytics/trend.js'
import type { DateRange } from '../period.js'
import type { VisitorCounts } from '../service/schema.js'
import { formatNumber, plural } from './numbers.js'

export interface TrendView {
  trend: Trend
  /** The series drawn (the sections read), visitors first. */
  series: readonly TrendSeries[]
  /** This period: its range and totals. */
  current: { range: Required<DateRange>; visitors?: VisitorCounts; views?: VisitorCounts }
}

/**
 * The periods a trend draws: the newest ones whose every series is known, in a row (a period cut
 * short may hold one series: half a point would draw one line without the other).
 */
export function drawnPoints(trend: Trend, series: readonly TrendSeries[]): TrendPoint[] {
  const drawn: TrendPoint[] = []
  for (let i = trend.points.length - 1; i >= 0; i--) {
    const point = trend.points[i] as TrendPoint
    if (series.some(name => point[name] === undefined)) break
    drawn.unshift(point)
  }
  return drawn
}

/** Labels on the axis at most: more print over each other at a comment's width. */
export const MAX_LABELS = 13
/** The plot's width in a comment 760 px wide, and a label's width per character and gap. */
const PLOT_PIXELS = 600
const LABEL_CHAR_PIXELS = 8
const LABEL_GAP_PIXELS = 16
const DAY_MS = 86_400_000
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** Bars light, the line dark: told apart by shape and by contrast, in light and dark themes. */
const BAR_COLOR = '#9ec5fe'
const LINE_COLOR = '#d9480f'
const CHART_HEIGHT = 166

type Kind = 'days' | 'weeks' | 'months' | 'periods'

const NOUN: Record<Kind, [string, string]> = {
  days: ['day', 'days'],
  weeks: ['week', 'weeks'],
  months: ['month', 'months'],
  periods: ['period', 'periods']
}

function startOf(range: { dateFrom: string }): Date {
  return new Date(range.dateFrom.length === 10 ? `${range.dateFrom}T00:00:00Z` : range.dateFrom)
}

/** What a reader counts the periods in: 7 days are weeks, a calendar month is a month. */
function kindOf(range: Required<DateRange>): Kind {
  const days = (Date.parse(range.dateTo) - Date.parse(range.dateFrom)) / DAY_MS
  if (days === 1) return 'days'
  if (days === 7) return 'weeks'
  if (days >= 28 && days <= 31 && /-01(T|$)/.test(range.dateFrom) && /-01(T|$)/.test(range.dateTo))
    return 'months'
  return 'periods'
}

/**
 * Each period by its start, as a reader names it ("Nov 16"; months "Nov 2026"), the year added
 * where two would read the same; unique either way.
 */
export function periodLabels(ranges: readonly Required<DateRange>[]): string[] {
  const kind = ranges[0] ? kindOf(ranges[0]) : 'periods'
  const dates = ranges.map(startOf)
  const month = (d: Date) => MONTHS[d.getUTCMonth()] ?? ''
  if (kind === 'months') return dates.map(d => `${month(d)} ${d.getUTCFullYear()}`)
  const short = dates.map(d => `${month(d)} ${d.getUTCDate()}`)
  if (new Set(short).size === short.length) return short
  return dates.map(d => `${month(d)} ${d.getUTCDate()} ${d.getUTCFullYear()}`)
}

/**
 * The axis labels: every period's own label when they fit side by side (MAX_LABELS at most), else
 * every k-th counting back from this period; the others are distinct invisible strings (Mermaid
 * merges points whose labels are equal, and trims spaces).
 */
function axisLabels(labels: readonly string[]): string[] {
  const longest = Math.max(...labels.map(l => l.length))
  const fit = Math.floor(PLOT_PIXELS / (longest * LABEL_CHAR_PIXELS + LABEL_GAP_PIXELS))
  const step = Math.ceil(labels.length / Math.max(2, Math.min(MAX_LABELS, fit)))
  const last = labels.length - 1
  let blank = 0
  return labels.map((label, i) => ((last - i) % step === 0 ? label : '\u200b'.repeat(++blank)))
}

const round1 = (v: number): number => Math.round(v * 10) / 10

function average(values: readonly number[]): number {
  return values.reduce((n, v) => n + v, 0) / Math.max(1, values.length)
}

/** Steps of an axis: 1, 2 or 5 times a power of ten, as a reader counts. */
function roundSteps(from: number): number[] {
  const power = 10 ** Math.floor(Math.log10(from))
  return [1, 2, 5, 10, 20, 50].map(f => f * power)
}

/** Steps on the value axis: Mermaid ticks about 10 to any range; 8 steps keep 9 ticks legible. */
const AXIS_STEPS = 8

/**
 * An axis range around the values with a little room: AXIS_STEPS steps of a round size, so the
 * ticks Mermaid draws fall on round numbers and a 200 px axis can label each of them.
 */
function axisRange(values: readonly number[]): [number, number] {
  const low = Math.min(...values)
  const high = Math.max(...values)
  const pad = Math.max((high - low) * 0.1, Math.abs(high) * 0.02, 0.1)
  for (const step of roundSteps((high - low + 2 * pad) / AXIS_STEPS)) {
    const from = Math.max(0, Math.floor((low - pad) / step) * step)
    const to = from + AXIS_STEPS * step
    if (to >= high) return [round1(from), round1(to)]
  }
  return [0, Math.ceil(high * 1.1)]
}

function mermaid(title: string, labels: string[], axis: string, plots: string[], values: number[]) {
  const [low, high] = axisRange(values)
  // Plots take the palette's colours in order: a bar's, then a line's.
  const colors = plots.map(p => (p.trimStart().startsWith('bar') ? BAR_COLOR : LINE_COLOR))
  const config = {
    xyChart: { height: CHART_HEIGHT, titleFontSize: 15 },
    themeVariables: { xyChart: { plotColorPalette: colors.join(', ') } }
  }
  return [
    '```mermaid',
    `%%{init: ${JSON.stringify(config)}}%%`,
    'xychart-beta',
    `    title "${title}"`,
    `    x-axis [${labels.map(l => `"${l}"`).join(', ')}]`,
    `    y-axis "${axis}" ${low} --> ${high}`,
    ...plots,
    '```'
  ].join('\n')
}

const totalOf = (p: Pick<TrendPoint, TrendSeries>, name: TrendSeries): number => p[name]?.total ?? 0

/**
 * The trend block: a heading that names the periods, the chart, and a line that gives the scale
 * back, says what it cost, and says which periods are not drawn and why.
 */
export function trendBlock(v: TrendView): string {
  const { trend, series } = v
  if (series.length === 0) return ''
  const points = [...drawnPoints(trend, series), { ...v.current }]
  // The trend's own periods say what they are (this one may be cut shorter by `date-to`).
  const kind = kindOf(trend.points.at(-1)?.range ?? v.current.range)
  const [one, many] = NOUN[kind]
  const notes = [costNote(trend, many), missingNote(v)].filter(Boolean)
  if (points.length < 2) return `_Trend: nothing to draw before this ${one}. ${notes.join(' ')}_`
  const labels = axisLabels(periodLabels(points.map(p => p.range)))
  // The chart's title says the span and what is drawn: no heading above it takes a line.
  const span = `The last ${points.length} ${many}`
  const chart =
    series.length === 1
      ? singleSeries(points, series[0] as TrendSeries, labels, many, span)
      : bothSeries(points, labels, many, span)
  return [chart.markdown, `_${[chart.note, ...notes].join(' ')}_`].join('\n\n')
}

const SERIES_NAMES: Record<TrendSeries, string> = {
  visitors: 'unique visitors',
  views: 'page views'
}

/** One series in its own numbers (thousands above 10,000, so the ticks stay legible). */
function singleSeries(
  points: Pick<TrendPoint, TrendSeries>[],
  name: TrendSeries,
  labels: string[],
  many: string,
  span: string
): { markdown: string; note: string } {
  const raw = points.map(p => totalOf(p, name))
  const scale = Math.max(...raw) >= 10_000 ? 1000 : 1
  const values = raw.map(v => (scale === 1 ? v : round1(v / scale)))
  const what = SERIES_NAMES[name]
  const title = `${span}: ${what}`
  const axis = scale === 1 ? what : `${what} (thousands)`
  return {
    markdown: mermaid(title, labels, axis, [`    line [${values.join(', ')}]`], values),
    note: `The line: ${what} per ${many.replace(/s$/, '')}, this one last.`
  }
}

/** Both series as a share of their own average: page views as bars, unique visitors as a line. */
function bothSeries(
  points: Pick<TrendPoint, TrendSeries>[],
  labels: string[],
  many: string,
  span: string
): { markdown: string; note: string } {
  const indexed = (name: TrendSeries) => {
    const raw = points.map(p => totalOf(p, name))
    const mean = average(raw)
    return { mean, values: raw.map(v => (mean > 0 ? round1((v / mean) * 100) : 0)) }
  }
  const visitors = indexed('visitors')
  const views = indexed('views')
  const title = `${span}: page views (bars), unique visitors (line)`
  const markdown = mermaid(
    title,
    labels,
    '% of the average',
    [`    bar [${views.values.join(', ')}]`, `    line [${visitors.values.join(', ')}]`],
    [...views.values, ...visitors.values]
  )
  const each = many.replace(/s$/, '')
  return {
    markdown,
    note:
      `Bars: views; line: visitors; each as a % of its ${points.length}-${each} average ` +
      `(100 = ${formatNumber(Math.round(visitors.mean))} visitors, ` +
      `${formatNumber(Math.round(views.mean))} views a ${each}).`
  }
}

function costNote(trend: Trend, many: string): string {
  const read = `It cost ${plural(trend.requests, 'request')}`
  if (trend.known === 0) return `${read}.`
  return `${read}; ${trend.known} ${trend.known === 1 ? many.replace(/s$/, '') : many} ${trend.known === 1 ? 'was' : 'were'} known already.`
}

/**
 * The first `count` of `ranges` (oldest first), as a reader names them: "week of Oct 12",
 * "5 weeks from Sep 14 to Oct 12".
 */
export function periodSpan(ranges: readonly Required<DateRange>[], count: number): string {
  const [one, many] = NOUN[ranges[0] ? kindOf(ranges[0]) : 'periods']
  const labels = periodLabels(ranges)
  if (count === 1) return `${one} of ${labels[0] ?? ''}`
  return `${count} ${many} from ${labels[0] ?? ''} to ${labels[count - 1] ?? ''}`
}

/** The periods not drawn, and why, in the action's words (the service's go to the log). */
function missingNote(v: TrendView): string {
  const stop = v.trend.stop
  if (!stop) return ''
  const span = periodSpan(
    v.trend.points.map(p => p.range),
    stop.missing
  )
  return `Not drawn: the ${span}, ${whyNotRead(stop.limit)}.`
}

function whyNotRead(limit: NonNullable<Trend['stop']>['limit']): string {
  switch (limit) {
    case 'quota':
      return 'not read: the hourly analytics limit was reached'
    case 'max-requests':
      return 'not read: `max-requests` was spent'
    case 'time':
      return 'not read: the time allowed (`wait-timeout`) ran out'
    case 'failure':
      return 'not read: the service failed to answer (the log says how)'
  }
}

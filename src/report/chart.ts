// Mermaid charts, as GitHub draws them. Horizontal bars: a page path is long, and only a
// horizontal chart gives its label a line of its own instead of a slanted smear under the bar.

export interface Bar {
  /** Any text: reduced here to characters that cannot end a Mermaid string. */
  label: string
  value: number
}

export interface BarChartSpec {
  /** Our own words (no double quote). */
  title: string
  /** The value axis' title (no double quote). */
  valueAxis: string
  bars: readonly Bar[]
}

const LABEL_MAX_CHARS = 40
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * A label Mermaid draws as written: a small safe charset (a quote or bracket would end the list),
 * clipped in the middle so that both the section and the page name stay readable.
 */
export function chartLabel(text: string, maxChars = LABEL_MAX_CHARS): string {
  // Combining marks stay: Devanagari or Thai vowel signs are part of the word, not punctuation.
  const safe = text.replace(/[^\p{L}\p{M}\p{N}/._~#+() -]/gu, '_').trim() || '_'
  // Whole graphemes, so a clip never strips a vowel sign from its letter.
  const chars = Array.from(GRAPHEMES.segment(safe), g => g.segment)
  if (widthOf(chars) <= maxChars) return safe
  // Clipped by display width: an East Asian wide character takes two columns, and a label too
  // wide for its column makes Mermaid drop every label of the chart.
  const tailWidth = Math.floor((maxChars - 1) * 0.4)
  const head = takeWidth(chars, maxChars - 1 - tailWidth)
  const tail = takeWidth([...chars].reverse(), tailWidth).reverse()
  return `${head.join('')}…${tail.join('')}`
}

/**
 * Display columns of a grapheme (its first code point decides): 2 for East Asian wide and
 * full-width characters, 1 for others.
 */
function charWidth(c: string): number {
  const cp = c.codePointAt(0) ?? 0
  return (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
    ? 2
    : 1
}

function widthOf(chars: readonly string[]): number {
  return chars.reduce((w, c) => w + charWidth(c), 0)
}

function takeWidth(chars: readonly string[], width: number): string[] {
  const out: string[] = []
  let used = 0
  for (const c of chars) {
    if (used + charWidth(c) > width) break
    out.push(c)
    used += charWidth(c)
  }
  return out
}

/** Labels made unique: Mermaid would merge bars with the same category name. */
function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return labels.map(label => {
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} (${count})`
  })
}

function barValue(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value) : 0
}

/** Bar thickness in pixels: Mermaid's fixed 500 px height makes three bars look like slabs. */
const PIXELS_PER_BAR = 36
const CHART_FRAME_PIXELS = 120
/** A mid blue that reads on GitHub's light and dark themes (the default is a pale lavender). */
const BAR_COLOR = '#4493f8'

/** Mermaid settings for one chart: its height follows the number of bars. */
function chartConfig(bars: number): string {
  const config = {
    xyChart: { height: CHART_FRAME_PIXELS + PIXELS_PER_BAR * bars },
    themeVariables: { xyChart: { plotColorPalette: BAR_COLOR } }
  }
  return `%%{init: ${JSON.stringify(config)}}%%`
}

export interface LineSeries {
  /** Our own words, for the legend line under the chart. */
  name: string
  /** One value a period, oldest first; undefined where the period was not read. */
  values: readonly (number | undefined)[]
}

/**
 * A line chart of totals per period, oldest first. Values are drawn in thousands above 10,000
 * (the unit in the axis title) so the axis ticks stay legible. Each series is a line; a period
 * not read takes the value before it (Mermaid draws no gaps), which the caller says in words.
 */
export function lineChart(title: string, periods: readonly string[], series: LineSeries[]): string {
  const drawn = series.filter(s => s.values.some(v => v !== undefined))
  if (drawn.length === 0 || periods.length < 2) return ''
  const max = Math.max(1, ...drawn.flatMap(s => s.values.map(v => v ?? 0)))
  const scale = max >= 10_000 ? 1000 : 1
  const unit = scale === 1 ? 'per period' : 'thousands per period'
  const lines = drawn.map(s => {
    let last = 0
    const values = s.values.map(v => {
      last = v ?? last
      return scale === 1 ? last : Math.round((last / scale) * 10) / 10
    })
    return `    line [${values.join(', ')}]`
  })
  const labels = periods.map(p => `"${chartLabel(p, 12)}"`)
  const colors = ['#4493f8', '#e8590c']
  const config = {
    xyChart: { height: 320 },
    themeVariables: { xyChart: { plotColorPalette: colors.slice(0, drawn.length).join(', ') } }
  }
  return [
    '```mermaid',
    `%%{init: ${JSON.stringify(config)}}%%`,
    'xychart-beta',
    `    title "${title}"`,
    `    x-axis [${labels.join(', ')}]`,
    `    y-axis "${unit}" 0 --> ${Math.ceil((max / scale) * 1.1)}`,
    ...lines,
    '```'
  ].join('\n')
}

/** The top of the value axis: the largest bar, never 0 (Mermaid draws an empty range oddly). */
function axisMax(values: readonly number[]): number {
  return Math.max(1, ...values)
}

/**
 * A horizontal bar chart whose value axis starts at 0, so bar lengths compare honestly (Mermaid
 * otherwise starts the axis at the smallest bar). Bars are drawn in the order given, first on
 * top. Empty string when there are no bars.
 */
export function barChart(spec: BarChartSpec): string {
  if (spec.bars.length === 0) return ''
  const labels = uniqueLabels(spec.bars.map(bar => chartLabel(bar.label))).map(l => `"${l}"`)
  // Above 10,000 the axis ticks run together: values in thousands, the unit in the axis title.
  const raw = spec.bars.map(bar => barValue(bar.value))
  const scale = Math.max(...raw) >= 10_000 ? 1000 : 1
  const values = raw.map(v => (scale === 1 ? v : Math.round((v / scale) * 10) / 10))
  const axis = scale === 1 ? spec.valueAxis : `${spec.valueAxis} (thousands)`
  return [
    '```mermaid',
    chartConfig(values.length),
    'xychart-beta horizontal',
    `    title "${spec.title}"`,
    `    x-axis [${labels.join(', ')}]`,
    `    y-axis "${axis}" 0 --> ${axisMax(values)}`,
    `    bar [${values.join(', ')}]`,
    '```'
  ].join('\n')
}

export interface TrendInput {
  /** The periods before the range, oldest first. */
  points: readonly {
    range: { dateFrom: string; dateTo?: string }
    visitors?: number
    views?: number
  }[]
  /** This period: its start and its totals. */
  current: { dateFrom: string; visitors?: number; views?: number }
  /** Requests the trend cost. */
  requests: number
}

/** "Nov 9" for a period that starts on 2026-11-09. */
function periodLabel(dateFrom: string): string {
  const ms = Date.parse(dateFrom.length === 10 ? `${dateFrom}T00:00:00Z` : dateFrom)
  if (!Number.isFinite(ms)) return dateFrom
  return new Date(ms).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC'
  })
}

const DAY_MS = 86_400_000

/** "weeks" when the periods are 7 days long, and so on: what a reader counts in. */
function periodNoun(range: { dateFrom: string; dateTo?: string } | undefined): string {
  if (range?.dateTo === undefined) return 'periods'
  const days = (Date.parse(range.dateTo) - Date.parse(range.dateFrom)) / DAY_MS
  if (days === 1) return 'days'
  if (days === 7) return 'weeks'
  // A calendar month (`last-month` steps back by months): from the 1st to the next month's 1st.
  if (days >= 28 && days <= 31 && /-01(T|$)/.test(range.dateFrom) && /-01(T|$)/.test(range.dateTo))
    return 'months'
  return 'periods'
}

/**
 * The trend block: a line per section drawn (visitors, views) over the periods before the range
 * and this one, with the words a reader needs (which line is which, what it cost, what is missing).
 */
export function trendBlock(t: TrendInput): string {
  const all = [...t.points, { range: { dateFrom: t.current.dateFrom }, ...t.current }]
  const series: LineSeries[] = []
  if (all.some(p => p.visitors !== undefined))
    series.push({ name: 'unique visitors', values: all.map(p => p.visitors) })
  if (all.some(p => p.views !== undefined))
    series.push({ name: 'page views', values: all.map(p => p.views) })
  const chart = lineChart(
    `The last ${all.length} ${periodNoun(t.points.at(-1)?.range)}`,
    all.map(p => periodLabel(p.range.dateFrom)),
    series
  )
  if (!chart) return ''
  const colors = ['blue', 'orange']
  const legend = series.map((s, i) => `${colors[i]}: ${s.name}`).join(', ')
  const missing = t.points.filter(p =>
    series.some(s => (s.name === 'page views' ? p.views : p.visitors) === undefined)
  )
  const gaps =
    missing.length > 0
      ? ` ${missing.length} earlier ${missing.length === 1 ? 'period was' : 'periods were'} not read; the line carries the value before ${missing.length === 1 ? 'it' : 'them'}.`
      : ''
  return `#### Trend\n\n${chart}\n\n_${legend}; this period last. The trend cost ${t.requests} ${t.requests === 1 ? 'request' : 'requests'}.${gaps}_`
}

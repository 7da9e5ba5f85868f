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

/**
 * A label Mermaid draws as written: a small safe charset (a quote or bracket would end the list),
 * clipped in the middle so that both the section and the page name stay readable.
 */
export function chartLabel(text: string, maxChars = LABEL_MAX_CHARS): string {
  const safe = text.replace(/[^\p{L}\p{N}/._~#+() -]/gu, '_').trim() || '_'
  if (safe.length <= maxChars) return safe
  const tail = Math.floor((maxChars - 1) * 0.4)
  return `${safe.slice(0, maxChars - 1 - tail)}…${safe.slice(safe.length - tail)}`
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
  const values = spec.bars.map(bar => barValue(bar.value))
  return [
    '```mermaid',
    chartConfig(values.length),
    'xychart-beta horizontal',
    `    title "${spec.title}"`,
    `    x-axis [${labels.join(', ')}]`,
    `    y-axis "${spec.valueAxis}" 0 --> ${axisMax(values)}`,
    `    bar [${values.join(', ')}]`,
    '```'
  ].join('\n')
}

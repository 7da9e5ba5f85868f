// Numbers and times as a reader reads them in every report and log line: durations, clock times
// in UTC, counts, shares, changes (with the marks of one that matters), "1 row" and "5 rows".

/** A precise duration for log lines and errors: "45s", "2m 05s", "1h 02m". */
export function formatDuration(ms: number): string {
  const seconds = Number.isFinite(ms) && ms > 0 ? Math.round(ms / 1000) : 0
  const pad = (n: number) => String(n).padStart(2, '0')
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${pad(seconds % 60)}s`
  return `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}m`
}

/** A duration as a headline says it: "40 s", "4 min", "1 h 5 min". */
export function formatElapsed(ms: number): string {
  const seconds = Number.isFinite(ms) && ms > 0 ? Math.round(ms / 1000) : 0
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const rest = minutes % 60
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`
}

/** The wall-clock time in UTC, "14:05 UTC": runners and readers sit in every time zone. */
export function formatClock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`
}

/** "2026-11-23 09:00 UTC". */
export function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US')
}

export function formatShare(part: number, whole: number): string {
  if (!Number.isFinite(whole) || whole === 0) return '–'
  return `${((part / whole) * 100).toFixed(1)}%`
}

const MINUS = '\u2212' // a typographic minus lines up with "+" in table columns

/** "+12 (+4.0%)", "−3 (−1.2%)", "0", or "new" when there was nothing before. */
export function formatChange(now: number, before: number | undefined): string {
  if (now === 0 && !before) return '0'
  if (before === undefined || before === 0) return 'new'
  const diff = now - before
  if (diff === 0) return '0'
  const sign = diff > 0 ? '+' : MINUS
  const percent = ((Math.abs(diff) / before) * 100).toFixed(1)
  // Whole numbers, as in the columns beside it: one unit per column, never "18.3k" by "2,327".
  const amount = `${sign}${formatNumber(Math.abs(diff))}`
  return percent === '0.0' ? amount : `${amount} (${sign}${percent}%)`
}

/**
 * The marks of a change that matters for the docs (analytics/marks.ts decides which): the overview
 * marks its changes with them, and "what the fix did" its verdicts.
 */
export const MARKS = { better: '🟢', worse: '🔴' } as const

/** "+20.0%", "−3.1%", "±0%"; undefined when there is nothing to compare with. */
export function formatPercentChange(now: number, before: number): string | undefined {
  if (!Number.isFinite(before) || before <= 0) return undefined
  const diff = now - before
  const percent = ((Math.abs(diff) / before) * 100).toFixed(1)
  // No "±0.0%": a change too small to show is no change to a reader.
  if (percent === '0.0') return 'no change'
  return `${diff > 0 ? '+' : MINUS}${percent}%`
}

/** "1 row", "5 rows". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`
}

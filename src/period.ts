// Date inputs -> the range sent to the service. `dateTo` is always exclusive. Periods resolve in
// UTC to whole days, so a weekly schedule asks for the same range wherever the runner is.

export interface DateRange {
  dateFrom?: string
  dateTo?: string
}

export type Period =
  | { kind: 'days'; days: number }
  | { kind: 'yesterday' }
  | { kind: 'last-week' }
  | { kind: 'last-month' }

const DAY = 86_400_000
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/

/** `Nd`, `yesterday`, `last-week`, `last-month`; undefined when not one of them. */
export function parsePeriod(text: string): Period | undefined {
  const days = /^(\d{1,3})d$/.exec(text)
  if (days) {
    const n = Number(days[1])
    return n >= 1 && n <= 366 ? { kind: 'days', days: n } : undefined
  }
  if (text === 'yesterday' || text === 'last-week' || text === 'last-month') return { kind: text }
  return undefined
}

/**
 * The instant a `YYYY-MM-DD` or ISO 8601 date-time stands for (a date, or a time with no offset,
 * counts as UTC), or undefined when it is not a real calendar date and time.
 */
export function parseInstant(text: string): number | undefined {
  const d = DATE_RE.exec(text) ?? DATE_TIME_RE.exec(text)
  if (!d) return undefined
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])]
  const [hour, minute, second] = [Number(d[4] ?? 0), Number(d[5] ?? 0), Number(d[6] ?? 0)]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second))
  // Date.UTC would read the years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day)
  let at = date.getTime()
  if (d[7]) at += Math.round(Number(`0${d[7]}`) * 1000)
  const zone = d[8]
  if (zone && zone !== 'Z') {
    const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)
    if (!m || Number(m[2]) > 23 || Number(m[3]) > 59) return undefined
    const offset = (Number(m[2]) * 60 + Number(m[3])) * 60_000
    at += m[1] === '+' ? -offset : offset
  }
  return at
}

export function isDateOnly(text: string): boolean {
  return DATE_RE.test(text)
}

/** The range of a period, relative to `now`. */
export function resolvePeriod(period: Period, now: Date): Required<DateRange> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  switch (period.kind) {
    case 'days':
      return { dateFrom: isoDay(today - period.days * DAY), dateTo: isoDay(today) }
    case 'yesterday':
      return { dateFrom: isoDay(today - DAY), dateTo: isoDay(today) }
    case 'last-week': {
      const monday = today - ((now.getUTCDay() + 6) % 7) * DAY
      return { dateFrom: isoDay(monday - 7 * DAY), dateTo: isoDay(monday) }
    }
    case 'last-month': {
      const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)
      const previous = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)
      return { dateFrom: isoDay(previous), dateTo: isoDay(first) }
    }
  }
}

/** The first instant of year 1, and of year 10000: a date has four digits of year, none before 1. */
export const FIRST_INSTANT = yearStart(1)
export const END_INSTANT = yearStart(10000)

/**
 * The period just before a bounded range, of equal length; for `last-month`, the calendar month
 * before. Dates keep their form: whole days stay `YYYY-MM-DD`. Undefined when it would start
 * before year 1 (no date can say so).
 */
export function previousRange(
  range: Required<DateRange>,
  period?: Period
): Required<DateRange> | undefined {
  const from = parseInstant(range.dateFrom)
  const to = parseInstant(range.dateTo)
  if (from === undefined || to === undefined) return undefined
  if (period?.kind === 'last-month') {
    const f = new Date(from)
    const start = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() - 1, 1)
    return start < FIRST_INSTANT ? undefined : { dateFrom: isoDay(start), dateTo: range.dateFrom }
  }
  const start = from - (to - from)
  if (start < FIRST_INSTANT) return undefined
  const wholeDays = isDateOnly(range.dateFrom) && isDateOnly(range.dateTo)
  return {
    dateFrom: wholeDays ? isoDay(start) : new Date(start).toISOString(),
    dateTo: range.dateFrom
  }
}

/**
 * The `n` periods before `range`, each as `previousRange` makes it, oldest first; undefined when
 * the oldest would start before year 1.
 */
export function rangesBefore(
  range: Required<DateRange>,
  n: number,
  period?: Period
): Required<DateRange>[] | undefined {
  const ranges: Required<DateRange>[] = []
  let current = range
  for (let i = 0; i < n; i++) {
    const previous = previousRange(current, period)
    if (previous === undefined) return undefined
    current = previous
    ranges.unshift(current)
  }
  return ranges
}

function yearStart(year: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, 0, 1)
  return date.getTime()
}

/** The UTC day of an instant as `YYYY-MM-DD`. */
export function isoDay(ms: number): string {
  // Four-digit years only: toISOString writes others as +YYYYYY, which no service reads.
  return new Date(ms).toISOString().slice(0, 10)
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return date.getUTCDate()
}

// Date ranges as people read them. The service's `dateTo` is exclusive; a reader expects the
// last day that counts, so whole-day ranges are shown with their inclusive last day.

import { isDateOnly, isoDay, parseInstant, type DateRange, type Period } from '../period.js'
import { escapeText } from './markdown.js'

const DAY = 86_400_000
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

interface Days {
  first: Date
  last: Date
}

/** The whole UTC days of a range given as `YYYY-MM-DD` bounds, or undefined. */
function wholeDays(range: DateRange): Days | undefined {
  const { dateFrom, dateTo } = range
  if (!dateFrom || !dateTo || !isDateOnly(dateFrom) || !isDateOnly(dateTo)) return undefined
  const from = parseInstant(dateFrom)
  const to = parseInstant(dateTo)
  if (from === undefined || to === undefined || to - from < DAY) return undefined
  return { first: new Date(from), last: new Date(to - DAY) }
}

function monthDay(d: Date): string {
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`
}

function withYear(d: Date): string {
  return `${monthDay(d)}, ${d.getUTCFullYear()}`
}

/**
 * A short label: "Nov 16–22", "Oct 28 – Nov 3", "Dec 28, 2025 – Jan 3, 2026", "Nov 16"; the
 * year is added when it is not the year of `now`. Other ranges are shown as given.
 */
export function shortRange(range: DateRange, now: number): string {
  const days = wholeDays(range)
  if (!days) return exactRange(range)
  const { first, last } = days
  const year = new Date(now).getUTCFullYear()
  const sameYear = first.getUTCFullYear() === last.getUTCFullYear()
  const suffix = sameYear && first.getUTCFullYear() !== year ? `, ${first.getUTCFullYear()}` : ''
  if (first.getTime() === last.getTime()) return `${monthDay(first)}${suffix}`
  if (!sameYear) return `${withYear(first)} – ${withYear(last)}`
  if (first.getUTCMonth() === last.getUTCMonth())
    return `${monthDay(first)}–${last.getUTCDate()}${suffix}`
  return `${monthDay(first)} – ${monthDay(last)}${suffix}`
}

/**
 * The exact range, for the record: "2026-11-16 to 2026-11-22" (whole days, both counted) or the
 * bounds as given, marked end exclusive.
 */
export function exactRange(range: DateRange): string {
  const days = wholeDays(range)
  if (days) return `${isoDay(days.first.getTime())} to ${isoDay(days.last.getTime())}`
  const from = range.dateFrom ? escapeText(range.dateFrom) : undefined
  const to = range.dateTo ? escapeText(range.dateTo) : undefined
  if (from && to) return `${from} to ${to} (end exclusive)`
  if (from) return `since ${from}`
  if (to) return `before ${to}`
  return 'all time'
}

/** "the previous 7 days", "the week before", "the month before", "the period before". */
export function previousLabel(range: DateRange, period?: Period): string {
  switch (period?.kind) {
    case 'yesterday':
      return 'the day before'
    case 'last-week':
      return 'the week before'
    case 'last-month':
      return 'the month before'
    default:
      break
  }
  const days = wholeDays(range)
  if (!days) return 'the period before'
  const count = Math.round((days.last.getTime() - days.first.getTime()) / DAY) + 1
  return count === 1 ? 'the day before' : `the previous ${count} days`
}

/**
 * What a reader calls one period of this range's length: a week (7 days), a month (a calendar
 * month), a day; else its days ("10 days"), or "period" when it is not whole days.
 */
export function periodNoun(range: DateRange): string {
  const days = wholeDays(range)
  if (!days) return 'period'
  const count = Math.round((days.last.getTime() - days.first.getTime()) / DAY) + 1
  const calendarMonth =
    days.first.getUTCDate() === 1 &&
    new Date(days.last.getTime() + DAY).getUTCDate() === 1 &&
    count >= 28
  if (calendarMonth) return 'month'
  if (count === 7) return 'week'
  return count === 1 ? 'day' : `${count} days`
}

/** "this week", "this month", "this day", "in these 10 days", "this period". */
export function thisPeriod(range: DateRange): string {
  const noun = periodNoun(range)
  return /^\d/.test(noun) ? `in these ${noun}` : `this ${noun}`
}

/** "2nd week", "3rd month", "11th time" (a length in days counts times). */
export function nthPeriod(n: number, range: DateRange): string {
  const noun = periodNoun(range)
  const tens = n % 100
  const ordinal: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' }
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (ordinal[n % 10] ?? 'th')
  return `${n}${suffix} ${/^\d/.test(noun) || noun === 'period' ? 'time' : noun}`
}

// The service's gateway times out on large pages and long ranges (field notes: a fetcher saw 504s
// and read in 7-day chunks). A page that times out is asked again for half its rows, not below 25;
// a range that still times out at 25 rows is read a week at a time where its rows can be added up.
import { isDateOnly, isoDay, type DateRange } from '../period.js'
import { ServiceError } from './errors.js'

/** The fewest rows a page is narrowed to: below this, halving only multiplies the requests. */
const MIN_PAGE_ROWS = 25
/** The length of one chunk of a range that keeps timing out. */
const CHUNK_DAYS = 7
const DAY_MS = 86_400_000

/** The gateway gave up on the request (502, 504): a smaller one may get through. */
export function isGatewayTimeout(err: unknown): err is ServiceError {
  return err instanceof ServiceError && (err.status === 502 || err.status === 504)
}

/** Half of `limit`, rounded up, never below MIN_PAGE_ROWS. */
export function halved(limit: number): number {
  return Math.max(MIN_PAGE_ROWS, Math.ceil(limit / 2))
}

/** A page of `limit` rows that times out may be asked again smaller. */
export function canNarrow(limit: number): boolean {
  return limit > MIN_PAGE_ROWS
}

/** How a read was narrowed: the page size it started with, and the one that got through. */
export interface Narrowing {
  from: number
  to: number
}

/** The summary's words for a narrowing. */
export function narrowingNote(what: string, n: Narrowing): string {
  return (
    `The service timed out (502/504) on pages of ${n.from} ${what}, so they were read in pages ` +
    `of ${n.to}.`
  )
}

/**
 * A bounded range longer than a chunk, as consecutive chunks of CHUNK_DAYS (the last one shorter),
 * newest first; undefined for a range that cannot or need not be split. The bounds keep the form
 * they were given in (`YYYY-MM-DD` stays a date).
 */
export function weeklyChunks(range: DateRange): Required<DateRange>[] | undefined {
  const { dateFrom, dateTo } = range
  if (dateFrom === undefined || dateTo === undefined) return undefined
  const from = Date.parse(dateFrom)
  const to = Date.parse(dateTo)
  if (!Number.isFinite(from) || !Number.isFinite(to) || to - from <= CHUNK_DAYS * DAY_MS)
    return undefined
  const dateOnly = isDateOnly(dateFrom) && isDateOnly(dateTo)
  const format = (ms: number): string => (dateOnly ? isoDay(ms) : new Date(ms).toISOString())
  const chunks: Required<DateRange>[] = []
  for (let start = from; start < to; start += CHUNK_DAYS * DAY_MS) {
    const end = Math.min(to, start + CHUNK_DAYS * DAY_MS)
    chunks.push({
      dateFrom: start === from ? dateFrom : format(start),
      dateTo: end === to ? dateTo : format(end)
    })
  }
  return chunks.reverse()
}

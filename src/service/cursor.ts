// Cursor pagination (searches, assistant conversations): `limit` per request, the next page by
// `nextCursor` until it is null. Requests are spent like money, so reading stops as soon as the
// caller has what it shows, and no request starts after the deadline. What the real service is
// reported to do is answered here: a 414 on a long cursor (ask again with the cursor and `limit`
// alone), a gateway timeout on a large page (ask for half the rows), empty pages that still carry
// a cursor (read on, 3 in a row at most).

import type { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'
import { BudgetError, RateLimitError, ServiceError } from './errors.js'
import { MAX_EMPTY_PAGES } from './pages.js'
import { canNarrow, halved, isGatewayTimeout, type Narrowing } from './timeouts.js'

export interface CursorPage<T> {
  items: T[]
  nextCursor: string | null
}

/**
 * How to ask for a page: `bare`, with the cursor and `limit` alone (the cursor encodes its
 * window); `halvable`, a gateway timeout is to come back at once rather than be retried at this
 * size, as the reader will ask for fewer rows.
 */
export interface CursorAsk {
  bare: boolean
  halvable: boolean
}

export interface CursorOptions<T> {
  fetchPage: (limit: number, cursor: string | undefined, ask: CursorAsk) => Promise<CursorPage<T>>
  /** Items per request, within what the operation accepts. */
  limit: number
  /** Stop once this many items are read (the last page may bring a few more; they are kept). */
  enough: number
  /** No request starts once it has passed. */
  deadline: Deadline
  /**
   * The caller reads the range again in parts when the gateway keeps timing out: a timeout at the
   * smallest page then comes back at once too, rather than being retried at that size.
   */
  splittable?: boolean
}

export interface CursorResult<T> {
  items: T[]
  /** True when the service said there is nothing more (nextCursor null). */
  complete: boolean
  /**
   * True when the reading stopped at its page bound: the service gave fewer rows a page than
   * asked for, so the rows shown may be fewer than wanted.
   */
  short: boolean
  /** True when it stopped at 3 empty pages in a row that still carried a cursor. */
  endedShort: boolean
  /** Set when the gateway timed out on pages of `limit` and smaller ones got through. */
  narrowed?: Narrowing
  /**
   * The failure a page past the first ended the reading with (a 414 whose bare re-ask failed too,
   * or any other): the items read before it are kept, and the reading is not whole.
   */
  failure?: unknown
}

/** Errors that end the run, not just this reading: the quota, `max-requests`, a rejected key. */
function endsTheRun(err: unknown): boolean {
  if (err instanceof RateLimitError || err instanceof BudgetError) return true
  return err instanceof ServiceError && (err.status === 401 || err.status === 429)
}

export async function readCursorPages<T>(o: CursorOptions<T>): Promise<CursorResult<T>> {
  if (!Number.isInteger(o.limit) || o.limit < 1)
    throw new RangeError(`limit ${o.limit} is not 1 or more`)
  const items: T[] = []
  let pages = 0
  let cursor: string | undefined
  const seen = new Set<string>()
  // No more pages than the rows wanted need, plus one (and up to 3 empty pages read past): a
  // service that answers a row a page with a fresh cursor each time cannot make the reading spend
  // the hourly quota.
  const maxPages = Math.ceil(o.enough / o.limit) + 1
  let emptyPages = 0
  let limit = o.limit
  let bare = false
  let empties = 0
  let narrowed: Narrowing | undefined
  const done = (complete: boolean, short = false, endedShort = false): CursorResult<T> => ({
    items,
    complete,
    short,
    endedShort,
    ...(narrowed ? { narrowed } : {})
  })
  for (;;) {
    if (o.deadline.passed()) {
      // Before the first page the read has nothing to show; later pages just stop the reading.
      if (pages === 0) throw new TimeUpError('the first page')
      return done(false)
    }
    if (pages - Math.min(emptyPages, MAX_EMPTY_PAGES) >= maxPages) return done(false, true)
    const want = Math.min(limit, Math.max(1, o.enough - items.length))
    let page: CursorPage<T>
    try {
      const halvable = canNarrow(want) || o.splittable === true
      page = await o.fetchPage(want, cursor, { bare, halvable })
    } catch (err) {
      // The URL was too long for the service: the same page by its cursor alone. Rows already
      // read are kept, and the later pages go the same way.
      if (cursor !== undefined && !bare && err instanceof ServiceError && err.status === 414) {
        bare = true
        continue
      }
      if (canNarrow(want) && isGatewayTimeout(err)) {
        limit = halved(want)
        narrowed = { from: o.limit, to: limit }
        continue
      }
      // Past the first page the rows read are kept and the reading ends there, marked failed;
      // unless the range is to be read again by weeks, or the run itself must stop.
      const byWeeks = o.splittable === true && isGatewayTimeout(err)
      if (pages > 0 && !byWeeks && !endsTheRun(err)) return { ...done(false), failure: err }
      throw err
    }
    pages++
    items.push(...page.items)
    if (page.nextCursor === null) return done(true)
    // A service that hands back a cursor it gave before would loop forever at our expense.
    if (seen.has(page.nextCursor)) return done(false)
    seen.add(page.nextCursor)
    cursor = page.nextCursor
    if (page.items.length === 0) emptyPages++
    empties = page.items.length === 0 ? empties + 1 : 0
    if (empties >= MAX_EMPTY_PAGES) return done(false, false, true)
    if (items.length >= o.enough) return done(false)
  }
}

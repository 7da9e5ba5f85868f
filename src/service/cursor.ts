// Cursor pagination (searches, assistant conversations): `limit` per request, the next page by
// `nextCursor` until it is null. Requests are spent like money, so reading stops as soon as the
// caller has what it shows, and no request starts after the deadline. What the real service is
// reported to do is answered here: a 414 on a long cursor (ask again with the cursor and `limit`
// alone), a gateway timeout on a large page (ask for half the rows), empty pages that still carry
// a cursor (read on, 3 in a row at most).

import type { Deadline } from '../deadline.js'
import { BudgetError, isTimeUp, RateLimitError, ServiceError, timeUpCause } from './errors.js'
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
interface CursorAsk {
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

/** Where a cursor reading stands: what it read, and how it asks for the next page. */
interface Reading<T> {
  items: T[]
  pages: number
  /** Pages that came back empty (read past, up to 3 in a row). */
  emptyPages: number
  /** Empty pages in a row. */
  empties: number
  cursor: string | undefined
  /** Cursors handed out so far: one handed out again would loop for ever at our expense. */
  seen: Set<string>
  limit: number
  bare: boolean
  narrowed?: Narrowing
}

export async function readCursorPages<T>(o: CursorOptions<T>): Promise<CursorResult<T>> {
  if (!Number.isInteger(o.limit) || o.limit < 1)
    throw new RangeError(`limit ${o.limit} is not 1 or more`)
  const r: Reading<T> = {
    ...{ items: [], pages: 0, emptyPages: 0, empties: 0, cursor: undefined },
    ...{ seen: new Set(), limit: o.limit, bare: false }
  }
  // No more pages than the rows wanted need, plus one (and up to 3 empty pages read past): a
  // service that answers a row a page with a fresh cursor each time cannot make the reading spend
  // the hourly quota.
  const maxPages = Math.ceil(o.enough / o.limit) + 1
  for (;;) {
    // Before the first page the read has nothing to show; later pages just stop the reading.
    if (o.deadline.passed()) return timeIsUp(o, r)
    if (r.pages - Math.min(r.emptyPages, MAX_EMPTY_PAGES) >= maxPages) return done(r, false, true)
    const want = Math.min(r.limit, Math.max(1, o.enough - r.items.length))
    let page: CursorPage<T>
    try {
      const halvable = canNarrow(want) || o.splittable === true
      page = await o.fetchPage(want, r.cursor, { bare: r.bare, halvable })
    } catch (err) {
      const ended = afterFailure(o, r, want, err)
      if (ended === 'ask again') continue
      return ended
    }
    const ended = afterPage(o, r, page)
    if (ended) return ended
  }
}

/** The reading as it stands, returned. */
function done<T>(r: Reading<T>, complete: boolean, short = false, endedShort = false) {
  const { items, narrowed } = r
  return { items, complete, short, endedShort, ...(narrowed ? { narrowed } : {}) }
}

/** The run's time is up: the first page's reading fails with it, a later one stops there. */
function timeIsUp<T>(o: CursorOptions<T>, r: Reading<T>, cause?: unknown): CursorResult<T> {
  if (r.pages === 0) throw o.deadline.error('the first page', cause)
  return done(r, false)
}

/** A page came: the reading ends with it, or goes on to the next cursor. */
function afterPage<T>(o: CursorOptions<T>, r: Reading<T>, page: CursorPage<T>) {
  r.pages++
  r.items.push(...page.items)
  if (page.nextCursor === null) return done(r, true)
  // A service that hands back a cursor it gave before would loop forever at our expense.
  if (r.seen.has(page.nextCursor)) return done(r, false)
  r.seen.add(page.nextCursor)
  r.cursor = page.nextCursor
  if (page.items.length === 0) r.emptyPages++
  r.empties = page.items.length === 0 ? r.empties + 1 : 0
  if (r.empties >= MAX_EMPTY_PAGES) return done(r, false, false, true)
  if (r.items.length >= o.enough) return done(r, false)
  return undefined
}

/** A page failed: ask again another way, end the reading with what it read, or throw. */
function afterFailure<T>(
  o: CursorOptions<T>,
  r: Reading<T>,
  want: number,
  err: unknown
): CursorResult<T> | 'ask again' {
  // The URL was too long for the service: the same page by its cursor alone. Rows already
  // read are kept, and the later pages go the same way.
  if (r.cursor !== undefined && !r.bare && err instanceof ServiceError && err.status === 414) {
    r.bare = true
    return 'ask again'
  }
  if (canNarrow(want) && isGatewayTimeout(err)) {
    r.limit = halved(want)
    r.narrowed = { from: o.limit, to: r.limit }
    return 'ask again'
  }
  // The client ran out of the run's time: the reading's time is up, as if it had noticed first.
  if (isTimeUp(err) && !endsTheRun(err)) return timeIsUp(o, r, timeUpCause(err))
  // Past the first page the rows read are kept and the reading ends there, marked failed;
  // unless the range is to be read again by weeks, or the run itself must stop.
  const byWeeks = o.splittable === true && isGatewayTimeout(err)
  if (r.pages > 0 && !byWeeks && !endsTheRun(err)) return { ...done(r, false), failure: err }
  throw err
}

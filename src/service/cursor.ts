// Cursor pagination (searches, assistant conversations): `limit` per request, the next page by
// `nextCursor` until it is null. Requests are spent like money, so reading stops as soon as the
// caller has what it shows, and no request starts after the deadline.

import type { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'

export interface CursorPage<T> {
  items: T[]
  nextCursor: string | null
}

export interface CursorOptions<T> {
  fetchPage: (limit: number, cursor: string | undefined) => Promise<CursorPage<T>>
  /** Items per request, within what the operation accepts. */
  limit: number
  /** Stop once this many items are read (the last page may bring a few more; they are kept). */
  enough: number
  /** No request starts once it has passed. */
  deadline: Deadline
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
}

export async function readCursorPages<T>(o: CursorOptions<T>): Promise<CursorResult<T>> {
  if (!Number.isInteger(o.limit) || o.limit < 1)
    throw new RangeError(`limit ${o.limit} is not 1 or more`)
  const items: T[] = []
  let requests = 0
  let cursor: string | undefined
  const seen = new Set<string>()
  // No more pages than the rows wanted need, plus one: a service that answers a row a page with
  // a fresh cursor each time cannot make the reading spend the hourly quota.
  const maxPages = Math.ceil(o.enough / o.limit) + 1
  const done = (complete: boolean, short = false): CursorResult<T> => ({ items, complete, short })
  for (;;) {
    if (o.deadline.passed()) {
      // Before the first page the read has nothing to show; later pages just stop the reading.
      if (requests === 0) throw new TimeUpError('the first page')
      return done(false)
    }
    if (requests >= maxPages) return done(false, true)
    const want = Math.min(o.limit, Math.max(1, o.enough - items.length))
    const page = await o.fetchPage(want, cursor)
    requests++
    items.push(...page.items)
    if (page.nextCursor === null) return done(true)
    // A service that hands back a cursor it gave before would loop forever at our expense.
    if (seen.has(page.nextCursor)) return done(false)
    seen.add(page.nextCursor)
    cursor = page.nextCursor
    if (items.length >= o.enough || page.items.length === 0) return done(false)
  }
}

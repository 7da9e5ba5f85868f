// Offset pagination (`visitors`, `views`): pages read with a few requests in flight and handed on
// strictly in offset order. The service allows about 100 analytics requests per hour for the whole
// organisation, so read-ahead is spent like money: a request is only started when the pages
// already seen make it likely to be needed, and a page that turns out to be unneeded is abandoned
// (its AbortSignal fires), never retried.
import { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'
import { checkInteger } from '../json.js'
import { canNarrow, halved, isGatewayTimeout, type Narrowing } from './timeouts.js'
import { HashSet64 } from './path-set.js'

/** What every offset page carries, whatever its rows are called. */
export interface OffsetPage {
  totals: unknown
  hasMore: boolean
}

/** Returned by `onPage` when the caller has what it needs: the read ends there. */
export const STOP = 'stop'

export interface OffsetPagesOptions<Page extends OffsetPage, Row extends { path: string }> {
  /**
   * Retries transient failures itself; a rejection fails the read. `signal` fires when the page
   * is no longer wanted (past the end, after a stop, a failure or the deadline): no retry then.
   * `halvable`: a gateway timeout (502, 504) is to be thrown at once, not retried at this size,
   * since the reader asks for the same rows in smaller pages (only with `joinPages`).
   */
  fetchPage: (
    offset: number,
    limit: number,
    signal: AbortSignal,
    halvable: boolean
  ) => Promise<Page>
  rowsOf: (page: Page) => Row[]
  /**
   * Makes one page of consecutive smaller ones. With it, a page the gateway times out on is read
   * in halves (down to 25 rows a request), and every later page in pieces of the size that got
   * through; without it, a timeout fails the read like any error.
   */
  joinPages?: (parts: Page[]) => Page
  /** The `limit` sent on every request, 1..250. */
  pageSize: number
  /** 0 = all rows; else stop after this many rows. */
  maxRows: number
  /**
   * 1..16 requests in flight at once. Answered pages wait for their turn beside them, up to
   * `concurrency` more, so one slow page does not stall the others.
   */
  concurrency: number
  /** No request starts after it, and a read still going then fails with TimeUpError. */
  deadline?: Deadline
  /**
   * After the deadline, how long to wait for the page then awaited to fail on its own (default
   * 1.5 s). The client gives up at the deadline too, within its last attempt's time limit (at least
   * 1 s), and its reason (a 429, a timeout) says more than "time is up".
   */
  graceMs?: number
  /**
   * Called once per page, strictly in offset order, with the rows to keep (possibly none); the
   * next page waits until it settles. Always called for the first page, so a caller may take the
   * totals and open its output there. Returning STOP ends the read: later pages are abandoned.
   */
  onPage: (rows: Row[], page: Page) => void | typeof STOP | Promise<void | typeof STOP>
  onWarning: (message: string) => void
}

export interface OffsetPagesResult<Page> {
  /** The first page: its totals are the service's (deduplicated by it, never a sum). */
  first: Page
  /** Rows handed to onPage. */
  rows: number
  /** Pages handed to onPage. */
  pages: number
  /** Every fetchPage call (each piece of a narrowed page too): what the read spent. */
  requests: number
  /** Pages requested that were not needed (past the end, or after a STOP); abandoned. */
  abandoned: number
  /** True when rows were cut to `maxRows` or more rows existed. */
  maxRowsReached: boolean
  /** True when onPage returned STOP before the end. */
  stopped: boolean
  /**
   * True when the read stopped while the service still said more rows exist: 3 pages in a row
   * came back empty. What was read is not the whole export.
   */
  endedShort: boolean
  /** Pages that came back with fewer rows than asked for while saying more exist (read on). */
  shortPages: number
  /** Set when the gateway timed out on pages of `pageSize` and smaller ones got through. */
  narrowed?: Narrowing
}

/**
 * Empty pages in a row, each saying more exist, after which the read stops (marked endedShort):
 * observed, the service may send a short or empty page mid-read, but not forever.
 */
export const MAX_EMPTY_PAGES = 3

/**
 * Up to this many pages, read-ahead may cost at most 1 request past the end: most exports are
 * short, and a short export should not pay `concurrency - 1` requests to go faster.
 */
export const SHORT_EXPORT_PAGES = 5

type Outcome<Page> = { ok: true; page: Page } | { ok: false; error: unknown }
interface Pending<Page> {
  outcome: Promise<Outcome<Page>>
  controller: AbortController
}

// Timers cannot wait longer than about 24.8 days; a longer deadline simply never fires.
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Reads pages at offsets 0, limit, 2·limit… until a page says it is the last (`hasMore` false),
 * `maxRows` is reached, onPage says STOP, a page fails, time is up, or 3 pages in a row come back
 * empty while saying more exist. A short page that says more exist is read past (observed: the
 * service sends some), as the offsets are positions in the service's list.
 *
 * How far ahead it reads: a page is *known to exist* once the page before it came back with
 * `hasMore`; requesting it costs nothing extra. A page beyond those is a guess that may lie past
 * the end. The first page is read alone (most sites fit in one). Then one guess at a time is
 * allowed while at most 5 pages are known to exist, so an export of up to 5 pages wastes at most
 * 1 request; once more than 5 are known, up to `concurrency - 1` guesses, the most a longer export
 * can waste. The window grows 1, 2, 2, then `concurrency`, as fast as the proof arrives.
 */
export async function readOffsetPages<Page extends OffsetPage, Row extends { path: string }>(
  o: OffsetPagesOptions<Page, Row>
): Promise<OffsetPagesResult<Page>> {
  checkInteger('pageSize', o.pageSize, 1, 250)
  checkInteger('concurrency', o.concurrency, 1, 16)
  checkInteger('maxRows', o.maxRows, 0, Number.MAX_SAFE_INTEGER)
  const deadline = o.deadline ?? new Deadline()
  const limit = o.pageSize
  const isLastPage = (page: Page): boolean => !page.hasMore

  // Index of the earliest page known to be the last one; only ever decreases.
  let lastIndex = Infinity
  // Pages 0..known-1 are known to exist.
  let known = 1
  // The first page's rows may be all the caller needs (it says STOP): nothing is read ahead
  // before it has seen them.
  let firstDelivered = false
  let failed = false
  let done = false
  let timeUp = false
  let nextIndex = 0
  let requests = 0
  let inFlight = 0
  // Delivered so far: with `maxRows`, no page is requested beyond those its rows still need.
  let rows = 0
  let delivered = 0
  const maxPages = (): number =>
    o.maxRows > 0 ? delivered + Math.ceil((o.maxRows - rows) / limit) : Infinity
  // Pages requested and not yet delivered: in flight, or answered and waiting for their turn.
  // Their promises never reject, so a page nobody awaits cannot become an unhandled rejection.
  const pending = new Map<number, Pending<Page>>()

  // Requests may go up to (not including) this index.
  const reach = (): number =>
    !firstDelivered ? 1 : known + (known > SHORT_EXPORT_PAGES ? o.concurrency - 1 : 1)

  const fill = (): void => {
    while (
      !failed &&
      !done &&
      !timeUp &&
      inFlight < o.concurrency &&
      pending.size < 2 * o.concurrency &&
      nextIndex <= lastIndex &&
      nextIndex < maxPages() &&
      nextIndex < reach() &&
      !deadline.passed()
    )
      start(nextIndex++)
  }

  const settled = (index: number, outcome: Outcome<Page>): Outcome<Page> => {
    inFlight--
    if (!outcome.ok) failed = true
    else if (isLastPage(outcome.page)) lastIndex = Math.min(lastIndex, index)
    else known = Math.max(known, index + 2)
    // What this answer proved may allow the next request at once, before its turn to be delivered.
    fill()
    return outcome
  }

  // The page size that gets through the service's gateway: `limit` until a page times out.
  let partSize = limit
  let narrowed: Narrowing | undefined
  /** The rows of one page, in pieces of `partSize` once the gateway has timed out on more. */
  const fetchRows = (offset: number, signal: AbortSignal): Promise<Page> =>
    // Without a way to join pieces there is nothing to narrow to: the page as it comes.
    o.joinPages
      ? fetchInPieces(offset, signal, o.joinPages)
      : o.fetchPage(offset, limit, signal, false)
  const fetchInPieces = async (
    offset: number,
    signal: AbortSignal,
    join: (parts: Page[]) => Page
  ): Promise<Page> => {
    const parts: Page[] = []
    // The page's first request is counted where it starts; each further piece here.
    let calls = 0
    for (let at = offset; at < offset + limit;) {
      const n = Math.min(partSize, offset + limit - at)
      const halvable = canNarrow(n)
      if (calls++ > 0) requests++
      let part: Page
      try {
        part = await o.fetchPage(at, n, signal, halvable)
      } catch (err) {
        if (!halvable || signal.aborted || !isGatewayTimeout(err)) throw err
        partSize = Math.min(partSize, halved(n))
        narrowed = { from: limit, to: partSize }
        continue
      }
      parts.push(part)
      at += n
      if (!part.hasMore) break
    }
    return parts.length === 1 ? parts[0]! : join(parts)
  }

  const start = (index: number): void => {
    requests++
    inFlight++
    const controller = new AbortController()
    let outcome: Promise<Outcome<Page>>
    try {
      outcome = fetchRows(index * limit, controller.signal).then(
        page => settled(index, { ok: true, page }),
        (error: unknown) => settled(index, { ok: false, error })
      )
    } catch (error) {
      // fetchPage threw instead of rejecting.
      inFlight--
      failed = true
      outcome = Promise.resolve({ ok: false, error })
    }
    pending.set(index, { outcome, controller })
  }

  // Wakes the wait for the current page. Not a long-lived promise raced against each page: every
  // race would leave a reaction on it holding that page's rows until the deadline.
  let wakeAtDeadline = (): void => undefined
  // A guard racing the pages, not a wait: it runs on real time, computed from the time left.
  const timer =
    deadline.left() < MAX_TIMER_MS
      ? setTimeout(() => {
          timeUp = true
          wakeAtDeadline()
        }, deadline.left())
      : undefined

  const checks = new PageChecks<Page, Row>(o, limit)
  let first: Page | undefined
  let maxRowsReached = false
  let emptyRun = 0
  let shortPages = 0
  try {
    fill()
    for (let index = 0; ; index++) {
      const entry = pending.get(index)
      if (timeUp || (entry === undefined && deadline.passed())) throw timeUpAt(rows, index)
      // Unreachable unless the bookkeeping above is wrong; failing beats silently losing rows.
      if (entry === undefined) throw new Error(`internal error: page ${index} was never requested`)
      const outcome = await new Promise<Outcome<Page> | 'time up'>(resolve => {
        wakeAtDeadline = () => resolve('time up')
        void entry.outcome.then(resolve)
      })
      wakeAtDeadline = () => undefined
      if (outcome === 'time up') {
        for (const [i, other] of pending) if (i !== index) other.controller.abort()
        const late = await settleWithin(entry.outcome, o.graceMs ?? 1_500)
        const pageError = late !== undefined && !late.ok ? late.error : undefined
        throw timeUpAt(rows, index, index * limit, pageError)
      }
      pending.delete(index)
      // A failure surfaces only when its turn comes: every earlier page has been delivered by then,
      // so the failed page is known not to lie past the end (a service may refuse such offsets).
      if (!outcome.ok) throw outcome.error
      const page = outcome.page
      first ??= page
      const isLast = isLastPage(page)
      checks.check(page, index)
      const count = o.rowsOf(page).length
      if (!isLast && count < limit) shortPages++
      emptyRun = !isLast && count === 0 ? emptyRun + 1 : 0
      const endedShort = emptyRun >= MAX_EMPTY_PAGES

      let kept = o.rowsOf(page)
      const room = o.maxRows > 0 ? o.maxRows - rows : Infinity
      if (kept.length > room) {
        kept = kept.slice(0, room)
        maxRowsReached = true
      } else if (kept.length === room && !isLast) maxRowsReached = true
      checks.duplicates(kept)
      rows += kept.length
      delivered++
      const enough = o.maxRows > 0 && rows >= o.maxRows

      const answer = o.onPage(kept, page)
      let verdict: void | typeof STOP
      if (answer instanceof Promise) {
        // Fetching overlaps the caller's writing.
        fill()
        verdict = await answer
      } else verdict = answer
      firstDelivered = true
      const stopped = verdict === STOP && !isLast && !enough
      const finished = stopped || isLast || enough || endedShort
      // A read that got everything while the last page was being written has not run out of time.
      if (timeUp && !finished) throw timeUpAt(rows, index + 1)
      if (finished) {
        return {
          first,
          rows,
          pages: index + 1,
          requests,
          abandoned: pending.size,
          maxRowsReached,
          stopped,
          endedShort: endedShort && !stopped && !enough,
          shortPages,
          ...(narrowed ? { narrowed } : {})
        }
      }
      fill()
    }
  } finally {
    done = true
    clearTimeout(timer)
    // Whatever is still pending is not wanted: past the end, after a stop, a failure or time up.
    for (const { controller } of pending.values()) controller.abort()
  }
}

/** The promise's value if it settles within `ms`, else undefined. */
async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>(resolve => {
    timer = setTimeout(() => resolve(undefined), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** The warnings about data that moved while it was read: totals that changed, repeated paths. */
class PageChecks<Page extends OffsetPage, Row extends { path: string }> {
  private firstTotals: string | undefined
  private totalsWarned = false
  private readonly seen = new HashSet64()
  private duplicateWarned = false

  constructor(
    private readonly o: Pick<OffsetPagesOptions<Page, Row>, 'onWarning' | 'rowsOf'>,
    private readonly limit: number
  ) {}

  check(page: Page, index: number): void {
    const totals = JSON.stringify(page.totals)
    if (this.firstTotals === undefined) this.firstTotals = totals
    else if (!this.totalsWarned && totals !== this.firstTotals) {
      this.totalsWarned = true
      this.o.onWarning(
        `The totals changed while the pages were read (data moved during the export): the first ` +
          `page said ${this.firstTotals}, the page at offset ${index * this.limit} says ` +
          `${totals}. The export keeps the first page's totals; rows may be missing or repeated.`
      )
    }
  }

  duplicates(rows: Row[]): void {
    if (this.duplicateWarned) return
    for (const row of rows) {
      if (this.seen.add(row.path)) continue
      this.duplicateWarned = true
      this.o.onWarning(
        `The path ${JSON.stringify(row.path)} appears more than once (data moved during the ` +
          `export?); other paths may repeat too. The rows are kept as the service sent them.`
      )
      return
    }
  }
}

/** The time ran out after `rows` rows in `pages` pages, the page at `offset` still awaited. */
function timeUpAt(rows: number, pages: number, offset?: number, pageError?: unknown): TimeUpError {
  const next = offset === undefined ? 'the next page' : `the next page (offset ${offset})`
  return new TimeUpError(next, pageError, { rows, pages })
}

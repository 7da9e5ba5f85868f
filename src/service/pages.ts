// Offset pagination (`visitors`, `views`): pages read with a few requests in flight and handed on
// strictly in order. The service allows about 100 analytics requests per hour for the whole
// organisation, so read-ahead is spent like money: a request is only started when the pages
// already seen make it likely to be needed, and a page that turns out to be unneeded is abandoned
// (its AbortSignal fires), never retried. A service that serves fewer rows than `limit` loses
// none: the next page starts at the offset plus the rows received.
import type { Deadline } from '../deadline.js'
import { DeadlineGuard, TIME_UP } from './page-deadline.js'
import { TimeUpError } from '../errors.js'
import { checkInteger } from '../json.js'
import { isTimeUp, timeUpCause } from './errors.js'
import type { Narrowing } from './timeouts.js'
import { PageFetcher, type FetchOffsetPage } from './page-pieces.js'
import { PageChecks } from './page-checks.js'
import { PageWindow, type Outcome, type Pending } from './page-window.js'

/** What every offset page carries, whatever its rows are called. */
export interface OffsetPage {
  totals: unknown
  hasMore: boolean
}

/** Returned by `onPage` when the caller has what it needs: the read ends there. */
export const STOP = 'stop'

export interface OffsetPagesOptions<Page extends OffsetPage, Row extends { path: string }> {
  /** One page's request (page-pieces.ts says what `signal` and `halvable` mean). */
  fetchPage: FetchOffsetPage<Page>
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
   * The most pages read (default MAX_PAGES): a service that says `hasMore` forever, a new row a
   * page, cannot spend the hourly quota many times over. A read still going then stops, `capped`.
   */
  maxPages?: number
  /**
   * 1..16 requests in flight at once. Answered pages wait for their turn beside them, up to
   * `concurrency` more, so one slow page does not stall the others.
   */
  concurrency: number
  /**
   * The run's deadline and clock: no request starts after it, and a read still going then fails
   * with the run's TimeUpError. Its clock's alarm wakes the wait for a page at the deadline.
   */
  deadline: Deadline
  /**
   * After the deadline, how long (on the deadline's clock) to wait for the page then awaited to
   * fail on its own (default 1.5 s). The client gives up at the deadline too, within its last
   * attempt's time limit (at least 1 s), and its reason (a 429, a timeout) says more than "time
   * is up".
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
  /**
   * Pages read ahead at offsets a short page proved wrong (the next page starts where its rows
   * end), abandoned; a page after a short one is only read ahead once the page size holds again.
   */
  invalidated: number
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
  /** Rows dropped because their path had been read before (each path is kept once). */
  dropped: number
  /** True when the read stopped at `maxPages` while the service still said more exist. */
  capped: boolean
  /**
   * True when the read stopped at a page whose rows had all been read before, while the service
   * still said more exist: what was read is not known to be the whole export.
   */
  repeated: boolean
  /** Set when the gateway timed out on pages of `pageSize` and smaller ones got through. */
  narrowed?: Narrowing
}

/**
 * Empty pages in a row, each saying more exist, after which the read stops (marked endedShort):
 * observed, the service may send a short or empty page mid-read, but not forever.
 */
export const MAX_EMPTY_PAGES = 3

/**
 * The most pages an offset read asks for unless the caller's limits (`max-rows`, `max-requests`)
 * allow more: 400 pages are four hours of the organisation's analytics quota.
 */
export const MAX_PAGES = 400

/**
 * Reads pages from offset 0, each at the offset plus the rows the page before held, until a page
 * says it is the last (`hasMore` false), `maxRows` is reached, onPage says STOP, a page fails,
 * time is up, 3 pages in a row come back empty while saying more exist, a page holds only rows
 * read before, or `maxPages` pages were read. An empty page that says more exist is read past by
 * a page's worth of rows (observed: the service sends some, but not forever).
 *
 * How far ahead it reads (page-window.ts): a page is *known to exist* once the page before it
 * came back with `hasMore`; requesting it costs nothing extra. A page beyond those is a guess that
 * may lie past the end. The first page is read alone (most sites fit in one). Then one guess at a
 * time is allowed while at most 5 pages are known to exist, so an export of up to 5 pages wastes
 * at most 1 request; once more than 5 are known, up to `concurrency - 1` guesses, the most a
 * longer export can waste. The window grows 1, 2, 2, then `concurrency`, as fast as the proof
 * arrives. Pages read ahead at offsets a short page proved wrong are abandoned as soon as it
 * comes; after that, the window grows again only as the pages hold their size. Once a page starts
 * with a row read before, nothing more is read ahead: the next page is asked for only when it is
 * needed.
 */
export async function readOffsetPages<Page extends OffsetPage, Row extends { path: string }>(
  o: OffsetPagesOptions<Page, Row>
): Promise<OffsetPagesResult<Page>> {
  checkInteger('pageSize', o.pageSize, 1, 250)
  checkInteger('concurrency', o.concurrency, 1, 16)
  checkInteger('maxRows', o.maxRows, 0, Number.MAX_SAFE_INTEGER)
  const maxPages = o.maxPages ?? MAX_PAGES
  checkInteger('maxPages', maxPages, 1, Number.MAX_SAFE_INTEGER)
  return new OffsetRead(o, maxPages).run()
}

/** One page in its turn, as the read counts it. */
interface Step<Row> {
  /** The rows handed on: each path once, within `maxRows`. */
  kept: Row[]
  /** The rows the service served. */
  count: number
  isLast: boolean
  /** `maxRows` rows are handed on. */
  enough: boolean
  /** The 3rd empty page in a row that says more exist. */
  endedShort: boolean
  /** Rows the service had sent already, and none new: it would say `hasMore` for ever. */
  repeated: boolean
  /** The `maxPages`th page, and more exist. */
  capped: boolean
}

/** What the pages handed on add up to, page by page in offset order. */
class Tally<Page extends OffsetPage, Row extends { path: string }> {
  first: Page | undefined
  rows = 0
  pages = 0
  shortPages = 0
  maxRowsReached = false
  private emptyRun = 0

  constructor(
    private readonly o: Pick<OffsetPagesOptions<Page, Row>, 'rowsOf' | 'pageSize' | 'maxRows'>,
    private readonly maxPages: number,
    private readonly checks: PageChecks<Row>
  ) {}

  take(page: Page, offset: number): Step<Row> {
    this.first ??= page
    const isLast = !page.hasMore
    this.checks.totals(page.totals, offset)
    const served = this.o.rowsOf(page)
    const count = served.length
    if (!isLast && count < this.o.pageSize) this.shortPages++
    this.emptyRun = !isLast && count === 0 ? this.emptyRun + 1 : 0
    const fresh = this.checks.fresh(served)
    const repeated = !isLast && count > 0 && fresh.length === 0
    const kept = this.withinMaxRows(fresh, isLast)
    this.rows += kept.length
    this.pages++
    const enough = this.o.maxRows > 0 && this.rows >= this.o.maxRows
    const capped = !isLast && !enough && this.pages >= this.maxPages
    const endedShort = this.emptyRun >= MAX_EMPTY_PAGES
    return { kept, count, isLast, enough, endedShort, repeated, capped }
  }

  private withinMaxRows(rows: Row[], isLast: boolean): Row[] {
    const room = this.o.maxRows > 0 ? this.o.maxRows - this.rows : Infinity
    if (rows.length > room) {
      this.maxRowsReached = true
      return rows.slice(0, room)
    }
    if (rows.length === room && !isLast) this.maxRowsReached = true
    return rows
  }
}

/** One offset read: the window asks for the pages, the tally counts them, handed on in order. */
class OffsetRead<Page extends OffsetPage, Row extends { path: string }> {
  private readonly checks: PageChecks<Row>
  private readonly fetcher: PageFetcher<Page, Row>
  private readonly tally: Tally<Page, Row>
  private readonly window: PageWindow<Page, Row>
  private readonly guard: DeadlineGuard

  constructor(
    private readonly o: OffsetPagesOptions<Page, Row>,
    maxPages: number
  ) {
    this.checks = new PageChecks<Row>(o.onWarning, 'offset')
    this.fetcher = new PageFetcher<Page, Row>(o, o.pageSize)
    this.tally = new Tally<Page, Row>(o, maxPages, this.checks)
    const handed = this.tally
    this.window = new PageWindow<Page, Row>({ ...o, maxPages, handed }, this.fetcher, this.checks)
    this.guard = new DeadlineGuard(o.deadline)
  }

  async run(): Promise<OffsetPagesResult<Page>> {
    try {
      this.window.fill()
      for (let index = 0; ; index++) {
        const result = await this.turn(index)
        if (result) return result
      }
    } finally {
      this.guard.end()
      // Whatever is still pending is not wanted: past the end, after a stop, a failure or time up.
      this.window.close()
    }
  }

  /** The page at `index`, handed on in its turn; the result when the read ends with it. */
  private async turn(index: number): Promise<OffsetPagesResult<Page> | undefined> {
    const { page, offset } = await this.awaitPage(index)
    // Out of the window as it is handed on, not before: answered pages wait beside those in
    // flight, and no more of them than that.
    this.window.handOn(index)
    const step = this.tally.take(page, offset)
    this.window.handedOn(index, offset, step.count, step.isLast)
    let verdict = this.o.onPage(step.kept, page)
    if (verdict instanceof Promise) {
      // Fetching overlaps the caller's writing.
      this.window.fill()
      verdict = await verdict
    }
    this.window.firstHandedOn()
    const stopped = verdict === STOP && !step.isLast && !step.enough
    const { isLast, enough, endedShort, repeated, capped } = step
    const finished = stopped || isLast || enough || endedShort || repeated || capped
    if (finished) return this.result(step, stopped)
    // A read that got everything while the last page was being written has not run out of time.
    if (this.o.deadline.passed()) throw this.timeUp(index + 1)
    this.window.fill()
    return undefined
  }

  private async awaitPage(index: number): Promise<{ page: Page; offset: number }> {
    const entry = this.window.page(index)
    if (entry === undefined) {
      if (this.o.deadline.passed()) throw this.timeUp(index)
      // Unreachable unless the bookkeeping is wrong; failing beats silently losing rows.
      throw new Error(`internal error: page ${index} was never requested`)
    }
    const outcome = await this.guard.race(entry.outcome)
    if (outcome === TIME_UP) throw await this.timeUpAwaiting(index, entry)
    // A failure surfaces only when its turn comes: every earlier page has been handed on by then,
    // so the failed page is known not to lie past the end (a service may refuse such offsets).
    if (!outcome.ok) throw this.failureOf(index, entry, outcome.error)
    return { page: outcome.page, offset: entry.offset }
  }

  /** Time ran out while the page at `index` was awaited: the others go, it may still say why. */
  private async timeUpAwaiting(index: number, entry: Pending<Page>): Promise<TimeUpError> {
    this.window.abandonAllBut(index)
    const late: Outcome<Page> | undefined = await this.guard.grace(
      entry.outcome,
      this.o.graceMs ?? 1_500
    )
    return this.timeUp(index, entry.offset, late?.ok === false ? late.error : undefined)
  }

  /**
   * A page's failure as the read reports it. One that says the run's time ran out (the client's
   * time-up, or its giving up for want of time), or that comes once the deadline has passed, is
   * the read's time-up with it as the cause: the same error whichever noticed first, this read's
   * guard or the client, however loaded the machine.
   */
  private failureOf(index: number, entry: Pending<Page>, error: unknown): unknown {
    if (!isTimeUp(error) && !this.o.deadline.passed()) return error
    return this.timeUp(index, entry.offset, timeUpCause(error))
  }

  /** The time ran out after `pages` pages handed on, the page at `offset` still awaited. */
  private timeUp(pages: number, offset?: number, cause?: unknown): TimeUpError {
    const next = offset === undefined ? 'the next page' : `the next page (offset ${offset})`
    return this.o.deadline.error(next, cause, { rows: this.tally.rows, pages })
  }

  private result(step: Step<Row>, stopped: boolean): OffsetPagesResult<Page> {
    const { tally, window, fetcher } = this
    const cut = !stopped && !step.enough
    return {
      first: tally.first!,
      rows: tally.rows,
      pages: tally.pages,
      requests: window.requests + fetcher.extra,
      abandoned: window.outstanding,
      invalidated: window.invalidated,
      maxRowsReached: tally.maxRowsReached,
      stopped,
      endedShort: step.endedShort && cut,
      shortPages: tally.shortPages,
      dropped: this.checks.dropped,
      capped: step.capped && cut && !step.endedShort && !step.repeated,
      repeated: step.repeated && cut,
      ...(fetcher.narrowed ? { narrowed: fetcher.narrowed } : {})
    }
  }
}

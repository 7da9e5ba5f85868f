// Offset pagination (`visitors`, `views`): pages read with a few requests in flight and handed on
// strictly in order. The service allows about 100 analytics requests per hour for the whole
// organisation, so read-ahead is spent like money: a request is only started when the pages
// already seen make it likely to be needed, and a page that turns out to be unneeded is abandoned
// (its AbortSignal fires), never retried. A service that serves fewer rows than `limit` loses
// none: the next page starts at the offset plus the rows received.
import { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'
import { checkInteger } from '../json.js'
import type { Narrowing } from './timeouts.js'
import { PageFetcher, type FetchOffsetPage } from './page-pieces.js'
import { PageChecks } from './page-checks.js'

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
 * Up to this many pages, read-ahead may cost at most 1 request past the end: most exports are
 * short, and a short export should not pay `concurrency - 1` requests to go faster.
 */
export const SHORT_EXPORT_PAGES = 5

/**
 * The most pages an offset read asks for unless the caller's limits (`max-rows`, `max-requests`)
 * allow more: 400 pages are four hours of the organisation's analytics quota.
 */
export const MAX_PAGES = 400

type Outcome<Page> = { ok: true; page: Page } | { ok: false; error: unknown }
interface Pending<Page> {
  outcome: Promise<Outcome<Page>>
  controller: AbortController
  offset: number
}

/**
 * Where the pages are asked for: page `index` at `start + (index - from) * stride`, the stride
 * being the rows the service serves a page (`limit` until a page says otherwise). A page whose
 * rows differ from the stride while more exist breaks the plan after it; the next one starts at
 * its offset plus the rows it held. `careful`: a plan that read ahead in vain before reads ahead
 * only as far as the pages since have held the stride (`steady`).
 */
interface Plan {
  from: number
  start: number
  stride: number
  brokenAt: number
  careful: boolean
  steady: number
  /** Pages invalidated before this plan began. */
  wasted: number
}

// Timers cannot wait longer than about 24.8 days; a longer deadline simply never fires.
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Reads pages from offset 0, each at the offset plus the rows the page before held, until a page
 * says it is the last (`hasMore` false), `maxRows` is reached, onPage says STOP, a page fails,
 * time is up, 3 pages in a row come back empty while saying more exist, a page holds only rows
 * read before, or `maxPages` pages were read. An empty page that says more exist is read past by
 * a page's worth of rows (observed: the service sends some, but not forever).
 *
 * How far ahead it reads: a page is *known to exist* once the page before it came back with
 * `hasMore`; requesting it costs nothing extra. A page beyond those is a guess that may lie past
 * the end. The first page is read alone (most sites fit in one). Then one guess at a time is
 * allowed while at most 5 pages are known to exist, so an export of up to 5 pages wastes at most
 * 1 request; once more than 5 are known, up to `concurrency - 1` guesses, the most a longer export
 * can waste. The window grows 1, 2, 2, then `concurrency`, as fast as the proof arrives. Pages
 * read ahead at offsets a short page proved wrong are abandoned as soon as it comes; after that,
 * the window grows again only as the pages hold their size. Once a page starts with a row read
 * before, nothing more is read ahead: the next page is asked for only when it is needed.
 */
export async function readOffsetPages<Page extends OffsetPage, Row extends { path: string }>(
  o: OffsetPagesOptions<Page, Row>
): Promise<OffsetPagesResult<Page>> {
  checkInteger('pageSize', o.pageSize, 1, 250)
  checkInteger('concurrency', o.concurrency, 1, 16)
  checkInteger('maxRows', o.maxRows, 0, Number.MAX_SAFE_INTEGER)
  const pageCap = o.maxPages ?? MAX_PAGES
  checkInteger('maxPages', pageCap, 1, Number.MAX_SAFE_INTEGER)
  const deadline = o.deadline ?? new Deadline()
  const limit = o.pageSize
  const isLastPage = (page: Page): boolean => !page.hasMore
  const checks = new PageChecks<Row>(o.onWarning, 'offset')

  // Index of the earliest page known to be the last one; only ever decreases within a plan.
  let lastIndex = Infinity
  // Pages 0..known-1 are known to exist.
  let known = 1
  // The first page's rows may be all the caller needs (it says STOP): nothing is read ahead
  // before it has seen them.
  let firstDelivered = false
  let failed = false
  let done = false
  let timeUp = false
  // A page started with a row read before: the service may be repeating itself for ever.
  let repeating = false
  let nextIndex = 0
  let requests = 0
  let inFlight = 0
  let invalidated = 0
  // Delivered so far: with `maxRows`, no page is requested beyond those its rows still need.
  let rows = 0
  let delivered = 0
  let plan: Plan = {
    ...{ from: 0, start: 0, stride: limit, brokenAt: Infinity },
    ...{ careful: false, steady: 0, wasted: 0 }
  }
  const offsetOf = (index: number): number => plan.start + (index - plan.from) * plan.stride
  const maxPages = (): number =>
    Math.min(
      pageCap,
      o.maxRows > 0 ? delivered + Math.ceil((o.maxRows - rows) / plan.stride) : Infinity
    )
  // Pages requested and not yet delivered: in flight, or answered and waiting for their turn.
  // Their promises never reject, so a page nobody awaits cannot become an unhandled rejection.
  const pending = new Map<number, Pending<Page>>()

  // Requests may go up to (not including) this index.
  const reach = (): number => {
    if (!firstDelivered) return 1
    // The page after the last one delivered: its offset is known, whatever came before.
    const next = delivered + 1
    if (repeating) return next
    const window = known + (known > SHORT_EXPORT_PAGES ? o.concurrency - 1 : 1)
    return plan.careful ? Math.min(window, next + plan.steady) : window
  }

  const fill = (): void => {
    while (
      !failed &&
      !done &&
      !timeUp &&
      inFlight < o.concurrency &&
      pending.size < 2 * o.concurrency &&
      nextIndex <= lastIndex &&
      nextIndex <= plan.brokenAt &&
      nextIndex < maxPages() &&
      nextIndex < reach() &&
      !deadline.passed()
    )
      start(nextIndex++)
  }

  /** The pending pages after `index` were asked at offsets now known to be wrong: abandoned. */
  const dropAfter = (index: number): void => {
    for (const [i, entry] of pending) {
      if (i <= index) continue
      entry.controller.abort()
      pending.delete(i)
      invalidated++
    }
  }

  const settled = (index: number, entry: Pending<Page>, outcome: Outcome<Page>) => {
    inFlight--
    // Abandoned meanwhile (a short page proved its offset wrong): nothing it says counts.
    if (pending.get(index) !== entry) return outcome
    if (!outcome.ok) failed = true
    else if (isLastPage(outcome.page)) lastIndex = Math.min(lastIndex, index)
    else {
      known = Math.max(known, index + 2)
      const count = o.rowsOf(outcome.page).length
      // More or fewer rows than the plan's stride: every later page of the plan is misplaced.
      if (count > 0 && count !== plan.stride && index < plan.brokenAt) {
        plan.brokenAt = index
        dropAfter(index)
      }
      if (checks.repeats(o.rowsOf(outcome.page))) repeating = true
    }
    // What this answer proved may allow the next request at once, before its turn to be delivered.
    fill()
    return outcome
  }

  /** A new plan after the page at `index`, which held `count` rows at `offset`. */
  const replan = (index: number, offset: number, count: number): void => {
    dropAfter(index)
    plan = {
      ...{ from: index + 1, start: offset + count, stride: count, brokenAt: Infinity },
      ...{ careful: plan.careful || invalidated > plan.wasted, steady: 0, wasted: invalidated }
    }
    nextIndex = index + 1
    known = index + 2
    lastIndex = Infinity
    failed = false
  }

  const fetcher = new PageFetcher<Page, Row>(o, limit)
  const start = (index: number): void => {
    requests++
    inFlight++
    const controller = new AbortController()
    const offset = offsetOf(index)
    const entry: Pending<Page> = {
      outcome: Promise.resolve({ ok: false, error: null }),
      controller,
      offset
    }
    try {
      entry.outcome = fetcher.fetch(offset, controller.signal).then(
        page => settled(index, entry, { ok: true, page }),
        (error: unknown) => settled(index, entry, { ok: false, error })
      )
    } catch (error) {
      // fetchPage threw instead of rejecting.
      inFlight--
      failed = true
      entry.outcome = Promise.resolve({ ok: false, error })
    }
    pending.set(index, entry)
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
        throw timeUpAt(rows, index, entry.offset, pageError)
      }
      pending.delete(index)
      // A failure surfaces only when its turn comes: every earlier page has been delivered by then,
      // so the failed page is known not to lie past the end (a service may refuse such offsets).
      if (!outcome.ok) throw outcome.error
      const page = outcome.page
      first ??= page
      const isLast = isLastPage(page)
      checks.totals(page.totals, entry.offset)
      const served = o.rowsOf(page)
      const count = served.length
      if (!isLast && count < limit) shortPages++
      emptyRun = !isLast && count === 0 ? emptyRun + 1 : 0
      const endedShort = emptyRun >= MAX_EMPTY_PAGES
      if (!isLast && count > 0 && count !== plan.stride) replan(index, entry.offset, count)
      else if (plan.careful && count === plan.stride) plan.steady++

      let kept = checks.fresh(served)
      // Rows the service had sent already, and none new: it would say `hasMore` for ever.
      const repeated = !isLast && count > 0 && kept.length === 0
      const room = o.maxRows > 0 ? o.maxRows - rows : Infinity
      if (kept.length > room) {
        kept = kept.slice(0, room)
        maxRowsReached = true
      } else if (kept.length === room && !isLast) maxRowsReached = true
      rows += kept.length
      delivered++
      const enough = o.maxRows > 0 && rows >= o.maxRows
      const capped = !isLast && !enough && delivered >= pageCap

      const answer = o.onPage(kept, page)
      let verdict: void | typeof STOP
      if (answer instanceof Promise) {
        // Fetching overlaps the caller's writing.
        fill()
        verdict = await answer
      } else verdict = answer
      firstDelivered = true
      const stopped = verdict === STOP && !isLast && !enough
      const finished = stopped || isLast || enough || endedShort || repeated || capped
      // A read that got everything while the last page was being written has not run out of time.
      if (timeUp && !finished) throw timeUpAt(rows, index + 1)
      if (finished) {
        const cut = !stopped && !enough
        return {
          first,
          rows,
          pages: index + 1,
          requests: requests + fetcher.extra,
          abandoned: pending.size,
          invalidated,
          maxRowsReached,
          stopped,
          endedShort: endedShort && cut,
          shortPages,
          dropped: checks.dropped,
          capped: capped && cut && !endedShort && !repeated,
          repeated: repeated && cut,
          ...(fetcher.narrowed ? { narrowed: fetcher.narrowed } : {})
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

/** The time ran out after `rows` rows in `pages` pages, the page at `offset` still awaited. */
function timeUpAt(rows: number, pages: number, offset?: number, pageError?: unknown): TimeUpError {
  const next = offset === undefined ? 'the next page' : `the next page (offset ${offset})`
  return new TimeUpError(next, pageError, { rows, pages })
}

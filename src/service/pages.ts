// Offset pagination (`visitors`, `views`): pages read with a few requests in flight and handed on
// strictly in offset order. The service allows about 100 analytics requests per hour for the whole
// organisation, so read-ahead is spent like money: a request is only started when the pages
// already seen make it likely to be needed, and a page that turns out to be unneeded is abandoned
// (its AbortSignal fires), never retried.
import { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'
import { checkInteger } from '../json.js'

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
   */
  fetchPage: (offset: number, limit: number, signal: AbortSignal) => Promise<Page>
  rowsOf: (page: Page) => Row[]
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
  /** Every fetchPage call: what the read spent. */
  requests: number
  /** Pages requested that were not needed (past the end, or after a STOP); abandoned. */
  abandoned: number
  /** True when rows were cut to `maxRows` or more rows existed. */
  maxRowsReached: boolean
  /** True when onPage returned STOP before the end. */
  stopped: boolean
}

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
 * Reads pages at offsets 0, limit, 2·limit… until a page says it is the last (`hasMore` false, or
 * fewer rows than `limit`), `maxRows` is reached, onPage says STOP, a page fails or time is up.
 *
 * How far ahead it reads: a page is *known to exist* once the page before it came back full with
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
  const maxPages = o.maxRows > 0 ? Math.ceil(o.maxRows / limit) : Infinity
  const isLastPage = (page: Page): boolean => !page.hasMore || o.rowsOf(page).length < limit

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
      nextIndex < maxPages &&
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

  const start = (index: number): void => {
    requests++
    inFlight++
    const controller = new AbortController()
    let outcome: Promise<Outcome<Page>>
    try {
      outcome = o.fetchPage(index * limit, limit, controller.signal).then(
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
  let rows = 0
  let maxRowsReached = false
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

      let kept = o.rowsOf(page)
      const room = o.maxRows > 0 ? o.maxRows - rows : Infinity
      if (kept.length > room) {
        kept = kept.slice(0, room)
        maxRowsReached = true
      } else if (kept.length === room && !isLast) maxRowsReached = true
      checks.duplicates(kept)
      rows += kept.length

      const answer = o.onPage(kept, page)
      let verdict: void | typeof STOP
      if (answer instanceof Promise) {
        // Fetching overlaps the caller's writing.
        fill()
        verdict = await answer
      } else verdict = answer
      firstDelivered = true
      const stopped = verdict === STOP && !isLast && index + 1 < maxPages
      const finished = stopped || isLast || index + 1 >= maxPages
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
          stopped
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
    const count = this.o.rowsOf(page).length
    if (page.hasMore && count < this.limit)
      this.o.onWarning(
        `The page at offset ${index * this.limit} has ${count} rows instead of ${this.limit} ` +
          `but says more exist; it is treated as the last page.`
      )
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

/**
 * A set of 64-bit string hashes in one flat typed array (8 bytes a slot, at most half the slots
 * used): 1,000,000 paths take 16 MB (24 MB while growing) where a Set of strings would take 60-80 MB.
 * 32-bit hashes would collide about a hundred times among a million paths; with 64 bits a false
 * "seen" has a chance of about 1 in 30 million, and would only cause a spurious warning.
 */
class HashSet64 {
  private slots = new Uint32Array(2 * 1024)
  private size = 0

  /** Adds the path; false when it (or, very rarely, a path with the same hash) was there. */
  add(path: string): boolean {
    const [a, b] = hash64(path)
    if ((this.size + 1) * 2 > this.slots.length / 2) this.grow()
    if (!HashSet64.insert(this.slots, a, b)) return false
    this.size++
    return true
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    for (let i = 0; i < old.length; i += 2)
      if (old[i] !== 0 || old[i + 1] !== 0) HashSet64.insert(this.slots, old[i]!, old[i + 1]!)
  }

  // Open addressing with linear probing; (0, 0) marks an empty slot, so hash64 never returns it.
  private static insert(slots: Uint32Array, a: number, b: number): boolean {
    const mask = slots.length / 2 - 1
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const x = slots[2 * i]!
      const y = slots[2 * i + 1]!
      if (x === 0 && y === 0) {
        slots[2 * i] = a
        slots[2 * i + 1] = b
        return true
      }
      if (x === a && y === b) return false
    }
  }
}

/** Two 32-bit halves of a cyrb53-style hash (a well-mixed, fast non-cryptographic string hash). */
function hash64(s: string): [number, number] {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  const a = h1 >>> 0
  const b = h2 >>> 0
  return a === 0 && b === 0 ? [0, 1] : [a, b]
}

/** The time ran out after `rows` rows in `pages` pages, the page at `offset` still awaited. */
function timeUpAt(rows: number, pages: number, offset?: number, pageError?: unknown): TimeUpError {
  const next = offset === undefined ? 'the next page' : `the next page (offset ${offset})`
  return new TimeUpError(next, pageError, { rows, pages })
}

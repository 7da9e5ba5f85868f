// The read-ahead of an offset read (pages.ts): which pages are asked for, at which offsets, and
// how many at once. A request is started only when the pages already seen make it likely to be
// needed; pages read ahead at offsets a short page proved wrong are abandoned (their AbortSignal
// fires), never retried. The rules are readOffsetPages's comment, and the contract's "Requests
// and the analytics quota".
import type { Deadline } from '../deadline.js'
import type { PageChecks } from './page-checks.js'
import type { PageFetcher } from './page-pieces.js'

/**
 * Up to this many pages, read-ahead may cost at most 1 request past the end: most exports are
 * short, and a short export should not pay `concurrency - 1` requests to go faster.
 */
export const SHORT_EXPORT_PAGES = 5

export type Outcome<Page> = { ok: true; page: Page } | { ok: false; error: unknown }

/** A page requested and not yet handed on: in flight, or answered and waiting for its turn. */
export interface Pending<Page> {
  /** Never rejects, so a page nobody awaits cannot become an unhandled rejection. */
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
  readonly from: number
  readonly start: number
  readonly stride: number
  readonly brokenAt: number
  readonly careful: boolean
  readonly steady: number
  /** Pages invalidated before this plan began. */
  readonly wasted: number
}

const firstPlan = (limit: number): Plan => ({
  ...{ from: 0, start: 0, stride: limit, brokenAt: Infinity },
  ...{ careful: false, steady: 0, wasted: 0 }
})

/** What the window needs of the read: its limits, and how far the delivery has got. */
export interface WindowOptions<Page, Row> {
  rowsOf: (page: Page) => Row[]
  pageSize: number
  maxRows: number
  maxPages: number
  concurrency: number
  deadline: Deadline
  /** Pages and rows handed on so far (the delivery's count). */
  handed: { readonly pages: number; readonly rows: number }
}

export class PageWindow<Page extends { hasMore: boolean }, Row extends { path: string }> {
  private plan: Plan
  private readonly pending = new Map<number, Pending<Page>>()
  /** Index of the earliest page known to be the last one; only ever decreases within a plan. */
  private lastIndex = Infinity
  /** Pages 0..known-1 are known to exist. */
  private known = 1
  private nextIndex = 0
  private inFlight = 0
  private failed = false
  private closed = false
  /** A page started with a row read before: the service may be repeating itself for ever. */
  private repeating = false
  /**
   * The first page's rows may be all the caller needs (it says STOP): nothing is read ahead
   * before it has seen them.
   */
  private firstSeen = false
  /** Every page requested (each one's pieces are the fetcher's count). */
  requests = 0
  /** Pages read ahead at offsets a short page proved wrong, abandoned. */
  invalidated = 0

  constructor(
    private readonly o: WindowOptions<Page, Row>,
    private readonly fetcher: PageFetcher<Page, Row>,
    private readonly checks: PageChecks<Row>
  ) {
    this.plan = firstPlan(o.pageSize)
  }

  /** Pages requested and not handed on: what a read that ends now abandons. */
  get outstanding(): number {
    return this.pending.size
  }

  /** The page at `index`, requested already, or undefined. */
  page(index: number): Pending<Page> | undefined {
    return this.pending.get(index)
  }

  /** Starts every request the window allows now. */
  fill(): void {
    while (this.mayStart(this.nextIndex)) this.start(this.nextIndex++)
  }

  /** The page at `index` is in the caller's hands (or failed the read): no longer pending. */
  handOn(index: number): void {
    this.pending.delete(index)
  }

  /**
   * The page at `index` (at `offset`) was handed on with `count` rows: a count other than the
   * stride while more exist makes a new plan after it.
   */
  handedOn(index: number, offset: number, count: number, isLast: boolean): void {
    const { plan } = this
    if (!isLast && count > 0 && count !== plan.stride) this.replan(index, offset, count)
    else if (plan.careful && count === plan.stride) this.plan = { ...plan, steady: plan.steady + 1 }
  }

  /** The caller has seen the first page's rows: read-ahead may begin. */
  firstHandedOn(): void {
    this.firstSeen = true
  }

  /** Abandons every pending page but `keep`: time is up, and only that one may still answer. */
  abandonAllBut(keep: number): void {
    for (const [i, entry] of this.pending) if (i !== keep) entry.controller.abort()
  }

  /** The read is over: nothing more starts, and whatever is still pending is not wanted. */
  close(): void {
    this.closed = true
    for (const { controller } of this.pending.values()) controller.abort()
  }

  private mayStart(index: number): boolean {
    const { plan } = this
    return (
      !this.failed &&
      !this.closed &&
      this.inFlight < this.o.concurrency &&
      this.pending.size < 2 * this.o.concurrency &&
      index <= this.lastIndex &&
      index <= plan.brokenAt &&
      index < this.maxPages() &&
      index < this.reach() &&
      !this.o.deadline.passed()
    )
  }

  /** With `maxRows`, no page is requested beyond those its rows still need. */
  private maxPages(): number {
    const { maxRows, handed } = this.o
    const needed = Math.ceil((maxRows - handed.rows) / this.plan.stride)
    return Math.min(this.o.maxPages, maxRows > 0 ? handed.pages + needed : Infinity)
  }

  /** Requests may go up to (not including) this index. */
  private reach(): number {
    if (!this.firstSeen) return 1
    // The page after the last one handed on: its offset is known, whatever came before.
    const next = this.o.handed.pages + 1
    if (this.repeating) return next
    const guesses = this.known > SHORT_EXPORT_PAGES ? this.o.concurrency - 1 : 1
    const window = this.known + guesses
    return this.plan.careful ? Math.min(window, next + this.plan.steady) : window
  }

  private start(index: number): void {
    this.requests++
    this.inFlight++
    const controller = new AbortController()
    const { plan } = this
    const offset = plan.start + (index - plan.from) * plan.stride
    const entry: Pending<Page> = {
      outcome: Promise.resolve({ ok: false, error: null }),
      controller,
      offset
    }
    try {
      entry.outcome = this.fetcher.fetch(offset, controller.signal).then(
        page => this.settled(index, entry, { ok: true, page }),
        (error: unknown) => this.settled(index, entry, { ok: false, error })
      )
    } catch (error) {
      // fetchPage threw instead of rejecting.
      this.inFlight--
      this.failed = true
      entry.outcome = Promise.resolve({ ok: false, error })
    }
    this.pending.set(index, entry)
  }

  private settled(index: number, entry: Pending<Page>, outcome: Outcome<Page>): Outcome<Page> {
    this.inFlight--
    // Abandoned meanwhile (a short page proved its offset wrong): nothing it says counts.
    if (this.pending.get(index) !== entry) return outcome
    if (!outcome.ok) this.failed = true
    else if (!outcome.page.hasMore) this.lastIndex = Math.min(this.lastIndex, index)
    else this.learn(index, this.o.rowsOf(outcome.page))
    // What this answer proved may allow the next request at once, before its turn to be handed on.
    this.fill()
    return outcome
  }

  /** A page at `index` that says more exist: the next is known, and its rows may break the plan. */
  private learn(index: number, rows: Row[]): void {
    this.known = Math.max(this.known, index + 2)
    const count = rows.length
    // More or fewer rows than the plan's stride: every later page of the plan is misplaced.
    if (count > 0 && count !== this.plan.stride && index < this.plan.brokenAt) {
      this.plan = { ...this.plan, brokenAt: index }
      this.dropAfter(index)
    }
    if (this.checks.repeats(rows)) this.repeating = true
  }

  /** The pending pages after `index` were asked at offsets now known to be wrong: abandoned. */
  private dropAfter(index: number): void {
    for (const [i, entry] of this.pending) {
      if (i <= index) continue
      entry.controller.abort()
      this.pending.delete(i)
      this.invalidated++
    }
  }

  /** A new plan after the page at `index`, which held `count` rows at `offset`. */
  private replan(index: number, offset: number, count: number): void {
    this.dropAfter(index)
    const careful = this.plan.careful || this.invalidated > this.plan.wasted
    this.plan = {
      ...{ from: index + 1, start: offset + count, stride: count, brokenAt: Infinity },
      ...{ careful, steady: 0, wasted: this.invalidated }
    }
    this.nextIndex = index + 1
    this.known = index + 2
    this.lastIndex = Infinity
    this.failed = false
  }
}

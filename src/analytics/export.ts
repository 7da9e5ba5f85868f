// Reads every page of the visitors export with a few requests in flight, and hands the rows on in
// offset order. The service allows about 100 analytics requests per hour per organisation, so the
// reader never asks for a page it knows to be past the end or past `maxRows`.

import type { VisitorCounts, VisitorRow, VisitorsPage } from '../service/schema.js'

export interface ExportOptions {
  /** Retries transient failures itself; a rejection fails the export. */
  fetchPage: (offset: number, limit: number) => Promise<VisitorsPage>
  /** The `limit` sent on every request, 1..250. */
  pageSize: number
  /** 0 = all rows; else stop after this many rows. */
  maxRows: number
  /** 1..16 requests in flight (or answered and waiting for their turn) at once. */
  concurrency: number
  /**
   * Called once per page, strictly in offset order, with the rows to keep (possibly none); the next
   * page waits until it settles. Always called for the first page, so a caller may open its output
   * there: `totals` are the service's totals from the first page (the same on every call).
   */
  onRows: (rows: VisitorRow[], totals: VisitorCounts) => Promise<void> | void
  onWarning: (message: string) => void
}

export interface ExportResult {
  /** The service's totals from the first page (deduplicated by the service, never a sum). */
  totals: VisitorCounts
  /** Rows delivered to onRows. */
  rows: number
  /** Every fetchPage call. */
  requests: number
  /** Pages requested speculatively that turned out to lie past the end; discarded. */
  pagesPastEnd: number
  /** True when rows were cut to `maxRows` or more rows existed. */
  maxRowsReached: boolean
}

type Outcome = { ok: true; page: VisitorsPage } | { ok: false; error: unknown }

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`)
}

const sameCounts = (a: VisitorCounts, b: VisitorCounts): boolean =>
  a.human === b.human && a.ai === b.ai && a.total === b.total

export async function exportVisitors(o: ExportOptions): Promise<ExportResult> {
  checkInteger('pageSize', o.pageSize, 1, 250)
  checkInteger('concurrency', o.concurrency, 1, 16)
  checkInteger('maxRows', o.maxRows, 0, Number.MAX_SAFE_INTEGER)
  const limit = o.pageSize
  const maxPages = o.maxRows > 0 ? Math.ceil(o.maxRows / limit) : Infinity

  // Index of the earliest page known to be the last one; only ever decreases. Updated as soon as
  // any page answers (in any order) so that no request is started beyond it.
  let lastIndex = Infinity
  let failed = false
  let nextIndex = 0
  let requests = 0
  // Pages requested and not yet delivered: in flight or answered and buffered. Their promises never
  // reject, so a page that is never awaited (past the end, or after a failure) cannot become an
  // unhandled rejection.
  const pending = new Map<number, Promise<Outcome>>()

  const start = (index: number): void => {
    requests++
    let outcome: Promise<Outcome>
    try {
      // The callbacks go straight on fetchPage's promise: the end (or a failure) is known the
      // moment it settles, before any other page's continuation could start another request.
      outcome = o.fetchPage(index * limit, limit).then(
        (page): Outcome => {
          if (!page.hasMore || page.visitors.length < limit) lastIndex = Math.min(lastIndex, index)
          return { ok: true, page }
        },
        (error: unknown): Outcome => {
          failed = true
          return { ok: false, error }
        }
      )
    } catch (error) {
      // fetchPage threw instead of rejecting.
      failed = true
      outcome = Promise.resolve({ ok: false, error })
    }
    pending.set(index, outcome)
  }

  // The first page is read alone: most sites fit in one page, and reading ahead before knowing
  // that would spend up to `concurrency - 1` requests of the hourly quota for nothing.
  let firstAnswered = false
  const fill = (): void => {
    while (
      !failed &&
      pending.size < (firstAnswered ? o.concurrency : 1) &&
      nextIndex <= lastIndex &&
      nextIndex < maxPages
    )
      start(nextIndex++)
  }

  let totals: VisitorCounts | undefined
  let rows = 0
  let maxRowsReached = false
  let totalsWarned = false
  const seen = new HashSet64()
  let duplicateWarned = false

  fill()
  for (let index = 0; ; index++) {
    const outcome = await pending.get(index)
    firstAnswered = true
    // Unreachable unless the bookkeeping above is wrong; failing beats silently losing rows.
    if (outcome === undefined) throw new Error(`internal error: page ${index} was never requested`)
    pending.delete(index)
    // A failure surfaces only when its turn comes: every earlier page has been delivered by then,
    // so the failed page is known not to lie past the end (a service may refuse such offsets).
    // Later pages are not waited for.
    if (!outcome.ok) throw outcome.error
    const page = outcome.page
    const isLast = !page.hasMore || page.visitors.length < limit

    if (totals === undefined) totals = page.totals
    else if (!totalsWarned && !sameCounts(totals, page.totals)) {
      totalsWarned = true
      o.onWarning(
        `The totals changed while the pages were read (data moved during the export): the first ` +
          `page said ${JSON.stringify(totals)}, the page at offset ${index * limit} says ` +
          `${JSON.stringify(page.totals)}. The export keeps the first page's totals; rows may be ` +
          `missing or repeated.`
      )
    }
    if (page.hasMore && page.visitors.length < limit)
      o.onWarning(
        `The page at offset ${index * limit} has ${page.visitors.length} rows instead of ${limit} ` +
          `but says more exist; it is treated as the last page.`
      )

    let kept = page.visitors
    const room = o.maxRows > 0 ? o.maxRows - rows : Infinity
    if (kept.length > room) {
      kept = kept.slice(0, room)
      maxRowsReached = true
    } else if (kept.length === room && !isLast) maxRowsReached = true

    if (!duplicateWarned)
      for (const row of kept) {
        if (seen.add(row.path)) continue
        duplicateWarned = true
        o.onWarning(
          `The path ${JSON.stringify(row.path)} appears more than once (data moved during the ` +
            `export?); other paths may repeat too. The rows are kept as the service sent them.`
        )
        break
      }

    rows += kept.length
    const handed = o.onRows(kept, totals)
    // Start the next requests while the rows are written, so fetching overlaps writing; the page
    // just handed over no longer counts against `concurrency`.
    fill()
    await handed
    if (isLast || index + 1 >= maxPages) {
      // Whatever is still pending lies past the end (or past maxRows, which fill() never requests).
      return { totals, rows, requests, pagesPastEnd: pending.size, maxRowsReached }
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

/**
 * Keeps the `n` rows with the most `total` seen so far (ties: the earlier row first) in a binary
 * min-heap of size n: O(log n) per row that enters, O(1) per row that does not, memory O(n).
 */
export class TopPages {
  private readonly n: number
  // The root is the weakest kept row: least total, and among equal totals the latest.
  private readonly heap: { row: VisitorRow; seq: number }[] = []
  private seq = 0

  constructor(n: number) {
    checkInteger('n', n, 0, Number.MAX_SAFE_INTEGER)
    this.n = n
  }

  add(rows: VisitorRow[]): void {
    for (const row of rows) {
      const entry = { row, seq: this.seq++ }
      if (this.heap.length < this.n) {
        this.heap.push(entry)
        this.up(this.heap.length - 1)
      } else if (this.n > 0 && row.total > this.heap[0]!.row.total) {
        // A later row with an equal total loses the tie, so only a strictly greater total enters.
        this.heap[0] = entry
        this.down(0)
      }
    }
  }

  /** The kept rows, most total first, ties in the order they were added. */
  list(): VisitorRow[] {
    return [...this.heap]
      .sort((x, y) => y.row.total - x.row.total || x.seq - y.seq)
      .map(entry => entry.row)
  }

  private weaker(i: number, j: number): boolean {
    const x = this.heap[i]!
    const y = this.heap[j]!
    return x.row.total < y.row.total || (x.row.total === y.row.total && x.seq > y.seq)
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!
    this.heap[i] = this.heap[j]!
    this.heap[j] = t
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.weaker(i, parent)) return
      this.swap(i, parent)
      i = parent
    }
  }

  private down(i: number): void {
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let least = i
      if (left < this.heap.length && this.weaker(left, least)) least = left
      if (right < this.heap.length && this.weaker(right, least)) least = right
      if (least === i) return
      this.swap(i, least)
      i = least
    }
  }
}

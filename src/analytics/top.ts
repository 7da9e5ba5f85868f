// The top rows of an export, most `total` first, kept while the rows stream past: the report shows
// them without holding every row in memory.
import type { VisitorRow } from '../service/schema.js'
import { checkInteger } from '../json.js'

/**
 * Keeps the `n` rows with the most `total` seen so far (ties: the earlier row first) in a binary
 * min-heap of size n: O(log n) per row that enters, O(1) per row that does not, memory O(n).
 */
export class TopPages<Row extends { total: number; path: string } = VisitorRow> {
  private readonly n: number
  // The root is the weakest kept row: least total, and among equal totals the latest.
  private readonly heap: { row: Row; seq: number }[] = []
  private seq = 0

  constructor(n: number) {
    checkInteger('n', n, 0, Number.MAX_SAFE_INTEGER)
    this.n = n
  }

  add(rows: Row[]): void {
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

  /**
   * The kept rows, most total first, ties in the order they were added. A path the service sent
   * twice (data that moved during the read; the page reader warns) is shown once, its first row.
   */
  list(): Row[] {
    const rows = [...this.heap]
      .sort((x, y) => y.row.total - x.row.total || x.seq - y.seq)
      .map(entry => entry.row)
    return eachPathOnce(rows)
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

/**
 * The rows with each path once (its first row): a table never lists a page twice. `onRepeat` is
 * told the first path that came again, once.
 */
export function eachPathOnce<Row extends { path: string }>(
  rows: readonly Row[],
  onRepeat?: (path: string) => void
): Row[] {
  const seen = new Set<string>()
  let told = false
  return rows.filter(row => {
    if (!seen.has(row.path)) {
      seen.add(row.path)
      return true
    }
    if (!told) onRepeat?.(row.path)
    told = true
    return false
  })
}

// `compare`: the previous period's totals, and the previous values of the pages the report shows,
// for as few requests as the service's order allows.
import type { VisitorCounts } from '../service/schema.js'
import {
  readOffsetPages,
  STOP,
  type OffsetPage,
  type OffsetPagesOptions,
  type OffsetPagesResult
} from '../service/pages.js'

export interface CountedRow extends VisitorCounts {
  path: string
}

export interface PreviousValues<Page> {
  /** The read: its first page holds the previous period's totals. */
  read: OffsetPagesResult<Page>
  /** Previous counts of the shown pages that were found; a shown page missing here is new. */
  byPath: Map<string, VisitorCounts>
  /** False once a row came with more `total` than the row before it. */
  sorted: boolean
}

type ReadOptions<Page extends OffsetPage, Row extends CountedRow> = Omit<
  OffsetPagesOptions<Page, Row>,
  'onPage'
>

/**
 * Reads the previous period for the `shown` paths. The first page (one request) gives the totals.
 *
 * When the rows come sorted by `total`, most first, reading stops as soon as every shown path has
 * been found. It cannot stop earlier: a shown path not found yet may still come later with any
 * smaller total, or never (a page new in this period), and only the end of the rows tells those
 * apart. Totals say nothing about where a path sits, so no bound on them helps either.
 *
 * The order is checked on every row read. Once one row breaks it, the service is not ordering as
 * documented and nothing about the rows still to come can be assumed (a path may come again, as
 * when data moves during the read), so the read goes on to the end, like a full export, and keeps
 * the first row of each shown path as the full export would.
 */
export async function readPreviousValues<Page extends OffsetPage, Row extends CountedRow>(
  shown: readonly string[],
  options: ReadOptions<Page, Row>
): Promise<PreviousValues<Page>> {
  const wanted = new Set(shown)
  const byPath = new Map<string, VisitorCounts>()
  let sorted = true
  let lastTotal = Infinity
  const read = await readOffsetPages<Page, Row>({
    ...options,
    onPage: rows => {
      for (const row of rows) {
        if (row.total > lastTotal) sorted = false
        lastTotal = row.total
        if (wanted.has(row.path) && !byPath.has(row.path))
          byPath.set(row.path, { human: row.human, ai: row.ai, total: row.total })
      }
      return sorted && byPath.size === wanted.size ? STOP : undefined
    }
  })
  return { read, byPath, sorted }
}

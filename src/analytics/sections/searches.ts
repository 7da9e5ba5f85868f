// The `searches` section: the total, the top queries (the service orders them by hits, so the
// top takes one request when it fits in 100) and, among them, the queries nobody clicked a
// result for: candidate content gaps, with the typing prefixes of a query folded into it. With
// `compare`, the previous total from a one-row page (or an earlier report's record of it).
import { readCursorPages } from '../../service/cursor.js'
import { foldPrefixes, type SearchQuery } from '../search-gaps.js'
import type { SectionInput } from './section.js'

/** The most the operation accepts per request. */
export const SEARCHES_MAX_LIMIT = 100
/** The most queries a report reads, whatever `top` says: the hourly quota is about 100 requests. */
export const SEARCHES_MAX_READ = 500
/**
 * The fewest queries read: one request holds 100, and prefixes fold and gaps show only among the
 * queries read, so a small `top` costs no less and would find less.
 */
const SEARCHES_MIN_READ = 100

export interface SearchesSection {
  name: 'searches'
  ok: true
  totalSearches: number
  previous?: number
  /** Most hits first, at most `top`, typing prefixes folded into the query they lead to. */
  top: SearchQuery[]
  /** Queries with `ctr` 0 among those read (prefixes folded), most hits first, at most `top`. */
  gaps: SearchQuery[]
  /** Queries read (rows of the log); gaps are found only among them. */
  read: number
  /** Rows among those read that were the typing prefix of another query, folded into it. */
  folded: number
  /** The service has no more queries than those read. */
  complete: boolean
}

export async function readSearches(input: SectionInput): Promise<SearchesSection> {
  const { api, range } = input
  let totalSearches: number | undefined
  const result = await readCursorPages({
    fetchPage: async (limit, cursor) => {
      const page = await api.searches(range, limit, cursor)
      totalSearches ??= page.totalSearches
      return { items: page.searches, nextCursor: page.nextCursor }
    },
    limit: SEARCHES_MAX_LIMIT,
    // Queries cost a request per 100: a report reads at most 500 of them (5 requests at most).
    enough: Math.min(Math.max(input.top, SEARCHES_MIN_READ), SEARCHES_MAX_READ),
    deadline: input.deadline
  })
  if (result.short)
    input.onWarning(
      `Searches: the service gave fewer queries a page than asked for; the report shows the ${result.items.length} read.`
    )
  // The service does not document the scale of `ctr`; it is observed as a percentage. An answer
  // whose every value lies within 0-1 is read as fractions: either way the report gets a fraction.
  const percent = result.items.some(row => row.ctr > 1)
  const rows = result.items.map(row => (percent ? { ...row, ctr: row.ctr / 100 } : row))
  const byHits = foldPrefixes(rows.sort((a, b) => b.hits - a.hits))
  const section: SearchesSection = {
    name: 'searches',
    ok: true,
    totalSearches: totalSearches ?? 0,
    top: byHits.slice(0, input.top),
    gaps: byHits.filter(row => row.ctr === 0).slice(0, input.top),
    read: result.items.length,
    folded: result.items.length - byHits.length,
    complete: result.complete
  }
  if (input.previous) {
    section.previous =
      input.known?.searches ?? (await api.searches(input.previous, 1)).totalSearches
  }
  return section
}

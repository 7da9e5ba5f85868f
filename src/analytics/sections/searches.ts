// The `searches` section: the total, the top queries (the service orders them by hits, so the
// top takes one request when it fits in 100) and, among them, the queries nobody clicked a
// result for: content gaps. With `compare`, the previous total from a one-row page.
import type { SearchRow } from '../../service/analytics.js'
import { readCursorPages } from '../../service/cursor.js'
import type { SectionInput } from './section.js'

/** The most the operation accepts per request. */
export const SEARCHES_MAX_LIMIT = 100
/** The most queries a report reads, whatever `top` says: the hourly quota is about 100 requests. */
export const SEARCHES_MAX_READ = 500

export interface SearchesSection {
  name: 'searches'
  ok: true
  totalSearches: number
  previous?: number
  /** Most hits first, at most `top`. */
  top: SearchRow[]
  /** Queries with `ctr` 0 among those read, most hits first. */
  gaps: SearchRow[]
  /** Queries read; gaps are found only among them. */
  read: number
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
    limit: Math.min(SEARCHES_MAX_LIMIT, input.top),
    // Queries cost a request per 100: a report reads at most 500 of them (6 requests at most).
    enough: Math.min(input.top, SEARCHES_MAX_READ),
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
  const byHits = rows.sort((a, b) => b.hits - a.hits)
  const section: SearchesSection = {
    name: 'searches',
    ok: true,
    totalSearches: totalSearches ?? 0,
    top: byHits.slice(0, input.top),
    gaps: byHits.filter(row => row.ctr === 0).slice(0, input.top),
    read: result.items.length,
    complete: result.complete
  }
  if (input.previous) {
    section.previous = (await api.searches(input.previous, 1)).totalSearches
  }
  return section
}

// The `searches` section: the total, the top queries (the service orders them by hits, so the
// top takes one request when it fits in 100) and, among them, the queries nobody clicked a
// result for: candidate content gaps, with the typing prefixes of a query folded into it (their
// searches added to it). Every query read is kept, for what a fix did. With
// `compare`, the previous total from a one-row page (or an earlier report's record of it). A
// range the gateway keeps timing out on is read by weeks, each query's searches added up.
import type { SearchRow } from '../../service/analytics-answers.js'
import type { DateRange } from '../../period.js'
import { readCursorPages } from '../../service/cursor.js'
import { messageOf } from '../../errors.js'
import { foldPrefixes, type SearchQuery } from '../search-gaps.js'
import { caveats, type ReadCaveats, type SectionInput } from './section.js'
import { cursorIncomplete, readWholeOrByWeek } from './weekly.js'

/** The most the operation accepts per request. */
const SEARCHES_MAX_LIMIT = 100
/** The most queries a report reads, whatever `top` says: the hourly quota is about 100 requests. */
const SEARCHES_MAX_READ = 500
/**
 * The fewest queries read: one request holds 100, and prefixes fold and gaps show only among the
 * queries read, so a small `top` costs no less and would find less.
 */
const SEARCHES_MIN_READ = 100

export interface SearchesSection extends ReadCaveats {
  name: 'searches'
  ok: true
  totalSearches: number
  previous?: number
  /** Most hits first, at most `top`, typing prefixes folded into the query they lead to. */
  top: SearchQuery[]
  /** Queries with `ctr` 0 among those read (prefixes folded), most hits first, at most `top`. */
  gaps: SearchQuery[]
  /**
   * Every query read, prefixes folded, most hits first: what a fix did is counted among them
   * all (a query people now click, or one below the top shown, still counts). Not in the JSON;
   * a section made without it (a test's) has only `top` and `gaps`.
   */
  queries?: SearchQuery[]
  /** Queries read (rows of the log); gaps are found only among them. */
  read: number
  /** Rows among those read that were the typing prefix of another query, folded into it. */
  folded: number
  /** The service has no more queries than those read. */
  complete: boolean
}

export async function readSearches(input: SectionInput): Promise<SearchesSection> {
  const { api, range } = input
  // Each part read (the range, or its weeks) gives its own total: they add up.
  const totals = new Map<string, number>()
  const keyOf = (part: DateRange): string => `${part.dateFrom ?? ''}/${part.dateTo ?? ''}`
  // Queries cost a request per 100: a report reads at most 500 of them (5 requests at most).
  const enough = Math.min(Math.max(input.top, SEARCHES_MIN_READ), SEARCHES_MAX_READ)
  const result = await readWholeOrByWeek<SearchRow>(range, 'queries', (part, o) => {
    const key = keyOf(part)
    return readCursorPages({
      fetchPage: async (size, cursor, ask) => {
        const page = await api.searches(part, size, cursor, ask)
        if (!totals.has(key)) totals.set(key, page.totalSearches)
        return { items: page.searches, nextCursor: page.nextCursor }
      },
      limit: o.limit ?? SEARCHES_MAX_LIMIT,
      enough,
      deadline: input.deadline,
      splittable: o.splittable
    })
  })
  // Read by weeks: the total of the whole range's first page (before it timed out) is not one.
  if (result.weeks !== undefined) totals.delete(keyOf(range))
  if (result.failure !== undefined)
    input.onWarning(`Searches: the reading stopped at a failed page: ${messageOf(result.failure)}`)
  if (result.short)
    input.onWarning(
      `Searches: the service gave fewer queries a page than asked for; the report shows the ${result.items.length} read.`
    )
  const rows = rowsRead(result.items, result.weeks !== undefined)
  const byHits = foldPrefixes(rows.sort((a, b) => b.hits - a.hits))
  const notes =
    result.weeks !== undefined
      ? [
          ...result.notes,
          `Searches of the same query are added up over the weeks (its click-through weighted by ` +
            `them); the top queries are those among each week's top ${enough}.`
        ]
      : result.notes
  const section: SearchesSection = {
    name: 'searches',
    ok: true,
    totalSearches: [...totals.values()].reduce((sum, n) => sum + n, 0),
    top: byHits.slice(0, input.top),
    gaps: byHits.filter(row => row.ctr === 0).slice(0, input.top),
    queries: byHits,
    read: rows.length,
    folded: rows.length - byHits.length,
    complete: result.complete,
    ...caveats(notes, cursorIncomplete('Searches', 'queries', result), result.narrowed)
  }
  if (input.previous) {
    section.previous =
      input.known?.searches ?? (await api.searches(input.previous, 1)).totalSearches
  }
  return section
}

/**
 * The rows read, click-through as a fraction, one per query when read by weeks. The service does
 * not document the scale of `ctr`; it is observed as a percentage. An answer whose every value
 * lies within 0-1 is read as fractions: either way the report gets a fraction.
 */
function rowsRead(items: readonly SearchRow[], byWeeks: boolean): SearchRow[] {
  const percent = items.some(row => row.ctr > 1)
  const read = items.map(row => (percent ? { ...row, ctr: row.ctr / 100 } : row))
  return byWeeks ? addUpByQuery(read) : read
}

/** One row per query over the weeks: hits added up, click-through weighted by hits. */
export function addUpByQuery(rows: readonly SearchRow[]): SearchRow[] {
  const byQuery = new Map<string, SearchRow>()
  for (const row of rows) {
    const seen = byQuery.get(row.searchQuery)
    if (!seen) {
      byQuery.set(row.searchQuery, { ...row })
      continue
    }
    const hits = seen.hits + row.hits
    byQuery.set(row.searchQuery, {
      ...seen,
      hits,
      ctr: hits === 0 ? 0 : (seen.ctr * seen.hits + row.ctr * row.hits) / hits,
      topClickedPage: (row.hits > seen.hits ? row.topClickedPage : seen.topClickedPage) ?? null,
      ...(row.lastSearchedAt && (!seen.lastSearchedAt || row.lastSearchedAt > seen.lastSearchedAt)
        ? { lastSearchedAt: row.lastSearchedAt }
        : {})
    })
  }
  return [...byQuery.values()]
}

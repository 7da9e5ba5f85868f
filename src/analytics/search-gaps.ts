// Content gaps as a search log really shows them (field notes): the search bar logs the typing
// prefixes of one query as rows of their own ("webhook sig", "webhook signa" on the way to
// "webhook signature"), and some zero-click rows are searches it handed to the assistant. So a
// zero-click query is a candidate gap, not proof of one: prefixes are folded into the query they
// lead to, and a query the assistant answered is kept apart.
import { oneLine } from '../public-text.js'
import type { SearchRow } from '../service/analytics.js'

/** A query as the report shows it: the typing prefixes that led to it folded in. */
export interface SearchQuery extends SearchRow {
  /** Rows of the log that were this query half typed, as the service sent them. */
  prefixes?: string[]
}

/**
 * Text compared as people mean it: cleaned as the report shows it (nothing invisible, one line,
 * spaces collapsed, trimmed), case folded. A question with hidden characters appended is the
 * question a reader sees.
 */
export function textKey(text: string): string {
  return oneLine(text).toLocaleLowerCase('en-US')
}

/**
 * `short` is `long` typed up to the middle of a word: not a whole word of it ("api" is a query of
 * its own beside "api key"), and not a number that goes on ("v1" is no half-typed "v10").
 */
function isTypingPrefix(short: string, long: string): boolean {
  const letter = /\p{L}/u
  return (
    long.length > short.length &&
    long.startsWith(short) &&
    letter.test(short.slice(-1)) &&
    letter.test(long.charAt(short.length))
  )
}

/**
 * Folds each row that is a typing prefix of another into the query it leads to: the row with the
 * most hits among those it starts (followed on, when that one is a prefix too). The query keeps
 * its own hits and click-through: a prefix is the same search, half typed, not another one.
 * Order is kept (most hits first, as the service sends them).
 */
export function foldPrefixes(rows: readonly SearchRow[]): SearchQuery[] {
  const keys = rows.map(row => textKey(row.searchQuery))
  const into = rows.map((_, i) => {
    let best: number | undefined
    keys.forEach((key, j) => {
      if (j === i || !isTypingPrefix(keys[i] ?? '', key)) return
      if (best === undefined || (rows[j]?.hits ?? 0) > (rows[best]?.hits ?? 0)) best = j
    })
    return best
  })
  const target = (i: number): number => {
    let at = i
    // Each step lengthens the text, so the chain ends.
    while (into[at] !== undefined) at = into[at] as number
    return at
  }
  const prefixes = new Map<number, string[]>()
  rows.forEach((row, i) => {
    if (into[i] === undefined) return
    const t = target(i)
    prefixes.set(t, [...(prefixes.get(t) ?? []), row.searchQuery])
  })
  return rows.flatMap((row, i) => {
    if (into[i] !== undefined) return []
    const folded = prefixes.get(i)
    return [folded ? { ...row, prefixes: folded } : { ...row }]
  })
}

export interface ContentGaps {
  /** Queries nobody clicked a result for and the assistant did not answer: most hits first. */
  gaps: SearchQuery[]
  /** Queries nobody clicked a result for that the assistant answered (kept apart). */
  answeredByAssistant: SearchQuery[]
}

/**
 * The zero-click queries, split by whether the assistant answered the same question (its text,
 * as `textKey` compares) more often than not. Without the assistant's answers, every zero-click
 * query stays a candidate gap.
 */
export function contentGaps(
  zeroClick: readonly SearchQuery[],
  answered: readonly string[] | undefined
): ContentGaps {
  const known = new Set(answered ?? [])
  const handled = (q: SearchQuery): boolean => known.has(textKey(q.searchQuery))
  return {
    gaps: zeroClick.filter(q => !handled(q)),
    answeredByAssistant: zeroClick.filter(handled)
  }
}

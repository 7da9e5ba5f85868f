// Content gaps as a search log really shows them (field notes): the search bar logs the typing
// prefixes of one query as rows of their own ("webhook sig", "webhook signa" on the way to
// "webhook signature"), and some zero-click rows are searches it handed to the assistant. So a
// zero-click query is a candidate gap, not proof of one: prefixes are folded into the query they
// lead to, and a query the assistant answered is kept apart.
import { oneLine } from '../public-text.js'
import type { SearchRow } from '../service/analytics-answers.js'

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
 * its own beside "api key"), not a number that goes on ("v1" is no half-typed "v10"), and not a
 * singular beside its plural ("webhook signature" beside "webhook signatures": one topic by the
 * topic rule, never a prefix).
 */
function isTypingPrefix(short: string, long: string): boolean {
  const letter = /\p{L}/u
  return (
    long.length > short.length &&
    long.startsWith(short) &&
    letter.test(short.slice(-1)) &&
    letter.test(long.charAt(short.length)) &&
    !/^e?s(?![\p{L}\p{N}])/u.test(long.slice(short.length))
  )
}

/**
 * Folds each row that is a typing prefix of another into the query it leads to: the row with the
 * most hits among those it starts, when that one has more hits than it. (That query is never a
 * prefix folded further: whatever it leads to, the row leads to as well.) Only a row nobody
 * clicked a result for is typing on the way: a click means the text found something. The
 * prefix's hits are added to the query (its click-through weighted by them), so no search is
 * lost: the zero-click searches of the query and its prefixes add up. Most hits first, as the
 * service sends them (equal hits in the order given).
 */
export function foldPrefixes(rows: readonly SearchRow[]): SearchQuery[] {
  const keys = rows.map(row => textKey(row.searchQuery))
  const hitsOf = (i: number | undefined): number => (i === undefined ? 0 : (rows[i]?.hits ?? 0))
  const into = rows.map((row, i) => {
    if (row.ctr !== 0) return undefined
    let best: number | undefined
    keys.forEach((key, j) => {
      if (j === i || !isTypingPrefix(keys[i] ?? '', key)) return
      if (best === undefined || hitsOf(j) > hitsOf(best)) best = j
    })
    return hitsOf(best) > row.hits ? best : undefined
  })
  const folded = new Map<number, SearchRow[]>()
  rows.forEach((row, i) => {
    const t = into[i]
    if (t !== undefined) folded.set(t, [...(folded.get(t) ?? []), row])
  })
  const queries = rows.flatMap((row, i): SearchQuery[] => {
    if (into[i] !== undefined) return []
    const prefixes = folded.get(i)
    return [prefixes ? withPrefixes(row, prefixes) : { ...row }]
  })
  return queries.sort((a, b) => b.hits - a.hits)
}

/** A query with the rows that were it half typed: their hits added, nobody's clicks lost. */
function withPrefixes(row: SearchRow, prefixes: readonly SearchRow[]): SearchQuery {
  const hits = prefixes.reduce((n, p) => n + p.hits, row.hits)
  return {
    ...row,
    hits,
    ctr: hits === 0 ? row.ctr : (row.ctr * row.hits) / hits,
    prefixes: prefixes.map(p => p.searchQuery)
  }
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

// Topics: what readers mean, as plain word normalisation (no language model; the rule is in
// docs/weekly-report.md). "rotate key", "rotating keys" and "key rotation" are one topic: the
// same meaningful words once case, plurals and endings, word order and small words are set aside.

/** Words that carry no subject of their own: "how do I rotate a key" is about "rotate key". */
const SMALL_WORDS = new Set(
  (
    'a an the to of in on for and or with without from by at as is are was be can could ' +
    'do does did how what why where when which who my your our their its it this that these ' +
    'those i we you me us there here not no yes vs via'
  ).split(' ')
)

/** Endings taken off a word, longest first; what is left keeps at least 3 letters. */
const ENDINGS = ['ations', 'ation', 'ating', 'ated', 'ates', 'ate', 'ings', 'ing', 'ions', 'ion']
const STEM_MIN = 3

/** One step: a plural, or an ending, off; undefined when nothing comes off. */
function shorter(word: string): string | undefined {
  const keep = (stem: string): string | undefined => (stem.length >= STEM_MIN ? stem : undefined)
  if (word.endsWith('ies')) return keep(`${word.slice(0, -3)}y`)
  for (const ending of ENDINGS)
    if (word.endsWith(ending)) {
      const stem = keep(word.slice(0, -ending.length))
      if (stem) return stem
    }
  if (/(?:sses|xes|ches|shes)$/.test(word)) return keep(word.slice(0, -2))
  // "status", "class" and "analysis" are no plurals.
  if (/[^su]s$/.test(word) && !word.endsWith('is')) return keep(word.slice(0, -1))
  if (word.endsWith('ed')) return keep(word.slice(0, -2))
  if (word.endsWith('e')) return keep(word.slice(0, -1))
  return undefined
}

/** A word's stem: endings taken off until none comes off (so a stem is its own stem). */
function stem(word: string): string {
  let at = word
  for (let next = shorter(at); next !== undefined; next = shorter(at)) at = next
  return at
}

/**
 * What a query or question is about: its meaningful words (letters and digits, case folded,
 * small words out), each reduced to its stem, once each, sorted (word order aside). Text of small
 * words only is its own topic (its whole text). Applying it to its result changes nothing.
 */
export function topicKey(text: string): string {
  const words = textKey(text).match(/[\p{L}\p{N}]+/gu) ?? []
  const stems = words.filter(w => !SMALL_WORDS.has(w)).map(stem)
  const meaningful = [...new Set(stems.filter(w => !SMALL_WORDS.has(w)))].sort()
  return meaningful.length > 0 ? meaningful.join(' ') : textKey(text)
}

/** Rows of one topic: the key, their total, and the rows (most counted first, as given). */
export interface Topic<T> {
  key: string
  total: number
  rows: T[]
}

/**
 * Rows grouped by topic, most counted topic first (the first row's order among equals). Each
 * group keeps its rows in the order given.
 */
export function byTopic<T>(
  rows: readonly T[],
  textOf: (row: T) => string,
  countOf: (row: T) => number
): Topic<T>[] {
  const topics = new Map<string, Topic<T>>()
  for (const row of rows) {
    const key = topicKey(textOf(row))
    const topic = topics.get(key) ?? { key, total: 0, rows: [] }
    topic.total += countOf(row)
    topic.rows.push(row)
    topics.set(key, topic)
  }
  return [...topics.values()].sort((a, b) => b.total - a.total)
}

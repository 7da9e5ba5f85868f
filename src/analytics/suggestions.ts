// What to fix this week: up to 5 suggestions, each from the data and with the numbers that make
// it one. Four kinds, taken in turn so one kind cannot crowd out the others: the content gaps
// (zero-click queries, typing prefixes folded in, those the assistant answered kept apart), the
// pages with the most 👎 for their views (with what readers wrote), the questions the assistant
// could not answer most often, and busy pages whose file has not changed for long. Queries and
// questions group by topic (search-gaps.ts): one suggestion per topic, with its total and up to
// 3 of the readers' own phrasings, among the rows the tables show (so each number is theirs).
// What an earlier suggestion's merged pull request addressed is not suggested again unless
// numbers measured after the merge still say so. A query or question that carries markup, HTML,
// a table pipe or a URL scheme stays in its table (inert there) but is never suggested: it would
// be the first thing a reader is asked to act on, and the agent's instruction would carry it.
import type { AssistantSection } from './sections/assistant.js'
import type { FeedbackSection } from './sections/feedback.js'
import { pageRowOf, type SectionOutcome } from './sections/outcome.js'
import type { SearchesSection } from './sections/searches.js'
import type { PagesSection } from './sections/visitors.js'
import { oneLine } from '../public-text.js'
import { byTopic, contentGaps, topicKey, type Topic } from './search-gaps.js'

export const MAX_SUGGESTIONS = 5
/** The least evidence a suggestion needs: searches with no click, 👎, or times asked. */
const MIN_SEARCHES = 5
const MIN_THUMBS_DOWN = 5
const MIN_TIMES_ASKED = 3
/** The readers' own phrasings a topic shows, and the written comments a page quotes. */
const MAX_PHRASINGS = 3
const MAX_COMMENTS = 3

export type Suggestion =
  | {
      kind: 'gap'
      /** Who it is about, the same from one week to the next: `gap:<its topicKey>`. */
      id: string
      /** The topic's most searched phrasing. */
      query: string
      /** Searches over the topic's phrasings. */
      hits: number
      /** Up to 3 phrasings of the topic, most searched first (the first is `query`). */
      phrasings: string[]
      /** The topic's phrasings, all counted in `hits` (`phrasings` holds up to 3). */
      variants?: number
      /** The typing prefixes folded into it. */
      prefixes: string[]
      /** A fix for it was merged before this period began (the numbers still say so). */
      after?: FixState
    }
  | {
      kind: 'page'
      id: string
      path: string
      thumbsDown: number
      thumbsUp: number
      /** The page's views in the period, when the views section read them. */
      views?: number
      /** Up to 3 comments readers wrote about it (text from the public, as sent). */
      comments?: string[]
      after?: FixState
    }
  | {
      kind: 'question'
      /** `question:<its topicKey>`. */
      id: string
      /** The topic's most asked phrasing. */
      question: string
      count: number
      /** Up to 3 phrasings of the topic, most asked first (the first is `question`). */
      phrasings: string[]
      /** The topic's phrasings, all counted in `count` (`phrasings` holds up to 3). */
      variants?: number
      /** What the assistant answered one of them (public text, clipped), from the rows read. */
      answer?: string
      after?: FixState
    }
  | {
      /** Busy and stale: among the pages shown, its file unchanged for longer than `stale-after`. */
      kind: 'stale'
      /** `page:<path>`: a fix is measured as the page's 👎 are. */
      id: string
      path: string
      views?: number
      thumbsDown?: number
      /** When its file last changed (ms epoch), by the repository's history. */
      lastChanged: number
      after?: FixState
    }

/** What became of a suggestion someone asked the agent to fix (`/docs-agent fix N`). */
export interface FixState {
  /** The pull request the job opened, if it did. */
  pr?: number
  state: 'open' | 'merged' | 'closed' | 'no pull request' | 'unknown'
  /** ms epoch, for `merged`. */
  mergedAt?: number
}

export interface SuggestInput {
  sections: readonly SectionOutcome[]
  /** Where this period begins (ms epoch): a fix merged before it is measured by this period. */
  periodStart?: number
  /** The fixes asked for in this issue, by suggestion id. */
  fixes?: ReadonlyMap<string, FixState>
  /** The pages shown whose file last changed longer ago than `stale-after`, busiest first. */
  stale?: readonly StalePage[]
}

export interface StalePage {
  path: string
  /** ms epoch. */
  lastChanged: number
}

export const gapId = (query: string): string => `gap:${topicKey(query)}`
export const pageId = (path: string): string => `page:${path}`
export const questionId = (question: string): string => `question:${topicKey(question)}`

/**
 * An id as this version writes it: an earlier version's `gap:<query>` or `question:<text>` (one
 * phrasing) names the topic of that phrasing, so a fix asked for then still counts.
 */
export function currentId(id: string): string {
  if (id.startsWith('gap:')) return gapId(id.slice(4))
  if (id.startsWith('question:')) return questionId(id.slice(9))
  return id
}

function find<N extends SectionOutcome['name']>(
  sections: readonly SectionOutcome[],
  name: N
): Extract<SectionOutcome, { name: N; ok: true }> | undefined {
  return sections.find((x): x is Extract<SectionOutcome, { name: N; ok: true }> => {
    return x.name === name && x.ok
  })
}

/** What the data says this week: the suggestions, and what the data raises but a fix holds. */
export interface Suggested {
  suggestions: Suggestion[]
  /** Topics of queries or questions that carry markup (carriesMarkup): left out, said in a note. */
  leftOut: number
  /** Raised again by the data, held back by its fix: its pull request is open, or was merged
   * after this period began (the numbers predate it). The report says how each stands. */
  held: { suggestion: Suggestion; fix: FixState }[]
}

/** The suggestions, most telling first within each kind, the kinds taken in turn. */
export function suggest(input: SuggestInput): Suggested {
  const { sections } = input
  const held: Suggested['held'] = []
  const left = { out: 0 }
  const lists = [
    gapSuggestions(find(sections, 'searches'), find(sections, 'assistant'), left),
    pageSuggestions(find(sections, 'feedback'), find(sections, 'views')),
    questionSuggestions(find(sections, 'assistant'), left),
    staleSuggestions(input.stale, find(sections, 'feedback'), find(sections, 'views'))
  ].map(list =>
    list.flatMap(s => {
      const { standing, fix } = stillStanding(s, input)
      if (!standing && fix) held.push({ suggestion: s, fix })
      return standing ? [standing] : []
    })
  )
  const suggestions: Suggestion[] = []
  for (let i = 0; suggestions.length < MAX_SUGGESTIONS && lists.some(l => i < l.length); i++)
    for (const list of lists) {
      const s = list[i]
      // A page suggested for its 👎 is not suggested again for its age.
      const taken = s !== undefined && suggestions.some(x => x.id === s.id)
      if (s && !taken && suggestions.length < MAX_SUGGESTIONS) suggestions.push(s)
    }
  return { suggestions, held: held.slice(0, MAX_SUGGESTIONS), leftOut: left.out }
}

/**
 * Text from readers that carries markup: a Markdown link or image, an HTML tag, a table pipe, or
 * a URL scheme (`javascript:`, `https://`…). Shown inert in its table; never a suggestion.
 */
export function carriesMarkup(text: string): boolean {
  return (
    /\]\s*\(|!\[|<\/?[a-z!?]|\|/i.test(text) ||
    /\b(?:javascript|vbscript|data|file|mailto):|\b[a-z][a-z0-9+.-]*:\/\//i.test(text)
  )
}

/**
 * A suggestion still worth making: not while a pull request for it is open, and after one was
 * merged only if this period began after the merge (the numbers are then the fix's own).
 */
function stillStanding(
  s: Suggestion,
  input: SuggestInput
): { standing?: Suggestion; fix?: FixState } {
  const fix = [...(input.fixes ?? [])].find(([id]) => currentId(id) === s.id)?.[1]
  if (!fix) return { standing: s }
  if (fix.state === 'open') return { fix }
  if (fix.state === 'merged') {
    const measuredAfter =
      fix.mergedAt !== undefined &&
      input.periodStart !== undefined &&
      fix.mergedAt <= input.periodStart
    return measuredAfter ? { standing: { ...s, after: fix }, fix } : { fix }
  }
  return { standing: s, fix }
}

function gapSuggestions(
  searches: SearchesSection | undefined,
  assistant: AssistantSection | undefined,
  left: { out: number }
): Suggestion[] {
  if (!searches) return []
  const { gaps } = contentGaps(searches.gaps, assistant?.answered)
  return topics(
    gaps,
    q => q.searchQuery,
    q => q.hits,
    MIN_SEARCHES,
    left
  ).map(t => ({
    kind: 'gap',
    id: gapId(t.text),
    query: t.text,
    hits: t.total,
    phrasings: t.phrasings,
    variants: t.variants,
    prefixes: t.rows.flatMap(q => q.prefixes ?? [])
  }))
}

/**
 * Rows of text from readers (queries, questions) by topic, the topics counted at least `min`
 * times: each with its first row's text, its total and up to 3 of its phrasings. Rows that carry
 * markup are left out, and the topics they would have made counted in `left`.
 */
function topics<T>(
  rows: readonly T[],
  textOf: (row: T) => string,
  countOf: (row: T) => number,
  min: number,
  left: { out: number }
): (Topic<T> & { text: string; phrasings: string[]; variants: number })[] {
  const given = rows.filter(row => textOf(row).trim() !== '')
  const marked = given.filter(row => carriesMarkup(textOf(row)))
  left.out += byTopic(marked, textOf, countOf).filter(t => t.total >= min).length
  return byTopic(
    given.filter(row => !carriesMarkup(textOf(row))),
    textOf,
    countOf
  )
    .filter(t => t.total >= min)
    .map(t => {
      const all = phrasings(t.rows.map(textOf))
      const text = t.rows[0] ? textOf(t.rows[0]) : ''
      return { ...t, text, phrasings: all.slice(0, MAX_PHRASINGS), variants: all.length }
    })
}

/** The phrasings, as readers typed them, each once (as the report shows them). */
function phrasings(texts: readonly string[]): string[] {
  const seen = new Set<string>()
  return texts.filter(text => {
    const shown = oneLine(text)
    if (shown === '' || seen.has(shown)) return false
    seen.add(shown)
    return true
  })
}

/** Per 1,000 views: what ranks the pages when their views are known. */
function perThousand(thumbsDown: number, views: number): number {
  return views > 0 ? (thumbsDown * 1000) / views : Infinity
}

function pageSuggestions(
  feedback: FeedbackSection | undefined,
  views: PagesSection | undefined
): Suggestion[] {
  if (!feedback) return []
  const viewsOf = (path: string): number | undefined => pageRowOf(views, path)?.total
  const pages = feedback.top
    .filter(p => p.thumbsDown >= MIN_THUMBS_DOWN && p.path !== '')
    .map(p => {
      const comments = commentsOn(feedback, p.path)
      return {
        kind: 'page' as const,
        id: pageId(p.path),
        path: p.path,
        thumbsDown: p.thumbsDown,
        thumbsUp: p.thumbsUp,
        ...(viewsOf(p.path) !== undefined ? { views: viewsOf(p.path) } : {}),
        ...(comments.length > 0 ? { comments } : {})
      }
    })
  // With views read, only pages whose views are known are weighed (the rest cannot be); without
  // them, the most 👎 first, as the feedback section ranks them.
  if (!views) return pages.sort((a, b) => b.thumbsDown - a.thumbsDown)
  return pages
    .filter(p => p.views !== undefined && p.views > 0)
    .sort(
      (a, b) => perThousand(b.thumbsDown, b.views ?? 0) - perThousand(a.thumbsDown, a.views ?? 0)
    )
}

/** Up to 3 comments written on the page, each once, newest first as the service sent them. */
function commentsOn(feedback: FeedbackSection, path: string): string[] {
  const seen = new Set<string>()
  return (feedback.comments ?? [])
    .filter(c => {
      const text = oneLine(c.comment)
      if (c.path !== path || text === '' || seen.has(text)) return false
      seen.add(text)
      return true
    })
    .map(c => c.comment)
    .slice(0, MAX_COMMENTS)
}

function questionSuggestions(
  assistant: AssistantSection | undefined,
  left: { out: number }
): Suggestion[] {
  if (!assistant) return []
  return topics(
    assistant.top,
    q => q.question,
    q => q.count,
    MIN_TIMES_ASKED,
    left
  ).map(t => {
    // The most asked phrasing's answer, else the next one's: one answer is evidence enough.
    const answer = t.rows.find(q => q.answer)?.answer
    return {
      kind: 'question',
      id: questionId(t.text),
      question: t.text,
      count: t.total,
      phrasings: t.phrasings,
      variants: t.variants,
      ...(answer ? { answer } : {})
    }
  })
}

/** The stale pages as suggestions, with the views and 👎 the tables show for them. */
function staleSuggestions(
  stale: readonly StalePage[] | undefined,
  feedback: FeedbackSection | undefined,
  views: PagesSection | undefined
): Suggestion[] {
  return (stale ?? []).map(p => {
    const seen = pageRowOf(views, p.path)
    const rated = feedback?.top.find(r => r.path === p.path)
    return {
      kind: 'stale',
      id: pageId(p.path),
      path: p.path,
      lastChanged: p.lastChanged,
      ...(seen ? { views: seen.total } : {}),
      ...(rated ? { thumbsDown: rated.thumbsDown } : {})
    }
  })
}

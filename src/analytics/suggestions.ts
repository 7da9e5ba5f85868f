// What to fix this week: up to 5 suggestions, each from the data and with the numbers that make
// it one. Three kinds, taken in turn so one kind cannot crowd out the others: the content gaps
// (zero-click queries, typing prefixes folded in, those the assistant answered kept apart), the
// pages with the most 👎 for their views, and the questions the assistant could not answer most
// often. What an earlier suggestion's merged pull request addressed is not suggested again
// unless numbers measured after the merge still say so.
import type { AssistantSection } from './sections/assistant.js'
import type { FeedbackSection } from './sections/feedback.js'
import type { SectionOutcome } from './sections/outcome.js'
import type { SearchesSection } from './sections/searches.js'
import type { PagesSection } from './sections/visitors.js'
import { contentGaps, textKey } from './search-gaps.js'

export const MAX_SUGGESTIONS = 5
/** The least evidence a suggestion needs: searches with no click, 👎, or times asked. */
export const MIN_SEARCHES = 5
export const MIN_THUMBS_DOWN = 5
export const MIN_TIMES_ASKED = 3

export type Suggestion =
  | {
      kind: 'gap'
      /** Who it is about, the same from one week to the next: `gap:<query as textKey has it>`. */
      id: string
      query: string
      hits: number
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
      after?: FixState
    }
  | {
      kind: 'question'
      id: string
      question: string
      count: number
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
}

export const gapId = (query: string): string => `gap:${textKey(query)}`
export const pageId = (path: string): string => `page:${path}`
export const questionId = (question: string): string => `question:${textKey(question)}`

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
  /** Raised again by the data, held back by its fix: its pull request is open, or was merged
   * after this period began (the numbers predate it). The report says how each stands. */
  held: { suggestion: Suggestion; fix: FixState }[]
}

/** The suggestions, most telling first within each kind, the kinds taken in turn. */
export function suggest(input: SuggestInput): Suggested {
  const { sections } = input
  const held: Suggested['held'] = []
  const lists = [
    gapSuggestions(find(sections, 'searches'), find(sections, 'assistant')),
    pageSuggestions(find(sections, 'feedback'), find(sections, 'views')),
    questionSuggestions(find(sections, 'assistant'))
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
      if (s && suggestions.length < MAX_SUGGESTIONS) suggestions.push(s)
    }
  return { suggestions, held: held.slice(0, MAX_SUGGESTIONS) }
}

/**
 * A suggestion still worth making: not while a pull request for it is open, and after one was
 * merged only if this period began after the merge (the numbers are then the fix's own).
 */
function stillStanding(
  s: Suggestion,
  input: SuggestInput
): { standing?: Suggestion; fix?: FixState } {
  const fix = input.fixes?.get(s.id)
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
  assistant: AssistantSection | undefined
): Suggestion[] {
  if (!searches) return []
  const { gaps } = contentGaps(searches.gaps, assistant?.answered)
  return gaps
    .filter(q => q.hits >= MIN_SEARCHES && q.searchQuery.trim() !== '')
    .map(q => ({
      kind: 'gap',
      id: gapId(q.searchQuery),
      query: q.searchQuery,
      hits: q.hits,
      prefixes: q.prefixes ?? []
    }))
}

/** Per 1,000 views: what ranks the pages when their views are known. */
export function perThousand(thumbsDown: number, views: number): number {
  return views > 0 ? (thumbsDown * 1000) / views : Infinity
}

function pageSuggestions(
  feedback: FeedbackSection | undefined,
  views: PagesSection | undefined
): Suggestion[] {
  if (!feedback) return []
  const viewsOf = (path: string): number | undefined =>
    (views?.top.find(r => r.path === path) ?? views?.shown?.find(r => r.path === path))?.total
  const pages = feedback.top
    .filter(p => p.thumbsDown >= MIN_THUMBS_DOWN && p.path !== '')
    .map(p => ({
      kind: 'page' as const,
      id: pageId(p.path),
      path: p.path,
      thumbsDown: p.thumbsDown,
      thumbsUp: p.thumbsUp,
      ...(viewsOf(p.path) !== undefined ? { views: viewsOf(p.path) } : {})
    }))
  // With views read, only pages whose views are known are weighed (the rest cannot be); without
  // them, the most 👎 first, as the feedback section ranks them.
  if (!views) return pages.sort((a, b) => b.thumbsDown - a.thumbsDown)
  return pages
    .filter(p => p.views !== undefined && p.views > 0)
    .sort(
      (a, b) => perThousand(b.thumbsDown, b.views ?? 0) - perThousand(a.thumbsDown, a.views ?? 0)
    )
}

function questionSuggestions(assistant: AssistantSection | undefined): Suggestion[] {
  if (!assistant) return []
  return assistant.top
    .filter(q => q.count >= MIN_TIMES_ASKED && q.question.trim() !== '')
    .map(q => ({
      kind: 'question',
      id: questionId(q.question),
      question: q.question,
      count: q.count
    }))
}

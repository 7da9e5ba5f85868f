// "What to fix this week": the suggestions in words. Each has a line of evidence for the reader
// and an instruction for the docs agent, shown in full: `/docs-agent fix N` sends exactly that
// text (from the report's signed record, never from the comment's visible text). Then what
// became of the last report's suggestions. Every query, path and question is untrusted: the
// instruction quotes it clipped to one line, and the Markdown escapes it.
import type { FixState, Suggestion } from '../analytics/suggestions.js'
import { isoDay, type DateRange } from '../period.js'
import { clip, clipMiddle, escapeText, formatNumber, plural } from './markdown.js'
import { shortRange } from './range.js'

/** A suggestion as a report shows it: its number and the instruction it carries. */
export type NumberedSuggestion = Suggestion & { n: number; instruction: string }

/** A suggestion of the report before (numbered as it was there), and what became of it. */
export interface EarlierSuggestion {
  n?: number
  /** The suggestion's subject id (`gap:…`, `page:…`, `question:…`). */
  id: string
  /** The query, path or question as the report showed it (untrusted text). */
  subject: string
  /** Undefined: nobody asked the agent to fix it. */
  fix?: FixState
}

const QUERY_MAX_CHARS = 60
const QUESTION_MAX_CHARS = 140
const PATH_MAX_CHARS = 90
/** What a reader's text may be in an instruction: one line, its start kept. */
const quoted = (text: string, max: number): string =>
  `“${clip(text.replace(/\s+/g, ' ').trim(), max)}”`

/** The instruction for the docs agent: plain text, sent as it is shown. */
export function instructionFor(s: Suggestion, range: DateRange, now: number): string {
  const when = shortRange(range, now)
  const again = s.after?.pr ? ` (#${s.after.pr}, merged before, did not settle it.)` : ''
  switch (s.kind) {
    case 'gap':
      return (
        `Readers searched the docs for ${quoted(s.query, QUERY_MAX_CHARS)} ${plural(s.hits, 'time')} ` +
        `in ${when} and clicked no result: add or extend the page that answers it, in their words.${again}`
      )
    case 'page':
      return (
        `The page ${clipMiddle(s.path, PATH_MAX_CHARS)} got ${formatNumber(s.thumbsDown)} 👎 and ` +
        `${formatNumber(s.thumbsUp)} 👍 in ${when}${s.views !== undefined ? ` (${plural(s.views, 'view')})` : ''}: ` +
        `find what readers miss there and improve it.${again}`
      )
    case 'question':
      return (
        `Readers asked the docs assistant ${quoted(s.question, QUESTION_MAX_CHARS)} ` +
        `${plural(s.count, 'time')} in ${when} and it could not answer: add the answer to the docs.${again}`
      )
  }
}

/** The evidence, for the reader: the subject and the numbers that make it a suggestion. */
function evidence(s: NumberedSuggestion): string {
  switch (s.kind) {
    case 'gap': {
      // The half-typed rows themselves are in the searches table's note.
      const typed = s.prefixes.length > 0 ? ` (+${s.prefixes.length} half-typed)` : ''
      return `**Search gap “${escapeText(clip(s.query, 40))}”** · ${plural(s.hits, 'search', 'searches')}, no click${typed}`
    }
    case 'page': {
      const per =
        s.views !== undefined && s.views > 0
          ? ` · ${((s.thumbsDown * 1000) / s.views).toFixed(1)} 👎 per 1,000 views`
          : ''
      return `**Page ${escapeText(clipMiddle(s.path, 44))}** · ${formatNumber(s.thumbsDown)} 👎, ${formatNumber(s.thumbsUp)} 👍${per}`
    }
    case 'question':
      return `**Unanswered “${escapeText(clip(s.question, 56))}”** · asked ${plural(s.count, 'time')}`
  }
}

/**
 * The block: numbered suggestions, how to start the agent on one, and the states of the last
 * report's suggestions. Empty when there is nothing to say.
 */
export function suggestionsBlock(
  suggestions: readonly NumberedSuggestion[],
  earlier: readonly EarlierSuggestion[],
  trigger: string | undefined
): string {
  const blocks: string[] = []
  if (suggestions.length > 0) {
    const items = suggestions.map(s => {
      const again = s.after?.pr ? ` · again after #${s.after.pr}` : ''
      return `${s.n}. ${evidence(s)}${again}  \n   ↳ _${escapeText(s.instruction)}_`
    })
    blocks.push('#### What to fix this week', items.join('\n'))
    if (trigger)
      blocks.push(
        `_\`${trigger} fix N\` here (plus any words of yours) starts the docs agent on suggestion N._`
      )
  }
  const states = earlierLine(earlier)
  if (states) blocks.push(states)
  return blocks.join('\n\n')
}

function stateOf(fix: FixState | undefined): string {
  if (!fix) return 'not taken'
  const pr = fix.pr ? `#${fix.pr}` : ''
  switch (fix.state) {
    case 'merged':
      return `${pr} merged${fix.mergedAt !== undefined ? ` ${isoDay(fix.mergedAt)}` : ''}`
    case 'open':
      return `${pr} open`
    case 'closed':
      return `${pr} closed unmerged`
    case 'no pull request':
      return 'asked; no pull request'
    case 'unknown':
      return `${pr} (state unknown)`
  }
}

/** "1", "1 and 2", "1, 3 and 4". */
function listed(items: readonly string[]): string {
  return items.length === 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** What a suggestion is about, as plain text: the query, the page's path or the question. */
export function subjectOf(s: Suggestion): string {
  switch (s.kind) {
    case 'gap':
      return clip(s.query.replace(/\s+/g, ' ').trim(), QUERY_MAX_CHARS)
    case 'page':
      return clipMiddle(s.path, PATH_MAX_CHARS)
    case 'question':
      return clip(s.question.replace(/\s+/g, ' ').trim(), QUESTION_MAX_CHARS)
  }
}

/** An earlier suggestion's subject in the line of their states: a page as a path, else quoted. */
function shownSubject(e: EarlierSuggestion): string {
  if (e.id.startsWith('page:')) return escapeText(clipMiddle(e.subject, 40))
  return `“${escapeText(clip(e.subject, 40))}”`
}

function earlierLine(earlier: readonly EarlierSuggestion[]): string {
  if (earlier.length === 0) return ''
  const item = (e: EarlierSuggestion) =>
    `${e.n !== undefined ? `${e.n}. ` : ''}${shownSubject(e)}: ${stateOf(e.fix)}`
  // Those nobody took are numbers only: the last report names them, and this line stays short.
  const numbered = earlier.filter(e => e.n !== undefined)
  const untaken = numbered.filter(e => !e.fix).map(e => String(e.n))
  const last = [
    ...numbered.filter(e => e.fix).map(item),
    ...(untaken.length > 0 ? [`${listed(untaken)} not taken`] : [])
  ]
  const fixing = earlier.filter(e => e.n === undefined).map(item)
  return [
    ...(last.length > 0 ? [`_Last report's suggestions:_ ${last.join(' · ')}`] : []),
    ...(fixing.length > 0 ? [`_Fixes asked for:_ ${fixing.join(' · ')}`] : [])
  ].join('  \n')
}

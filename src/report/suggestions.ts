// "What to fix this week" (or month, by the range's length): the suggestions in words. Each has a line of evidence for the reader
// and an instruction for the docs agent, shown in full: `/docs-agent fix N` sends exactly that
// text (from the report's signed record, never from the comment's visible text). Then what
// became of the last report's suggestions. Every query, path and question is text from the public
// (public-text.ts): cleaned once, it stands in the instruction's data block, JSON-quoted on a line
// of its own, and the report shows that line as code.
import type { FixState, Suggestion } from '../analytics/suggestions.js'
import { isoDay, type DateRange } from '../period.js'
import { dataBlock, DATA_LABEL_END, oneLine, publicText } from '../public-text.js'
import { clip, clipMiddle, escapeText, formatNumber, plural } from './markdown.js'
import { nthPeriod, shortRange, thisPeriod } from './range.js'

/**
 * A suggestion as a report shows it: its number, the instruction it carries, and how many
 * reports in a row (this one included) have suggested it, when more than one.
 */
export type NumberedSuggestion = Suggestion & { n: number; instruction: string; times?: number }

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

/**
 * The instruction for the docs agent: the action's words on the first line, then what readers
 * typed in a data block (public-text.ts), one JSON-quoted value a line. Sent as it is shown, and
 * the report's record holds exactly it.
 */
export function instructionFor(s: Suggestion, range: DateRange, now: number): string {
  const when = shortRange(range, now)
  const again = s.after?.pr ? ` Pull request #${s.after.pr}, merged before, did not settle it.` : ''
  const subject = subjectOf(s)
  switch (s.kind) {
    case 'gap':
      return (
        `Readers searched the docs ${plural(s.hits, 'time')} in ${when} and clicked no result. ` +
        `Add or extend the page that answers this search, in the readers' words.${again}\n\n` +
        dataBlock('What readers typed', [['query', subject]])
      )
    case 'page':
      return (
        `A page got ${formatNumber(s.thumbsDown)} 👎 and ${formatNumber(s.thumbsUp)} 👍 ` +
        `in ${when}${s.views !== undefined ? ` (${plural(s.views, 'view')})` : ''}. ` +
        `Find what readers miss there and improve it.${again}\n\n` +
        dataBlock('The page', [['path', subject]])
      )
    case 'question':
      return (
        `Readers asked the docs assistant this question ${plural(s.count, 'time')} in ` +
        `${when} and it could not answer. Add the answer to the docs.${again}\n\n` +
        dataBlock('What readers asked', [['question', subject]])
      )
  }
}

/** The evidence, for the reader: the subject and the numbers that make it a suggestion. */
function evidence(s: NumberedSuggestion): string {
  switch (s.kind) {
    case 'gap': {
      // The half-typed rows themselves are in the searches table's note.
      const typed = s.prefixes.length > 0 ? ` (+${s.prefixes.length} half-typed)` : ''
      return `**Search gap “${escapeText(clip(subjectOf(s), 40))}”** · ${plural(s.hits, 'search', 'searches')}, no click${typed}`
    }
    case 'page': {
      const per =
        s.views !== undefined && s.views > 0
          ? ` · ${((s.thumbsDown * 1000) / s.views).toFixed(1)} 👎 per 1,000 views`
          : ''
      return `**Page ${escapeText(clipMiddle(subjectOf(s), 44))}** · ${formatNumber(s.thumbsDown)} 👎, ${formatNumber(s.thumbsUp)} 👍${per}`
    }
    case 'question':
      return `**Unanswered “${escapeText(clip(subjectOf(s), 56))}”** · asked ${plural(s.count, 'time')}`
  }
}

/**
 * The instruction as the report shows it, line for line (blank lines aside): the action's words
 * as text, each line of its data block as code, which GitHub shows exactly as it is sent (no
 * link, mention or reference comes alive in code).
 */
export function shownInstruction(instruction: string): string {
  let data = false
  return instruction
    .split('\n')
    .filter(line => line !== '')
    .map(line => {
      if (data) return codeSpan(line)
      data = line.endsWith(DATA_LABEL_END)
      return `_${escapeText(line)}_`
    })
    .join('  \n   ')
}

/** One line as inline code: the fence is longer than any run of backticks in it. */
function codeSpan(line: string): string {
  const longest = Math.max(0, ...Array.from(line.matchAll(/`+/g), m => m[0].length))
  const fence = '`'.repeat(longest + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/**
 * The block: numbered suggestions, how to start the agent on one, and the states of the last
 * report's suggestions. Empty when there is nothing to say.
 */
export function suggestionsBlock(
  suggestions: readonly NumberedSuggestion[],
  earlier: readonly EarlierSuggestion[],
  trigger: string | undefined,
  range: DateRange
): string {
  const blocks: string[] = []
  if (suggestions.length > 0) {
    const items = suggestions.map(s => {
      const again = s.after?.pr
        ? ` · again after #${s.after.pr}`
        : s.times !== undefined && s.times > 1
          ? ` · suggested again, ${nthPeriod(s.times, range)}`
          : ''
      return `${s.n}. ${evidence(s)}${again}  \n   ↳ ${shownInstruction(s.instruction)}`
    })
    blocks.push(`#### What to fix ${thisPeriod(range)}`, items.join('\n'))
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

/**
 * What a suggestion is about, as plain text cleaned as all text from the public is (one line,
 * nothing invisible, bounded): the query, the page's path or the question. The instruction, the
 * report and the records all show this text.
 */
export function subjectOf(s: Suggestion): string {
  switch (s.kind) {
    case 'gap':
      return publicText(s.query, QUERY_MAX_CHARS)
    case 'page':
      return clipMiddle(oneLine(s.path), PATH_MAX_CHARS)
    case 'question':
      return publicText(s.question, QUESTION_MAX_CHARS)
  }
}

/** An earlier suggestion's subject in the line of their states: a page as a path, else quoted. */
function shownSubject(e: EarlierSuggestion): string {
  if (e.id.startsWith('page:')) return escapeText(clipMiddle(e.subject, 40))
  return `“${escapeText(clip(e.subject, 40))}”`
}

/**
 * What became of the last report's suggestions that someone took, by subject (never by the last
 * report's numbers, which this report's own 1–5 would be read as); none taken, no line. Those
 * nobody took are counted only: one the data still raises is marked "suggested again" above.
 */
function earlierLine(earlier: readonly EarlierSuggestion[]): string {
  const item = (e: EarlierSuggestion) => `${shownSubject(e)}: ${stateOf(e.fix)}`
  const numbered = earlier.filter(e => e.n !== undefined)
  const taken = numbered.filter(e => e.fix)
  const untaken = numbered.length - taken.length
  const fixing = earlier.filter(e => e.n === undefined).map(item)
  return [
    ...(taken.length > 0
      ? [
          `_Taken from the last report:_ ${taken.map(item).join(' · ')}` +
            (untaken > 0
              ? ` · ${untaken === 1 ? 'its other one' : `its other ${untaken}`} not taken`
              : '')
        ]
      : []),
    ...(fixing.length > 0 ? [`_Fixes asked for:_ ${fixing.join(' · ')}`] : [])
  ].join('  \n')
}

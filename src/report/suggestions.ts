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
/** A written comment, as quoted: long enough for what is missing, short enough to scan. */
const COMMENT_MAX_CHARS = 120

/**
 * The instruction for the docs agent: the action's words on the first line, short (the report
 * shows it as the suggestion itself), then what readers typed in a data block (public-text.ts):
 * the subject on one line, the topic's phrasings or the page's comments on one more. Sent as it
 * is shown, and the report's record holds exactly it.
 */
export function instructionFor(s: Suggestion, range: DateRange, now: number): string {
  const when = shortRange(range, now)
  const again = s.after?.pr ? ` Pull request #${s.after.pr}, merged before, did not settle it.` : ''
  const block = (label: string, values: [string, string | string[]][]): string =>
    `${sentenceOf(s, when)}${again}\n\n${dataBlock(label, values)}`
  switch (s.kind) {
    case 'gap':
      return block('What readers typed', [topicValue('query', 'queries', s.phrasings, s.query)])
    case 'page':
      return block(s.comments?.length ? 'The page and what readers wrote' : 'The page', [
        ['path', subjectOf(s)],
        ...(s.comments?.length
          ? [
              ['comments', s.comments.map(c => publicText(c, COMMENT_MAX_CHARS))] as [
                string,
                string[]
              ]
            ]
          : [])
      ])
    case 'question':
      return block('What readers asked the assistant', [
        topicValue('question', 'questions', s.phrasings, s.question)
      ])
    case 'stale':
      return block('The page', [['path', subjectOf(s)]])
  }
}

/** One phrasing as a value, several as one list (the first is the subject). */
function topicValue(
  one: string,
  many: string,
  phrasings: readonly string[],
  subject: string
): [string, string | string[]] {
  const max = one === 'query' ? QUERY_MAX_CHARS : QUESTION_MAX_CHARS
  return phrasings.length > 1
    ? [many, phrasings.map(p => publicText(p, max))]
    : [one, publicText(subject, max)]
}

/**
 * The action's sentence: the numbers that make it a suggestion, and what to do. Short, so that
 * with its bold kind it fits one line at 760 px: the report's suggestions fit one screen.
 */
function sentenceOf(s: Suggestion, when: string): string {
  switch (s.kind) {
    case 'gap':
      return `${plural(s.hits, 'search', 'searches')} in ${when}, no click: answer it in the docs.`
    case 'page': {
      const views = s.views !== undefined ? `, ${plural(s.views, 'view')}` : ''
      const what = s.comments?.length
        ? 'fix what the comments say is missing'
        : 'fix what readers miss on this page'
      return `${formatNumber(s.thumbsDown)} 👎, ${formatNumber(s.thumbsUp)} 👍${views} in ${when}: ${what}.`
    }
    case 'question':
      return `Asked ${plural(s.count, 'time')} in ${when}, unanswered: add the answer to the docs.`
    case 'stale': {
      const seen = [
        ...(s.views !== undefined ? [plural(s.views, 'view')] : []),
        ...(s.thumbsDown !== undefined ? [`${formatNumber(s.thumbsDown)} 👎`] : [])
      ].join(', ')
      return `${seen} in ${when}; its file last changed ${isoDay(s.lastChanged)}: update it.`
    }
  }
}

/** What a suggestion is, in a word or two: bold before its instruction, and before its subject. */
export const KIND_LABELS: Record<Suggestion['kind'], string> = {
  gap: 'Search gap',
  page: 'Page',
  question: 'Unanswered',
  stale: 'Stale'
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
  range: DateRange,
  pagesWithoutFile = 0
): string {
  const blocks: string[] = []
  if (suggestions.length > 0) {
    const items = suggestions.map(s => {
      // Marks of the report's own, before the instruction (which is shown whole after "↳").
      const again = s.after?.pr
        ? ` (again after #${s.after.pr})`
        : s.times !== undefined && s.times > 1
          ? ` (again, ${nthPeriod(s.times, range)})`
          : ''
      return `${s.n}. **${KIND_LABELS[s.kind]}**${again} ↳ ${shownInstruction(s.instruction)}`
    })
    blocks.push(`#### What to fix ${thisPeriod(range)}`, items.join('\n'))
    const notes = [
      ...(trigger
        ? [
            `_\`${trigger} fix N\` here (plus any words of yours) starts the docs agent on suggestion N._`
          ]
        : []),
      ...(pagesWithoutFile > 0 ? [withoutFileNote(pagesWithoutFile)] : [])
    ]
    // The last report's suggestions taken: a line of the same paragraph (no gap), so the
    // overview, trend and suggestions stay on one screen.
    const states = earlierLine(earlier)
    if (states) notes.push(states)
    if (notes.length > 0) blocks.push(notes.join('  \n'))
    return blocks.join('\n\n')
  }
  const states = earlierLine(earlier)
  if (states) blocks.push(states)
  return blocks.join('\n\n')
}

/** Pages whose age could not be told: their file is not under the docs root. */
function withoutFileNote(n: number): string {
  return `_${n === 1 ? '1 page shown has' : `${n} pages shown have`} no file under \`docs-root\`: not checked for age._`
}

/** A stale-page check cut short by the time allowed: how many pages it could not date. */
export function undatedNote(pages: number): string {
  const which = pages === 1 ? '1 page shown was' : `${pages} pages shown were`
  return `The time allowed (\`wait-timeout\`) ran out while pages were checked for age: ${which} not dated, and may be stale.`
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
    case 'stale':
      return clipMiddle(oneLine(s.path), PATH_MAX_CHARS)
    case 'question':
      return publicText(s.question, QUESTION_MAX_CHARS)
  }
}

/** A subject in a line of text: a page as its path (clipped in the middle), else quoted; inert. */
export function inlineSubject(isPage: boolean, subject: string, maxChars: number): string {
  if (isPage) return escapeText(clipMiddle(subject, maxChars))
  return `“${escapeText(clip(subject, maxChars))}”`
}

/** An earlier suggestion's subject in the line of their states. */
const shownSubject = (e: EarlierSuggestion): string =>
  inlineSubject(e.id.startsWith('page:'), e.subject, 40)

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

// "What to fix this week" (or month, by the range's length): the suggestions in words. Each one's
// first line names its subject in the readers' own words (quoted, inert) with the number that
// makes it a suggestion; a page's written comments follow, quoted one a line, and under an
// unanswered question what the assistant answered (from the rows read). The instruction
// each carries for the docs agent sits in one fold below them, shown whole: `/docs-agent fix N`
// sends exactly that text (from the report's signed record, never from the comment's visible
// text). Then what became of the last report's suggestions that someone took. Every query, path
// and question is text from the public (public-text.ts): cleaned once, it stands in the
// instruction's data block, JSON-quoted on a line of its own, and the report shows that line as
// code.
import type { FixState, Suggestion } from '../analytics/suggestions.js'
import { isoDay, type DateRange } from '../period.js'
import { dataBlock, DATA_LABEL_END, oneLine, publicText } from '../public-text.js'
import { clip, clipPath, details, escapeText } from './markdown.js'
import { formatNumber, plural } from './numbers.js'
import { nthPeriod, shortRange, thisPeriod } from './range.js'

/**
 * A suggestion as a report shows it: its number, the instruction it carries, and how many
 * reports in a row (this one included) have suggested it, when more than one.
 */
export type NumberedSuggestion = Suggestion & { n: number; instruction: string; times?: number }

/**
 * A suggestion of the report before (numbered as it was there), and what became of it; or, with
 * no number, one the data raises again that a fix asked for earlier holds back.
 */
export interface EarlierSuggestion {
  n?: number
  /** The suggestion's subject id (`gap:…`, `page:…`, `question:…`). */
  id: string
  /** The query, path or question as the report showed it (untrusted text). */
  subject: string
  /** Undefined: nobody asked the agent to fix it from that report (`fix N` after it). */
  fix?: FixState
}

const QUERY_MAX_CHARS = 60
const QUESTION_MAX_CHARS = 140
const PATH_MAX_CHARS = 90
/** A written comment, as quoted: long enough for what is missing, short enough to scan. */
const FEEDBACK_MAX_CHARS = 120
/** What the assistant answered, as quoted and sent: enough to see why it did not help. */
const ANSWER_MAX_CHARS = 200

/**
 * The instruction for the docs agent: the action's words on the first line, short, then what
 * readers typed in a data block (public-text.ts), one value a line: the topic's phrasings, or the
 * page and each comment written on it. Sent as it is shown, and the report's record holds
 * exactly it.
 */
export function instructionFor(s: Suggestion, range: DateRange, now: number): string {
  const when = shortRange(range, now)
  const again = s.after?.pr ? ` Pull request #${s.after.pr}, merged before, did not settle it.` : ''
  const block = (label: string, values: [string, string][]): string =>
    `${sentenceOf(s, when)}${again}\n\n${dataBlock(label, values)}`
  switch (s.kind) {
    case 'gap':
      return block('What readers typed', phrasingValues('query', s.phrasings, s.query))
    case 'page':
      return block(s.comments?.length ? 'The page and what readers wrote' : 'The page', [
        ['path', subjectOf(s)],
        ...shownComments(s).map((c): [string, string] => ['comment', c])
      ])
    case 'question':
      return block(
        shownAnswer(s)
          ? 'What readers asked the assistant, and what it answered'
          : 'What readers asked the assistant',
        [...phrasingValues('question', s.phrasings, s.question), ...answerValue(s)]
      )
    case 'stale':
      return block('The page', [['path', subjectOf(s)]])
  }
}

/** A topic's phrasings, one value each (the first is the subject), or the subject alone. */
function phrasingValues(
  name: 'query' | 'question',
  phrasings: readonly string[],
  subject: string
): [string, string][] {
  const max = name === 'query' ? QUERY_MAX_CHARS : QUESTION_MAX_CHARS
  const texts = phrasings.length > 1 ? phrasings : [subject]
  return texts.map(p => [name, publicText(p, max)])
}

/** What the assistant answered, as sent and quoted: cleaned, cut at 200 characters. */
function shownAnswer(s: Suggestion): string | undefined {
  return s.kind === 'question' && s.answer ? publicText(s.answer, ANSWER_MAX_CHARS) : undefined
}

function answerValue(s: Suggestion): [string, string][] {
  const answer = shownAnswer(s)
  return answer ? [['answer', answer]] : []
}

/** A page's written comments as sent and quoted: cleaned, each cut at 120 characters. */
function shownComments(s: Suggestion): string[] {
  return s.kind === 'page' ? (s.comments ?? []).map(c => publicText(c, FEEDBACK_MAX_CHARS)) : []
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
function shownInstruction(instruction: string): string {
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
 * The block: the numbered suggestions, each on a line of its own that names its subject (and a
 * page's comments, quoted one a line), the instructions they carry in one fold, how to start the
 * agent on one, and what became of the last report's suggestions. Empty with nothing to say.
 */
export function suggestionsBlock(
  suggestions: readonly NumberedSuggestion[],
  earlier: readonly EarlierSuggestion[],
  trigger: string | undefined,
  range: DateRange,
  notes: { pagesWithoutFile: number; leftOut: number } = { pagesWithoutFile: 0, leftOut: 0 }
): string {
  const states = earlierLine(earlier)
  const { pagesWithoutFile, leftOut } = notes
  const left = leftOut > 0 ? leftOutNote(leftOut) : ''
  if (suggestions.length === 0) return [states, left].filter(Boolean).join('  \n')
  const lines = [
    ...(trigger
      ? [
          `_\`${trigger} fix N\` here (plus any words of yours) starts the docs agent on suggestion N._`
        ]
      : []),
    ...(pagesWithoutFile > 0 ? [withoutFileNote(pagesWithoutFile)] : []),
    ...(left ? [left] : []),
    // A line of the same paragraph (no gap), so the overview, trend and suggestions stay on one
    // screen.
    ...(states ? [states] : [])
  ]
  const sent = suggestions.map(s => `${s.n}. ${shownInstruction(s.instruction)}`)
  return [
    `#### What to fix ${thisPeriod(range)}`,
    suggestions.map(s => itemOf(s, range)).join('\n'),
    details('The instructions, as the docs agent gets them', sent.join('\n')),
    ...(lines.length > 0 ? [lines.join('  \n')] : [])
  ].join('\n\n')
}

/** The readers' words on a suggestion's first line, clipped: the fold holds them whole. */
const LINE_SUBJECT_MAX_CHARS = 48

/**
 * "1. **Search gap** “error rate limit” (+1 phrasing) · 577 searches, no click": the subject in
 * the readers' own words and the number that makes it a suggestion, then the report's own marks;
 * a page's written comments under it, quoted, one a line, as the instruction carries them.
 */
function itemOf(s: NumberedSuggestion, range: DateRange): string {
  const subject = inlineSubject(
    s.kind === 'page' || s.kind === 'stale',
    subjectOf(s),
    LINE_SUBJECT_MAX_CHARS
  )
  const others =
    s.kind === 'gap' || s.kind === 'question' ? (s.variants ?? s.phrasings.length) - 1 : 0
  const more = others > 0 ? ` (+${plural(others, 'phrasing')})` : ''
  const again = s.after?.pr
    ? ` (again after #${s.after.pr})`
    : s.times !== undefined && s.times > 1
      ? ` (again, ${nthPeriod(s.times, range)})`
      : ''
  const head = `${s.n}. **${KIND_LABELS[s.kind]}** ${subject}${more} · ${evidenceOf(s)}${again}`
  const answer = shownAnswer(s)
  return [
    head,
    ...shownComments(s).map(c => `   “${escapeText(c)}”`),
    ...(answer ? [`   _The assistant answered:_ “${escapeText(answer)}”`] : [])
  ].join('  \n')
}

/** The number that makes it a suggestion, in a few words. */
function evidenceOf(s: Suggestion): string {
  switch (s.kind) {
    case 'gap':
      return `${plural(s.hits, 'search', 'searches')}, no click`
    case 'page':
      return `${formatNumber(s.thumbsDown)} 👎, ${formatNumber(s.thumbsUp)} 👍${s.views !== undefined ? `, ${plural(s.views, 'view')}` : ''}`
    case 'question':
      return `asked ${plural(s.count, 'time')}, unanswered`
    case 'stale': {
      const seen = [
        ...(s.views !== undefined ? [plural(s.views, 'view')] : []),
        ...(s.thumbsDown !== undefined ? [`${formatNumber(s.thumbsDown)} 👎`] : [])
      ]
      return [...seen, `unchanged since ${isoDay(s.lastChanged)}`].join(', ')
    }
  }
}

/** Queries or questions carrying markup, not suggested: they stay, inert, in their tables. */
function leftOutNote(n: number): string {
  const which = n === 1 ? '1 search or question' : `${n} searches or questions`
  return `_${which} carrying markup, HTML, a table pipe or a link ${n === 1 ? 'was' : 'were'} left out of the suggestions (shown as text in ${n === 1 ? 'its table' : 'their tables'})._`
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
      return clipPath(oneLine(s.path), PATH_MAX_CHARS)
    case 'question':
      return publicText(s.question, QUESTION_MAX_CHARS)
  }
}

/** A subject in a line of text: a page as its path (clipped at its start), else quoted; inert. */
export function inlineSubject(isPage: boolean, subject: string, maxChars: number): string {
  if (isPage) return escapeText(clipPath(subject, maxChars))
  return `“${escapeText(clip(subject, maxChars))}”`
}

/** An earlier suggestion's subject in the line of their states. */
const shownSubject = (e: EarlierSuggestion): string =>
  inlineSubject(e.id.startsWith('page:'), e.subject, 40)

/**
 * What became of the last report's suggestions that a `fix N` asked for, by subject (never by the
 * last report's numbers, which this report's own 1–5 would be read as), each once, those of one
 * pull request together; none taken, no line. Those nobody took are counted only. Then the fixes
 * that hold back what the data raises again, each pull request once and none already said.
 */
function earlierLine(earlier: readonly EarlierSuggestion[]): string {
  const numbered = earlier.filter(e => e.n !== undefined)
  const taken = numbered.filter(e => e.fix)
  const untaken = numbered.length - taken.length
  const said = new Set(taken.map(e => stateOf(e.fix)))
  const fixing = earlier.filter(e => e.n === undefined && !said.has(stateOf(e.fix)))
  const others = untaken === 1 ? 'its other one' : `its other ${untaken}`
  return [
    ...(taken.length > 0
      ? [
          `_Taken from the last report:_ ${byFix(taken)}` +
            (untaken > 0 ? ` · ${others} not taken` : '')
        ]
      : []),
    ...(fixing.length > 0 ? [`_Fixes asked for:_ ${byFix(fixing)}`] : [])
  ].join('  \n')
}

/** "“rotate key”, /api/auth: #31 open · “webhooks”: #32 merged 2026-11-12": each fix once. */
function byFix(list: readonly EarlierSuggestion[]): string {
  const groups = new Map<string, string[]>()
  for (const e of list) {
    const state = stateOf(e.fix)
    const subjects = groups.get(state) ?? []
    const subject = shownSubject(e)
    if (!subjects.includes(subject)) subjects.push(subject)
    groups.set(state, subjects)
  }
  return [...groups].map(([state, subjects]) => `${subjects.join(', ')}: ${state}`).join(' · ')
}

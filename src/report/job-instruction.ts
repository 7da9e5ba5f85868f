// What a job's answer says of the instruction itself, where it matters to see it: which report
// suggestions `fix N` asked for, the instruction shown in full and wrapped (a code block does not
// wrap at 760 px: its right edge is cut off), that the run grew the agent's open pull request
// instead of starting a job, and on that pull request every instruction it grew from.
import { link, escapeText, clip, cutAt } from './markdown.js'
import { formatNumber } from './numbers.js'
import { firstLines } from './job-cause.js'
import type { JobReport, JobReportPlace } from './job-report.js'

/** Shown in full up to here; the exact text, whole, is in the answer's Details. */
const SHOWN_MAX_CHARS = 2000
const SUBJECT_MAX_CHARS = 80

const KIND_NAMES: Record<string, string> = {
  gap: 'search gap',
  page: 'page',
  question: 'unanswered question'
}

/** "search gap “rotate key”", "page /api/auth": what a suggestion was about, inert. */
function subjectLine(f: { id: string; subject: string }): string {
  const kind = f.id.slice(0, Math.max(0, f.id.indexOf(':')))
  const name = KIND_NAMES[kind] ?? 'suggestion'
  const subject = escapeText(clip(f.subject.replace(/\s+/g, ' ').trim(), SUBJECT_MAX_CHARS))
  return kind === 'page' ? `${name} ${subject}` : `${name} “${subject}”`
}

/** "fix suggestion 1: search gap “…”", "fix suggestions 1 and 3: search gap “…” and page /a". */
export function fixWords(fixes: readonly { n: number; id: string; subject: string }[]): string {
  const and = (items: string[]): string =>
    items.length === 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
  const numbers = and(fixes.map(f => String(f.n)))
  return `fix suggestion${fixes.length === 1 ? '' : 's'} ${numbers}: ${and(fixes.map(subjectLine))}`
}

/**
 * Text shown as it is, wrapped, in a quote: each line made inert (escapeText), leading spaces
 * kept, line breaks kept. What a reader sees is the text, character for character (the Details
 * hold the same text in a code block, to copy).
 */
export function quoted(text: string): string {
  const shown = cutAt(text, SHOWN_MAX_CHARS)
  const lines = shown
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '')
    .split('\n')
  const body = lines
    .map((line, i) => {
      if (line.trim() === '') return '>'
      const lead = /^[ \t]*/.exec(line)?.[0] ?? ''
      const indent = '&nbsp;'.repeat(lead.replace(/\t/g, '    ').length)
      const next = lines[i + 1]
      const br = next !== undefined && next.trim() !== '' ? '<br>' : ''
      return `> ${indent}${escapeText(line.slice(lead.length))}${br}`
    })
    .join('\n')
  if (shown.length === text.length) return body
  const more = Array.from(text.slice(shown.length)).length
  return `${body}\n>\n> _… (${formatNumber(more)} more characters: the whole text is in Details)_`
}

/** What begins the paragraph that says why a pull request grew. */
const GREW_MARK = '📎 '

/**
 * Whether the body says why a pull request grew (grewParagraph): always on the pull request
 * itself and in the summary; in an answer, unless this thread was told before (`explained`). A
 * comment that says it records so (records/job.ts growthExplainedKey).
 */
export function explainsGrowth(r: JobReport, place: JobReportPlace = 'comment'): boolean {
  if (!r.grew) return false
  return r.onItsPullRequest !== undefined || !(r.grew.explained && place === 'comment')
}

/** The run grew the agent's open pull request: why, and how to opt out. */
export function grewParagraph(r: JobReport, place: JobReportPlace): string | undefined {
  const g = r.grew
  if (!g || !explainsGrowth(r, place)) return undefined
  const optOut = 'To start a new job each time instead, set `when-agent-pr-open: create`.'
  // What asked for it (or what started it: a merge asks nothing) is the line above.
  if (r.onItsPullRequest) {
    return (
      `${GREW_MARK}This pull request grew: an instruction that would have started a new job went ` +
      `to this pull request's job as a follow-up, because it was still open ` +
      `(\`when-agent-pr-open: follow-up\`). ${optOut}`
    )
  }
  const pr = place === 'comment' ? link(`#${g.number}`, g.url) : `#${g.number}`
  return (
    `${GREW_MARK}The docs agent's pull request ${pr} was still open, so this instruction went to its job ` +
    'as a follow-up and that pull request grew, instead of a new job opening another one ' +
    `(\`when-agent-pr-open: follow-up\`). ${optOut}`
  )
}

/**
 * The instruction in view, for `fix N` and a run that grew a pull request, where it matters: its
 * first lines (never the context block), the rest folded in the answer's Details.
 */
export function visibleInstruction(r: JobReport, label: string): string | undefined {
  if ((!r.fixes && !r.grew) || !r.prompt?.trim() || r.instructions) return undefined
  const first = firstLines(r.prompt)
  const rest = first.cut
    ? '\n>\n> _… (the whole instruction is in Details)_'
    : first.whole
      ? ''
      : '\n\n_The context from GitHub sent with it is in Details._'
  return `**${label}:**\n\n${quoted(first.text)}${rest}`
}

/**
 * Whether the body shows the instruction whole already: in view (visibleInstruction), or folded
 * in the list of the instructions a pull request grew from, whose newest it is.
 */
export function shownWhole(r: JobReport): boolean {
  if (!r.prompt) return true
  if (r.instructions?.at(-1)?.text === r.prompt) return true
  return visibleInstruction(r, '') !== undefined && firstLines(r.prompt).whole
}

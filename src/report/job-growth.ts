// What the agent's pull request says of how it grew (issues 42, 50): the new comment each growth
// posts there (its cause in the cause's own words, the instruction's first lines, and once read
// its checks and preview: an edit of the record notifies nobody), the cause of each instruction
// its record lists with the whole text folded, and the code pull request a dispatch named, linked
// apart from the repository line with its description quoted line by line.
import { cutAt } from '../public-text.js'
import { causeWords, firstLines } from './job-cause.js'
import type { AskedWords, CodeChange, JobReport } from './job-report.js'
import { quoted } from './job-instruction.js'
import { capitalise, clip, codeBlock, details, escapeText, link } from './markdown.js'
import { formatTimestamp } from './numbers.js'

/** The code pull request's description is quoted up to here, cut at a line end. */
const DESCRIPTION_MAX_CHARS = 1200
/** The most of an instruction a record's fold shows (a record keeps 1,000 characters of each). */
const FOLDED_MAX_CHARS = 2000

/**
 * The new comment on the agent's pull request that tells its watchers it grew: instruction `n`,
 * its cause in the cause's own words (the merge of #41 “…” by @octocat) and when, and its first
 * lines (never the context block). The 📎 explanation and the whole text stay on the record.
 */
export function growthNote(o: {
  n: number
  text: string
  asked: AskedWords
  prUrl: string
  /** Its checks and preview once read (job-checks.ts checksVerdict). */
  verdict?: string
}): string {
  const cause = causeWords(o.asked, { here: o.prUrl })
  const first = firstLines(o.text)
  const more = first.cut ? '\n>\n> …' : ''
  return (
    `### ➕ This pull request grew: instruction ${o.n}\n\n` +
    `For ${cause}, this pull request's job took a follow-up (${formatTimestamp(o.asked.when)}):\n\n` +
    `${quoted(first.text)}${more}\n\n` +
    (o.verdict ? `${o.verdict}\n\n` : '') +
    '_Every instruction this pull request grew from is listed, whole, in its first comment._\n'
  )
}

/**
 * The code pull request a dispatch named: a live link on its own line, its title inert, and its
 * description quoted with its line breaks, cut at a line end (public text, stays inert).
 */
export function codeChangeBlock(c: CodeChange | undefined): string | undefined {
  if (!c) return undefined
  const title = c.title ? ` “${escapeText(clip(c.title.replace(/\s+/g, ' ').trim(), 120))}”` : ''
  const head = `**Code pull request:** ${link(c.label, c.url)}${title}`
  // Redacted where it was read (commands/job-asked.ts); the comment's writer redacts again.
  const body = c.body ? c.body.trim() : ''
  if (body === '') return head
  const cut = cutAt(body, DESCRIPTION_MAX_CHARS)
  const atLine = cut.length < body.length ? cut.slice(0, Math.max(0, cut.lastIndexOf('\n'))) : cut
  const shown = atLine.trim() === '' ? cut : atLine
  const more =
    shown.length < body.length ? '\n>\n> _… (the rest is in the pull request’s description)_' : ''
  return `${head}\n\n${quoted(shown)}${more}`
}

/**
 * On the agent's pull request: every instruction it grew from, oldest first, each its cause on
 * one line (a `<summary>`, where links are HTML) with its whole text folded below it, in a code
 * block (the context block included: data, shown inert).
 */
export function instructionsList(r: JobReport): string | undefined {
  const all = r.instructions
  if (!all || all.length < 2) return undefined
  const here = r.grew?.url ?? r.job?.prLink ?? undefined
  const items = all.map(({ n, text, asked }) => {
    const cause = asked
      ? `${capitalise(causeWords(asked, { here, form: 'html' }))} · ${formatTimestamp(asked.when)}`
      : 'Asked before this pull request recorded who asked'
    return details(`<b>${n}.</b> ${cause}`, codeBlock(text, FOLDED_MAX_CHARS))
  })
  const count = all.at(-1)?.n ?? all.length
  const kept = count > all.length ? ` (the first and the newest ${all.length - 1})` : ''
  const head = `**The ${count} instructions this pull request grew from${kept}, newest last** (each opens to its whole text):`
  return [head, ...items].join('\n\n')
}

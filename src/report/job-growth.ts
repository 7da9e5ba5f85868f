// What the agent's pull request says of how it grew (issue 42): the new comment each growth
// posts there (who asked, where, the instruction's first line, and once read its checks and
// preview: an edit of the record notifies nobody), who asked each instruction its record lists,
// and the code pull request a dispatch named, linked apart from the repository line with its
// description quoted line by line.
import { cutAt } from '../public-text.js'
import type { AskedWords, CodeChange, JobReport } from './job-report.js'
import { quoted } from './job-instruction.js'
import { clip, escapeText, link, parseHttpsUrl } from './markdown.js'
import { formatTimestamp } from './numbers.js'

const FIRST_LINE_MAX_CHARS = 200
/** The code pull request's description is quoted up to here, cut at a line end. */
const DESCRIPTION_MAX_CHARS = 1200

/** "@octocat" for a plain login; escaped text (no mention) otherwise. */
export function mention(login: string): string {
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(login) ? `@${login}` : escapeText(login)
}

/** "octo/api#42", "#6", "#6 (comment)", "the workflow run": where a URL points, as a link. */
function whereLink(url: string, here?: string): string {
  const u = parseHttpsUrl(url)
  if (!u) return escapeText(clip(url, 80))
  const m = /^\/([\w.-]+)\/([\w.-]+)\/(?:issues|pull)\/(\d+)\/?$/.exec(u.pathname)
  if (!m) return link(/\/actions\/runs\//.test(u.pathname) ? 'a workflow run' : u.host, u.href)
  const [, owner = '', repo = '', n = ''] = m
  const repoHere = here ? parseHttpsUrl(here)?.pathname.split('/').slice(1, 3).join('/') : undefined
  const name = repoHere === `${owner}/${repo}` ? `#${n}` : `${owner}/${repo}#${n}`
  return link(u.hash ? `a comment on ${name}` : name, u.href)
}

/** "@octocat in [a comment on #6](…) · 2026-11-28 08:40 UTC". */
function askedWords(a: AskedWords, here?: string): string {
  const who = a.who ? mention(a.who) : 'A run'
  const where = a.where ? ` in ${whereLink(a.where, here)}` : ''
  return `${who}${where} · ${formatTimestamp(a.when)}`
}

/** The instruction's first non-empty line, inert and bounded. */
function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find(l => l.trim() !== '') ?? ''
  return escapeText(clip(line.trim(), FIRST_LINE_MAX_CHARS))
}

/**
 * The new comment on the agent's pull request that tells its watchers it grew: instruction `n`,
 * who asked for it and where, and its first line. The 📎 explanation stays on the record.
 */
export function growthNote(o: {
  n: number
  text: string
  asked: AskedWords
  prUrl: string
  /** Its checks and preview once read (job-checks.ts checksVerdict). */
  verdict?: string
}): string {
  const { asked } = o
  const who = asked.who ? `${mention(asked.who)} asked` : 'A run asked'
  const where = asked.where ? ` in ${whereLink(asked.where, o.prUrl)}` : ''
  return (
    `### ➕ This pull request grew: instruction ${o.n}\n\n` +
    `${who}${where} (${formatTimestamp(asked.when)}); its job took it as a follow-up:\n\n` +
    `> ${firstLine(o.text)}\n\n` +
    (o.verdict ? `${o.verdict}\n\n` : '') +
    '_Every instruction this pull request grew from is listed in its first comment._\n'
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

/** On the agent's pull request: every instruction it grew from, oldest first. */
export function instructionsList(r: JobReport): string | undefined {
  const all = r.instructions
  if (!all || all.length < 2) return undefined
  const here = r.grew?.url ?? r.job?.prLink ?? undefined
  const items = all.map(({ n, text, asked }) => {
    const by = asked ? ` ${askedWords(asked, here)}` : ''
    return `**${n}.**${by}\n\n${quoted(text)}`
  })
  const count = all.at(-1)?.n ?? all.length
  const kept = count > all.length ? ` (the first and the newest ${all.length - 1})` : ''
  const head = `**The ${count} instructions this pull request grew from${kept}, newest last:**`
  return [head, ...items].join('\n\n')
}

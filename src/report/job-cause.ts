// The cause of an instruction in its own words (contract: "The preview and who reviews"): "the
// merge of #41 “Explain key rotation” by @octocat", "the label Docs/Needed on #9 by @octocat", "a
// dispatch for octo/api#42 “Add retry budget” by @octocat", "a comment by @octocat in #12". A merge
// is no request: nothing says it "asked". Titles and labels are public text, inert; a pull request
// a dispatch named outside the repositories it may be linked in stays a code span, never a link
// nor a reference GitHub would follow. And an instruction's first lines, which is what a reader is
// shown of it before the rest is folded away.
import { ownWords } from '../public-text.js'
import type { AskedWords } from './job-report.js'
import { clip, escapeText, linkDestination, parseHttpsUrl } from './markdown.js'

const TITLE_SHOWN_CHARS = 80
/** What an instruction shows before the rest is folded: whole lines, this many at most. */
const FIRST_LINES = 3
const FIRST_LINES_MAX_CHARS = 300

/**
 * How a cause's links are written: Markdown, or HTML where Markdown is not read (a `<summary>`,
 * on the line of its `<details>`).
 */
export type LinkForm = 'markdown' | 'html'

/** "@octocat" for a plain login; escaped text (no mention) otherwise. */
export function mention(login: string): string {
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(login) ? `@${login}` : escapeText(login)
}

/** A link we wrote the label of, to a checked https address, in the form asked. */
function anchor(label: string, url: URL, form: LinkForm): string {
  const to = linkDestination(url.href)
  return form === 'html'
    ? `<a href="${to.replace(/&/g, '&amp;')}">${label}</a>`
    : `[${label}](${to})`
}

/** The issue or pull request (or a comment on it) an address names, as `#6` or `octo/api#42`. */
function itemOf(url: URL, here: string | undefined): string | undefined {
  const m = /^\/([\w.-]+)\/([\w.-]+)\/(?:issues|pull)\/(\d+)\/?$/.exec(url.pathname)
  if (!m) return undefined
  const [, owner = '', repo = '', n = ''] = m
  const repoHere = here ? parseHttpsUrl(here)?.pathname.split('/').slice(1, 3).join('/') : undefined
  return repoHere === `${owner}/${repo}` ? `#${n}` : `${owner}/${repo}#${n}`
}

/**
 * Where a cause points, as a link: "#6" (an issue or pull request of the repository of `here`, or
 * a comment on it), "octo/api#42" (another repository), "a workflow run", else the host.
 * `items`: only an issue or pull request (or a comment on one), else nothing.
 */
function whereLink(
  url: string,
  o: { here: string | undefined; form: LinkForm; items?: boolean }
): string | undefined {
  const u = parseHttpsUrl(url)
  const item = u && itemOf(u, o.here)
  if (item) return anchor(item, u, o.form)
  if (o.items) return undefined
  if (!u) return escapeText(clip(url, TITLE_SHOWN_CHARS))
  return anchor(/\/actions\/runs\//.test(u.pathname) ? 'a workflow run' : u.host, u, o.form)
}

/** A pull request a payload named where it may not be linked: a code span, never a reference. */
function inert(named: string, form: LinkForm): string {
  const text = named.replace(/[`<>&]/g, '')
  return form === 'html' ? `<code>${text}</code>` : `\`${text}\``
}

/** ` “Explain key rotation”`: a title, inert and bounded, or nothing. */
function titleWords(title: string | undefined): string {
  const t = title?.replace(/\s+/g, ' ').trim()
  return t ? ` “${escapeText(clip(t, TITLE_SHOWN_CHARS))}”` : ''
}

/**
 * The cause of an instruction in words, lower case (a sentence capitalises it): what started it,
 * on what, by whom. `here`: the address of the pull request the words are read on (its own
 * repository's numbers are shown as `#N`). Records older than the cause name who and where only.
 */
export function causeWords(
  a: AskedWords,
  o: { here?: string | undefined; form?: LinkForm } = {}
): string {
  const form = o.form ?? 'markdown'
  const where = (items?: boolean) =>
    a.where ? whereLink(a.where, { here: o.here, form, items }) : undefined
  const on = where()
  const by = a.who ? ` by ${mention(a.who)}` : ''
  switch (a.how) {
    case 'merge':
      return on ? `the merge of ${on}${titleWords(a.title)}${by}` : `a merge${by}`
    case 'label': {
      const label = a.label ? ` ${escapeText(clip(a.label, TITLE_SHOWN_CHARS))}` : ''
      return `the label${label}${on ? ` on ${on}` : ''}${by}`
    }
    case 'dispatch': {
      const named = a.unlinked ? inert(a.unlinked, form) : where(true)
      return `a dispatch${named ? ` for ${named}` : ''}${titleWords(a.title)}${by}`
    }
    case 'comment':
      return `a comment${by}${on ? ` in ${on}` : ''}`
    case 'review':
      return `a review${by}${on ? ` on ${on}` : ''}`
    case 'workflow_dispatch':
      return `a run by hand${by}${on ? ` (${on})` : ''}`
    case 'schedule':
      return `a scheduled run${on ? ` (${on})` : ''}`
    default:
      return `${a.who ? mention(a.who) : 'a run'}${on ? ` in ${on}` : ''}`
  }
}

/**
 * An instruction's first lines, as a reader is shown them before the rest is folded: its own
 * words (never the context block), whole lines, at most 3 and about 300 characters (a longer
 * first line is cut at a word). `cut`: some of its own words were left out; `whole`: the text is
 * the whole instruction (nothing folded, not even a context block).
 */
export function firstLines(instruction: string): { text: string; cut: boolean; whole: boolean } {
  const whole = instruction
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
  const own = ownWords(whole)
  const kept: string[] = []
  let chars = 0
  for (const line of own.split('\n').slice(0, FIRST_LINES)) {
    if (kept.length > 0 && chars + line.length > FIRST_LINES_MAX_CHARS) break
    kept.push(line)
    chars += line.length + 1
  }
  let text = kept.join('\n').replace(/\s+$/, '')
  if (text.length > FIRST_LINES_MAX_CHARS) {
    const cut = text.slice(0, FIRST_LINES_MAX_CHARS)
    const space = cut.lastIndexOf(' ')
    text = `${(space > FIRST_LINES_MAX_CHARS / 2 ? cut.slice(0, space) : cut).replace(/\s+$/, '')}…`
  }
  return { text, cut: text !== own, whole: text === whole }
}

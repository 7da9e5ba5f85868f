// The prompt the agent gets: the instruction, and with `context: true` a short, clearly delimited
// block about the change that triggered the run. Everything in the block comes from the event or
// GitHub and is untrusted: each value is cleaned as all text from the public is (public-text.ts)
// and kept to one line, so none can fake the block's end.
import { asObject } from '../json.js'
import { CONTEXT_END, CONTEXT_START, publicText } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import { descriptionOf, MAX_BODY_CHARS, readDispatch } from './dispatch.js'

export const MAX_CONTEXT_FILES = 100
export { CONTEXT_END, CONTEXT_START }

export interface ChangeContext {
  repository: string
  event: string
  action?: string
  ref?: string
  pullRequest?: { number?: number; title?: string; url?: string }
  /** The issue a label was added to (`trigger-label`). */
  issue?: { number: number; title?: string; url?: string }
  headCommit?: string
  /** A dispatch from another repository: its merged pull request's merge commit. */
  mergeCommit?: string
  /**
   * A dispatch's pull request description, or the labelled pull request's or issue's (clipped):
   * one JSON-quoted line once rendered.
   */
  body?: string
  /** On a push, the head commit message's first line: what a pull request's title is to one. */
  headCommitTitle?: string
  /** Up to MAX_CONTEXT_FILES paths. */
  files: string[]
  /** How many files changed in all, when known. */
  totalFiles?: number
  /** Said instead of the list when it could not be read. */
  filesNote?: string
}

type Json = Record<string, unknown>

const asString = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined
const asCount = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined

/** The pull request the event is about: a pull_request event's, or a comment's on one. */
function pullRequestOf(
  payload: Json
): { number: number; title?: string; url?: string; head?: string } | undefined {
  const pr = asObject(payload.pull_request)
  if (pr) {
    const number = asCount(pr.number) ?? asCount(payload.number)
    if (number === undefined) return undefined
    return {
      number,
      title: asString(pr.title),
      url: asString(pr.html_url),
      head: asString(asObject(pr.head)?.sha)
    }
  }
  const issue = asObject(payload.issue)
  const number = asCount(issue?.number)
  if (!issue || number === undefined || !asObject(issue.pull_request)) return undefined
  return {
    number,
    title: asString(issue.title),
    url: asString(asObject(issue.pull_request)?.html_url) ?? asString(issue.html_url)
  }
}

/** The paths a push changed, in commit order, each once; removed ones marked. */
export function pushedFiles(payload: Json): string[] {
  const seen = new Set<string>()
  const commits = Array.isArray(payload.commits) ? payload.commits : []
  for (const commit of commits) {
    const c = asObject(commit)
    for (const [field, suffix] of [
      ['added', ''],
      ['modified', ''],
      ['removed', ' (removed)']
    ] as const) {
      const list = Array.isArray(c?.[field]) ? (c[field] as unknown[]) : []
      for (const path of list) if (typeof path === 'string') seen.add(`${path}${suffix}`)
    }
  }
  return [...seen]
}

/** What the event payload itself says; a pull request's files are listed separately. */
export function contextFromEvent(
  eventName: string,
  payload: Json,
  repository: string
): ChangeContext {
  const pr = pullRequestOf(payload)
  const c: ChangeContext = {
    repository,
    event: eventName,
    action: asString(payload.action),
    files: []
  }
  if (pr) {
    c.pullRequest = { number: pr.number, title: pr.title, url: pr.url }
    c.headCommit = pr.head
    c.totalFiles = asCount(asObject(payload.pull_request)?.changed_files)
  }
  // A label asks about what it was added to: its description, and an issue's number and title.
  if (c.action === 'labeled') Object.assign(c, labelledItem(payload))
  if (eventName === 'push') {
    c.ref = asString(payload.ref)
    c.headCommit = asString(asObject(payload.head_commit)?.id) ?? asString(payload.after)
    const message = asString(asObject(payload.head_commit)?.message)
    const title = message?.split(/\r?\n/, 1)[0]?.trim()
    if (title) c.headCommitTitle = title
    const files = pushedFiles(payload)
    c.files = files.slice(0, MAX_CONTEXT_FILES)
    c.totalFiles = files.length
  }
  if (eventName === 'repository_dispatch') {
    const d = readDispatch(payload)
    if (d?.pullRequest) c.pullRequest = d.pullRequest
    if (d?.mergeCommit) c.mergeCommit = d.mergeCommit
    if (d?.body) c.body = d.body
    c.files = d?.paths ?? []
    if (d && d.totalPaths > d.paths.length) c.totalFiles = d.totalPaths
  }
  return c
}

/** The labelled issue or pull request's description, and an issue's number, title and URL. */
function labelledItem(payload: Json): Pick<ChangeContext, 'issue' | 'body'> {
  const pr = asObject(payload.pull_request)
  const issue = pr ? undefined : asObject(payload.issue)
  const body = descriptionOf((pr ?? issue)?.body)
  const number = asCount(issue?.number)
  const item = issue && number !== undefined ? { number, ...titleAndUrl(issue) } : undefined
  return { ...(body ? { body } : {}), ...(item ? { issue: item } : {}) }
}

function titleAndUrl(item: Json): { title?: string; url?: string } {
  const title = asString(item.title)
  const url = asString(item.html_url)
  return { ...(title ? { title } : {}), ...(url ? { url } : {}) }
}

/** One value of the block: one line, nothing invisible, bounded (public-text.ts). */
const oneLine = (text: string, max = 300): string => publicText(text, max)

function filesHeading(c: ChangeContext): string {
  const shown = c.files.length
  if (c.totalFiles !== undefined && c.totalFiles > shown)
    return `Changed files (the first ${shown} of ${c.totalFiles}):`
  if (c.totalFiles === undefined && shown >= MAX_CONTEXT_FILES)
    return `Changed files (the first ${shown}; there may be more):`
  return `Changed files (${shown}):`
}

export function renderContext(c: ChangeContext): string {
  const lines = [CONTEXT_START, `Repository: ${oneLine(c.repository)}`]
  lines.push(`Event: ${oneLine(c.event)}${c.action ? ` (${oneLine(c.action)})` : ''}`)
  if (c.ref) lines.push(`Ref: ${oneLine(c.ref)}`)
  const pr = c.pullRequest
  if (pr) {
    const title = pr.title ? ` ${JSON.stringify(oneLine(pr.title))}` : ''
    const number = pr.number !== undefined ? `#${pr.number}` : '(no number)'
    lines.push(`Pull request: ${number}${title}${pr.url ? ` ${oneLine(pr.url)}` : ''}`)
  }
  const issue = c.issue
  if (issue) {
    const title = issue.title ? ` ${JSON.stringify(oneLine(issue.title))}` : ''
    lines.push(`Issue: #${issue.number}${title}${issue.url ? ` ${oneLine(issue.url)}` : ''}`)
  }
  if (c.mergeCommit) lines.push(`Merge commit: ${oneLine(c.mergeCommit, 64)}`)
  // The description is the author's text: one JSON string on one line, so it stays a value.
  if (c.body) {
    const noun = c.issue ? 'Issue' : 'Pull request'
    lines.push(`${noun} description: ${oneLine(JSON.stringify(c.body), 8 * MAX_BODY_CHARS)}`)
  }
  if (c.headCommit) {
    // The message is data like a title: quoted as a JSON string, on one line.
    const title = c.headCommitTitle ? ` ${JSON.stringify(oneLine(c.headCommitTitle))}` : ''
    lines.push(`Head commit: ${oneLine(c.headCommit, 64)}${title}`)
  }
  if (c.filesNote) lines.push(`Changed files: ${oneLine(c.filesNote)}`)
  else if (c.files.length > 0) {
    lines.push(filesHeading(c))
    for (const path of c.files) lines.push(`- ${oneLine(path, 500)}`)
  }
  lines.push(CONTEXT_END)
  return lines.map(withoutSecret).join('\n')
}

/**
 * A context line holding a secret (a title, a file name or a commit message from GitHub, in any
 * form redaction knows) is withheld whole: never sent to the agent, never echoed.
 */
function withoutSecret(line: string): string {
  if (redact(line) === line) return line
  const label = line.startsWith('- ') ? '-' : `${line.split(': ', 1)[0] ?? ''}:`
  return `${label} (withheld: it contained a secret)`
}

/** The exact text sent: the instruction, then the context block when there is one. */
export function composePrompt(instruction: string, context?: ChangeContext): string {
  return context ? `${instruction}\n\n${renderContext(context)}` : instruction
}

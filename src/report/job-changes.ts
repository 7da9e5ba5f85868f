// What the job's pull request changes, as an answer shows it: the number of files and lines, and
// the first files with the lines each adds and removes. File names are untrusted (the agent or
// anyone pushing to the branch chose them): one that held a secret comes withheld, the others are
// clipped and escaped.
import { clipPath, escapeText, link } from './markdown.js'
import { formatNumber, plural } from './numbers.js'
import type { ChangedFile, PullRequestChanges } from './job-report.js'

/** Files listed by name; the rest are counted. */
export const FILES_SHOWN = 10
const PATH_MAX_CHARS = 120

/** "+42 −7": lines added and removed, as GitHub's diff counts them ("+14" when none removed). */
function lines(c: { additions: number; deletions: number }): string {
  const parts = [
    c.additions > 0 ? `+${formatNumber(c.additions)}` : '',
    c.deletions > 0 ? `−${formatNumber(c.deletions)}` : ''
  ]
  return parts.filter(Boolean).join(' ')
}

/**
 * A path as code when it is plain (ASCII letters, digits and `._-/ `), so it reads like a path;
 * anything else as escaped text, and a name that holds a secret not at all.
 */
function pathLabel(f: ChangedFile): string {
  if (f.withheld) return '_a file whose name holds a secret_'
  const shown = clipPath(f.path, PATH_MAX_CHARS)
  return /^[\w./-](?:[\w. /-]*[\w./-])?$/.test(shown) ? `\`${shown}\`` : escapeText(shown)
}

/** A file with no line changed (renamed, binary) shows its name alone. */
function fileLine(f: ChangedFile): string {
  return `- ${pathLabel(f)} ${lines(f)}`.trimEnd()
}

/**
 * The files block: "**3 files changed** (+42 −7)" and the list, or "No files changed"; the count
 * links the pull request's files view. Where the pull request was there before the job (a
 * person's), the count says it is the pull request's, their commits included.
 */
export function changesBlock(c: PullRequestChanges): string {
  const whole = c.ofThePullRequest === true
  if (c.count === 0)
    return whole
      ? `**The ${link('pull request', c.filesUrl)} changes no files.**`
      : `**${link('No files changed', c.filesUrl)}.**`
  const total = lines(c)
  const count = link(`${plural(c.count, 'file')} changed`, c.filesUrl)
  const head = whole
    ? `**${count} in the pull request**${total ? ` (${total})` : ''}, counting all its commits, ` +
      'not only the job’s:'
    : `**${count}**${total ? ` (${total})` : ''}`
  const shown = c.files.slice(0, FILES_SHOWN)
  const more = c.count - shown.length
  const rest = more > 0 ? [`- and ${formatNumber(more)} more`] : []
  return [head, ...shown.map(fileLine), ...rest].join('\n')
}

// The values of the list-like inputs (`sections`, `fail-on-status`, `trigger`, `output-file`,
// `report-files`, `reviewers`), read and checked for settings.ts.
import { formatFromPath, type FileFormat } from '../analytics/sinks.js'
import { SECTIONS, type SectionName } from '../analytics/section-names.js'
import { FINAL_STATUSES } from '../service/schema.js'
import { InputError, quote } from '../errors.js'
import { AGENT_LABEL } from '../github/labels.js'
import { isLogin } from '../github/logins.js'
import { insideWorkspace } from '../workspace/files.js'
import { didYouMean } from './parse.js'
import { readFileList, type FileList } from '../workspace/globs.js'

export function readSections(text: string): SectionName[] {
  const items = text
    .split(',')
    .map(item => item.trim().toLowerCase())
    .filter(item => item !== '')
  const accepted = SECTIONS.map(name => `\`${name}\``).join(', ')
  if (items.length === 0)
    throw new InputError('sections', `is empty; expected a comma list of ${accepted}`)
  for (const item of items) {
    if (!(SECTIONS as readonly string[]).includes(item))
      throw new InputError(
        'sections',
        `${quote(item)} is not a section;${didYouMean(item, SECTIONS)} expected a comma list of ${accepted}`
      )
  }
  return [...new Set(items)] as SectionName[]
}

export function readStatuses(text: string): string[] {
  // `''` means none; an input left empty also arrives as '' and takes the default first.
  const items = text
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '' && s !== "''" && s !== '""')
  for (const item of items) {
    if (!(FINAL_STATUSES as readonly string[]).includes(item))
      throw new InputError(
        'fail-on-status',
        `${quote(item)} is not a final status;${didYouMean(item, FINAL_STATUSES)} expected a comma list of ${FINAL_STATUSES.join(', ')} (or \`''\` for none)`
      )
  }
  return items
}

export function readTrigger(text: string): string {
  if (text === '' || /\s/.test(text))
    throw new InputError('trigger', 'must be one word without spaces, e.g. `/docs-agent`')
  return text
}

/**
 * `trigger-label`: '' (off) or a label name. Never the action's own label (GitHub compares label
 * names without case): the action puts it on every pull request its jobs open, so each would
 * start another job.
 */
export function readTriggerLabel(text: string): string {
  const name = text.trim()
  if (name.toLowerCase() === AGENT_LABEL)
    throw new InputError(
      'trigger-label',
      `cannot be \`${AGENT_LABEL}\`: the action puts that label on the pull requests its jobs ` +
        'open, so each would start another job. Choose another label, e.g. `docs/needed`'
    )
  if (name.length > 50 || /[\p{Cc}]/u.test(name))
    throw new InputError('trigger-label', 'must be a label name: one line, at most 50 characters')
  return name
}

export function readOutputFile(
  text: string,
  workspace: string,
  command: string
): { path: string; absolute: string; format: FileFormat } {
  const format = formatFromPath(text)
  if (command === 'report' && format !== 'json')
    throw new InputError('output-file', `${quote(text)} must end in .json for \`command: report\``)
  if (!format)
    throw new InputError('output-file', `${quote(text)} must end in .json, .csv or .ndjson`)
  return { path: text, absolute: insideWorkspace('output-file', text, workspace), format }
}

/** `report-files`: required for `rollup`; paths and globs, each inside the workspace. */
export function readReportFiles(text: string, workspace: string): FileList {
  if (text.trim() === '')
    throw new InputError(
      'report-files',
      'is required for `command: rollup`: the JSON files `report` runs wrote with `output-file` (paths or globs, comma separated)'
    )
  return readFileList('report-files', text, workspace)
}

/** Who `reviewers` asks: whoever started the job (`author`), a login, or a team of an organisation. */
export type Reviewer =
  { kind: 'author' } | { kind: 'user'; login: string } | { kind: 'team'; org: string; slug: string }

/** The most entries `reviewers` takes: more is no review any more, it is a broadcast. */
export const MAX_REVIEWERS = 15

/**
 * `reviewers`: a comma list of logins (`@` allowed), `org/team` slugs and the word `author`, each
 * checked by GitHub's rules before any request; the same one twice counts once.
 */
export function readReviewers(text: string): Reviewer[] {
  const items = text
    .split(/[\s,]+/)
    .map(item => item.trim())
    .filter(item => item !== '')
  const found = new Map<string, Reviewer>()
  for (const item of items) {
    const reviewer = readReviewer(item)
    if (!reviewer)
      throw new InputError(
        'reviewers',
        `${quote(item)} is not a GitHub login, an \`org/team\` slug or \`author\`; expected a ` +
          'comma list such as `author, octocat, acme/docs-writers`'
      )
    const key = reviewer.kind === 'author' ? 'author' : JSON.stringify(reviewer).toLowerCase()
    found.set(key, found.get(key) ?? reviewer)
  }
  if (found.size > MAX_REVIEWERS)
    throw new InputError('reviewers', `lists ${found.size}; at most ${MAX_REVIEWERS} are asked`)
  return [...found.values()]
}

/** The longest entry GitHub could accept: a login (39) and a team slug (100), with `@` and `/`. */
const MAX_REVIEWER_CHARS = 141

function readReviewer(item: string): Reviewer | undefined {
  if (item.toLowerCase() === 'author') return { kind: 'author' }
  // Longer is no login nor slug, and a regular expression never reads a huge value.
  if (item.length > MAX_REVIEWER_CHARS) return undefined
  const team = /^@?([^/]+)\/([^/]+)$/.exec(item)
  if (team) {
    const [, org = '', slug = ''] = team
    const isSlug = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(slug)
    return isLogin(org) && !org.endsWith('[bot]') && isSlug
      ? { kind: 'team', org, slug: slug.toLowerCase() }
      : undefined
  }
  const login = item.replace(/^@/, '')
  return isLogin(login) ? { kind: 'user', login } : undefined
}

// Input primitives: each reads one input through `get` and either returns its value or throws an
// InputError that names the input and the form it accepts, so the person reading the log knows
// what to fix. Nothing here knows which command reads what: that is settings.ts. The key and the
// tokens are credentials.ts's.

import { InputError, quote } from '../errors.js'
import { isLogin } from '../github/logins.js'
import { isLoopback } from '../proxy.js'

/** Reads one input by name, as the runner passes it (defaults already applied). */
export type GetInput = (name: string) => string

const MAX_WAIT_MS = 72 * 3_600_000
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f]/

function required(get: GetInput, name: string): string {
  const value = get(name)
  if (value === '') throw new InputError(name, 'is required')
  return value
}

export function oneOf<T extends string>(
  get: GetInput,
  name: string,
  values: readonly T[],
  isRequired = false
): T {
  const value = get(name)
  const accepted = values.map(v => `\`${v}\``).join(', ')
  if (value === '' && isRequired) throw new InputError(name, `is required: one of ${accepted}`)
  if (!(values as readonly string[]).includes(value))
    throw new InputError(
      name,
      `${quote(value)} is not accepted;${didYouMean(value, values)} expected one of ${accepted}`
    )
  return value as T
}

/**
 * " did you mean `check`?" when a value is a typo of one accepted (a few edits away, case
 * aside), else "": a list of every value is no answer to `chek`.
 */
export function didYouMean(value: string, values: readonly string[]): string {
  const given = value.trim().toLowerCase()
  // A typo is a few characters from a short value: a long text is no typo (and is not compared).
  if (given === '' || given.length > 40) return ''
  const nearest = nearestName(given, values)
  if (nearest === undefined) return ''
  const close =
    editDistance(given, nearest.toLowerCase()) <= Math.max(1, Math.floor(given.length / 3))
  return close ? ` did you mean \`${nearest}\`?` : ''
}

export function bool(get: GetInput, name: string): boolean {
  const value = get(name).trim()
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(name, `${quote(value)} is not a boolean; expected \`true\` or \`false\``)
}

export function integer(get: GetInput, name: string, min: number, max: number): number {
  const value = get(name)
  const n = Number(value)
  const range = max >= Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new InputError(name, `${quote(value)} is not accepted; expected a whole number ${range}`)
  return n
}

/** `90s`, `15m`, `2h`, `500ms` or bare seconds (decimals allowed). */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text)
  if (!m) return undefined
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] ?? 1000
  return Math.round(Number(m[1]) * unit)
}

export function duration(get: GetInput, name: string, zeroOk: boolean): number {
  const value = get(name)
  const ms = parseDuration(value)
  if (ms === undefined || ms > MAX_WAIT_MS || (!zeroOk && ms === 0))
    throw new InputError(
      name,
      `${quote(value)} is not a duration; expected e.g. \`90s\`, \`15m\`, \`2h\` or a number of seconds${zeroOk ? '' : ' above 0'}, at most 72h`
    )
  return ms
}

/** `project-id` and `job-id` become path segments: `.` and `..` would address other endpoints. */
export function readId(get: GetInput, name: string, isRequired: boolean): string {
  const value = isRequired ? required(get, name) : get(name)
  if (CONTROL.test(value))
    throw new InputError(name, 'must not contain control characters or line breaks')
  if (value === '.' || value === '..')
    throw new InputError(name, `${quote(value)} is not an id: it would address another endpoint`)
  return value
}

export function readBaseUrl(text: string): string {
  const accepted =
    'an absolute https URL such as `https://api.mintlify.com` (http only for loopback hosts)'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new InputError('base-url', `${quote(text)} is not a URL; expected ${accepted}`)
  }
  if (url.username || url.password)
    throw new InputError('base-url', 'must not contain credentials; pass the key as `api-key`')
  if (url.search || url.hash)
    throw new InputError('base-url', `must not have a query or fragment; expected ${accepted}`)
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new InputError(
      'base-url',
      `uses http:// for a host that is not loopback; expected ${accepted}`
    )
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InputError('base-url', `has protocol ${url.protocol}; expected ${accepted}`)
  return url.origin + url.pathname.replace(/\/+$/, '')
}

export function readSiteUrl(text: string): string {
  const accepted = 'an https URL such as `https://docs.example.com`'
  // Every page link is built on it: a huge value would make every table row huge.
  if (text.length > 512)
    throw new InputError('site-url', `has ${text.length} characters; at most 512 are accepted`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new InputError('site-url', `${quote(text)} is not a URL; expected ${accepted}`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    throw new InputError('site-url', `${quote(text)} is not https; expected ${accepted}`)
  if (url.username || url.password || url.search || url.hash)
    throw new InputError(
      'site-url',
      `must have no credentials, query or fragment; expected ${accepted}`
    )
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/** Logins as GitHub spells them; compared without regard to case. */
export function readLogins(get: GetInput, name: string, bots = false): string[] {
  const items = get(name)
    .split(/[\s,]+/)
    .map(item => item.replace(/^@/, '').toLowerCase())
    .filter(item => item !== '')
  for (const item of items) {
    if (!isLogin(item))
      throw new InputError(
        name,
        `${quote(item)} is not a GitHub login; expected a comma list such as ${bots ? '`renovate[bot], dependabot[bot]` (or `*` for any bot)' : '`octocat, hubot`'}`
      )
  }
  return bots ? items.map(item => (item.endsWith('[bot]') ? item : `${item}[bot]`)) : items
}

/**
 * `notify-pr`: a pull request's address, `https://SERVER/OWNER/REPO/pull/N` (whether it is on
 * this run's GitHub is checked where the server is known).
 */
export function readNotifyPr(text: string): string {
  const value = text.trim()
  if (value === '') return ''
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  const ok =
    url !== undefined &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) &&
    !url.username &&
    !url.password &&
    /\/[^/]+\/[^/]+\/pull\/[1-9]\d{0,15}\/?$/.test(url.pathname)
  if (!ok)
    throw new InputError(
      'notify-pr',
      `${quote(value)} is not a pull request's address; expected e.g. \`https://github.com/octo/api/pull/42\``
    )
  return value
}

/**
 * `notify-repository`: `owner/name`, the one repository whose pull requests `notify-token` may
 * tell (contract: "Tokens, proxies and invisible text"). Required whenever the token is set: a
 * forged dispatch payload must not aim the token at any repository it can reach.
 */
export function readNotifyRepository(text: string, withToken: boolean): string {
  const value = text.trim()
  if (value === '') {
    if (withToken)
      throw new InputError(
        'notify-repository',
        'is required with `notify-token`: the `owner/name` of the code repository whose pull ' +
          'requests the token may tell (e.g. `octo/api`); nothing was sent'
      )
    return ''
  }
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/.exec(value)
  if (!m || m[2] === '.' || m[2] === '..')
    throw new InputError(
      'notify-repository',
      `${quote(value)} is not a repository; expected \`owner/name\`, e.g. \`octo/api\``
    )
  return value
}

/**
 * `project-id`: kept as a repository variable, so an empty one is most often a variable not set,
 * or set as a secret (which `vars.` does not read); a value shaped like a key is the two swapped.
 */
export function readProjectId(get: GetInput): string {
  if (get('project-id') === '')
    throw new InputError(
      'project-id',
      'is required: the project id, shown under Settings → API keys on https://app.mintlify.com. It is a Variable, ' +
        'not a Secret: add it under Settings → Secrets and variables → Actions → Variables (e.g. ' +
        '`DOCS_PROJECT_ID`) and pass it as `${{ vars.DOCS_PROJECT_ID }}`; a secret of that name ' +
        'is not read by `vars.`'
    )
  const id = readId(get, 'project-id', true)
  if (/^mint_/.test(id))
    throw new InputError(
      'project-id',
      'holds what looks like an API key (`mint_…`): the key goes in `api-key` (a secret), the ' +
        'project id in `project-id` (a variable). Check the two are not swapped, and rotate the ' +
        'key if it was stored as a variable (variables are shown in logs)'
    )
  return id
}

/** The agent API's "get job" path: the job (and project) ids are filled into it. */
export function readJobPath(text: string): string {
  if (!text.startsWith('/') || !text.includes('{id}'))
    throw new InputError(
      'job-path',
      'must start with `/` and contain `{id}`, e.g. `/v2/agent/{projectId}/job/{id}`'
    )
  return text
}

/** The declared name nearest to `name` (fewest edits; the first of equals), for a typo's hint. */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of names) {
    const d = editDistance(name, candidate)
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + cost)
    }
    row = next
  }
  return row[b.length]!
}

// Every input read, parsed and validated in one place, before any request is sent. An InputError
// names the input and the form it accepts, so the person reading the log knows what to fix.
import { lstatSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import {
  parseInstant,
  parsePeriod,
  previousRange,
  resolvePeriod,
  type DateRange,
  type Period
} from './analytics/period.js'
import { formatFromPath, type FileFormat } from './analytics/sinks.js'
import { FINAL_STATUSES } from './service/schema.js'

export class InputError extends Error {
  constructor(
    readonly input: string,
    problem: string
  ) {
    super(`Input \`${input}\`: ${problem}`)
    this.name = 'InputError'
  }
}

export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const
export type Permission = (typeof PERMISSIONS)[number]

export const COMMANDS = ['message', 'create', 'visitors', 'report'] as const
export type Command = (typeof COMMANDS)[number]
export const SECTIONS = ['visitors', 'views', 'searches', 'feedback', 'assistant'] as const
export type SectionName = (typeof SECTIONS)[number]

/** The trigger inputs, read before any other input (contract: Comment trigger). */
export interface TriggerSettings {
  trigger: string
  permission: Permission
  /** Lower-cased logins, without a leading `@`. */
  allowedUsers: string[]
  /** Lower-cased bot logins, each ending in `[bot]`, or `*` for any bot. */
  allowedBots: string[] | '*'
  /** Empty when there is none (or the default was not evaluated). */
  githubToken: string
  /** `comment` is not `false`: reactions and comments may be written. */
  commentEnabled: boolean
}

export interface Settings extends TriggerSettings {
  command: Command
  apiKey: string
  projectId: string
  baseUrl: string
  /** Empty when a trigger comment's pull request is to name the job. */
  jobId: string
  /** From `prompt` or `prompt-file`; empty on a comment event when the comment is to give it. */
  prompt: string
  /** The workspace-relative `prompt-file` the prompt was read from, if any. */
  promptFile?: string
  context: boolean
  whenNoJob: 'fail' | 'create'
  settleTimeMs: number
  wait: boolean
  waitTimeoutMs: number
  pollIntervalMs: number
  jobPath: string
  failOnStatus: string[]
  range: DateRange
  period?: Period
  previous?: Required<DateRange>
  pageSize: number
  maxRows: number
  concurrency: number
  outputFile?: { path: string; absolute: string; format: FileFormat }
  sections: SectionName[]
  /** Without a trailing slash. */
  siteUrl?: string
  top: number
  compare: boolean
  summary: boolean
  comment: 'true' | 'false' | 'auto'
  issueNumber?: number
  commentMode: 'upsert' | 'create'
  /** Things worth a warning that do not stop the run (inputs for another command, key kind). */
  warnings: string[]
}

/**
 * The defaults of action.yml. A runner passes them itself, but an input set to empty text
 * (`wait: ${{ vars.UNSET }}`) arrives empty: it means the default, as for an input not set.
 * A test keeps this table equal to action.yml.
 */
export const DEFAULTS: Readonly<Record<string, string>> = {
  'base-url': 'https://api.mintlify.com',
  context: 'false',
  'when-no-job': 'fail',
  'settle-time': '60s',
  wait: 'true',
  'wait-timeout': '30m',
  'poll-interval': '5s',
  'job-path': '/v2/agent/{projectId}/job/{id}',
  'fail-on-status': 'failed',
  'page-size': '250',
  'max-rows': '0',
  concurrency: '4',
  sections: SECTIONS.join(','),
  top: '20',
  compare: 'false',
  summary: 'true',
  comment: 'auto',
  'comment-mode': 'upsert',
  trigger: '/docs-agent',
  permission: 'write'
}

const JOB_COMMANDS: readonly Command[] = ['message', 'create']
const ANALYTICS_COMMANDS: readonly Command[] = ['visitors', 'report']
/** Inputs that only some commands read; every other input applies to all of them. */
const APPLIES_TO: Readonly<Record<string, readonly Command[]>> = {
  'job-id': ['message'],
  prompt: JOB_COMMANDS,
  'prompt-file': JOB_COMMANDS,
  context: JOB_COMMANDS,
  'when-no-job': ['message'],
  'settle-time': ['message'],
  wait: JOB_COMMANDS,
  'poll-interval': JOB_COMMANDS,
  'job-path': JOB_COMMANDS,
  'fail-on-status': JOB_COMMANDS,
  'date-from': ANALYTICS_COMMANDS,
  'date-to': ANALYTICS_COMMANDS,
  period: ANALYTICS_COMMANDS,
  'page-size': ANALYTICS_COMMANDS,
  'max-rows': ANALYTICS_COMMANDS,
  concurrency: ANALYTICS_COMMANDS,
  'output-file': ANALYTICS_COMMANDS,
  sections: ['report'],
  'site-url': ANALYTICS_COMMANDS,
  top: ANALYTICS_COMMANDS,
  compare: ANALYTICS_COMMANDS
}

/** Key prefixes of the platform's other key kinds, which the agent and analytics APIs refuse. */
const OTHER_KEY_KINDS: ReadonlyArray<[string, string]> = [
  ['mint_dsc_', 'an assistant (discovery) API key'],
  ['mint_us_', 'a search index key']
]
const PROMPT_FILE_MAX_BYTES = 256 * 1024

export interface SettingsContext {
  now: Date
  workspace: string
  /** issue_comment or pull_request_review_comment: the comment may give the prompt and job. */
  commentEvent: boolean
}

type GetInput = (name: string) => string

/**
 * Empty text means the default, for every input but `fail-on-status`, where the contract makes
 * `''` mean "no status fails the step" (a runner passes the default itself when it is not set).
 */
function withDefaults(get: GetInput): GetInput {
  return name => {
    const value = get(name)
    return value === '' && name !== 'fail-on-status' ? (DEFAULTS[name] ?? '') : value
  }
}

const MAX_WAIT_MS = 72 * 3_600_000
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

export function readTriggerSettings(raw: GetInput): TriggerSettings {
  const get = withDefaults(raw)
  return {
    trigger: readTrigger(get('trigger')),
    permission: oneOf(get, 'permission', PERMISSIONS),
    allowedUsers: readLogins(get, 'allowed-users'),
    allowedBots: get('allowed-bots').trim() === '*' ? '*' : readLogins(get, 'allowed-bots', true),
    githubToken: readToken(get('github-token')),
    commentEnabled: oneOf(get, 'comment', ['true', 'false', 'auto'] as const) !== 'false'
  }
}

export function readSettings(raw: GetInput, ctx: SettingsContext): Settings {
  const get = withDefaults(raw)
  const command = oneOf(get, 'command', COMMANDS, true)
  const apiKey = readApiKey(get)
  const projectId = readId(get, 'project-id', true)
  const baseUrl = readBaseUrl(get('base-url'))

  const s: Settings = {
    ...readTriggerSettings(raw),
    command,
    apiKey,
    projectId,
    baseUrl,
    jobId: readId(get, 'job-id', false),
    prompt: get('prompt').trim(),
    context: bool(get, 'context'),
    whenNoJob: oneOf(get, 'when-no-job', ['fail', 'create'] as const),
    settleTimeMs: duration(get, 'settle-time', true),
    wait: bool(get, 'wait'),
    waitTimeoutMs: duration(get, 'wait-timeout', false),
    pollIntervalMs: duration(get, 'poll-interval', true),
    jobPath: readJobPath(get('job-path')),
    failOnStatus: readStatuses(get('fail-on-status')),
    range: {},
    pageSize: integer(get, 'page-size', 1, 250),
    maxRows: integer(get, 'max-rows', 0, Number.MAX_SAFE_INTEGER),
    concurrency: integer(get, 'concurrency', 1, 16),
    sections: readSections(get('sections')),
    top: integer(get, 'top', 1, 1_000_000),
    compare: bool(get, 'compare'),
    summary: bool(get, 'summary'),
    comment: oneOf(get, 'comment', ['true', 'false', 'auto'] as const),
    commentMode: oneOf(get, 'comment-mode', ['upsert', 'create'] as const),
    warnings: [...inputsForOtherCommands(raw, command), ...keyKindWarnings(apiKey)]
  }
  const siteUrl = get('site-url')
  if (siteUrl !== '') s.siteUrl = readSiteUrl(siteUrl)
  const issue = get('issue-number').replace(/^#/, '')
  if (issue !== '') s.issueNumber = integer(() => issue, 'issue-number', 1, Number.MAX_SAFE_INTEGER)
  const output = get('output-file')
  if (output !== '' && ANALYTICS_COMMANDS.includes(command))
    s.outputFile = readOutputFile(output, ctx.workspace, command)
  if (s.comment === 'true' && s.githubToken === '')
    throw new InputError(
      'github-token',
      'is empty, but `comment: true` needs a token to comment with'
    )

  if (JOB_COMMANDS.includes(command)) {
    readPromptFile(get, s, ctx.workspace)
    if (command === 'message' && !ctx.commentEvent && s.jobId === '')
      throw new InputError(
        'job-id',
        'is required for `command: message` (the agent job to follow up); use `command: create` to start a new job'
      )
    if (!ctx.commentEvent) checkPrompt(s.prompt)
  } else {
    readRange(get, s, ctx.now)
  }
  return s
}

/** The prompt rule, also applied to a prompt that comes from a trigger comment. */
export function checkPrompt(prompt: string): void {
  if (prompt.trim() === '')
    throw new InputError(
      'prompt',
      'is required: the instruction for the agent, at least 1 character (or set `prompt-file`)'
    )
}

/** `prompt-file` replaces `prompt`: read here, so a missing or unreadable file fails before any request. */
function readPromptFile(get: GetInput, s: Settings, workspace: string): void {
  const file = get('prompt-file')
  if (file === '') return
  if (s.prompt !== '')
    throw new InputError('prompt-file', 'cannot be combined with `prompt`: use one or the other')
  const absolute = insideWorkspace('prompt-file', file, workspace)
  let bytes: Buffer
  try {
    if (!lstatSync(absolute).isFile()) throw new Error('not a file')
    bytes = readFileSync(absolute)
  } catch {
    throw new InputError('prompt-file', `${quote(file)} is not a readable file in the workspace`)
  }
  if (bytes.length > PROMPT_FILE_MAX_BYTES)
    throw new InputError(
      'prompt-file',
      `${quote(file)} has ${bytes.length} bytes; at most ${PROMPT_FILE_MAX_BYTES} are accepted`
    )
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InputError('prompt-file', `${quote(file)} is not UTF-8 text`)
  }
  s.prompt = text.replace(/^\uFEFF/, '').trim()
  s.promptFile = file
  if (s.prompt === '') throw new InputError('prompt-file', `${quote(file)} is empty`)
}

/** Inputs given a value (other than the default) that the command does not read. */
function inputsForOtherCommands(raw: GetInput, command: Command): string[] {
  const ignored = Object.entries(APPLIES_TO)
    .filter(([, commands]) => !commands.includes(command))
    .map(([name]) => name)
    .filter(name => {
      const value = name === 'prompt' ? raw(name).trim() : raw(name)
      return value !== '' && value !== DEFAULTS[name]
    })
  if (ignored.length === 0) return []
  const list = ignored.map(name => `\`${name}\``).join(', ')
  return [
    `${ignored.length === 1 ? 'Input' : 'Inputs'} ${list} ${ignored.length === 1 ? 'does' : 'do'} not apply to \`command: ${command}\` and ${ignored.length === 1 ? 'is' : 'are'} ignored.`
  ]
}

function keyKindWarnings(key: string): string[] {
  const other = OTHER_KEY_KINDS.find(([prefix]) => key.startsWith(prefix))
  if (other)
    return [
      `Input \`api-key\` looks like ${other[1]} (\`${other[0]}…\`), not an admin API key; the agent and analytics operations need an admin key (\`mint_…\`). Sending it anyway.`
    ]
  if (!/^[A-Za-z][A-Za-z0-9]*_\S+$/.test(key))
    return [
      'Input `api-key` does not look like an admin API key (a fixed prefix, `_`, then the key). ' +
        'Sending it anyway; a 401 answer would confirm it is wrong.'
    ]
  return []
}

function readApiKey(get: GetInput): string {
  const key = get('api-key')
  if (key === '')
    throw new InputError(
      'api-key',
      'is required: an admin API key, e.g. `${{ secrets.DOCS_API_KEY }}`'
    )
  checkSecretText('api-key', key)
  return key
}

/** A secret goes into a header: printable ASCII only, so nothing odd reaches the network. */
function checkSecretText(name: string, value: string): void {
  if (/\s/.test(value) || CONTROL.test(value))
    throw new InputError(
      name,
      'must not contain spaces, line breaks or control characters (check the secret for a stray newline)'
    )
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new InputError(
      name,
      'must be printable ASCII (a pasted non-ASCII character? check the secret)'
    )
}

/** `project-id` and `job-id` become path segments: `.` and `..` would address other endpoints. */
function readId(get: GetInput, name: string, isRequired: boolean): string {
  const value = isRequired ? required(get, name) : get(name)
  if (CONTROL.test(value))
    throw new InputError(name, 'must not contain control characters or line breaks')
  if (value === '.' || value === '..')
    throw new InputError(name, `${quote(value)} is not an id: it would address another endpoint`)
  return value
}

function readSiteUrl(text: string): string {
  const accepted = 'an https URL such as `https://docs.example.com`'
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

function readSections(text: string): SectionName[] {
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
        `${quote(item)} is not a section; expected a comma list of ${accepted}`
      )
  }
  return [...new Set(items)] as SectionName[]
}

/** Logins as GitHub spells them; compared without regard to case. */
function readLogins(get: GetInput, name: string, bots = false): string[] {
  const items = get(name)
    .split(/[\s,]+/)
    .map(item => item.replace(/^@/, '').toLowerCase())
    .filter(item => item !== '')
  for (const item of items) {
    if (!/^[a-z0-9](?:[a-z0-9-]{0,38})(?:\[bot\])?$/.test(item))
      throw new InputError(
        name,
        `${quote(item)} is not a GitHub login; expected a comma list such as ${bots ? '`renovate[bot], dependabot[bot]` (or `*` for any bot)' : '`octocat, hubot`'}`
      )
  }
  return bots ? items.map(item => (item.endsWith('[bot]') ? item : `${item}[bot]`)) : items
}

function readBaseUrl(text: string): string {
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

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

function readJobPath(text: string): string {
  if (!text.startsWith('/') || !text.includes('{id}'))
    throw new InputError(
      'job-path',
      'must start with `/` and contain `{id}`, e.g. `/v2/agent/{projectId}/job/{id}`'
    )
  return text
}

function readStatuses(text: string): string[] {
  // `''` means none; an input left empty also arrives as '' and takes the default first.
  const items = text
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '' && s !== "''" && s !== '""')
  for (const item of items) {
    if (!(FINAL_STATUSES as readonly string[]).includes(item))
      throw new InputError(
        'fail-on-status',
        `${quote(item)} is not a final status; expected a comma list of ${FINAL_STATUSES.join(', ')} (or \`''\` for none)`
      )
  }
  return items
}

/** An expression left unevaluated (a runner outside GitHub) is no token at all. */
function readToken(text: string): string {
  if (text === '' || text.startsWith('${{')) return ''
  checkSecretText('github-token', text)
  return text
}

function readTrigger(text: string): string {
  if (text === '' || /\s/.test(text))
    throw new InputError('trigger', 'must be one word without spaces, e.g. `/docs-agent`')
  return text
}

function readOutputFile(text: string, workspace: string, command: Command): Settings['outputFile'] {
  const format = formatFromPath(text)
  if (command === 'report' && format !== 'json')
    throw new InputError('output-file', `${quote(text)} must end in .json for \`command: report\``)
  if (!format)
    throw new InputError('output-file', `${quote(text)} must end in .json, .csv or .ndjson`)
  return { path: text, absolute: insideWorkspace('output-file', text, workspace), format }
}

/**
 * The absolute path of a workspace-relative file, refused unless it stays inside the workspace:
 * no `..` escape, no absolute path elsewhere, and no symlink (of the file or any folder above it)
 * that leads out.
 */
export function insideWorkspace(name: string, text: string, workspace: string): string {
  const refuse = (why: string): never => {
    throw new InputError(
      name,
      `${quote(text)} ${why}; expected a path relative to the workspace, inside it`
    )
  }
  const root = resolve(workspace)
  const absolute = resolve(root, text)
  if (!within(root, absolute)) refuse('leads outside the workspace')
  const realRoot = realPathOf(root) ?? root
  // The deepest part of the path that exists decides where it really leads.
  let existing = absolute
  while (realPathOf(existing) === undefined && existing !== root) existing = dirname(existing)
  const real = realPathOf(existing)
  if (real !== undefined && !within(realRoot, real))
    refuse('leads outside the workspace through a symlink')
  // A dangling symlink resolves nowhere but would still be written through.
  if (isDanglingLink(absolute)) refuse('is a symlink to nothing')
  return absolute
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && realPathOf(path) === undefined
  } catch {
    return false
  }
}

function readRange(get: GetInput, s: Settings, now: Date): void {
  const from = get('date-from')
  const to = get('date-to')
  const periodText = get('period')
  const form = '`YYYY-MM-DD` or an ISO 8601 date-time such as `2026-11-01T00:00:00Z`'
  if (periodText !== '') {
    if (from !== '' || to !== '')
      throw new InputError(
        'period',
        'cannot be combined with `date-from` or `date-to`: use one or the other'
      )
    const period = parsePeriod(periodText)
    if (!period)
      throw new InputError(
        'period',
        `${quote(periodText)} is not a period; expected \`Nd\` (N from 1 to 366), \`yesterday\`, \`last-week\` or \`last-month\``
      )
    s.period = period
    s.range = resolvePeriod(period, now)
  } else {
    const fromAt = from === '' ? undefined : parseInstant(from)
    const toAt = to === '' ? undefined : parseInstant(to)
    if (from !== '' && fromAt === undefined)
      throw new InputError('date-from', `${quote(from)} is not a real date; expected ${form}`)
    if (to !== '' && toAt === undefined)
      throw new InputError('date-to', `${quote(to)} is not a real date; expected ${form}`)
    if (fromAt !== undefined && toAt !== undefined && toAt <= fromAt)
      throw new InputError(
        'date-to',
        `must be after \`date-from\` (it is exclusive): ${to} is not after ${from}`
      )
    if (from !== '') s.range.dateFrom = from
    if (to !== '') s.range.dateTo = to
  }
  if (s.compare) {
    const { dateFrom, dateTo } = s.range
    if (dateFrom === undefined || dateTo === undefined)
      throw new InputError(
        'compare',
        'needs a bounded range: set `period`, or both `date-from` and `date-to`'
      )
    s.previous = previousRange({ dateFrom, dateTo }, s.period)
  }
}

function required(get: GetInput, name: string): string {
  const value = get(name)
  if (value === '') throw new InputError(name, 'is required')
  return value
}

function oneOf<T extends string>(
  get: GetInput,
  name: string,
  values: readonly T[],
  isRequired = false
): T {
  const value = get(name)
  const accepted = values.map(v => `\`${v}\``).join(', ')
  if (value === '' && isRequired) throw new InputError(name, `is required: one of ${accepted}`)
  if (!(values as readonly string[]).includes(value))
    throw new InputError(name, `${quote(value)} is not accepted; expected one of ${accepted}`)
  return value as T
}

function bool(get: GetInput, name: string): boolean {
  const value = get(name).trim()
  if (['true', 'True', 'TRUE'].includes(value)) return true
  if (['false', 'False', 'FALSE'].includes(value)) return false
  throw new InputError(name, `${quote(value)} is not a boolean; expected \`true\` or \`false\``)
}

function integer(get: GetInput, name: string, min: number, max: number): number {
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

function duration(get: GetInput, name: string, zeroOk: boolean): number {
  const value = get(name)
  const ms = parseDuration(value)
  if (ms === undefined || ms > MAX_WAIT_MS || (!zeroOk && ms === 0))
    throw new InputError(
      name,
      `${quote(value)} is not a duration; expected e.g. \`90s\`, \`15m\`, \`2h\` or a number of seconds${zeroOk ? '' : ' above 0'}, at most 72h`
    )
  return ms
}

/** A value as the error shows it: quoted, and clipped so a huge input cannot flood the log. */
function quote(value: string): string {
  const max = 80
  return value.length <= max
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`
}

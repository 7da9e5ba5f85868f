// Every input read, parsed and validated in one place, before any request is sent. An InputError
// names the input and the form it accepts, so the person reading the log knows what to fix.
import { isAbsolute, resolve } from 'node:path'
import {
  parseInstant,
  parsePeriod,
  previousRange,
  resolvePeriod,
  type DateRange,
  type Period
} from './analytics/period.js'
import { formatFromPath, type FileFormat } from './analytics/sinks.js'
import { FINAL_STATUSES, type JobStatus } from './service/schema.js'

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

export interface Settings {
  command: 'message' | 'visitors'
  apiKey: string
  projectId: string
  baseUrl: string
  /** Empty when a trigger comment's pull request is to name the job. */
  jobId: string
  /** Empty on a comment event when the comment is to give it. */
  prompt: string
  wait: boolean
  waitTimeoutMs: number
  pollIntervalMs: number
  jobPath: string
  failOnStatus: JobStatus[]
  range: DateRange
  period?: Period
  previous?: Required<DateRange>
  pageSize: number
  maxRows: number
  concurrency: number
  outputFile?: { path: string; absolute: string; format: FileFormat }
  top: number
  compare: boolean
  summary: boolean
  comment: 'true' | 'false' | 'auto'
  issueNumber?: number
  commentMode: 'upsert' | 'create'
  githubToken: string
  trigger: string
  permission: Permission
}

export interface SettingsContext {
  now: Date
  workspace: string
  /** issue_comment or pull_request_review_comment: the comment may give the prompt and job. */
  commentEvent: boolean
}

type GetInput = (name: string) => string

const MAX_WAIT_MS = 72 * 3_600_000
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

export function readSettings(get: GetInput, ctx: SettingsContext): Settings {
  const command = oneOf(get, 'command', ['message', 'visitors'] as const, true)
  const apiKey = readApiKey(get)
  const projectId = required(get, 'project-id')
  if (CONTROL.test(projectId))
    throw new InputError('project-id', 'must not contain control characters or line breaks')
  const baseUrl = readBaseUrl(get('base-url'))

  const s: Settings = {
    command,
    apiKey,
    projectId,
    baseUrl,
    jobId: get('job-id'),
    prompt: get('prompt').trim(),
    wait: bool(get, 'wait'),
    waitTimeoutMs: duration(get, 'wait-timeout', false),
    pollIntervalMs: duration(get, 'poll-interval', true),
    jobPath: readJobPath(get('job-path')),
    failOnStatus: readStatuses(get('fail-on-status')),
    range: {},
    pageSize: integer(get, 'page-size', 1, 250),
    maxRows: integer(get, 'max-rows', 0, Number.MAX_SAFE_INTEGER),
    concurrency: integer(get, 'concurrency', 1, 16),
    top: integer(get, 'top', 1, 1_000_000),
    compare: bool(get, 'compare'),
    summary: bool(get, 'summary'),
    comment: oneOf(get, 'comment', ['true', 'false', 'auto'] as const),
    commentMode: oneOf(get, 'comment-mode', ['upsert', 'create'] as const),
    githubToken: readToken(get('github-token')),
    trigger: readTrigger(get('trigger')),
    permission: oneOf(get, 'permission', PERMISSIONS)
  }
  if (CONTROL.test(s.jobId))
    throw new InputError('job-id', 'must not contain control characters or line breaks')
  const issue = get('issue-number').replace(/^#/, '')
  if (issue !== '') s.issueNumber = integer(() => issue, 'issue-number', 1, Number.MAX_SAFE_INTEGER)
  const output = get('output-file')
  if (output !== '') s.outputFile = readOutputFile(output, ctx.workspace)
  if (s.comment === 'true' && s.githubToken === '')
    throw new InputError(
      'github-token',
      'is empty, but `comment: true` needs a token to comment with'
    )

  if (command === 'message') {
    if (!ctx.commentEvent && s.jobId === '')
      throw new InputError(
        'job-id',
        'is required for `command: message` (the agent job to follow up)'
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
    throw new InputError('prompt', 'is required: the follow-up instruction, at least 1 character')
}

function readApiKey(get: GetInput): string {
  const key = get('api-key')
  if (key === '')
    throw new InputError(
      'api-key',
      'is required: an admin API key, e.g. `${{ secrets.DOCS_API_KEY }}`'
    )
  if (/\s/.test(key) || CONTROL.test(key))
    throw new InputError(
      'api-key',
      'must not contain spaces, line breaks or control characters (check the secret for a stray newline)'
    )
  return key
}

function readBaseUrl(text: string): string {
  const accepted =
    'an absolute https URL such as `https://api.example.com` (http only for loopback hosts)'
  if (text === '') throw new InputError('base-url', `is required: ${accepted}`)
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

function readStatuses(text: string): JobStatus[] {
  const items = text
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  for (const item of items) {
    if (!(FINAL_STATUSES as readonly string[]).includes(item))
      throw new InputError(
        'fail-on-status',
        `${quote(item)} is not a final status; expected a comma list of ${FINAL_STATUSES.join(', ')} (or empty)`
      )
  }
  return items as JobStatus[]
}

/** An expression left unevaluated (a runner outside GitHub) is no token at all. */
function readToken(text: string): string {
  return text.startsWith('${{') ? '' : text
}

function readTrigger(text: string): string {
  if (text === '' || /\s/.test(text))
    throw new InputError('trigger', 'must be one word without spaces, e.g. `/docs-agent`')
  return text
}

function readOutputFile(text: string, workspace: string): Settings['outputFile'] {
  const format = formatFromPath(text)
  if (!format)
    throw new InputError('output-file', `${quote(text)} must end in .json, .csv or .ndjson`)
  const absolute = isAbsolute(text) ? text : resolve(workspace, text)
  return { path: text, absolute, format }
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
  const value = get(name)
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

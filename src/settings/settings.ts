// Every input read, parsed and validated in one place, before any request is sent. An InputError
// names the input and the form it accepts, so the person reading the log knows what to fix.
import * as core from '@actions/core'
import type { DateRange, Period } from '../period.js'
import { readRange } from './range.js'
import type { FileFormat } from '../analytics/sinks.js'
import type { SectionName } from '../analytics/section-names.js'
import {
  bool,
  duration,
  integer,
  oneOf,
  readBaseUrl,
  readId,
  readJobPath,
  readLogins,
  readProjectId,
  readSiteUrl,
  readNotifyPr,
  readNotifyRepository,
  type GetInput
} from './parse.js'
import { keyKindWarnings, readApiKey, readToken } from './credentials.js'
import { InputError } from '../errors.js'
import type { Secret } from '../secrets/redact.js'
import { readInstruction } from './prompt.js'
import {
  readOutputFile,
  readReportFiles,
  readSections,
  readStatuses,
  readTrigger,
  readReviewers,
  readTriggerLabel,
  type Reviewer
} from './lists.js'
import { readDocsFiles, type DocsFiles } from '../workspace/docs-files.js'
import type { FileList } from '../workspace/globs.js'
import {
  appliesTo,
  COMMANDS,
  DEFAULTS,
  inputsForOtherCommands,
  optionalFor,
  SECRET_INPUTS,
  secretsOf,
  type Command
} from './names.js'

export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const
type Permission = (typeof PERMISSIONS)[number]

/** The trigger inputs, read before any other input (contract: Comment trigger). */
export interface TriggerSettings {
  trigger: string
  permission: Permission
  /** Lower-cased logins, without a leading `@`. */
  allowedUsers: string[]
  /** Lower-cased bot logins, each ending in `[bot]`, or `*` for any bot. */
  allowedBots: string[] | '*'
  /** The pull request's author may trigger on it whatever their permission. */
  allowPrAuthor: boolean
  /** Empty when there is none (or the default was not evaluated). */
  githubToken: string
  /** `false`: no comment and no reaction is written. */
  comment: 'true' | 'false' | 'auto'
}

/** What every command reads. */
interface CommonSettings extends TriggerSettings {
  apiKey: string
  projectId: string
  baseUrl: string
  /** The longest run (job commands: the wait after the service answered). */
  waitTimeoutMs: number
  /** Without a trailing slash. */
  siteUrl?: string
  summary: boolean
  issueNumber?: number
  commentMode: 'upsert' | 'create' | 'minimize'
  /** The most requests this run may send to the service; 0 for no cap. */
  maxRequests: number
  /** `notify-pr`: the code pull request to tell of the docs one (checked form), or ''. */
  notifyPr: string
  /** `notify-token`: the token that may comment there, or '' (nothing is written there). */
  notifyToken: string
  /** `notify-repository`: `owner/name`, the one repository `notify-token` may tell, or ''. */
  notifyRepository: string
  /**
   * The secret inputs (the table's `secret`) this command reads and was given, by name: what the
   * debug line may say of them (`***`).
   */
  givenSecrets: readonly string[]
  /** Things worth a warning that do not stop the run (inputs for another command, key kind). */
  warnings: string[]
}

/** `message` and `create`: the instruction, and how to wait for the job. */
export interface JobSettings extends CommonSettings {
  command: 'message' | 'create'
  /** Empty when a trigger comment's pull request is to name the job. */
  jobId: string
  /** From `prompt` or `prompt-file`; empty on a comment event when the comment is to give it. */
  prompt: string
  /** The workspace-relative `prompt-file` the prompt was read from, if any. */
  promptFile?: string
  context: boolean
  whenNoJob: 'fail' | 'create'
  /** A run that would start a job follows up the job of an open agent pull request instead. */
  whenAgentPrOpen: 'follow-up' | 'create'
  settleTimeMs: number
  wait: boolean
  pollIntervalMs: number
  jobPath: string
  failOnStatus: string[]
  /** A `completed` job with no pull request fails the step. */
  requirePr: boolean
  /** `trigger-label`: adding this label starts the agent ('' for none). */
  triggerLabel: string
  /** What the run does with the check runs of the job's pull request. */
  checks: ChecksMode
  /** Who is asked to review the job's pull request once it is known. */
  reviewers: Reviewer[]
}

const CHECKS_MODES = ['off', 'show', 'wait', 'require'] as const
export type ChecksMode = (typeof CHECKS_MODES)[number]

/** `visitors` and `report`: the range, the pages, the report. */
export interface AnalyticsSettings extends CommonSettings {
  command: 'visitors' | 'report'
  range: DateRange
  period?: Period
  previous?: Required<DateRange>
  pageSize: number
  maxRows: number
  concurrency: number
  outputFile?: { path: string; absolute: string; format: FileFormat }
  sections: SectionName[]
  top: number
  compare: boolean
  /** Periods before the range to draw as a trend (0 to 26), oldest first. */
  trend: number
  /** Those periods, oldest first, when `trend` is above 0. */
  trendRanges?: Required<DateRange>[]
  /** `report`: where the docs are, and when a busy page is stale (`docs-root`, `stale-after`). */
  docs?: DocsFiles
}

/** `check`: the set-up, verified in a few requests; the job path is the agent API's address. */
export type CheckSettings = CommonSettings & {
  command: 'check'
  jobPath: string
  /** `checks`: when on, the check also asks whether the token may read check runs. */
  checks: ChecksMode
}

/**
 * `rollup`: one report of many projects from the files their `report` runs wrote. It sends
 * nothing to the service: `project-id` is not read (empty), and `api-key`, when given, only
 * signs the roll-up's records (records/rollup.ts).
 */
export interface RollupSettings extends CommonSettings {
  command: 'rollup'
  /** `report-files`, expanded: each file once, and the globs that found none. */
  reportFiles: FileList
}

/** Every input, read and checked: shaped per command. */
export type Settings = JobSettings | AnalyticsSettings | CheckSettings | RollupSettings

export function isJobSettings(s: Settings): s is JobSettings {
  return s.command === 'message' || s.command === 'create'
}

/** Every input is checked whatever the command; each command then sees only its own. */
export type AllSettings = Omit<JobSettings, 'command'> & Omit<AnalyticsSettings, 'command'>

export interface SettingsContext {
  now: Date
  workspace: string
  /** A trigger comment or review: it may give the prompt, and its pull request the job. */
  commentEvent: boolean
  /** The trigger inputs, when a comment event already read them. */
  trigger?: TriggerSettings
  /** The instruction a trigger comment gave: the prompt when `prompt` is empty. */
  triggerPrompt?: string
}

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

export function readTriggerSettings(raw: GetInput): TriggerSettings {
  const get = withDefaults(raw)
  return {
    trigger: readTrigger(get('trigger')),
    permission: oneOf(get, 'permission', PERMISSIONS),
    allowedUsers: readLogins(get, 'allowed-users'),
    allowedBots: get('allowed-bots').trim() === '*' ? '*' : readLogins(get, 'allowed-bots', true),
    allowPrAuthor: bool(get, 'allow-pr-author'),
    githubToken: readToken(get('github-token')),
    comment: oneOf(get, 'comment', ['true', 'false', 'auto'] as const)
  }
}

/** An input as the runner passes it. The key is read as given: a stray newline must be refused. */
export const runnerInput: GetInput = name =>
  core.getInput(name, { trimWhitespace: name !== 'api-key' })

/**
 * Every secret input (the table's `secret`) exactly as given, for masking: each line of a broken
 * value too.
 */
export function readSecretInputs(): Secret[] {
  const asGiven = (name: string): string => core.getInput(name, { trimWhitespace: false })
  return secretsOf(Object.fromEntries(SECRET_INPUTS.map(({ name }) => [name, asGiven(name)])))
}

/**
 * What the gate may know before the other inputs are checked (contract: a comment that is not
 * for this action never fails on an input it does not use).
 */
export interface GateInputs {
  /** The trigger word as given, or its default; checked only once a comment matches it. */
  triggerWord: string
  /** `api-key` is set: GitHub gives a fork's and Dependabot's runs none. */
  hasApiKey: boolean
  /** `command: rollup` needs no key: a run GitHub gives no secrets may still carry it out. */
  keyless: boolean
  /** `api-key` as given and `project-id`: a `fix N` trigger verifies the report's records. */
  apiKey: string
  projectId: string
  /** `prompt` or `prompt-file` is set: a bare trigger still has an instruction then. */
  hasPrompt: boolean
  /** `trigger-label` as given; checked only on a label event. */
  triggerLabel: string
  /**
   * `notify-repository` as given (checked with the settings): a pull request a dispatch names is
   * linked only there or in this repository.
   */
  notifyRepository: string
}

export function readGateInputs(get: GetInput = runnerInput): GateInputs {
  return {
    triggerWord: get('trigger') || (DEFAULTS.trigger ?? ''),
    hasApiKey: get('api-key').trim() !== '',
    keyless: get('command').trim() === 'rollup',
    apiKey: get('api-key'),
    projectId: get('project-id').trim(),
    hasPrompt: get('prompt') !== '' || get('prompt-file') !== '',
    triggerLabel: get('trigger-label'),
    notifyRepository: get('notify-repository').trim()
  }
}

/**
 * Every input, read and checked whatever the command (a broken input for another command still
 * fails), in one order, then shaped for the command: the instruction for a job, the range for the
 * analytics, the docs for a report.
 */
export function readSettings(raw: GetInput, ctx: SettingsContext): Settings {
  const get = withDefaults(raw)
  const command = oneOf(get, 'command', COMMANDS, true)
  const s = readEveryInput(raw, get, ctx, command)
  if (command === 'message' || command === 'create')
    return { ...s, ...readInstruction(get, s, ctx, command), command }
  if (command === 'check') return { ...s, command }
  if (command === 'rollup')
    return { ...s, reportFiles: readReportFiles(get('report-files'), ctx.workspace), command }
  const range = readRange(get, ctx.now, { compare: s.compare, trend: s.trend })
  const docs = command === 'report' ? { docs: readDocsFiles(get, ctx.workspace) } : {}
  return { ...s, ...range, ...docs, command }
}

/** The inputs every command reads, and those of each command, before the command shapes them. */
function readEveryInput(
  raw: GetInput,
  get: GetInput,
  ctx: SettingsContext,
  command: Command
): AllSettings {
  // `rollup` sends nothing to the service and needs no key; given one, it signs its records.
  const keyRead =
    appliesTo('api-key', command) && !(optionalFor('api-key', command) && get('api-key') === '')
  const apiKey = keyRead ? readApiKey(get) : ''
  const projectId = appliesTo('project-id', command) ? readProjectId(get) : ''
  const baseUrl = readBaseUrl(get('base-url'))
  const s: AllSettings = {
    ...(ctx.trigger ?? readTriggerSettings(raw)),
    apiKey,
    projectId,
    baseUrl,
    ...readJobInputs(get),
    ...readAnalyticsInputs(get),
    summary: bool(get, 'summary'),
    commentMode: oneOf(get, 'comment-mode', ['upsert', 'create', 'minimize'] as const),
    maxRequests: integer(get, 'max-requests', 0, 100_000),
    notifyPr: readNotifyPr(get('notify-pr')),
    notifyToken: readToken(get('notify-token'), 'notify-token'),
    notifyRepository: readNotifyRepository(
      get('notify-repository'),
      appliesTo('notify-token', command) && readToken(get('notify-token'), 'notify-token') !== ''
    ),
    // A token's rule for every secret: empty, or an expression the runner left, is not given.
    givenSecrets: SECRET_INPUTS.filter(
      ({ name }) => appliesTo(name, command) && readToken(get(name), name) !== ''
    ).map(({ name }) => name),
    warnings: [
      ...inputsForOtherCommands(raw, command),
      ...(apiKey !== '' ? keyKindWarnings(apiKey) : [])
    ]
  }
  const places = readPlaces(get, ctx.workspace, command)
  if (s.comment === 'true' && s.githubToken === '')
    throw new InputError(
      'github-token',
      'is empty, but `comment: true` needs a token to comment with'
    )
  return { ...s, ...places }
}

/** The job's inputs (and `wait-timeout`, read among them in action.yml's order). */
function readJobInputs(get: GetInput) {
  return {
    jobId: readId(get, 'job-id', false),
    prompt: get('prompt').trim(),
    context: bool(get, 'context'),
    whenNoJob: oneOf(get, 'when-no-job', ['fail', 'create'] as const),
    whenAgentPrOpen: oneOf(get, 'when-agent-pr-open', ['follow-up', 'create'] as const),
    settleTimeMs: duration(get, 'settle-time', true),
    wait: bool(get, 'wait'),
    waitTimeoutMs: duration(get, 'wait-timeout', false),
    pollIntervalMs: duration(get, 'poll-interval', true),
    jobPath: readJobPath(get('job-path')),
    failOnStatus: readStatuses(get('fail-on-status')),
    requirePr: bool(get, 'require-pr'),
    triggerLabel: readTriggerLabel(get('trigger-label')),
    checks: oneOf(get, 'checks', CHECKS_MODES),
    reviewers: readReviewers(get('reviewers'))
  }
}

/** The analytics inputs but the range (read once the command is known to need it). */
function readAnalyticsInputs(get: GetInput) {
  return {
    range: {},
    pageSize: integer(get, 'page-size', 1, 250),
    maxRows: integer(get, 'max-rows', 0, Number.MAX_SAFE_INTEGER),
    concurrency: integer(get, 'concurrency', 1, 16),
    sections: readSections(get('sections')),
    // More rows than a job summary (1 MiB) can show is no report: 10,000 is already cut there.
    top: integer(get, 'top', 1, 10_000),
    compare: bool(get, 'compare'),
    trend: integer(get, 'trend', 0, 26)
  }
}

/** Where results go: the site's links, the issue to comment on, the export file. */
function readPlaces(
  get: GetInput,
  workspace: string,
  command: Command
): Pick<AllSettings, 'siteUrl' | 'issueNumber' | 'outputFile'> {
  const places: Pick<AllSettings, 'siteUrl' | 'issueNumber' | 'outputFile'> = {}
  const siteUrl = get('site-url')
  if (siteUrl !== '') places.siteUrl = readSiteUrl(siteUrl)
  const issue = get('issue-number').replace(/^#/, '')
  if (issue !== '')
    places.issueNumber = integer(() => issue, 'issue-number', 1, Number.MAX_SAFE_INTEGER)
  const output = get('output-file')
  if (output !== '' && appliesTo('output-file', command))
    places.outputFile = readOutputFile(output, workspace, command)
  return places
}

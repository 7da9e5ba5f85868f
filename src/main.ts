// run(): inputs -> the command -> outputs, summary, comment. The one place that reads the
// environment and the inputs, and the one try/catch that turns errors into core.setFailed.
import { readFileSync } from 'node:fs'
import * as core from '@actions/core'
import { runJob } from './commands/job.js'
import { runReport } from './commands/report.js'
import { runVisitors } from './commands/visitors.js'
import type { CommandContext } from './commands/context.js'
import type { Place } from './github/comments.js'
import { readEvent, type EventInfo } from './github/event.js'
import { createOctokit, type Octokit } from './github/octokit.js'
import { addReaction, decideTrigger, matchTrigger } from './github/trigger.js'
import { ServiceClient } from './service/client.js'
import { checkPrompt, InputError, readSettings, type Settings } from './settings.js'
import { VERSION } from './version.js'

const USER_AGENT = `docs-agent-action/${VERSION}`
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment']
const PULL_REQUEST_EVENTS = [
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  ...COMMENT_EVENTS
]

export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const startedAt = Date.now()
  maskSecrets()
  try {
    const eventName = env.GITHUB_EVENT_NAME ?? ''
    const payload = readPayload(env.GITHUB_EVENT_PATH)
    const event = readEvent(eventName, payload, env.GITHUB_REPOSITORY ?? '')
    const commentEvent = COMMENT_EVENTS.includes(eventName)
    // Most comments are not for us: settle that before anything else, without a request.
    if (commentEvent && !isTriggerCandidate(event))
      return skip('the comment does not start with the trigger, or was not just created')

    const settings = readSettings(readInput, {
      now: new Date(),
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      commentEvent
    })
    for (const warning of settings.warnings) core.warning(warning)
    const target = commentTarget(settings, event)
    const wantsGitHub = settings.comment !== 'false' || commentEvent || settings.context
    const apiUrl = env.GITHUB_API_URL ?? 'https://api.github.com'
    const octokit =
      wantsGitHub && settings.githubToken !== ''
        ? createOctokit(settings.githubToken, apiUrl, USER_AGENT)
        : undefined

    if (target && !octokit) core.info('`github-token` is empty, so no comment is written.')

    let prompt = settings.prompt
    if (commentEvent) {
      const fromComment = await acceptTrigger(octokit, event, settings)
      if (fromComment === undefined) return
      if (prompt === '') prompt = fromComment
      if (settings.command === 'message' || settings.command === 'create') checkPrompt(prompt)
    }
    core.setOutput('skipped', 'false')

    const service = new ServiceClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: USER_AGENT,
      debug: line => core.debug(line),
      info: line => core.info(line)
    })
    const ctx: CommandContext = {
      settings,
      event,
      payload,
      target,
      octokit,
      service,
      prompt,
      startedAt,
      runUrl: runUrl(env),
      serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com'
    }
    try {
      if (settings.command === 'message' || settings.command === 'create') await runJob(ctx)
      else if (settings.command === 'report') await runReport(ctx)
      else await runVisitors(ctx)
    } finally {
      service.dispose()
    }
  } catch (err) {
    core.setFailed(messageOf(err))
  }
}

/**
 * The commenter's permission decides (errors count as none). Returns the prompt the comment
 * gives, or undefined when the run is skipped (a notice and a 👎 when refused).
 */
async function acceptTrigger(
  octokit: Octokit | undefined,
  event: EventInfo,
  s: Settings
): Promise<string | undefined> {
  const decision = octokit
    ? await decideTrigger(octokit, event, s)
    : { run: false as const, reason: 'no `github-token` to check the permission', refused: true }
  const react = async (content: '-1' | 'eyes'): Promise<void> => {
    if (octokit && event.comment && s.comment !== 'false')
      await addReaction(octokit, event.owner, event.repo, event.comment, content, core.warning)
  }
  if (decision.run) {
    await react('eyes')
    return decision.prompt
  }
  if (decision.refused) {
    core.notice(`Ignored the trigger comment: ${decision.reason}.`)
    await react('-1')
  }
  skip(decision.reason)
  return undefined
}

function readInput(name: string): string {
  // The key is checked as given: a stray newline in a secret must be refused, not trimmed away.
  return core.getInput(name, { trimWhitespace: name !== 'api-key' })
}

/** Masks the secrets before anything else can print them, each line too for multi-line ones. */
function maskSecrets(): void {
  for (const name of ['api-key', 'github-token']) {
    const raw = core.getInput(name, { trimWhitespace: false })
    for (const part of new Set([raw, raw.trim(), ...raw.split(/\r?\n/).map(l => l.trim())])) {
      if (part !== '') core.setSecret(part)
    }
  }
}

function isTriggerCandidate(event: EventInfo): boolean {
  const c = event.comment
  return (
    c !== undefined &&
    c.action === 'created' &&
    matchTrigger(c.body, readInput('trigger') || '/docs-agent') !== undefined
  )
}

function skip(reason: string): void {
  core.info(`Skipped: ${reason}. Nothing was sent to the service.`)
  core.setOutput('skipped', 'true')
}

/** Where `comment` says to comment; `true` without a place is an input error. */
function commentTarget(s: Settings, event: EventInfo): Place | undefined {
  if (s.comment === 'false') return undefined
  const fromEvent = PULL_REQUEST_EVENTS.includes(event.eventName) ? event.issueNumber : undefined
  const issueNumber = s.issueNumber ?? fromEvent
  if (issueNumber === undefined || event.owner === '' || event.repo === '') {
    if (s.comment === 'true')
      throw new InputError(
        'comment',
        'is `true`, but this run has no pull request or issue: set `issue-number`, or run on a pull_request or issue_comment event'
      )
    return undefined
  }
  return { owner: event.owner, repo: event.repo, issueNumber }
}

function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path) return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    core.warning(`Could not read the event payload at ${path}; going on without it.`)
    return {}
  }
}

function runUrl(env: NodeJS.ProcessEnv): string {
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com'
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return ''
  return `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
}

/** Known errors carry a message written for users; anything else is reported without a stack. */
function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}

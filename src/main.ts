// run(): inputs -> the command -> outputs, summary, comment. The one place that reads the
// environment and the inputs, and the one try/catch that turns errors into core.setFailed.
import { readFileSync } from 'node:fs'
import * as core from '@actions/core'
import { runJob } from './commands/job.js'
import { runReport } from './commands/report.js'
import { runVisitors } from './commands/visitors.js'
import { CommentThread, postReply, type Place } from './github/comments.js'
import { asObject } from './json.js'
import { onCancel } from './commands/cancel.js'
import { CommandResult } from './commands/result.js'
import type { RunClock } from './commands/context.js'
import { placeNoun, readEvent, type EventInfo } from './github/event.js'
import { createOctokit, type Octokit } from './github/octokit.js'
import {
  addReaction,
  checkComment,
  checkCommenter,
  hasReaction,
  type ReactionContent
} from './github/trigger.js'
import { ServiceClient } from './service/client.js'
import { redact, registerSecrets } from './secrets.js'
import { InputError } from './inputs.js'
import {
  DEFAULTS,
  readSettings,
  isJobSettings,
  readTriggerSettings,
  type JobSettings,
  type Settings,
  type TriggerSettings
} from './settings.js'
import { VERSION } from './version.js'
import { messageOf } from './errors.js'

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
  // Before anything else can print them; read as given, so each line of a broken value is masked.
  registerSecrets(
    core.getInput('api-key', { trimWhitespace: false }),
    core.getInput('github-token', { trimWhitespace: false })
  )
  let trigger: AcceptedTrigger | undefined
  // Unbounded (each GitHub call's own 30 s) until the settings say how long the run may take.
  const clock: RunClock = { deadline: Infinity }
  const timeLeft = () => clock.deadline - Date.now()
  const result = new CommandResult()
  let service: ServiceClient | undefined
  // Published once: by the run's end, or by the cancellation handler if the runner stops it first.
  let published = false
  const publishOnce = async (): Promise<void> => {
    if (published) return
    published = true
    // What is published is the result as it stands now: the command's own flow, still running
    // under a cancellation, cannot change it while it is written out.
    await publish(result.snapshot(), service, trigger)
  }
  // Once the runner cancels, the handler speaks for the run: what the command's own flow says
  // afterwards (its work torn down under it) is not published.
  let cancelled = false
  const stopOnCancel = onCancel(async signal => {
    cancelled = true
    service?.halt()
    result.failure =
      (await result.onCancel?.(signal).catch(() => undefined)) ??
      `Cancelled (${signal}): nothing was sent to the service.`
    await publishOnce()
  })
  try {
    const eventName = env.GITHUB_EVENT_NAME ?? ''
    const payload = readPayload(env.GITHUB_EVENT_PATH)
    const event = readEvent(eventName, payload, env.GITHUB_REPOSITORY ?? '')
    const commentEvent = COMMENT_EVENTS.includes(eventName)
    const apiUrl = env.GITHUB_API_URL ?? 'https://api.github.com'
    // The contract's order: the trigger and who commented come before every other input, so a
    // comment that is not for us never fails on a setting it does not use.
    if (commentEvent) {
      trigger = await acceptTrigger(event, apiUrl, timeLeft)
      if (trigger === undefined) return
    }
    // GitHub gives a fork's pull-request runs, and Dependabot's runs, no secrets: an empty key
    // there is no misconfiguration to fail on.
    const withheld = withheldSecretsWhy(event, env)
    if (withheld && readInput('api-key').trim() === '') {
      core.notice(`This run has no \`api-key\`: ${withheld}. Nothing was sent to the service.`)
      skip(`no \`api-key\`: ${withheld}`)
      return
    }
    core.setOutput('skipped', 'false')

    const settings = readSettings(readInput, {
      now: new Date(),
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      commentEvent,
      ...(trigger ? { trigger: trigger.rules, triggerPrompt: trigger.prompt } : {})
    })
    for (const warning of settings.warnings) core.warning(warning)
    clock.deadline = startedAt + settings.waitTimeoutMs
    const target = commentTarget(settings, event)
    const wantsGitHub =
      settings.comment !== 'false' || commentEvent || (isJobSettings(settings) && settings.context)
    const octokit =
      wantsGitHub && settings.githubToken !== ''
        ? (trigger?.octokit ?? createOctokit(settings.githubToken, apiUrl, USER_AGENT, timeLeft))
        : undefined

    if (target && !octokit) core.info('`github-token` is empty, so no comment is written.')
    if (!target && !isJobSettings(settings) && settings.comment === 'auto')
      core.notice(
        'This run belongs to no pull request or issue, so the report is in its job summary only. ' +
          'Set `issue-number` (e.g. a tracking issue) to post it as a comment.'
      )
    if (
      isJobSettings(settings) &&
      octokit &&
      (await isAgentsOwnMerge(event, payload, settings, octokit))
    ) {
      core.notice(
        "This merged pull request is the docs agent's own work (it carries this action's signed " +
          'record of a job), so no new job is started: merging it would otherwise start another.'
      )
      skip("the merged pull request is the docs agent's own")
      return
    }

    service = new ServiceClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: USER_AGENT,
      maxRequests: settings.maxRequests,
      debug: line => core.debug(line),
      info: line => core.info(line),
      warn: line => core.warning(line)
    })
    const common = {
      event,
      payload,
      target,
      octokit,
      service,
      result,
      startedAt,
      clock,
      runUrl: runUrl(env),
      run: runOf(env),
      serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com'
    }
    if (isJobSettings(settings)) await runJob({ ...common, settings })
    else if (settings.command === 'report') await runReport({ ...common, settings })
    else await runVisitors({ ...common, settings })
  } catch (err) {
    // The command's own verdict, if it had one, is what the step reports.
    result.failure ??= messageOf(err)
  } finally {
    // A cancellation under way keeps its handler (and the process ends there).
    if (!cancelled) stopOnCancel()
    service?.dispose()
  }
  if (!cancelled) await publishOnce()
}

/**
 * The one place that publishes: outputs (`requests` from the client's count, also after a
 * failure), the job summary (a file that cannot be written only warns), the comment, the reaction
 * on a trigger comment, and the one core.setFailed, redacted.
 */
async function publish(
  result: CommandResult,
  service: ServiceClient | undefined,
  trigger: AcceptedTrigger | undefined
): Promise<void> {
  for (const [name, value] of result.outputs) core.setOutput(name, redact(value))
  if (service) core.setOutput('requests', String(service.requests))
  if (result.summary !== undefined) {
    await core.summary
      .addRaw(result.summary)
      .write()
      .catch((err: unknown) => core.warning(`Could not write the job summary: ${messageOf(err)}`))
  }
  if (result.comment) {
    try {
      const url = await result.comment()
      if (url) core.setOutput('comment-url', url)
    } catch (err) {
      // The comment is part of what the run was asked for; a failure already reported wins.
      if (result.failure === undefined) result.failure = messageOf(err)
      else core.warning(messageOf(err))
    }
  }
  if (result.failure !== undefined) {
    core.setFailed(redact(result.failure))
    await trigger?.react('confused')
  } else if (result.reaction) await trigger?.react(result.reaction)
}

interface AcceptedTrigger {
  prompt: string
  /** The trigger inputs, read once. */
  rules: TriggerSettings
  octokit?: Octokit
  /** Reacts on the trigger comment; 😕 only after 👀 was given. */
  react: (content: 'eyes' | 'confused' | 'rocket') => Promise<void>
}

/**
 * Settles a comment event: the trigger, who commented, then whether this run has a key at all.
 * Returns undefined when the run is skipped (with `skipped=true`, a 👎 and a notice when the
 * commenter is refused, a notice when a fork's run has no secrets).
 */
async function acceptTrigger(
  event: EventInfo,
  apiUrl: string,
  timeLeft: () => number
): Promise<AcceptedTrigger | undefined> {
  const comment = event.comment
  const checked = checkComment(comment, readInput('trigger') || (DEFAULTS.trigger ?? ''))
  // Most comments are not for us: settled without a request, and without reading (or failing
  // on) any other input.
  if ('reason' in checked || comment === undefined) {
    skip('reason' in checked ? checked.reason : 'the event carries no comment')
    return undefined
  }
  // A trigger comment: a misconfigured trigger input now fails the step, naming the input.
  const rules = readTriggerSettings(readInput)
  const octokit =
    rules.githubToken === ''
      ? undefined
      : createOctokit(rules.githubToken, apiUrl, USER_AGENT, timeLeft)
  const react = async (content: ReactionContent): Promise<void> => {
    if (!octokit || !rules.commentEnabled) return
    if (content === 'confused' && !hasReaction(comment, 'eyes')) return
    await addReaction(octokit, event.owner, event.repo, comment, content, core.warning)
  }
  const who = await checkCommenter(octokit, event, comment, rules)
  if (!who.allowed) {
    core.notice(`Ignored the trigger comment: ${who.reason}.`)
    await react('-1')
    skip(who.reason)
    return undefined
  }
  if (readInput('api-key').trim() === '') {
    const why = event.forkRepository
      ? `this pull request comes from the fork ${event.forkRepository}, and GitHub gives its ` +
        "review-comment runs no secrets. Reply in the pull request's conversation instead: " +
        'those runs get them'
      : 'a pull request from a fork or a run triggered by Dependabot gets no secrets, or the ' +
        'secret is not set'
    core.notice(
      `The trigger comment is allowed (${who.why}), but this run has no \`api-key\`: ${why}.`
    )
    skip('no `api-key` in this run (a fork gets no secrets)')
    return undefined
  }
  // Nothing to send, or a secret in what would be sent: said on the pull request or issue,
  // where the commenter looks, and nothing is sent.
  const refusal =
    checked.prompt === '' && readInput('prompt') === '' && readInput('prompt-file') === ''
      ? emptyInstructionReply(rules.trigger, event.isPullRequest)
      : redact(checked.prompt) !== checked.prompt
        ? SECRET_IN_COMMENT_REPLY
        : undefined
  if (refusal !== undefined) {
    if (octokit && rules.commentEnabled && event.issueNumber !== undefined) {
      const place = { owner: event.owner, repo: event.repo, issueNumber: event.issueNumber }
      await postReply(octokit, place, refusal).catch((err: unknown) => core.warning(messageOf(err)))
      await addReaction(octokit, event.owner, event.repo, comment, 'confused', core.warning)
    }
    core.notice(refusal.replace(/\n+/g, ' '))
    skip(refusal === SECRET_IN_COMMENT_REPLY ? 'the comment holds a secret' : 'no instruction')
    return undefined
  }
  core.info(`Trigger accepted: ${who.why}.`)
  await react('eyes')
  return { prompt: checked.prompt, rules, octokit, react }
}

const SECRET_IN_COMMENT_REPLY =
  'This comment holds a secret (the API key or the GitHub token), so nothing was sent to the ' +
  'docs agent. Delete the comment, rotate the secret, and write the instruction without it.'

function emptyInstructionReply(trigger: string, pullRequest: boolean): string {
  const where = placeNoun(pullRequest)
  return (
    `There is no instruction after \`${trigger}\`, so nothing was sent to the docs agent. ` +
    `Write what the agent should do after it, in a new comment on this ${where}, e.g.\n\n` +
    `\`${trigger} Add a FAQ entry about rate limits\``
  )
}

/** Why GitHub gave this run no secrets, when it is a run GitHub gives none. */
function withheldSecretsWhy(event: EventInfo, env: NodeJS.ProcessEnv): string | undefined {
  if (!PULL_REQUEST_EVENTS.includes(event.eventName) || COMMENT_EVENTS.includes(event.eventName))
    return undefined
  if (event.forkRepository)
    return `the pull request comes from the fork ${event.forkRepository}, and GitHub gives such runs no secrets`
  if (env.GITHUB_ACTOR === 'dependabot[bot]')
    return 'the run was started by Dependabot, and GitHub gives its runs no secrets (only Dependabot secrets)'
  return undefined
}

/**
 * A merged pull request that carries this action's signed route record is the agent's own: a
 * merge recipe that ran on it would start another job, and another after that one merges.
 */
async function isAgentsOwnMerge(
  event: EventInfo,
  payload: Record<string, unknown>,
  settings: JobSettings,
  octokit: Octokit
): Promise<boolean> {
  const pr = asObject(payload.pull_request)
  const merged = payload.action === 'closed' && pr?.merged === true
  if (!merged || event.issueNumber === undefined || event.owner === '') return false
  const place = { owner: event.owner, repo: event.repo, issueNumber: event.issueNumber }
  try {
    const thread = new CommentThread(octokit, place, settings.apiKey)
    return (await thread.findRoutedJob(settings.projectId)) !== undefined
  } catch (err) {
    core.warning(
      `Could not check whether #${place.issueNumber} is the agent's own: ${messageOf(err)}`
    )
    return false
  }
}

function readInput(name: string): string {
  // The key is checked as given: a stray newline in a secret must be refused, not trimmed away.
  return core.getInput(name, { trimWhitespace: name !== 'api-key' })
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

/** The workflow run and its attempt: a re-run keeps the id and counts the attempt up. */
function runOf(env: NodeJS.ProcessEnv): { id: string; attempt: number } | undefined {
  const id = env.GITHUB_RUN_ID ?? ''
  if (!/^\d{1,20}$/.test(id)) return undefined
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1')
  return { id, attempt: Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : 1 }
}

function runUrl(env: NodeJS.ProcessEnv): string {
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com'
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return ''
  return `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
}

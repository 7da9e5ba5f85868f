// `command: message`: send the follow-up, keep a live comment, wait, route the PR, decide the exit.
import * as core from '@actions/core'
import { followUp, type FollowUpResult } from '../agent/follow-up.js'
import {
  COMMENT_LIMIT,
  MARKER_ROOM,
  findRoutedJob,
  markerKey,
  parsePullRequestLink,
  updateCommentBody,
  upsertComment,
  type CommentRef,
  type Place
} from '../github/comments.js'
import { addReaction } from '../github/trigger.js'
import { fitComment, formatDuration } from '../report/markdown.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import type { AgentJob } from '../service/schema.js'
import { InputError } from '../settings.js'
import type { CommandContext } from './context.js'

/** Keeps GitHub's 1 MB per-job output limit far away even for an odd, huge job object. */
const MAX_JOB_OUTPUT_CHARS = 256 * 1024

export async function runMessage(ctx: CommandContext): Promise<void> {
  const s = ctx.settings
  const jobId = s.jobId !== '' ? s.jobId : await routedJobId(ctx)
  core.setOutput('job-id', jobId)
  const progress = new ProgressComment(ctx, jobId)
  let delivered: JobReport['delivered'] = 'no'
  const base = (): JobReport => ({
    command: 'message',
    projectId: s.projectId,
    jobId,
    phase: 'waiting',
    prompt: ctx.prompt,
    startedAt: ctx.startedAt,
    runUrl: ctx.runUrl,
    waited: s.wait,
    trigger: s.trigger
  })
  const stopOnCancel = onCancel(async () => {
    const cancelled: JobReport = {
      ...base(),
      phase: 'cancelled',
      job: progress.lastJob,
      endedAt: Date.now(),
      delivered
    }
    await progress.write(cancelled).catch(warn)
    await writeSummary(ctx, cancelled)
  })

  let result: FollowUpResult
  core.startGroup(`Follow-up to job ${jobId}`)
  try {
    result = await followUp({
      service: ctx.service,
      projectId: s.projectId,
      jobId,
      prompt: ctx.prompt,
      wait: s.wait,
      waitTimeoutMs: s.waitTimeoutMs,
      pollIntervalMs: s.pollIntervalMs,
      jobPath: s.jobPath,
      onSent: async job => {
        core.info(`The service took the follow-up (job status: ${job?.status ?? 'unknown'}).`)
        delivered = 'yes'
        await progress.write({ ...base(), job })
      },
      onChange: async job => progress.write({ ...base(), job }),
      log: line => core.info(line),
      warn: line => core.warning(line)
    })
  } catch (err) {
    core.endGroup()
    stopOnCancel()
    const error = err instanceof Error ? err.message : String(err)
    const failed: JobReport = {
      ...base(),
      phase: 'error',
      error,
      job: progress.lastJob,
      endedAt: Date.now(),
      delivered: /may or may not have been delivered/.test(error) ? 'maybe' : delivered
    }
    await progress.write(failed).catch(warn)
    await writeSummary(ctx, failed)
    await react(ctx, 'confused')
    throw err
  }
  core.endGroup()
  stopOnCancel()

  const { job, status } = result
  setJobOutputs(job)
  const routedPr = await recordRoute(ctx, jobId, job)
  const failure = exitProblem(ctx, jobId, result)
  const final: JobReport = {
    ...base(),
    phase: result.timedOut ? 'timed-out' : 'done',
    job,
    endedAt: Date.now(),
    error: result.timedOut ? result.lastPollError : undefined,
    routedHere: routedPr !== undefined && routedPr === ctx.target?.issueNumber,
    prNumber: routedPr
  }
  const routeKeys = final.routedHere ? [markerKey('route', s.projectId, jobId)] : []
  await progress.write(final, routeKeys)
  await writeSummary(ctx, final)
  if (failure) {
    await react(ctx, 'confused')
    core.setFailed(failure)
    return
  }
  if (status === 'completed' && job?.prLink) await react(ctx, 'rocket')
  if (status === 'archived') core.warning(`Job ${jobId} was archived.`)
  if (status === 'completed' && !job?.prLink)
    core.notice(`Job ${jobId} completed with no pull request: no file changed.`)
}

function setJobOutputs(job: AgentJob | undefined): void {
  if (!job) return
  core.setOutput('status', job.status)
  core.setOutput('pr-link', job.prLink ?? '')
  let json = JSON.stringify(job)
  if (json.length > MAX_JOB_OUTPUT_CHARS) {
    core.warning('The job object is too large for a step output; `job` holds its main fields only.')
    const { id, status, source, model, prLink, createdAt, archivedAt } = job
    json = JSON.stringify({ id, status, source, model, prLink, createdAt, archivedAt })
  }
  core.setOutput('job', json)
}

/** The message that fails the step, if any: a timeout, or a status listed in `fail-on-status`. */
function exitProblem(ctx: CommandContext, jobId: string, r: FollowUpResult): string | undefined {
  const s = ctx.settings
  if (r.timedOut && r.lastPollError)
    return (
      `Timed out after ${formatDuration(s.waitTimeoutMs)} waiting for job ${jobId} ` +
      `(last status: ${r.status ?? 'unknown'}): the last poll failed: ${r.lastPollError}`
    )
  if (r.timedOut)
    return (
      `Timed out after ${formatDuration(s.waitTimeoutMs)} waiting for job ${jobId} ` +
      `(last status: ${r.status ?? 'unknown'}). Raise \`wait-timeout\`, or set \`wait: false\`.`
    )
  if (r.status && s.failOnStatus.includes(r.status))
    return `Job ${jobId} ended with status \`${r.status}\`, which \`fail-on-status\` lists.`
  return undefined
}

/** The job named by the routing marker on the trigger comment's pull request. */
async function routedJobId(ctx: CommandContext): Promise<string> {
  const { settings: s, octokit, event } = ctx
  const place: Place | undefined =
    event.issueNumber !== undefined
      ? { owner: event.owner, repo: event.repo, issueNumber: event.issueNumber }
      : undefined
  const found =
    octokit && place ? await findRoutedJob(octokit, place, s.projectId, s.apiKey) : undefined
  if (found) {
    core.info(`This pull request records agent job ${found}: the follow-up goes there.`)
    return found
  }
  const why =
    'is empty and this pull request records no agent job of this project. Set `job-id` in the ' +
    'workflow, or reply on a pull request that the docs agent opened after a follow-up sent by this action'
  const noJob: JobReport = {
    command: 'message',
    projectId: s.projectId,
    phase: 'no-job',
    prompt: ctx.prompt,
    startedAt: ctx.startedAt,
    endedAt: Date.now(),
    waited: s.wait,
    runUrl: ctx.runUrl
  }
  await writeSummary(ctx, noJob)
  if (octokit && ctx.target) {
    await upsertComment(octokit, ctx.target, {
      key: markerKey('nojob', s.projectId),
      body: fitComment(renderJobReport(noJob), COMMENT_LIMIT - MARKER_ROOM),
      mode: 'upsert',
      secret: s.apiKey
    }).catch(warn)
  }
  throw new InputError('job-id', why)
}

/**
 * Records the job on the pull request it opened, so a reply with the trigger reaches it. Returns
 * that pull request's number. A failure here is a warning: the follow-up itself has succeeded.
 */
async function recordRoute(
  ctx: CommandContext,
  jobId: string,
  job: AgentJob | undefined
): Promise<number | undefined> {
  const { settings: s, event, octokit } = ctx
  if (job?.status !== 'completed' || !job.prLink) return undefined
  const pr = parsePullRequestLink(job.prLink, ctx.serverUrl, event.owner, event.repo)
  if (pr === undefined || !octokit || s.comment === 'false') return undefined
  if (pr === ctx.target?.issueNumber) return pr // the progress comment carries the marker
  const place = { owner: event.owner, repo: event.repo, issueNumber: pr }
  const report: JobReport = {
    command: 'message',
    projectId: s.projectId,
    jobId,
    phase: 'done',
    job,
    startedAt: ctx.startedAt,
    endedAt: Date.now(),
    runUrl: ctx.runUrl,
    waited: true,
    trigger: s.trigger,
    routedHere: true,
    prNumber: pr
  }
  try {
    const ref = await upsertComment(octokit, place, {
      key: markerKey('route', s.projectId, jobId),
      body: fitComment(renderJobReport(report), COMMENT_LIMIT - MARKER_ROOM),
      mode: 'upsert',
      secret: s.apiKey
    })
    core.info(`Recorded job ${jobId} on pull request #${pr}: ${ref.url}`)
    return pr
  } catch (err) {
    warn(err)
    return undefined
  }
}

/** The one comment about this follow-up: written when it is sent, edited on each change. */
class ProgressComment {
  private ref?: CommentRef
  lastJob?: AgentJob

  constructor(
    private readonly ctx: CommandContext,
    private readonly jobId: string
  ) {}

  async write(report: JobReport, extraKeys: string[] = []): Promise<void> {
    if (report.job) this.lastJob = report.job
    const { octokit, target, settings: s } = this.ctx
    if (!octokit || !target) return
    const o = {
      key: markerKey('job', s.projectId, this.jobId),
      extraKeys,
      body: fitComment(renderJobReport(report), COMMENT_LIMIT - MARKER_ROOM),
      secret: s.apiKey
    }
    this.ref = this.ref
      ? await updateCommentBody(octokit, target, this.ref.id, o)
      : await upsertComment(octokit, target, { ...o, mode: s.commentMode })
    core.setOutput('comment-url', this.ref.url)
  }
}

async function writeSummary(ctx: CommandContext, report: JobReport): Promise<void> {
  if (!ctx.settings.summary) return
  await core.summary.addRaw(renderJobReport(report)).write()
}

async function react(ctx: CommandContext, content: 'rocket' | 'confused'): Promise<void> {
  const comment = ctx.event.comment
  if (!ctx.octokit || !comment || ctx.settings.comment === 'false') return
  await addReaction(ctx.octokit, ctx.event.owner, ctx.event.repo, comment, content, core.warning)
}

/**
 * On cancellation (the runner sends SIGINT, then SIGTERM) the comment says so before the process
 * ends, instead of staying "working…" forever. Returns the function that removes the handlers.
 */
function onCancel(write: () => Promise<void>): () => void {
  let done = false
  const handler = (signal: NodeJS.Signals): void => {
    if (done) return
    done = true
    core.warning(`Cancelled (${signal}).`)
    const exit = (): never => process.exit(1)
    setTimeout(exit, 5_000).unref()
    write().catch(warn).finally(exit)
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}

function warn(err: unknown): void {
  core.warning(err instanceof Error ? err.message : String(err))
}

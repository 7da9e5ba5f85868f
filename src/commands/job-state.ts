// What the job run knows, as its report and its outputs say it: one JobReport built from the
// target, the last job seen and the phase; what the job's pull request changes; why the run
// stopped, in words for a comment; the outputs a job sets.
import * as core from '@actions/core'
import { messageOf, TimeUpError } from '../errors.js'
import { parsePullRequestLink } from '../github/comments.js'
import { GitHubError } from '../github/errors.js'
import { pullRequestChanges, pullRequestOfLink } from '../github/pulls.js'
import { FILES_SHOWN } from '../report/job-changes.js'
import type { JobReport, PullRequestChanges } from '../report/job-report.js'
import { BudgetError, RateLimitError, ServiceError } from '../service/errors.js'
import { capJobJson, type AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings.js'
import type { CommandContext } from './context.js'
import type { CommandResult } from './result.js'
import type { Target } from './job-target.js'

/** The last job seen; `stale` while it may still show its state from before the instruction. */
export interface Seen {
  job: AgentJob
  stale: boolean
}

/**
 * The pull request or issue this run answers on, where the job was asked for (or issue `n` of
 * this repository).
 */
export function askedIn(
  ctx: CommandContext<JobSettings>,
  n = ctx.target?.issueNumber
): { number: number; url: string } | undefined {
  const { owner, repo } = ctx.event
  if (n === undefined || owner === '' || repo === '') return undefined
  // GitHub sends /issues/N to /pull/N for a pull request: one address serves both.
  return { number: n, url: `${ctx.serverUrl}/${owner}/${repo}/issues/${n}` }
}

/** The report of the run in `phase`: a job that may be stale is not shown while it waits. */
export function jobReport(
  ctx: CommandContext<JobSettings>,
  phase: JobReport['phase'],
  t: Target,
  last: Seen | undefined
): JobReport {
  const s = ctx.settings
  const asked = askedIn(ctx)
  const hideStale = (phase === 'waiting' || phase === 'cancelled') && last?.stale
  const by = ctx.event.comment?.author
  // The live comment records the delivery (a run marker) where it is written at all.
  const recorded = ctx.run !== undefined && ctx.target !== undefined && ctx.octokit !== undefined
  return {
    command: t.command,
    projectId: s.projectId,
    jobId: t.jobId,
    phase,
    job: hideStale ? undefined : last?.job,
    prompt: t.prompt,
    startedAt: ctx.deadline.startedAt,
    waited: s.wait,
    runUrl: ctx.runUrl,
    trigger: s.trigger,
    fromComment: ctx.event.comment !== undefined,
    ...(by ? { askedBy: by } : {}),
    ...(asked ? { askedOn: { ...asked, pullRequest: ctx.event.isPullRequest } } : {}),
    routedHere: t.routeHere,
    ...(t.jobId !== undefined && t.routedBefore === t.jobId ? { hintGiven: true } : {}),
    ...(recorded && s.comment !== 'false' ? { rerunFollows: true } : {}),
    ...(s.requirePr ? { requirePr: true } : {}),
    requests: ctx.service.requests,
    githubHost: hostOf(ctx.serverUrl),
    ...(t.earlier ? { rerun: true } : {}),
    // "Opened" only where this run knows the job opened it; any other pull request it names,
    // the job updated.
    prUpdated: !!last?.job.prLink && !openedByJob(ctx, t, last.job)
  }
}

/**
 * Whether the job opened the pull request it names, as far as this run can tell: it names one
 * that may be the job's own (namesNewPullRequest), and GitHub showed it created after the job
 * (records/records.ts, asked by job-records.ts).
 */
export function openedByJob(
  ctx: CommandContext<JobSettings>,
  t: Target,
  job: AgentJob | undefined
): boolean {
  const pr = job?.prLink ? pullRequestOfLink(job.prLink, ctx.serverUrl) : undefined
  if (!job || !pr || !namesNewPullRequest(ctx, t, job)) return false
  return ctx.records?.seenCreatedAfter(pr, job) === true
}

/**
 * The link is new for the job (a job this step created, or a follow-up whose job named another or
 * none just before), and it is not where the job was asked for (that pull request was there).
 */
export function namesNewPullRequest(
  ctx: CommandContext<JobSettings>,
  t: Target,
  job: AgentJob | undefined
): boolean {
  const link = job?.prLink
  if (!link) return false
  const isNew = t.command === 'create' || (t.before !== undefined && t.before.prLink !== link)
  if (!isNew) return false
  const n = parsePullRequestLink(link, ctx.serverUrl, ctx.event.owner, ctx.event.repo)
  return n === undefined || (n !== ctx.target?.issueNumber && n !== ctx.event.issueNumber)
}

function hostOf(serverUrl: string): string | undefined {
  try {
    return new URL(serverUrl).host
  } catch {
    return undefined
  }
}

/**
 * `status`, `pr-link`, `pr-number` (when the pull request is on this GitHub), `branch` (the
 * job's `source.ref`) and `job` (its main fields only when the whole is too large).
 */
export function setJobOutputs(
  result: CommandResult,
  job: AgentJob | undefined,
  serverUrl: string
): void {
  if (!job) return
  result.set('status', job.status)
  result.set('pr-link', job.prLink ?? '')
  const pr = job.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  result.set('pr-number', pr ? String(pr.number) : '')
  const ref = job.source?.ref
  result.set('branch', typeof ref === 'string' ? ref : '')
  const { json, capped } = capJobJson(job)
  if (capped)
    core.warning(
      'The job object is too large for a step output; `job` holds its main fields only, long ones cut.'
    )
  result.set('job', json)
}

/**
 * What the completed job's pull request changes, when it is on this GitHub and there is a token
 * to ask with. A failure only warns: the service has the instruction, and the answer is whole
 * without the list.
 */
export async function changesOf(
  ctx: CommandContext<JobSettings>,
  job: AgentJob | undefined
): Promise<PullRequestChanges | undefined> {
  const pr = job?.prLink ? pullRequestOfLink(job.prLink, ctx.serverUrl) : undefined
  // Read only where the run reads GitHub for the user anyway (comments, or `context`): with
  // `comment: false` the client is there for the agent's-own record alone.
  const reads = ctx.settings.comment !== 'false' || ctx.settings.context
  if (job?.status !== 'completed' || !pr || !ctx.octokit || !reads) return undefined
  try {
    return await pullRequestChanges(ctx.octokit, pr, FILES_SHOWN)
  } catch (err) {
    core.warning(`The answer shows no files: ${messageOf(err)}`)
    return undefined
  }
}

/**
 * Why the run stopped, for a comment's reader: the service's or GitHub's words (a status and
 * what it said, never the request's path: that is for the log) and the action's own advice,
 * kept apart so that the advice renders as Markdown and the words are escaped.
 */
export function readerCause(err: unknown): { error?: string; advice?: string } {
  if (err instanceof RateLimitError) {
    const when = `${err.resetAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
    return {
      error: err.serviceText ?? '429 Too Many Requests',
      advice: err.resetKnown
        ? `the service's rate limit resets at ${when}: run it again after that`
        : "the service's hourly limit is spent: run it again within the hour"
    }
  }
  if (err instanceof ServiceError) {
    const { problem, hint } = err.forReaders
    return { ...(problem ? { error: problem } : {}), ...(hint ? { advice: hint } : {}) }
  }
  if (err instanceof GitHubError)
    return { error: err.problem, ...(err.hint ? { advice: err.hint } : {}) }
  if (err instanceof BudgetError)
    return {
      advice:
        `this run may send at most ${err.maxRequests} requests to the service ` +
        '(`max-requests`), and has sent them all'
    }
  if (err instanceof TimeUpError) {
    const cause = err.cause === undefined ? {} : readerCause(err.cause)
    return { ...cause, advice: `the time allowed (${err.limit}) ran out` }
  }
  return { error: messageOf(err) }
}

// What the job run knows, as its report and its outputs say it: one JobReport built from the
// target, the last job seen and the phase; the outputs a job sets.
import * as core from '@actions/core'
import { parsePullRequestLink } from '../github/comments.js'
import type { JobReport } from '../report/job.js'
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

/** The pull request or issue this run answers on, where the job was asked for. */
export function askedIn(
  ctx: CommandContext<JobSettings>
): { number: number; url: string } | undefined {
  const n = ctx.target?.issueNumber
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
    ...(asked ? { askedOn: { ...asked, pullRequest: ctx.event.isPullRequest } } : {}),
    routedHere: t.routeHere,
    requests: ctx.service.requests,
    githubHost: hostOf(ctx.serverUrl),
    ...(t.earlier ? { rerun: true } : {}),
    // "Opened" only where this run knows the job opened it; any other pull request it names,
    // the job updated.
    prUpdated: !!last?.job.prLink && !openedByJob(ctx, t, last.job)
  }
}

/**
 * Whether the job opened the pull request it names, as far as this run can tell: the link is new
 * for the job (a job this step created, or a follow-up whose job named another or none just
 * before), and it is not where the job was asked for (that pull request was there before).
 */
export function openedByJob(
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

/** `status`, `pr-link` and `job` (its main fields only when the whole is too large). */
export function setJobOutputs(result: CommandResult, job: AgentJob | undefined): void {
  if (!job) return
  result.set('status', job.status)
  result.set('pr-link', job.prLink ?? '')
  const { json, capped } = capJobJson(job)
  if (capped)
    core.warning(
      'The job object is too large for a step output; `job` holds its main fields only, long ones cut.'
    )
  result.set('job', json)
}

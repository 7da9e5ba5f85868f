// What the job run knows, as its report and its outputs say it: one JobReport built from the
// target, the last job seen and the phase; the outputs a job sets.
import * as core from '@actions/core'
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
  const prBefore = t.before?.prLink ?? undefined
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
    prUpdated: prBefore !== undefined && last?.job.prLink === prBefore
  }
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

// What the job run's answer (its live comment, its summary, the record on the job's pull
// request) is drawn from: one JobReport built from the run's context, the target, the last job
// seen and the ending; where the job was asked for; whether the job opened the pull request it
// names; what that pull request changes.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { parsePullRequestLink } from '../github/comments.js'
import { changesSince } from '../github/pull-commits.js'
import { pullRequestChanges, pullRequestOfLink } from '../github/pulls.js'
import { FILES_SHOWN } from '../report/job-changes.js'
import type { JobEnding, JobReport, PullRequestChanges } from '../report/job-report.js'
import type { AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings/settings.js'
import { placeUrl } from '../gate/asker.js'
import type { CommandContext } from './context.js'
import { askedFor } from './job-asked.js'
import type { Target } from './job-target.js'

// The pull request's checks are drawn into the answer too (`checks`): job-checks.ts.
export { withChecks } from './job-checks.js'

/** The last job seen; `stale` while it may still show its state from before the instruction. */
export interface Seen {
  job: AgentJob
  stale: boolean
}

/** The pull request or issue this run answers on, as a reader names it. */
export function askedIn(
  ctx: CommandContext<JobSettings>
): { number: number; url: string } | undefined {
  const { owner, repo } = ctx.event
  const n = ctx.target?.issueNumber
  if (n === undefined || owner === '' || repo === '') return undefined
  return { number: n, url: placeUrl(ctx.serverUrl, { owner, repo, issueNumber: n }) }
}

/** Where the asker asked, when that is an issue or pull request of this repository. */
export function askedHere(
  ctx: CommandContext<JobSettings>
): { number: number; url: string } | undefined {
  const on = ctx.asker.on
  const { owner, repo } = ctx.event
  const here = on && `${on.owner}/${on.repo}`.toLowerCase() === `${owner}/${repo}`.toLowerCase()
  return here ? { number: on.issueNumber, url: on.url } : undefined
}

/**
 * The report of the run, ended or (no `ending`) still waiting: a job that may be stale is not
 * shown while it waits, nor when the run was cancelled.
 */
export function jobReport(
  ctx: CommandContext<JobSettings>,
  ending: JobEnding | undefined,
  t: Target,
  last: Seen | undefined
): JobReport {
  const s = ctx.settings
  const asked = askedIn(ctx)
  const hideStale = (ending === undefined || ending.kind === 'cancelled') && last?.stale
  const { asker } = ctx
  // The live comment records the delivery (a run marker) where it is written at all.
  const recorded = ctx.run !== undefined && ctx.target !== undefined && ctx.octokit !== undefined
  return {
    command: t.command,
    projectId: s.projectId,
    jobId: t.jobId,
    ...(ending ? { ending } : {}),
    job: hideStale ? undefined : last?.job,
    prompt: t.prompt,
    startedAt: ctx.deadline.startedAt,
    runUrl: ctx.runUrl,
    trigger: s.trigger,
    fromComment: asker.comment !== undefined,
    ...(asker.login ? { askedBy: asker.login } : {}),
    cause: askedFor(ctx, ctx.deadline.startedAt),
    ...(asked ? { askedOn: { ...asked, pullRequest: ctx.event.isPullRequest } } : {}),
    routedHere: t.routeHere,
    ...(t.jobId !== undefined && t.routedBefore === t.jobId ? { hintGiven: true } : {}),
    ...(recorded && ctx.commenting.writes ? { rerunFollows: true } : {}),
    requests: ctx.service.requests,
    githubHost: hostOf(ctx.serverUrl),
    ...(t.earlier ? { rerun: true } : {}),
    ...(t.grew ? { grew: t.grew } : {}),
    ...(asker.fixes ? { fixes: asker.fixes } : {}),
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
 * What the completed job's pull request changes, when it is on this GitHub and there is a token
 * to ask with, linked to its files view. A pull request GitHub does not show opened after the job
 * (a person's the job pushed to) is counted as the pull request's, not as the job's: telling the
 * job's commits from its author's would cost a request per commit. A failure only warns: the
 * service has the instruction, and the answer is whole without the list.
 */
export async function changesOf(
  ctx: Pick<
    CommandContext<JobSettings>,
    'octokit' | 'serverUrl' | 'settings' | 'records' | 'commenting' | 'deadline'
  >,
  job: AgentJob | undefined,
  grew?: unknown
): Promise<PullRequestChanges | undefined> {
  const { octokit, serverUrl, settings, records } = ctx
  const pr = job?.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  // Read only where the run reads GitHub for the user anyway (comments, or `context`): with
  // `comment: false` the client is there for the agent's-own record alone.
  const reads = ctx.commenting.writes || settings.context
  if (job?.status !== 'completed' || !pr || !octokit || !reads) return undefined
  try {
    const filesUrl = `${serverUrl.replace(/\/+$/, '')}/${pr.owner}/${pr.repo}/pull/${pr.number}/files`
    // A growth shows what it changed (the commits pushed since the run started), or nothing.
    if (grew) {
      const since = await changesSince(octokit, pr, ctx.deadline.startedAt, FILES_SHOWN)
      return since && { ...since, filesUrl }
    }
    const changes = await pullRequestChanges(octokit, pr, FILES_SHOWN)
    // Asked once per run (records.ts): the record on the pull request often asked already.
    const jobs = (await records?.createdAfter(pr, job)) === true
    return { ...changes, filesUrl, ...(jobs ? {} : { ofThePullRequest: true }) }
  } catch (err) {
    core.warning(`The answer shows no files: ${messageOf(err)}`)
    return undefined
  }
}

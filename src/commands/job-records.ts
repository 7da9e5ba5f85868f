// What a job run records on the pull request its job names (in this repository): that the job
// opened it, the one record that makes a merge of it "the agent's own" (gate/own-merge.ts), written as soon
// as the run sees it and whatever `comment` says; and the route that sends replies with the
// trigger there to the job, at completion when the run comments. A human pull request the job
// merely names (where it was asked for, or one it had before this instruction) gets the route at
// most, never the record that it opened it; so does one GitHub shows created before the job.
import * as core from '@actions/core'
import { parsePullRequestLink } from '../github/comments.js'
import { pullRequestOfLink } from '../github/pulls.js'
import { renderJobReport } from '../report/job.js'
import { explainsGrowth } from '../report/job-instruction.js'
import type { JobReport } from '../report/job-report.js'
import { clip, escapeText } from '../report/markdown.js'
import type { AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import type { JobComments } from './job-comments.js'
import { askedHere, askedIn, namesNewPullRequest, openedByJob } from './job-answer.js'
import { askedFor, codeChangeOf } from './job-asked.js'
import type { Target } from './job-target.js'

export interface Sighting {
  job: AgentJob | undefined
  /** The run's ending (the record is brought up to date), or a sight while it waits (once). */
  ending: boolean
  /** The report of the run as it stands, in the phase to show. */
  report: JobReport
}

/**
 * Records what this sight of the job shows on the pull request it names. Returns the pull
 * request where the route now sends replies, if any, and whether that route was there before
 * (its record already gave the reply hint). A failure only warns.
 */
export async function recordOnItsPullRequest(
  ctx: CommandContext<JobSettings>,
  comments: JobComments,
  target: Target,
  sight: Sighting
): Promise<{ pr: number; existed?: boolean } | undefined> {
  const { job, ending } = sight
  const { event, serverUrl } = ctx
  if (ending && job?.prLink) warnOtherHost(job.prLink, serverUrl, `${event.owner}/${event.repo}`)
  // Whether GitHub shows the pull request created after the job: asked once, for the words too.
  const named = job?.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  if (named && ctx.records && namesNewPullRequest(ctx, target, job))
    await ctx.records.createdAfter(named, job ?? {})
  const pr = job?.prLink
    ? parsePullRequestLink(job.prLink, serverUrl, event.owner, event.repo)
    : undefined
  if (!job || pr === undefined) return undefined
  const answers = ctx.commenting.writes
  const route = ending && answers && job.status === 'completed'
  // Answering there: the live comment carries the route itself; a follow-up asked there is
  // listed in the pull request's record too.
  if (pr === ctx.target?.issueNumber) {
    if (answers && ctx.asker.comment)
      await listFollowUp(ctx, comments, target, { ...sight, pr, job })
    return route ? { pr } : undefined
  }
  const opened = openedByJob(ctx, target, job)
  // The open agent pull request this run grew: its record says so, with every instruction.
  const grown = target.grew?.number === pr
  if (!opened && !route && !grown) return undefined
  // Where the job was asked for, also when the run answers nowhere (`comment: false`).
  const asked = askedIn(ctx) ?? askedHere(ctx)
  const report: JobReport = {
    ...sight.report,
    routedHere: route,
    // What GitHub said just now of the pull request's age decides "opened" or "updated".
    prUpdated: !opened,
    // The record is where the reply hint lives: it always carries it.
    hintGiven: false,
    prNumber: pr,
    onItsPullRequest: asked ? { askedIn: asked } : {},
    ...codeChangeOf(ctx)
  }
  const jobId = target.jobId ?? job.id
  const asking = { opened, asked: askedFor(ctx, sight.report.startedAt) }
  const instructions =
    opened || grown ? await comments.instructionsOn(pr, jobId, target.prompt, asking) : undefined
  if (instructions && instructions.length > 1) report.instructions = instructions
  const written = await comments.recordOnPullRequest(pr, jobId, {
    // The record that the job opened it is kept by a run that grew it (it verified).
    opened: opened || grown,
    label: opened,
    route,
    ...(instructions ? { instructions } : {}),
    explained: answers && explainsGrowth(report),
    body: answers ? renderJobReport(report) : openedNote(jobId, asked),
    once: !ending || !answers
  })
  if (grown && answers && written !== undefined)
    await comments.announceGrowth(pr, jobId, instructions?.at(-1), target.grew?.url)
  if (written === undefined || !route) return undefined
  return { pr, existed: written === 'updated' }
}

/**
 * A follow-up asked on the agent's pull request itself: the record there lists it beside every
 * instruction the pull request grew from, when that record names this job (a thread the run read
 * already, so only its edit costs a request). The record then shows this run, as a growth's does.
 */
async function listFollowUp(
  ctx: CommandContext<JobSettings>,
  comments: JobComments,
  target: Target,
  sight: Sighting & { pr: number; job: AgentJob }
): Promise<void> {
  const { pr, job, ending } = sight
  const jobId = target.jobId ?? job.id
  const asked = askedFor(ctx, sight.report.startedAt)
  const listed = await comments.instructionsOn(pr, jobId, target.prompt, { opened: false, asked })
  // Only this instruction: no record of this job here to list it in.
  if (listed.length < 2) return
  const report: JobReport = {
    ...sight.report,
    routedHere: ending && job.status === 'completed',
    prUpdated: true,
    hintGiven: false,
    prNumber: pr,
    onItsPullRequest: {},
    instructions: listed
  }
  await comments.recordOnPullRequest(pr, jobId, {
    opened: true,
    route: report.routedHere === true,
    instructions: listed,
    body: renderJobReport(report),
    once: !ending
  })
}

/** The record alone, where the run writes no answers (`comment: false`). */
function openedNote(jobId: string, asked: { number: number; url: string } | undefined): string {
  return (
    `The docs agent job ${escapeText(jobId)} opened this pull request` +
    `${asked ? ` (asked for in [#${asked.number}](${asked.url}))` : ''}. This record keeps a ` +
    'merge of it from starting another job.\n'
  )
}

/**
 * A job's pull request on another host than this GitHub (`GITHUB_SERVER_URL`), said once at the
 * run's end (contract, issue 41): it is no pull request of this repository, so no record claims
 * it, replies there do not reach the job through this workflow, and its merge is not known as
 * the agent's own. Usually the docs project is connected to a repository on github.com while the
 * workflow runs on GitHub Enterprise Server (or the other way round).
 */
function warnOtherHost(prLink: string, serverUrl: string, repository: string): void {
  const url = URL.canParse(prLink) ? new URL(prLink) : undefined
  const here = URL.canParse(serverUrl) ? new URL(serverUrl).host : undefined
  if (url === undefined || here === undefined || url.host === here) return
  // The service's text: its parsed form only (nothing invisible survives percent-encoding).
  core.warning(
    `The job's pull request (${clip(url.href, 300)}) is on ${url.host}, not on this GitHub (${here}, ` +
      `\`GITHUB_SERVER_URL\`): it is not taken as a pull request of ${repository}, and nothing is ` +
      `recorded on it (replies there do not reach the job; its merge is not known as the agent's ` +
      `own). Check which repository the docs project is connected to in the dashboard.`
  )
}

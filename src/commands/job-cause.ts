// One send per cause (contract: "A pull request people can follow"): before a job run sends
// anything, the places that record its cause (records/delivery.ts causeStep: a merge commit, a
// trigger comment) are read: the run's own thread (its live comment) and the code pull request
// told with `notify-token` (job-notify.ts). When the instruction for that cause went to a job
// already, from another workflow run (a second dispatch, the same comment delivered again) or from
// an earlier attempt with no comment of its own, nothing is sent: the run is skipped, saying so,
// and links the job's pull request and the comment that recorded it. A re-run whose own thread
// records the delivery is left to the job run, which follows the job (records/delivery.ts).
import * as core from '@actions/core'
import { jobUrlPath } from '../agent/wait.js'
import { messageOf } from '../errors.js'
import { pullRequestOfLink } from '../github/pulls.js'
import {
  causeStep,
  causeWords,
  sentFor,
  type CauseStep,
  type SentFor
} from '../records/delivery.js'
import { escapeText, link } from '../report/markdown.js'
import { AgentApi } from '../service/agent-api.js'
import type { AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { runJob } from './job.js'
import { noticeFor, pullLink } from './job-notify.js'
import { setJobOutputs } from './job-outputs.js'

/** The job run, unless the instruction for its cause was sent already. */
export async function runJobOnce(ctx: CommandContext<JobSettings>): Promise<void> {
  const step = causeStep(ctx)
  const sent = step && (await sentAlready(ctx, step))
  if (step && sent) await sayAlreadySent(ctx, step, sent)
  else await runJob(ctx)
}

/** Where the instruction for this cause went already, when another run sent it. */
async function sentAlready(
  ctx: CommandContext<JobSettings>,
  step: CauseStep
): Promise<SentFor | undefined> {
  const { records, target, run, settings: s } = ctx
  const notice = noticeFor(ctx).notice
  const places = [
    ...(records && target
      ? [{ live: true, read: () => sentFor(records.thread(target), step) }]
      : []),
    ...(notice ? [{ live: false, read: () => notice.sentFor(step) }] : [])
  ]
  for (const place of places) {
    const found = await place.read().catch((err: unknown) => {
      core.warning(`Could not tell whether this instruction was sent already: ${messageOf(err)}`)
      return undefined
    })
    if (!found) continue
    // An explicit `job-id` is never replaced: a record of another job is another send.
    if (s.command === 'message' && s.jobId !== '' && found.job !== s.jobId) continue
    // This workflow run's own record: another step of this attempt, or a re-run that its own
    // thread's delivery record lets follow the job (job-target.ts).
    if (found.run === run?.id && (run.attempt < 2 || place.live)) return undefined
    return found
  }
  return undefined
}

/** The skip: outputs of the job as it is now (one GET, no send), a notice and the summary. */
async function sayAlreadySent(
  ctx: CommandContext<JobSettings>,
  step: CauseStep,
  sent: SentFor
): Promise<void> {
  const { result, settings: s, serverUrl, event } = ctx
  result.set('skipped', 'true')
  result.set('grew', 'false')
  result.set('job-id', sent.job)
  let job: AgentJob | undefined
  try {
    job = await new AgentApi(ctx.service).getJob(jobUrlPath(s.jobPath, s.projectId, sent.job))
    setJobOutputs(result, job, serverUrl)
  } catch (err) {
    core.info(`Could not read job ${sent.job}: ${messageOf(err)}`)
  }
  const pr = job?.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  const prText = pr ? `${pr.owner}/${pr.repo}#${pr.number}` : undefined
  const runUrl = /^\d{1,20}$/.test(sent.run)
    ? `${serverUrl}/${event.owner}/${event.repo}/actions/runs/${sent.run}`
    : undefined
  const head = `Not sent again: the instruction for ${causeWords(step)} was sent already`
  core.notice(
    `${head}${runUrl ? ` (workflow run ${sent.run})` : ''} to job ${sent.job}` +
      `${prText && job?.prLink ? `, whose pull request is ${prText}: ${job.prLink}` : ''}. ` +
      `Recorded in ${sent.url}`
  )
  if (!s.summary) return
  const where = job?.prLink ? pullLink(job.prLink, serverUrl) : undefined
  result.summary =
    `### ⏭️ Sent already\n\n${head}${runUrl ? ` by ${link('an earlier workflow run', runUrl)}` : ''} ` +
    `to job \`${escapeText(sent.job)}\` (${link('its record', sent.url)}). ` +
    (where ? `Its pull request: ${where}.` : 'It has no pull request yet.') +
    '\n\nNothing was sent to the service this time: one send per cause.\n'
}

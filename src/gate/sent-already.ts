// One send per cause (contract: "A pull request people can follow"): before a job run sends
// anything, the places that record its cause (records/delivery.ts causeStep: a merge commit, a
// trigger comment) are read: the run's own thread (its live comment) and the code pull request
// told with `notify-token` (code-pull-request.ts). When the instruction for that cause went to a
// job already, from another workflow run (a second dispatch, the same comment delivered again) or
// from an earlier attempt with no comment of its own, nothing is sent: the run is skipped, saying
// so, and links the job's pull request and the comment that recorded it. A re-run whose own
// thread records the delivery is left to the job run, which follows the job (records/delivery.ts).
import * as core from '@actions/core'
import { setJobOutputs } from '../agent/job-outputs.js'
import { jobUrlPath } from '../agent/wait.js'
import { messageOf } from '../errors.js'
import { pullLink, pullRequestOfLink } from '../github/pulls.js'
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
import type { SendingContext, Skip } from './answer.js'
import { codePullRequest } from './code-pull-request.js'

/** The skip of a run whose cause's instruction another run sent already; undefined: send. */
export async function sentAlreadySkip(c: SendingContext): Promise<Skip | undefined> {
  const step = causeStep(c)
  const sent = step && (await sentAlready(c, step))
  return step && sent ? await sayAlreadySent(c, step, sent) : undefined
}

/** Where the instruction for this cause went already, when another run sent it. */
async function sentAlready(c: SendingContext, step: CauseStep): Promise<SentFor | undefined> {
  const { records, target, run, settings: s } = c
  const code = codePullRequest({
    ...s,
    eventName: c.event.eventName,
    payload: c.payload,
    serverUrl: c.serverUrl
  }).ref
  const told = code && c.notifyRecords
  const places = [
    ...(records && target
      ? [{ live: true, read: () => sentFor(records.thread(target), step) }]
      : []),
    ...(told
      ? [
          {
            live: false,
            read: () =>
              sentFor(
                told.thread({ owner: code.owner, repo: code.repo, issueNumber: code.number }),
                step
              )
          }
        ]
      : [])
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
    // thread's delivery record lets follow the job (commands/job-target.ts).
    if (found.run === run?.id && (run.attempt < 2 || place.live)) return undefined
    return found
  }
  return undefined
}

/** The skip: outputs of the job as it is now (one GET, no send), a notice and the summary. */
async function sayAlreadySent(c: SendingContext, step: CauseStep, sent: SentFor): Promise<Skip> {
  const { settings: s, serverUrl, event } = c
  const outputs = new Map([
    ['grew', 'false'],
    ['job-id', sent.job]
  ])
  let job: AgentJob | undefined
  try {
    job = await new AgentApi(c.service).getJob(jobUrlPath(s.jobPath, s.projectId, sent.job))
    setJobOutputs(outputs, job, serverUrl)
  } catch (err) {
    core.info(`Could not read job ${sent.job}: ${messageOf(err)}`)
  }
  const pr = job?.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  const prText = pr ? `${pr.owner}/${pr.repo}#${pr.number}` : undefined
  const runUrl = /^\d{1,20}$/.test(sent.run)
    ? `${serverUrl}/${event.owner}/${event.repo}/actions/runs/${sent.run}`
    : undefined
  const head = `Not sent again: the instruction for ${causeWords(step)} was sent already`
  const notice =
    `${head}${runUrl ? ` (workflow run ${sent.run})` : ''} to job ${sent.job}` +
    `${prText && job?.prLink ? `, whose pull request is ${prText}: ${job.prLink}` : ''}. ` +
    `Recorded in ${sent.url}`
  const where = job?.prLink ? pullLink(job.prLink, serverUrl) : undefined
  const summary =
    `### ⏭️ Sent already\n\n${head}${runUrl ? ` by ${link('an earlier workflow run', runUrl)}` : ''} ` +
    `to job \`${escapeText(sent.job)}\` (${link('its record', sent.url)}). ` +
    (where ? `Its pull request: ${where}.` : 'It has no pull request yet.') +
    '\n\nNothing was sent to the service this time: one send per cause.\n'
  return {
    reason: `the instruction for ${causeWords(step)} was sent already, to job ${sent.job}`,
    notice,
    ...(s.summary ? { summary } : {}),
    outputs
  }
}

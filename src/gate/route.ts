// Which job an instruction with no `job-id` goes to (a trigger comment's or a label's): the job
// its thread routes replies to (the `route` record), else a new one where the asker may start
// one (`when-no-job: create`, a label). A reply in the wrong place, on a thread whose job takes
// its instructions on the pull request it opened, is skipped here, answered where it was written
// (the run's answer and 😕), not failed: the workflow did nothing wrong, and the commenter would
// otherwise get a "run failed" mail. Any other thread with no job is the command's failure
// (`job-id` is empty), said in its answer.
import * as core from '@actions/core'
import { noJob } from '../agent/ending.js'
import { jobUrlPath } from '../agent/wait.js'
import { InputError, messageOf } from '../errors.js'
import type { Place } from '../github/comments.js'
import { pullRequestOfLink } from '../github/pulls.js'
import { jobStartedHere, liveCommentKey, routedJob } from '../records/job.js'
import type { RecordThread } from '../records/thread.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import type { Elsewhere } from '../report/job-report.js'
import { placeNoun } from '../report/place.js'
import { AgentApi } from '../service/agent-api.js'
import type { SendingContext, Skip } from './answer.js'
import { placeUrl } from './asker.js'

/** Where the instruction goes, as the thread it was asked on records it. */
export type Route =
  /** The job the thread routes replies to; `routeHere`: the run's answer carries the route on. */
  | { kind: 'job'; jobId: string; routeHere: boolean; note: string }
  /** No job recorded, and the asker may start one. */
  | { kind: 'create'; routeHere: boolean; note: string }
  /** No job recorded, and none may be started: `job-id` is empty (`why`, the command's failure). */
  | { kind: 'none'; why: string }
  /** The thread could not be read: the command fails as it would have reading it. */
  | { kind: 'unread'; error: unknown }

/**
 * The route of an instruction with no `job-id` that is no `fix N` (a fix is a new job), or the
 * skip of a reply in the wrong place. Undefined where `job-id` or `command` decide.
 */
export async function replyRoute(
  c: SendingContext
): Promise<{ skip: Skip } | { skip?: undefined; route?: Route }> {
  const s = c.settings
  if (s.command !== 'message' || s.jobId !== '' || c.asker.fixes) return {}
  try {
    const { event, asker } = c
    const place = placeOfEvent(c)
    const thread = place && c.records ? c.records.thread(place) : undefined
    const found = thread ? await routedJob(thread, s.projectId) : undefined
    const here = `This ${placeNoun(event.isPullRequest)}`
    // The live comment may replace the one that carried the route: it must carry it on.
    const routeHere = c.target?.issueNumber === event.issueNumber
    if (found) {
      const note = `${here} records agent job ${found}: the follow-up goes there.`
      return { route: { kind: 'job', jobId: found, routeHere, note } }
    }
    // A label starts a job where none is recorded, whatever `when-no-job` says.
    if ((s.whenNoJob === 'create' && asker.comment) || asker.label !== undefined) {
      const why = asker.label !== undefined ? '' : ', and `when-no-job` is `create`'
      const note = `${here} records no agent job${why}: starting a new job with the instruction.`
      return { route: { kind: 'create', routeHere, note } }
    }
    const elsewhere = thread ? await agentsPullRequest(c, thread) : undefined
    const lower = here.toLowerCase()
    if (elsewhere)
      return {
        skip: misplaced(
          c,
          `is empty, and ${lower} takes no instructions: its docs agent job is followed up on ` +
            `the pull request it opened, ${elsewhere.url}. Reply there`,
          elsewhere
        )
      }
    const why =
      `is empty and ${lower} records no agent job of this project. Set \`job-id\` in the ` +
      'workflow, set `when-no-job: create` to start a job from such a comment, or reply on a ' +
      'pull request that the docs agent opened after an instruction sent by this action'
    return { route: { kind: 'none', why } }
  } catch (error) {
    return { route: { kind: 'unread', error } }
  }
}

function placeOfEvent(c: SendingContext): Place | undefined {
  const { owner, repo, issueNumber } = c.event
  if (issueNumber === undefined || owner === '' || repo === '') return undefined
  return { owner, repo, issueNumber }
}

/**
 * The pull request the agent opened for the job this thread's own comment reports (a merge or
 * dispatch run's, on the code pull request), as the service names it now. Anything that cannot
 * be read leaves the plain "no job" answer.
 */
async function agentsPullRequest(
  c: SendingContext,
  thread: RecordThread
): Promise<Elsewhere | undefined> {
  const s = c.settings
  try {
    const jobId = await jobStartedHere(thread, s.projectId)
    if (jobId === undefined) return undefined
    const job = await new AgentApi(c.service).getJob(jobUrlPath(s.jobPath, s.projectId, jobId))
    const pr = job.prLink ? pullRequestOfLink(job.prLink, c.serverUrl) : undefined
    if (!pr || !job.prLink) return undefined
    const { owner, repo } = c.event
    const here = `${owner}/${repo}`.toLowerCase()
    const there = `${pr.owner}/${pr.repo}`
    if (there.toLowerCase() === here && pr.number === c.event.issueNumber) return undefined
    return {
      number: pr.number,
      url: job.prLink,
      ...(there.toLowerCase() === here ? {} : { repo: there })
    }
  } catch (err) {
    core.info(`Could not tell which pull request takes this job's instructions: ${messageOf(err)}`)
    return undefined
  }
}

/**
 * A reply where no job can be followed: the run's answer where it was written (the ending "no job
 * to follow up", naming the pull request that takes the job's instructions), the summary, 😕.
 */
function misplaced(c: SendingContext, why: string, elsewhere: Elsewhere): Skip {
  const { settings: s, asker, target } = c
  const message = new InputError('job-id', why).message
  const report: JobReport = {
    command: 'message',
    projectId: s.projectId,
    ending: noJob(message, elsewhere),
    prompt: s.prompt,
    startedAt: c.deadline.startedAt,
    endedAt: c.deadline.now(),
    runUrl: c.runUrl,
    trigger: s.trigger,
    fromComment: asker.comment !== undefined,
    ...(asker.login ? { askedBy: asker.login } : {}),
    ...(target
      ? {
          askedOn: {
            number: target.issueNumber,
            url: placeUrl(c.serverUrl, target),
            pullRequest: c.event.isPullRequest
          }
        }
      : {}),
    routedHere: false,
    requests: c.service.requests
  }
  const key = liveCommentKey(s.projectId, { trigger: asker.comment, job: undefined })
  const reacts = c.octokit !== undefined && c.commenting.writes && asker.comment !== undefined
  return {
    reason: 'this thread takes no instructions',
    notice: message,
    ...(target && c.records
      ? {
          reply: {
            place: target,
            body: renderJobReport(report),
            answer: { key, mode: c.commenting.mode }
          }
        }
      : {}),
    ...(reacts && asker.comment
      ? { reaction: { comment: asker.comment, content: 'confused' } }
      : {}),
    ...(s.summary ? { summary: renderJobReport(report, 'summary') } : {}),
    outputs: new Map([['grew', 'false']])
  }
}

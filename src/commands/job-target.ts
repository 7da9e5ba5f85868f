// The job run's first phase: which job, which instruction, and the job as it was before. It asks
// GitHub (an earlier attempt's record, the job a pull request records, the pull request's files)
// and the service (the job, read just before a follow-up), and sends nothing.
import * as core from '@actions/core'
import {
  composePrompt,
  contextFromEvent,
  MAX_CONTEXT_FILES,
  type ChangeContext
} from '../agent/prompt.js'
import { jobUrlPath } from '../agent/wait.js'
import { messageOf, InputError } from '../errors.js'
import { deliveredTo, deliveryStep } from '../records/delivery.js'
import { growthExplained, jobStartedHere, routedJob } from '../records/job.js'
import type { FixRequest } from '../records/fix.js'
import type { RecordThread } from '../records/thread.js'
import { listPullRequestFiles, pullRequestOfLink } from '../github/pulls.js'
import { placeNoun } from '../report/place.js'
import type { AgentApi } from '../service/agent-api.js'
import { ServiceError } from '../service/errors.js'
import type { AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import type { JobComments } from './job-comments.js'
import { openAgentPullRequest } from './job-grow.js'

/** What prepare settles: the job and the instruction, and the job as it was before. */
export interface Target {
  command: 'message' | 'create'
  jobId?: string
  prompt: string
  /** The job as a GET showed it just before the POST (a follow-up that waits). */
  before?: AgentJob
  /** A re-run: an earlier attempt of this workflow run delivered the instruction to `jobId`. */
  earlier?: true
  /** The live comment records this job: replies with the trigger go to it. */
  routeHere: boolean
  /**
   * `when-agent-pr-open: follow-up`: the run would have started a job, and the instruction went
   * to the job of this open agent pull request instead.
   */
  grew?: { number: number; url: string }
  /**
   * The job the thread routed replies to before this run (its route record or an earlier
   * answer), which has already said how to reply.
   */
  routedBefore?: string
}

/** The run refused to guess a job: `job-id` is empty and nothing here records one. */
export class NoJobError extends InputError {
  constructor(
    readonly why: string,
    /** The pull request the agent opened for the job this thread records: replies go there. */
    readonly elsewhere?: { number: number; url: string; repo?: string }
  ) {
    super('job-id', why)
  }
}

/** What the settings alone say. */
export function initialTarget(s: JobSettings): Target {
  return {
    command: s.command,
    ...(s.command === 'message' && s.jobId !== '' ? { jobId: s.jobId } : {}),
    prompt: s.prompt,
    routeHere: false
  }
}

/**
 * The job (an earlier attempt's, the one given, the one this pull request records, or a new one),
 * the instruction (with `context`, the change's block), and for a follow-up that waits the job as
 * a GET shows it before the POST: a job that does not exist fails there, without spending a
 * follow-up. `onJob` hears the job once it is known, before the context and the GET.
 */
export async function prepareTarget(
  ctx: CommandContext<JobSettings>,
  comments: JobComments,
  agent: AgentApi,
  start: Target,
  onJob: (target: Target) => void
): Promise<Target> {
  const s = ctx.settings
  let target = start
  const earlier = await earlierAttemptsJob(ctx, comments)
  if (earlier !== undefined) target = { ...target, jobId: earlier, earlier: true }
  else if (ctx.trigger?.fixes) target = fixTarget(ctx.trigger.fixes, target)
  else if (target.command === 'message' && target.jobId === undefined)
    target = { ...target, ...(await chooseJob(ctx, comments, agent)) }
  else if (ctx.trigger) target = { ...target, ...(await routedBefore(ctx, comments)) }
  // A label's answer, on the labelled item, routes replies there to the job (as `when-no-job:
  // create` does).
  else if (ctx.label)
    target = { ...target, routeHere: ctx.target?.issueNumber === ctx.event.issueNumber }
  if (target.command === 'create' && !target.earlier)
    target = await growInstead(ctx, target, comments.thread(ctx.target?.issueNumber))
  onJob(target)
  if (s.context || ctx.label)
    target = { ...target, prompt: composePrompt(s.prompt, await gatherContext(ctx)) }
  // What GitHub took to answer is not taken from the service's time: it counts from here.
  ctx.deadline.restartFrom(ctx.deadline.now())
  if (target.command === 'message' && s.wait && !target.earlier) {
    const path = jobUrlPath(s.jobPath, s.projectId, target.jobId ?? '')
    try {
      target = { ...target, before: await agent.getJob(path) }
    } catch (err) {
      // The job of the pull request to grow is gone: nothing was sent, a new job starts.
      if (!(target.grew && err instanceof ServiceError && err.status === 404)) throw err
      core.warning(
        `The job of pull request #${target.grew.number} (${target.jobId}) is not found, so ` +
          'nothing was grown: a new job starts.'
      )
      target = { ...target, command: 'create', jobId: undefined, grew: undefined }
      onJob(target)
    }
  }
  return target
}

/**
 * On a re-run (a later attempt of the same workflow run), the job an earlier attempt of this very
 * step delivered this instruction to, as its comment records it (delivery-record.ts): that job is
 * followed and nothing is sent again. Another step's record, or one whose delivery was dropped
 * (its job failed), sends again; so does a run with nowhere to comment (the README says so). An
 * explicit `job-id` is never replaced.
 */
async function earlierAttemptsJob(
  ctx: CommandContext<JobSettings>,
  comments: JobComments
): Promise<string | undefined> {
  const run = ctx.run
  const step = deliveryStep(ctx.settings, run)
  if (!run || run.attempt < 2 || !step) return undefined
  const thread = comments.thread(ctx.target?.issueNumber)
  const found = thread ? await deliveredTo(thread, step) : undefined
  if (found === undefined || found === '') return undefined
  const given = ctx.settings.command === 'message' ? ctx.settings.jobId : ''
  if (given !== '' && found !== given) return undefined
  core.notice(
    `This is attempt ${run.attempt} of workflow run ${run.id}: an earlier attempt already ` +
      `delivered the instruction to job ${found}, so it is not sent again. This run follows that job.`
  )
  return found
}

/**
 * With a `job-id` given, the job this thread already routes replies to (it has said how to
 * reply). A thread that cannot be read only costs the hint being said again.
 */
async function routedBefore(
  ctx: CommandContext<JobSettings>,
  comments: JobComments
): Promise<Partial<Target>> {
  const thread = comments.thread(ctx.target?.issueNumber)
  const found = thread && (await routedJob(thread, ctx.settings.projectId).catch(() => undefined))
  return found === undefined ? {} : { routedBefore: found }
}

/**
 * `fix N [M …]`: a new job with the suggestions' instructions, whatever `job-id` or the thread's
 * record say (a fix is its own piece of work), unless an open agent pull request grows instead.
 * The report's issue is not routed to it: follow-ups go on the pull request it opens (recorded
 * there), and the issue keeps taking `fix N` for new jobs.
 */
function fixTarget(fixes: readonly FixRequest[], target: Target): Target {
  const numbers = fixes.map(f => f.n)
  core.info(
    `Suggestion${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')} of the newest report: ` +
      'a job with the instruction.'
  )
  return { ...target, jobId: undefined, command: 'create', routeHere: false }
}

/**
 * A run about to start a job: with `when-agent-pr-open: follow-up` and the docs agent's pull
 * request still open here, the instruction goes to that pull request's job as a follow-up.
 */
async function growInstead(
  ctx: CommandContext<JobSettings>,
  target: Target,
  answers: RecordThread | undefined
): Promise<Target> {
  const open = await openAgentPullRequest(ctx)
  if (!open) return target
  // The 📎 paragraph is said once per thread: the answers after it need not say it again.
  const explained = answers ? await growthExplained(answers, ctx.settings.projectId) : false
  core.info(
    `The docs agent's pull request #${open.number} (job ${open.jobId}) is still open: the ` +
      'instruction goes to its job as a follow-up, and the pull request grows instead of a new ' +
      'one opening (`when-agent-pr-open: follow-up`; `create` starts a new job each time).'
  )
  return {
    ...target,
    command: 'message',
    jobId: open.jobId,
    grew: { number: open.number, url: open.url, ...(explained ? { explained } : {}) }
  }
}

/** A trigger comment with no `job-id`: the job its pull request records, or a new one. */
async function chooseJob(
  ctx: CommandContext<JobSettings>,
  comments: JobComments,
  agent: AgentApi
): Promise<Partial<Target>> {
  const { event, settings: s, target } = ctx
  const thread = comments.thread(event.issueNumber)
  const found = thread ? await routedJob(thread, s.projectId) : undefined
  const here = `This ${placeNoun(event.isPullRequest)}`
  // The live comment may replace the one that carried the route: it must carry it on.
  const routeHere = target?.issueNumber === event.issueNumber
  if (found) {
    core.info(`${here} records agent job ${found}: the follow-up goes there.`)
    return { jobId: found, routeHere, routedBefore: found }
  }
  // A label starts a job where none is recorded, whatever `when-no-job` says.
  if ((s.whenNoJob === 'create' && ctx.trigger) || ctx.label) {
    core.info(
      `${here} records no agent job${ctx.label ? '' : ', and `when-no-job` is `create`'}: ` +
        'starting a new job with the instruction.'
    )
    return { command: 'create', routeHere }
  }
  const elsewhere = thread ? await agentsPullRequest(ctx, thread, agent) : undefined
  if (elsewhere)
    throw new NoJobError(
      `is empty, and ${here.toLowerCase()} takes no instructions: its docs agent job is ` +
        `followed up on the pull request it opened, ${elsewhere.url}. Reply there`,
      elsewhere
    )
  throw new NoJobError(
    `is empty and ${here.toLowerCase()} records no agent job of this project. Set \`job-id\` in the ` +
      'workflow, set `when-no-job: create` to start a job from such a comment, or reply on a ' +
      'pull request that the docs agent opened after an instruction sent by this action'
  )
}

/**
 * The pull request the agent opened for the job this thread's own comment reports (a merge or
 * dispatch run's, on the code pull request), as the service names it now. Anything that cannot
 * be read leaves the plain "no job" answer.
 */
async function agentsPullRequest(
  ctx: CommandContext<JobSettings>,
  thread: RecordThread,
  agent: AgentApi
): Promise<NoJobError['elsewhere']> {
  const s = ctx.settings
  try {
    const jobId = await jobStartedHere(thread, s.projectId)
    if (jobId === undefined) return undefined
    const job = await agent.getJob(jobUrlPath(s.jobPath, s.projectId, jobId))
    const pr = job.prLink ? pullRequestOfLink(job.prLink, ctx.serverUrl) : undefined
    if (!pr || !job.prLink) return undefined
    const { owner, repo } = ctx.event
    const here = `${owner}/${repo}`.toLowerCase()
    const there = `${pr.owner}/${pr.repo}`
    if (there.toLowerCase() === here && pr.number === ctx.event.issueNumber) return undefined
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

/** The change that triggered the run, for `context`: the event, and a pull request's files. */
async function gatherContext(ctx: CommandContext<JobSettings>): Promise<ChangeContext> {
  const { event, octokit } = ctx
  const c = contextFromEvent(event.eventName, ctx.payload, `${event.owner}/${event.repo}`)
  // A dispatch's pull request is in another repository: its paths came in the payload.
  if (!c.pullRequest || event.eventName === 'repository_dispatch') return c
  if (!octokit) return { ...c, filesNote: 'not listed (no `github-token`)' }
  try {
    const files = await listPullRequestFiles(
      octokit,
      event.owner,
      event.repo,
      c.pullRequest.number ?? 0,
      MAX_CONTEXT_FILES
    )
    return { ...c, files }
  } catch (err) {
    const why = messageOf(err)
    core.warning(`\`context\`: could not list the pull request's files, sent without them: ${why}`)
    return { ...c, filesNote: 'could not be listed' }
  }
}

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
import { growthExplained, routedJob } from '../records/job.js'
import type { FixRequest } from '../records/fix.js'
import type { RecordThread } from '../records/thread.js'
import { listPullRequestFiles } from '../github/pulls.js'
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
  constructor(readonly why: string) {
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
  const { asker } = ctx
  const earlier = await earlierAttemptsJob(ctx, comments)
  if (earlier !== undefined) target = { ...target, jobId: earlier, earlier: true }
  else if (asker.fixes) target = fixTarget(asker.fixes, target)
  else if (target.command === 'message' && target.jobId === undefined)
    target = { ...target, ...routedTarget(ctx) }
  else if (asker.comment) target = { ...target, ...(await routedBefore(ctx, comments)) }
  // A label's answer, on the labelled item, routes replies there to the job (as `when-no-job:
  // create` does).
  else if (asker.label !== undefined)
    target = { ...target, routeHere: ctx.target?.issueNumber === asker.on?.issueNumber }
  if (target.command === 'create' && !target.earlier)
    target = await growInstead(ctx, target, comments.thread(ctx.target?.issueNumber))
  onJob(target)
  // A label asks with the labelled item: its title, description and changes go with it.
  if (s.context || asker.label !== undefined)
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

/**
 * An instruction with no `job-id`: the job the gate found its thread routing to, or a new one
 * (gate/route.ts); a thread with neither fails the run, saying so in its answer.
 */
function routedTarget(ctx: CommandContext<JobSettings>): Partial<Target> {
  const route = ctx.route
  if (route?.kind === 'unread') throw route.error
  if (route === undefined || route.kind === 'none')
    throw new NoJobError(route?.why ?? 'is empty, and no agent job is recorded here')
  core.info(route.note)
  if (route.kind === 'create') return { command: 'create', routeHere: route.routeHere }
  return { jobId: route.jobId, routeHere: route.routeHere, routedBefore: route.jobId }
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

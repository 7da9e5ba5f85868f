// `command: message` and `command: create`: decide the job, compose the prompt, send it once, keep
// a live comment, wait until the result is believed, route the pull request, decide the exit.
// Once the service has taken the instruction, GitHub failures are warnings: the run still waits
// and sets its outputs, so nobody re-runs it and sends the instruction twice.
import * as core from '@actions/core'
import { noPullRequestNote } from '../agent/completion.js'
import {
  composePrompt,
  contextFromEvent,
  listPullRequestFiles,
  type ChangeContext
} from '../agent/prompt.js'
import { deliveryOf, sendInstruction, type Instruction, type Sent } from '../agent/send.js'
import { jobUrlPath, waitForJob, type WaitResult } from '../agent/wait.js'
import {
  COMMENT_LIMIT,
  CommentThread,
  GitHubError,
  MARKER_ROOM,
  markerKey,
  parsePullRequestLink,
  type CommentRef
} from '../github/comments.js'
import { addReaction } from '../github/trigger.js'
import { fitComment, formatDuration } from '../report/markdown.js'
import { isFinalStatus, type AgentJob } from '../service/schema.js'
import { InputError, type Settings } from '../settings.js'
import { onCancel } from './cancel.js'
import type { CommandContext } from './context.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import { messageOf } from '../errors.js'

/** Keeps GitHub's 1 MB per-job output limit far away even for an odd, huge job object. */
const MAX_JOB_OUTPUT_CHARS = 256 * 1024

/** Where the run is, for what a cancellation or an error can truthfully say. */
type Stage = 'preparing' | 'sending' | 'waiting'

export async function runJob(ctx: CommandContext): Promise<void> {
  const run = new JobRun(ctx)
  await run.execute()
}

class JobRun {
  private readonly s: Settings
  private readonly threads = new Map<number, CommentThread>()
  private readonly progress: ProgressComment
  private command: 'message' | 'create'
  private jobId?: string
  private prompt: string
  private stage: Stage = 'preparing'
  private lastJob?: AgentJob
  /**
   * The last job seen after a follow-up still shows a final state that may be from before it:
   * the live comment must not present that as this instruction's result.
   */
  private maybeStale = false
  /**
   * The live comment records this job: a job started for this pull request by
   * `when-no-job: create`, or one that opened it.
   */
  private routeHere = false
  /** No comment records the route yet: the first write must sign it, for replies during the wait. */
  private routeIsNew = false

  constructor(private readonly ctx: CommandContext) {
    this.s = ctx.settings
    this.command = ctx.settings.command === 'create' ? 'create' : 'message'
    this.prompt = ctx.prompt
    this.progress = new ProgressComment(ctx, this.thread(ctx.target?.issueNumber))
  }

  async execute(): Promise<void> {
    const stopOnCancel = onCancel(signal => this.cancelled(signal))
    try {
      await this.run()
    } finally {
      stopOnCancel()
    }
  }

  private async run(): Promise<void> {
    const s = this.s
    if (this.command === 'message' && s.jobId === '') await this.chooseJob()
    else if (this.command === 'message') this.jobId = s.jobId
    if (this.jobId !== undefined) core.setOutput('job-id', this.jobId)
    if (s.context) this.prompt = composePrompt(this.ctx.prompt, await this.gatherContext())

    let before: AgentJob | undefined
    if (this.command === 'message' && s.wait) before = await this.jobBeforeSending()

    const sent = await this.send()
    this.stage = 'waiting'
    const shown = sent.job ?? before
    this.maybeStale =
      this.command === 'message' && shown !== undefined && isFinalStatus(shown.status)
    this.setJobOutputs(sent.job)
    // Without waiting, the ending below is the first and only write.
    if (s.wait)
      await this.progress.write(this.report('waiting'), {
        routeKeys: this.routeKeys(),
        signNow: this.routeIsNew
      })

    const result: WaitResult = s.wait
      ? await this.wait(sent, before)
      : { job: sent.job, timedOut: false, doubted: false }
    this.lastJob = result.job ?? this.lastJob
    this.setJobOutputs(result.job)
    await this.finish(result)
  }

  /** A trigger comment with no `job-id`: the job its pull request records, or a new one. */
  private async chooseJob(): Promise<void> {
    const { event, settings: s } = this.ctx
    const thread = this.thread(event.issueNumber)
    let found: string | undefined
    try {
      found = thread ? await thread.findRoutedJob(s.projectId) : undefined
    } catch (err) {
      const error = `${messageOf(err)}. Nothing was sent to the service.`
      await this.end({ ...this.report('error'), error, delivered: 'no' })
      throw new Error(error, { cause: err })
    }
    if (found) {
      core.info(`This pull request records agent job ${found}: the follow-up goes there.`)
      this.jobId = found
      // The live comment may replace the one that carried the route: it must carry it on.
      this.routeHere = this.ctx.target?.issueNumber === event.issueNumber
      return
    }
    if (s.whenNoJob === 'create' && event.comment) {
      core.info(
        'This pull request records no agent job, and `when-no-job` is `create`: starting a new job with the instruction.'
      )
      this.command = 'create'
      this.routeHere = this.ctx.target?.issueNumber === event.issueNumber
      this.routeIsNew = this.routeHere
      return
    }
    const why =
      'is empty and this pull request records no agent job of this project. Set `job-id` in the ' +
      'workflow, set `when-no-job: create` to start a job from such a comment, or reply on a ' +
      'pull request that the docs agent opened after an instruction sent by this action'
    await this.end({ ...this.report('no-job'), error: `Input \`job-id\` ${why}`, delivered: 'no' })
    throw new InputError('job-id', why)
  }

  private async gatherContext(): Promise<ChangeContext> {
    const { event, octokit } = this.ctx
    const c = contextFromEvent(event.eventName, this.ctx.payload, `${event.owner}/${event.repo}`)
    if (!c.pullRequest) return c
    if (!octokit) {
      c.filesNote = 'not listed (no `github-token`)'
      return c
    }
    try {
      c.files = await listPullRequestFiles(octokit, event.owner, event.repo, c.pullRequest.number)
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err)
      core.warning(
        `\`context\`: could not list the pull request's files, sent without them: ${why}`
      )
      c.filesNote = 'could not be listed'
    }
    return c
  }

  /** The GET before the POST: a job that does not exist fails here, without spending a follow-up. */
  private async jobBeforeSending(): Promise<AgentJob> {
    const s = this.s
    const path = jobUrlPath(s.jobPath, s.projectId, this.jobId ?? '')
    try {
      const job = await this.ctx.service.getJob(path, Date.now() + s.waitTimeoutMs)
      this.lastJob = job
      return job
    } catch (err) {
      const error = `${messageOf(err)}. Nothing was sent to the service.`
      await this.end({ ...this.report('error'), error, delivered: 'no' })
      throw new Error(error, { cause: err })
    }
  }

  private async send(): Promise<Sent> {
    const s = this.s
    const instruction: Instruction =
      this.command === 'create'
        ? { command: 'create', projectId: s.projectId, prompt: this.prompt }
        : {
            command: 'message',
            projectId: s.projectId,
            jobId: this.jobId ?? '',
            prompt: this.prompt
          }
    this.stage = 'sending'
    core.startGroup(this.command === 'create' ? 'New agent job' : `Follow-up to job ${this.jobId}`)
    try {
      const sent = await sendInstruction(
        this.ctx.service,
        instruction,
        Date.now() + s.waitTimeoutMs
      )
      this.jobId = sent.jobId
      this.lastJob = sent.job ?? this.lastJob
      core.setOutput('job-id', sent.jobId)
      core.info(
        this.command === 'create'
          ? `The service started job ${sent.jobId} (status: ${sent.job?.status ?? 'unknown'}).`
          : `The service took the follow-up (job status: ${sent.job?.status ?? 'unknown'}).`
      )
      return sent
    } catch (err) {
      const delivered = deliveryOf(err)
      await this.end({ ...this.report('error'), error: messageOf(err), delivered })
      throw err
    } finally {
      core.endGroup()
    }
  }

  private async wait(sent: Sent, before: AgentJob | undefined): Promise<WaitResult> {
    const s = this.s
    const jobId = sent.jobId
    try {
      return await waitForJob({
        service: this.ctx.service,
        path: jobUrlPath(s.jobPath, s.projectId, jobId),
        deadline: sent.answeredAt + s.waitTimeoutMs,
        pollIntervalMs: s.pollIntervalMs,
        jobId,
        job: sent.job,
        evidence: {
          isNew: this.command === 'create',
          before,
          seenWorking: sent.job !== undefined && !isFinalStatus(sent.job.status),
          answeredAt: sent.answeredAt,
          settleTimeMs: s.settleTimeMs
        },
        onChange: async job => {
          this.lastJob = job
          this.maybeStale = false
          await this.progress.write(this.report('waiting'), { routeKeys: this.routeKeys() })
        },
        log: line => core.info(line),
        warn: line => core.warning(line)
      })
    } catch (err) {
      const error = `The service took the instruction, then polling job ${jobId} failed: ${messageOf(err)}`
      await this.end({ ...this.report('error'), error, delivered: 'yes' })
      throw new Error(error, { cause: err })
    }
  }

  private async finish(result: WaitResult): Promise<void> {
    const jobId = this.jobId ?? ''
    const job = result.job
    const status = job?.status
    const prNumber = job?.prLink
      ? parsePullRequestLink(
          job.prLink,
          this.ctx.serverUrl,
          this.ctx.event.owner,
          this.ctx.event.repo
        )
      : undefined
    const routedPr = await this.recordRoute(job, prNumber)
    if (routedPr !== undefined && routedPr === this.ctx.target?.issueNumber) this.routeHere = true
    const failure = this.exitProblem(result)
    await this.end({
      ...this.report(result.timedOut ? 'timed-out' : 'done'),
      // Only the service's words go here (escaped as untrusted); the step's own message, with
      // its advice, goes to the log.
      error: result.timedOut ? result.lastPollError : undefined,
      prNumber
    })
    if (failure) {
      await this.react('confused')
      core.setFailed(failure)
      return
    }
    if (status === 'completed' && job?.prLink) await this.react('rocket')
    if (status === 'archived') core.warning(`Job ${jobId} was archived.`)
    if (status === 'completed' && !job?.prLink) core.notice(noPullRequestNote(jobId))
  }

  /** Every ending: the live comment (a failure there only warns) and the job summary. */
  private async end(report: JobReport): Promise<void> {
    const ended = { ...report, endedAt: Date.now() }
    await this.progress.write(ended, { routeKeys: this.routeKeys(), last: true })
    if (report.phase === 'error' || report.phase === 'no-job') await this.react('confused')
    if (!this.s.summary) return
    // The ending's own error, if any, is what the step must report, not a summary file problem.
    await core.summary
      .addRaw(renderJobReport(ended))
      .write()
      .catch(err => core.warning(`Could not write the job summary: ${messageOf(err)}`))
  }

  /** The message that fails the step, if any: a timeout, or a status listed in `fail-on-status`. */
  private exitProblem(r: WaitResult): string | undefined {
    const s = this.s
    const jobId = this.jobId ?? ''
    const status = r.job?.status ?? 'unknown'
    const waited = formatDuration(s.waitTimeoutMs)
    if (r.timedOut && r.doubted)
      return (
        `Timed out after ${waited} waiting for job ${jobId}: it still showed its state from before ` +
        `the instruction (\`${status}\`), so that was not taken as the result. The instruction was ` +
        'delivered; raise `wait-timeout` or lower `settle-time`.'
      )
    if (r.timedOut && r.lastPollError)
      return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}): the last poll failed: ${r.lastPollError}`
    if (r.timedOut)
      return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}). Raise \`wait-timeout\`, or set \`wait: false\`.`
    if (r.job && s.failOnStatus.includes(r.job.status))
      return `Job ${jobId} ended with status \`${r.job.status}\`, which \`fail-on-status\` lists.`
    return undefined
  }

  /**
   * Records the job on the pull request it opened in this repository, so a reply with the
   * trigger reaches it. Returns that pull request's number. A failure is a warning.
   */
  private async recordRoute(
    job: AgentJob | undefined,
    pr: number | undefined
  ): Promise<number | undefined> {
    if (job?.status !== 'completed' || pr === undefined || this.s.comment === 'false') return
    if (pr === this.ctx.target?.issueNumber) return pr // the live comment carries the marker
    const thread = this.thread(pr)
    if (!thread) return undefined
    const report: JobReport = {
      ...this.report('done'),
      endedAt: Date.now(),
      routedHere: true,
      prNumber: pr
    }
    try {
      const ref = await thread.upsert({
        key: markerKey('route', this.s.projectId, this.jobId ?? ''),
        body: fitComment(renderJobReport(report), COMMENT_LIMIT - MARKER_ROOM),
        mode: 'upsert'
      })
      core.info(`Recorded job ${this.jobId} on pull request #${pr}: ${ref.url}`)
      return pr
    } catch (err) {
      core.warning(messageOf(err))
      return undefined
    }
  }

  private cancelled(signal: NodeJS.Signals): Promise<void> {
    const said: Record<Stage, { text: string; delivered: JobReport['delivered'] }> = {
      preparing: { text: 'nothing was sent to the service', delivered: 'no' },
      sending: {
        text: 'the instruction may or may not have been delivered: check the job before sending it again',
        delivered: 'maybe'
      },
      waiting: {
        text: 'the job keeps running on the service; this run stopped waiting',
        delivered: 'yes'
      }
    }
    const { text, delivered } = said[this.stage]
    const error = `Cancelled (${signal}): ${text}.`
    core.setFailed(error)
    if (this.lastJob) this.setJobOutputs(this.lastJob)
    // The process ends in the signal handler, before run() could set it.
    core.setOutput('requests', String(this.ctx.service.requests))
    return this.end({ ...this.report('cancelled'), error, delivered })
  }

  private report(phase: JobReport['phase']): JobReport {
    return {
      command: this.command,
      projectId: this.s.projectId,
      jobId: this.jobId,
      phase,
      job:
        (phase === 'waiting' || phase === 'cancelled') && this.maybeStale
          ? undefined
          : this.lastJob,
      prompt: this.prompt,
      startedAt: this.ctx.startedAt,
      waited: this.s.wait,
      runUrl: this.ctx.runUrl,
      trigger: this.s.trigger,
      routedHere: this.routeHere,
      requests: this.ctx.service.requests
    }
  }

  private routeKeys(): string[] {
    return this.routeHere && this.jobId !== undefined
      ? [markerKey('route', this.s.projectId, this.jobId)]
      : []
  }

  private setJobOutputs(job: AgentJob | undefined): void {
    if (!job) return
    this.lastJob = job
    core.setOutput('status', job.status)
    core.setOutput('pr-link', job.prLink ?? '')
    let json = JSON.stringify(job)
    if (json.length > MAX_JOB_OUTPUT_CHARS) {
      core.warning(
        'The job object is too large for a step output; `job` holds its main fields only.'
      )
      const { id, status, source, model, prLink, createdAt, archivedAt } = job
      json = JSON.stringify({ id, status, source, model, prLink, createdAt, archivedAt })
    }
    core.setOutput('job', json)
  }

  /** One thread per issue or pull request, so each is listed at most once per run. */
  private thread(issueNumber: number | undefined): CommentThread | undefined {
    const { octokit, event, settings } = this.ctx
    if (!octokit || issueNumber === undefined || event.owner === '' || event.repo === '') return
    let thread = this.threads.get(issueNumber)
    if (!thread) {
      const place = { owner: event.owner, repo: event.repo, issueNumber }
      thread = new CommentThread(octokit, place, settings.apiKey)
      this.threads.set(issueNumber, thread)
    }
    return thread
  }

  private async react(content: 'rocket' | 'confused'): Promise<void> {
    const { octokit, event, settings } = this.ctx
    if (!octokit || !event.comment || settings.comment === 'false') return
    await addReaction(octokit, event.owner, event.repo, event.comment, content, core.warning)
  }
}

/**
 * The one comment about this run, on `target`: created once the service has answered, edited
 * on changes and at the end. Its markers are signed with its id, so a new comment gets them
 * in the next edit instead of an edit of its own, unless this write is the last one or records a
 * route no other comment has (a reply must find it while the run still waits).
 */
class ProgressComment {
  private ref?: CommentRef
  private broken = false

  constructor(
    private readonly ctx: CommandContext,
    private readonly thread: CommentThread | undefined
  ) {}

  async write(
    report: JobReport,
    o: { routeKeys?: string[]; last?: boolean; signNow?: boolean } = {}
  ): Promise<void> {
    const { target, settings: s } = this.ctx
    if (!this.thread || !target || this.broken) return
    const w = {
      key: markerKey('job', s.projectId, report.jobId ?? ''),
      extraKeys: o.routeKeys ?? [],
      body: fitComment(renderJobReport(report), COMMENT_LIMIT - MARKER_ROOM)
    }
    try {
      if (this.ref) {
        this.ref = await this.thread.update(this.ref.id, w)
      } else {
        const signLater = !o.last && !o.signNow
        const made = await this.thread.upsert({ ...w, mode: s.commentMode, signLater })
        this.ref = { id: made.id, url: made.url }
      }
      core.setOutput('comment-url', this.ref.url)
    } catch (err) {
      // A token that may not write will not be allowed on the next write either.
      if (err instanceof GitHubError && (err.status === 401 || err.status === 403))
        this.broken = true
      core.warning(messageOf(err))
    }
  }
}

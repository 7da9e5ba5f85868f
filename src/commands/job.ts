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
import { cancelled, exitProblem, type Stage } from '../agent/verdict.js'
import { jobUrlPath, waitForJob, type WaitResult } from '../agent/wait.js'
import { messageOf } from '../errors.js'
import { markerKey, parsePullRequestLink } from '../github/comments.js'
import { JobComments } from '../github/progress-comment.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import { AgentApi } from '../service/agent-api.js'
import { capJobJson, isFinalStatus, type AgentJob } from '../service/schema.js'
import { InputError } from '../inputs.js'
import type { JobSettings } from '../settings.js'
import type { CommandContext } from './context.js'
import { placeNoun } from '../github/event.js'

export async function runJob(ctx: CommandContext<JobSettings>): Promise<void> {
  const run = new JobRun(ctx)
  await run.execute()
}

class JobRun {
  private readonly s: JobSettings
  private readonly comments: JobComments
  private readonly agent: AgentApi
  /** The job's pull-request link before the instruction (a follow-up's job may have one). */
  private prBefore?: string
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
  /** The service has the instruction: from here on, the live comment records this run's job. */
  private delivered = false
  /** A re-run whose earlier attempt delivered the instruction: it follows that job, sends nothing. */
  private followsEarlierAttempt = false
  /** The job failed for certain: a re-run is a retry, and sends the instruction again. */
  private retryable = false

  constructor(private readonly ctx: CommandContext<JobSettings>) {
    this.s = ctx.settings
    this.command = ctx.settings.command === 'create' ? 'create' : 'message'
    this.prompt = ctx.settings.prompt
    this.agent = new AgentApi(ctx.service)
    this.comments = new JobComments({
      octokit: ctx.settings.comment === 'false' ? undefined : ctx.octokit,
      owner: ctx.event.owner,
      repo: ctx.event.repo,
      target: ctx.target,
      projectId: ctx.settings.projectId,
      commentMode: ctx.settings.commentMode,
      secret: ctx.settings.apiKey,
      ...(ctx.event.comment ? { answerTo: ctx.event.comment.id } : {})
    })
  }

  async execute(): Promise<void> {
    this.ctx.result.onCancel = signal => this.cancelled(signal)
    await this.run()
  }

  private async run(): Promise<void> {
    const s = this.s
    const earlier = await this.earlierAttemptsJob()
    if (earlier !== undefined) this.jobId = earlier
    else if (this.command === 'message' && s.jobId === '') await this.chooseJob()
    else if (this.command === 'message') this.jobId = s.jobId
    if (this.jobId !== undefined) this.ctx.result.set('job-id', this.jobId)
    if (s.context) this.prompt = composePrompt(this.ctx.settings.prompt, await this.gatherContext())

    let before: AgentJob | undefined
    if (this.command === 'message' && s.wait && earlier === undefined)
      before = await this.jobBeforeSending()
    // A follow-up whose job already linked this pull request updated it; it did not open it.
    this.prBefore = before?.prLink ?? undefined

    const sent: Sent =
      earlier !== undefined ? { jobId: earlier, answeredAt: Date.now() } : await this.send()
    // `wait-timeout` counts from the answer: GitHub calls get the time the wait has left.
    this.ctx.clock.deadline = sent.answeredAt + s.waitTimeoutMs
    this.delivered = true
    this.stage = 'waiting'
    const shown = sent.job ?? before
    this.maybeStale =
      this.command === 'message' && shown !== undefined && isFinalStatus(shown.status)
    this.setJobOutputs(sent.job)
    // Without waiting, the ending below is the first and only write.
    if (s.wait) await this.writeLive(this.report('waiting'), { routeKeys: this.routeKeys() })

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
    const thread = this.comments.thread(event.issueNumber)
    let found: string | undefined
    try {
      found = thread ? await thread.findRoutedJob(s.projectId) : undefined
    } catch (err) {
      const error = `${messageOf(err)}. Nothing was sent to the service.`
      this.end({ ...this.report('error'), error, delivered: 'no' })
      throw new Error(error, { cause: err })
    }
    const here = `This ${placeNoun(event.isPullRequest)}`
    if (found) {
      core.info(`${here} records agent job ${found}: the follow-up goes there.`)
      this.jobId = found
      // The live comment may replace the one that carried the route: it must carry it on.
      this.routeHere = this.ctx.target?.issueNumber === event.issueNumber
      return
    }
    if (s.whenNoJob === 'create' && event.comment) {
      core.info(
        `${here} records no agent job, and \`when-no-job\` is \`create\`: starting a new job with the instruction.`
      )
      this.command = 'create'
      this.routeHere = this.ctx.target?.issueNumber === event.issueNumber
      return
    }
    const why =
      `is empty and ${here.toLowerCase()} records no agent job of this project. Set \`job-id\` in the ` +
      'workflow, set `when-no-job: create` to start a job from such a comment, or reply on a ' +
      'pull request that the docs agent opened after an instruction sent by this action'
    this.end({ ...this.report('no-job'), error: `Input \`job-id\` ${why}`, delivered: 'no' })
    throw new InputError('job-id', why)
  }

  /**
   * On a re-run (a later attempt of the same workflow run), the job an earlier attempt delivered
   * this instruction to, as its comment records it: that job is followed and nothing is sent
   * again. A run with nowhere to comment has no record, and sends again (the README says so).
   */
  private async earlierAttemptsJob(): Promise<string | undefined> {
    const run = this.ctx.run
    if (!run || run.attempt < 2) return undefined
    const thread = this.comments.thread(this.ctx.target?.issueNumber)
    if (!thread) return undefined
    let found: string | undefined
    try {
      found = await thread.findRunJob(this.s.projectId, run.id)
    } catch (err) {
      const error = `${messageOf(err)}. Nothing was sent to the service.`
      this.end({ ...this.report('error'), error, delivered: 'no' })
      throw new Error(error, { cause: err })
    }
    if (found === undefined) return undefined
    this.followsEarlierAttempt = true
    core.notice(
      `This is attempt ${run.attempt} of workflow run ${run.id}: an earlier attempt already ` +
        `delivered the instruction to job ${found}, so it is not sent again. This run follows that job.`
    )
    return found
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
      const why = messageOf(err)
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
      const job = await this.agent.getJob(path, Date.now() + s.waitTimeoutMs)
      this.lastJob = job
      return job
    } catch (err) {
      const error = `${messageOf(err)}. Nothing was sent to the service.`
      this.end({ ...this.report('error'), error, delivered: 'no' })
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
      const sent = await sendInstruction(this.agent, instruction, Date.now() + s.waitTimeoutMs)
      this.jobId = sent.jobId
      this.lastJob = sent.job ?? this.lastJob
      this.ctx.result.set('job-id', sent.jobId)
      core.info(
        this.command === 'create'
          ? `The service started job ${sent.jobId} (status: ${sent.job?.status ?? 'unknown'}).`
          : `The service took the follow-up (job status: ${sent.job?.status ?? 'unknown'}).`
      )
      return sent
    } catch (err) {
      const delivered = deliveryOf(err)
      this.end({ ...this.report('error'), error: messageOf(err), delivered })
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
        service: this.agent,
        path: jobUrlPath(s.jobPath, s.projectId, jobId),
        deadline: sent.answeredAt + s.waitTimeoutMs,
        pollIntervalMs: s.pollIntervalMs,
        jobId,
        job: sent.job,
        evidence: {
          // An earlier attempt's POST was answered: whatever the job shows now came after it.
          isNew: this.command === 'create' || this.followsEarlierAttempt,
          before,
          seenWorking: sent.job !== undefined && !isFinalStatus(sent.job.status),
          answeredAt: sent.answeredAt,
          settleTimeMs: s.settleTimeMs
        },
        onChange: async job => {
          this.lastJob = job
          this.maybeStale = false
          await this.writeLive(this.report('waiting'), { routeKeys: this.routeKeys() })
        },
        log: line => core.info(line),
        warn: line => core.warning(line)
      })
    } catch (err) {
      const error = `The service took the instruction, then polling job ${jobId} failed: ${messageOf(err)}`
      this.end({ ...this.report('error'), error, delivered: 'yes' })
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
    // A job that failed is what "re-run the workflow" retries: without this run's delivery
    // marker, the next attempt sends the instruction again instead of following this job.
    this.retryable = !result.timedOut && !result.doubted && status === 'failed'
    const failure = exitProblem(result, this.jobId ?? '', this.s)
    this.end({
      ...this.report(result.timedOut ? 'timed-out' : 'done'),
      // Only the service's words go here (escaped as untrusted); the step's own message, with
      // its advice, goes to the log.
      error: result.timedOut ? result.lastPollError : undefined,
      prNumber,
      ...(routedPr !== undefined ? { routedTo: routedPr } : {}),
      // Answering on the pull request the job opened: "this pull request", not a link to itself.
      ...(prNumber !== undefined && prNumber === this.ctx.target?.issueNumber
        ? { onItsPullRequest: {} }
        : {})
    })
    if (failure) {
      this.ctx.result.failure = failure
      return
    }
    if (status === 'completed' && job?.prLink) this.ctx.result.reaction = 'rocket'
    if (status === 'archived') core.warning(`Job ${jobId} was archived.`)
    if (status === 'completed' && !job?.prLink) core.notice(noPullRequestNote(jobId))
  }

  /** Every ending: the live comment's last write and the job summary, published by run(). */
  private end(report: JobReport): void {
    const ended = { ...report, endedAt: Date.now() }
    const routeKeys = this.routeKeys()
    this.ctx.result.comment = () => this.comments.write(ended, { routeKeys })
    // The summary is read on the run's page: it names the pull request, never "this" one.
    if (this.s.summary)
      this.ctx.result.summary = renderJobReport(
        { ...ended, onItsPullRequest: undefined },
        'summary'
      )
  }

  /** A write of the live comment during the run; its URL is an output at once. */
  private async writeLive(report: JobReport, o: { routeKeys: string[] }) {
    const url = await this.comments.write(report, o)
    if (url) this.ctx.result.set('comment-url', url)
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
    const report: JobReport = {
      ...this.report('done'),
      endedAt: Date.now(),
      routedHere: true,
      prNumber: pr,
      onItsPullRequest: { ...(this.askedIn() ? { askedIn: this.askedIn() } : {}) }
    }
    return (await this.comments.recordRoute(report, pr)) ? pr : undefined
  }

  /** The pull request or issue this run answers on, where the job was asked for. */
  private askedIn(): { number: number; url: string } | undefined {
    const n = this.ctx.target?.issueNumber
    const { owner, repo } = this.ctx.event
    if (n === undefined || owner === '' || repo === '') return undefined
    // GitHub sends /issues/N to /pull/N for a pull request: one address serves both.
    return { number: n, url: `${this.ctx.serverUrl}/${owner}/${repo}/issues/${n}` }
  }

  private cancelled(signal: NodeJS.Signals): Promise<string> {
    const { error, delivered } = cancelled(signal, this.stage)
    if (this.lastJob) this.setJobOutputs(this.lastJob)
    this.end({ ...this.report('cancelled'), error, delivered })
    return Promise.resolve(error)
  }

  private report(phase: JobReport['phase']): JobReport {
    const asked = this.askedIn()
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
      fromComment: this.ctx.event.comment !== undefined,
      ...(asked ? { askedOn: { ...asked, pullRequest: this.ctx.event.isPullRequest } } : {}),
      routedHere: this.routeHere,
      requests: this.ctx.service.requests,
      ...(this.followsEarlierAttempt ? { rerun: true } : {}),
      prUpdated: this.prBefore !== undefined && this.lastJob?.prLink === this.prBefore
    }
  }

  /**
   * The markers the live comment carries besides its own: the route (replies go to this job) and,
   * once the service has the instruction, this run's delivery, so a re-run follows the same job
   * (unless the job failed: then a re-run is a retry).
   */
  private routeKeys(): string[] {
    const keys: string[] = []
    if (this.routeHere && this.jobId !== undefined)
      keys.push(markerKey('route', this.s.projectId, this.jobId))
    if (this.delivered && !this.retryable && this.jobId !== undefined && this.ctx.run)
      keys.push(markerKey('run', this.s.projectId, this.ctx.run.id, this.jobId))
    return keys
  }

  private setJobOutputs(job: AgentJob | undefined): void {
    if (!job) return
    this.lastJob = job
    this.ctx.result.set('status', job.status)
    this.ctx.result.set('pr-link', job.prLink ?? '')
    const { json, capped } = capJobJson(job)
    if (capped)
      core.warning(
        'The job object is too large for a step output; `job` holds its main fields only, long ones cut.'
      )
    this.ctx.result.set('job', json)
  }
}

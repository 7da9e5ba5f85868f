// `command: message` and `command: create` as four phases, each returning what the next needs:
// prepare (which job, which instruction, the job before) → deliver (sent once, or found sent by an
// earlier attempt) → follow (the wait) → conclude (the ending). One try/catch turns whatever
// stopped the run into one ending. Once the service has the instruction, GitHub failures are
// warnings: the run still waits and sets its outputs, so nobody re-runs it and sends it twice.
import * as core from '@actions/core'
import { noPullRequestNote, readPoll } from '../agent/completion.js'
import { deliveryOf, sendInstruction, type Sent } from '../agent/send.js'
import { cancelled, exitProblem, stoppedBy, type Stage } from '../agent/verdict.js'
import { jobUrlPath, waitForJob, type WaitResult } from '../agent/wait.js'
import { messageOf } from '../errors.js'
import { parsePullRequestLink } from '../github/comments.js'
import { deliveryKey, deliveryStep, otherStepsRecords } from '../records/delivery.js'
import { recordKey } from '../records/kinds.js'
import { fixKey } from '../records/report.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import { AgentApi } from '../service/agent-api.js'
import { isFinalStatus, type AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings.js'
import type { CommandContext } from './context.js'
import { answerKey, JobComments } from './job-comments.js'
import { changesOf, jobReport, readerCause, setJobOutputs, type Seen } from './job-state.js'
import { recordOnItsPullRequest } from './job-records.js'
import { initialTarget, NoJobError, prepareTarget, type Target } from './job-target.js'

export async function runJob(ctx: CommandContext<JobSettings>): Promise<void> {
  await new JobRun(ctx).run()
}

/** How the run ended: the report that says so, and what the step publishes with it. */
interface Ending {
  report: JobReport
  /** Why the step fails, if it does. */
  failure?: string
  /** The job failed for certain: a re-run is a retry and sends the instruction again. */
  retry?: true
}

class JobRun {
  private readonly s: JobSettings
  private readonly comments: JobComments
  private readonly agent: AgentApi
  // The three things the cancellation handler and the live comment read while the run goes on.
  private stage: Stage = 'preparing'
  private target: Target
  /** The last job seen; `stale` while it may still show its state from before the instruction. */
  private last?: Seen

  constructor(private readonly ctx: CommandContext<JobSettings>) {
    const s = ctx.settings
    this.s = s
    this.target = initialTarget(s)
    this.agent = new AgentApi(ctx.service)
    this.comments = new JobComments({
      // Also with `comment: false`: the record that the job opened a pull request is still kept.
      ...(ctx.records ? { records: ctx.records } : {}),
      owner: ctx.event.owner,
      repo: ctx.event.repo,
      target: ctx.target,
      projectId: s.projectId,
      commentMode: s.commentMode,
      ...(ctx.event.comment ? { answerTo: answerKey(ctx.event.comment) } : {})
    })
  }

  async run(): Promise<void> {
    this.ctx.result.onCancel = signal => Promise.resolve(this.cancel(signal))
    let ending: Ending
    try {
      this.target = await this.prepare()
      const sent = await this.deliver(this.target)
      const waited = await this.follow(sent)
      ending = await this.conclude(waited)
    } catch (err) {
      ending = this.stopped(err)
    }
    this.end(ending)
  }

  // ---------------------------------------------------------------------------------------------
  // The phases

  private async prepare(): Promise<Target> {
    const target = await prepareTarget(this.ctx, this.comments, this.agent, this.target, t => {
      // Known before the instruction is sent: a cancellation from here on names the job.
      this.target = t
      if (t.jobId !== undefined) this.ctx.result.set('job-id', t.jobId)
    })
    if (target.before) this.last = { job: target.before, stale: false }
    return target
  }

  private async deliver(target: Target): Promise<Sent> {
    const { deadline, result } = this.ctx
    if (target.earlier && target.jobId !== undefined)
      return { jobId: target.jobId, answeredAt: deadline.now(), byEarlierAttempt: true }
    this.stage = 'sending'
    const create = target.command === 'create'
    core.startGroup(create ? 'New agent job' : `Follow-up to job ${target.jobId}`)
    try {
      const sent = await sendInstruction(
        this.agent,
        create
          ? { command: 'create', projectId: this.s.projectId, prompt: target.prompt }
          : {
              command: 'message',
              projectId: this.s.projectId,
              jobId: target.jobId ?? '',
              prompt: target.prompt
            },
        deadline
      )
      this.target = { ...target, jobId: sent.jobId }
      result.set('job-id', sent.jobId)
      const status = sent.job?.status ?? 'unknown'
      core.info(
        create
          ? `The service started job ${sent.jobId} (status: ${status}).`
          : `The service took the follow-up (job status: ${status}).`
      )
      return sent
    } finally {
      core.endGroup()
    }
  }

  private async follow(sent: Sent): Promise<WaitResult> {
    const { deadline } = this.ctx
    const s = this.s
    const { before } = this.target
    // `wait-timeout` counts from the answer: GitHub calls get the time the wait has left.
    deadline.restartFrom(sent.answeredAt)
    this.stage = 'waiting'
    const evidence = {
      // An earlier attempt's POST was answered: whatever the job shows now came after it.
      isNew: this.target.command === 'create' || sent.byEarlierAttempt === true,
      before,
      seenWorking: sent.job !== undefined && !isFinalStatus(sent.job.status),
      answeredAt: sent.answeredAt,
      settleTimeMs: s.settleTimeMs
    }
    // What the run shows now may be the job's state from before the follow-up.
    const shown = sent.job ?? this.last?.job
    if (shown)
      this.last = {
        job: shown,
        stale: readPoll(shown, evidence, deadline.now()).kind === 'doubted'
      }
    this.setJobOutputs(sent.job)
    if (!s.wait) return { job: sent.job, timedOut: false, doubted: false }
    // Without waiting, the ending is the first and only write.
    await this.writeLive(this.report('waiting'), this.keys(this.target.routeHere))
    const jobId = sent.jobId
    return waitForJob({
      service: this.agent,
      path: jobUrlPath(s.jobPath, s.projectId, jobId),
      deadline,
      pollIntervalMs: s.pollIntervalMs,
      jobId,
      job: sent.job,
      evidence,
      onChange: async job => {
        this.last = { job, stale: false }
        // The record first: it asks GitHub whether the job opened its pull request (the words).
        await this.record(job, 'waiting', false)
        await this.writeLive(this.report('waiting'), this.keys(this.target.routeHere))
      },
      log: line => core.info(line),
      warn: line => core.warning(line)
    })
  }

  private async conclude(waited: WaitResult): Promise<Ending> {
    const jobId = this.target.jobId ?? ''
    const job = waited.job ?? this.last?.job
    if (job) this.last = { job, stale: false }
    this.setJobOutputs(waited.job)
    const status = waited.job?.status
    const { serverUrl, event, target } = this.ctx
    const prNumber = waited.job?.prLink
      ? parsePullRequestLink(waited.job.prLink, serverUrl, event.owner, event.repo)
      : undefined
    const phase = waited.timedOut ? 'timed-out' : 'done'
    const route = await this.record(job, phase, true)
    if (route !== undefined && route.pr === target?.issueNumber)
      this.target = { ...this.target, routeHere: true }
    const failure = exitProblem(waited, jobId, this.s)
    const changes = await changesOf(this.ctx, waited.job)
    const report: JobReport = {
      ...this.report(phase),
      // Only the service's words go here (escaped as untrusted); the step's own message, with
      // its advice, goes to the log.
      ...(waited.timedOut && waited.lastPollError ? readerCause(waited.lastPollError) : {}),
      prNumber,
      ...(changes ? { changes } : {}),
      ...(route !== undefined ? { routedTo: route.pr } : {}),
      // The record on the pull request was there: an earlier answer here pointed to it.
      ...(route?.existed ? { hintGiven: true } : {}),
      // Answering on the pull request the job opened: "this pull request", not a link to itself.
      ...(prNumber !== undefined && prNumber === target?.issueNumber
        ? { onItsPullRequest: {} }
        : {})
    }
    const retry = status === 'failed' ? ({ retry: true } as const) : {}
    if (failure) return { report, failure, ...retry }
    if (status === 'completed' && waited.job?.prLink) this.ctx.result.reaction = 'rocket'
    if (status === 'archived') core.warning(`Job ${jobId} was archived.`)
    if (status === 'completed' && !waited.job?.prLink) core.notice(noPullRequestNote(jobId))
    return { report, ...retry }
  }

  /** Whatever stopped the run, as its one ending: what the stage lets it say about delivery. */
  private stopped(err: unknown): Ending {
    if (err instanceof NoJobError)
      return {
        report: {
          ...this.report('no-job'),
          delivered: 'no',
          ...(err.elsewhere ? { elsewhere: err.elsewhere } : {})
        },
        failure: err.message
      }
    const delivered =
      this.stage === 'preparing' ? 'no' : this.stage === 'sending' ? deliveryOf(err) : 'yes'
    const failure = stoppedBy(messageOf(err), this.stage, delivered, this.target.jobId ?? '')
    return { report: { ...this.report('error'), ...readerCause(err), delivered }, failure }
  }

  private cancel(signal: NodeJS.Signals): string {
    const { error, delivered } = cancelled(signal, this.stage)
    if (this.last) this.setJobOutputs(this.last.job)
    this.end({ report: { ...this.report('cancelled'), error, delivered } })
    return error
  }

  // ---------------------------------------------------------------------------------------------
  // What the run writes

  /** The ending: the live comment's last write and the job summary, published by run(). */
  private end(ending: Ending): void {
    const ended = { ...ending.report, endedAt: this.ctx.deadline.now() }
    const keys = this.keys(ended.routedHere === true, ending.retry, ended.prNumber)
    this.ctx.result.comment = () => this.comments.write(ended, this.markers(keys))
    // The summary is read on the run's page: it names the pull request, never "this" one.
    if (this.s.summary)
      this.ctx.result.summary = renderJobReport(
        { ...ended, onItsPullRequest: undefined },
        'summary'
      )
    if (ending.failure !== undefined) this.ctx.result.failure = ending.failure
  }

  /** A write of the live comment during the run; its URL is an output at once. */
  private async writeLive(report: JobReport, keys: string[]): Promise<void> {
    const url = await this.comments.write(report, this.markers(keys))
    if (url) this.ctx.result.set('comment-url', url)
  }

  /** What this sight of the job shows on its pull request (job-records.ts): the route there. */
  private record(job: AgentJob | undefined, phase: JobReport['phase'], ending: boolean) {
    const report = { ...this.report(phase), endedAt: this.ctx.deadline.now() }
    return recordOnItsPullRequest(this.ctx, this.comments, this.target, { job, ending, report })
  }

  private report(phase: JobReport['phase']): JobReport {
    return jobReport(this.ctx, phase, this.target, this.last)
  }

  private setJobOutputs(job: AgentJob | undefined): void {
    setJobOutputs(this.ctx.result, job, this.ctx.serverUrl)
  }

  /** The live comment's markers besides its own: `keys`, and other steps' records it keeps. */
  private markers(keys: string[]): { routeKeys: string[]; carry: (key: string) => boolean } {
    return { routeKeys: keys, carry: otherStepsRecords(keys, this.s.projectId) }
  }

  /**
   * The markers the live comment carries besides its own: the route (replies go to this job) and,
   * once the service has the instruction, this step's delivery, so its re-run follows the same
   * job; once the job failed, a newer record that drops that delivery (a re-run is the retry); for
   * `fix N`, the suggestion the job is for and the pull request it opened, which the next report
   * shows.
   */
  private keys(routeHere: boolean, retry?: true, prNumber?: number): string[] {
    const { jobId } = this.target
    const { fix } = this.ctx
    const step = deliveryStep(this.s, this.ctx.run)
    const keys: string[] = []
    if (jobId === undefined) return keys
    if (routeHere) keys.push(recordKey('route', { project: this.s.projectId, job: jobId }))
    if (this.stage === 'waiting' && step) keys.push(deliveryKey(step, retry ? undefined : jobId))
    if (fix && this.stage === 'waiting') keys.push(fixKey(this.s.projectId, fix.id, prNumber))
    return keys
  }
}

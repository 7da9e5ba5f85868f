// `command: message` and `command: create` as four phases, each returning what the next needs:
// prepare (which job, which instruction, the job before) → deliver (sent once, or found sent by an
// earlier attempt) → follow (the wait) → conclude (the ending). One try/catch turns whatever
// stopped the run into one ending. Once the service has the instruction, GitHub failures are
// warnings: the run still waits and sets its outputs, so nobody re-runs it and sends it twice.
import * as core from '@actions/core'
import { readPoll } from '../agent/completion.js'
import {
  afterWait,
  cancelledAt,
  endingNote,
  jobFailed,
  noJob,
  openedOrUpdated,
  stepFailure,
  stoppedAt,
  type JobEnding,
  type Stage
} from '../agent/ending.js'
import { sendInstruction, type Sent } from '../agent/send.js'
import { jobUrlPath, waitForJob, type WaitResult } from '../agent/wait.js'
import { parsePullRequestLink } from '../github/comments.js'
import { deliveryOf } from '../records/delivery.js'
import { liveCommentRecords, type LiveRecords } from '../records/job.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import { checksVerdict } from '../report/job-checks.js'
import { AgentApi } from '../service/agent-api.js'
import { isFinalStatus, type AgentJob } from '../service/schema.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { changesOf, jobReport, withChecks, type Seen } from './job-answer.js'
import { jobComments, type JobComments } from './job-comments.js'
import { setJobOutputs } from '../agent/job-outputs.js'
import { recordOnItsPullRequest } from './job-records.js'
import { initialTarget, NoJobError, prepareTarget, type Target } from './job-target.js'
import { noticeFor, noticeOf, type CodePullRequestNotice } from './job-notify.js'

export async function runJob(ctx: CommandContext<JobSettings>): Promise<void> {
  await new JobRun(ctx).run()
}

/** How the run ended, and what the report learned at the end (the pull request, the route). */
interface Ended {
  ending: JobEnding
  learned?: Partial<JobReport>
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
  /** The code pull request of a dispatch, told in one comment (job-notify.ts). */
  private readonly code: { notice?: CodePullRequestNotice; note?: string }

  constructor(private readonly ctx: CommandContext<JobSettings>) {
    const s = ctx.settings
    this.s = s
    this.code = noticeFor(ctx)
    this.target = initialTarget(s)
    ctx.result.set('grew', 'false')
    this.agent = new AgentApi(ctx.service)
    this.comments = jobComments(ctx)
  }

  async run(): Promise<void> {
    this.ctx.result.onCancel = signal => Promise.resolve(this.cancel(signal))
    let ended: Ended
    try {
      this.target = await this.prepare()
      const sent = await this.deliver(this.target)
      await this.code.notice?.say({ kind: 'working' })
      const waited = await this.follow(sent)
      ended = await withChecks(this.ctx, await this.conclude(waited))
      const e = ended.ending
      if (e.kind === 'finished') await this.comments.growthVerdict(checksVerdict(e.checks))
    } catch (err) {
      ended = { ending: this.stopped(err) }
    }
    this.end(ended)
  }

  // ---------------------------------------------------------------------------------------------
  // The phases

  private async prepare(): Promise<Target> {
    const target = await prepareTarget(this.ctx, this.comments, this.agent, this.target, t => {
      // Known before the instruction is sent: a cancellation from here on names the job.
      this.target = t
      if (t.jobId !== undefined) this.ctx.result.set('job-id', t.jobId)
      this.ctx.result.set('grew', t.grew ? 'true' : 'false')
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
    await this.writeLive(this.report(), this.records(this.target.routeHere))
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
        await this.record(job)
        await this.writeLive(this.report(), this.records(this.target.routeHere))
      },
      log: line => core.info(line),
      warn: line => core.warning(line)
    })
  }

  private async conclude(waited: WaitResult): Promise<Ended> {
    const jobId = this.target.jobId ?? ''
    const job = waited.job ?? this.last?.job
    if (job) this.last = { job, stale: false }
    this.setJobOutputs(waited.job)
    const ending = afterWait(waited, this.s)
    const { serverUrl, event, target } = this.ctx
    const prNumber = waited.job?.prLink
      ? parsePullRequestLink(waited.job.prLink, serverUrl, event.owner, event.repo)
      : undefined
    const route = await this.record(job, ending)
    if (route !== undefined && route.pr === target?.issueNumber)
      this.target = { ...this.target, routeHere: true }
    const changes = await changesOf(this.ctx, waited.job, this.target.grew)
    if (openedOrUpdated(ending)) this.ctx.result.reaction = 'rocket'
    const note = endingNote(ending, jobId)
    if (note) core[note.level](note.text)
    const learned: Partial<JobReport> = {
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
    return { ending, learned }
  }

  /** Whatever stopped the run, as its one ending: what the stage lets it say about delivery. */
  private stopped(err: unknown): JobEnding {
    if (err instanceof NoJobError) return noJob(err.message)
    return stoppedAt(this.stage, err)
  }

  private cancel(signal: NodeJS.Signals): string {
    if (this.last) this.setJobOutputs(this.last.job)
    // A cancellation always fails the step.
    return this.end({ ending: cancelledAt(this.stage, signal) }) ?? ''
  }

  // ---------------------------------------------------------------------------------------------
  // What the run writes

  /**
   * The ending: the live comment's last write, the job summary and the step's failure, all
   * worded from the one ending, published by run(). Returns the failure, if the step fails.
   */
  private end({ ending, learned }: Ended): string | undefined {
    const ended = { ...this.report(ending), ...learned, endedAt: this.ctx.deadline.now() }
    const records = this.records(ended.routedHere === true, jobFailed(ending), ended.prNumber)
    const write = () => this.comments.write(ended, records)
    const notice = this.code.notice
    this.ctx.result.comment = notice
      ? () => write().finally(() => notice.say(noticeOf(ending, ended.job?.prLink ?? undefined)))
      : write
    // The summary is read on the run's page: it names the pull request, never "this" one.
    if (this.s.summary)
      this.ctx.result.summary =
        renderJobReport({ ...ended, onItsPullRequest: undefined }, 'summary') +
        (this.code.note ? `\n\n${this.code.notice?.note() ?? this.code.note}\n` : '')
    const failure = stepFailure(ending, this.target.jobId ?? '')
    if (failure !== undefined) this.ctx.result.failure = failure
    return failure
  }

  /** A write of the live comment during the run; its URL is an output at once. */
  private async writeLive(report: JobReport, records: LiveRecords): Promise<void> {
    const url = await this.comments.write(report, records)
    if (url) this.ctx.result.set('comment-url', url)
  }

  /**
   * What this sight of the job shows on its pull request (job-records.ts): the route there. With
   * `ending`, the run's last sight; without, one while it waits.
   */
  private record(job: AgentJob | undefined, ending?: JobEnding) {
    const report = { ...this.report(ending), endedAt: this.ctx.deadline.now() }
    return recordOnItsPullRequest(this.ctx, this.comments, this.target, {
      job,
      ending: ending !== undefined,
      report
    })
  }

  /** The report of the run as it stands: ended, or (no `ending`) still waiting. */
  private report(ending?: JobEnding): JobReport {
    return jobReport(this.ctx, ending, this.target, this.last)
  }

  private setJobOutputs(job: AgentJob | undefined): void {
    setJobOutputs(this.ctx.result, job, this.ctx.serverUrl)
  }

  /** What the live comment records besides its own key (records/job.ts liveCommentRecords). */
  private records(routeHere: boolean, retry = false, prNumber?: number): LiveRecords {
    const delivered = this.stage === 'waiting'
    return liveCommentRecords({
      project: this.s.projectId,
      job: this.target.jobId,
      routeHere,
      ...(delivered ? { delivered: deliveryOf(this.ctx, retry) } : {}),
      ...(delivered ? { fixes: this.ctx.asker.fixes ?? [] } : {}),
      ...(prNumber !== undefined ? { prNumber } : {})
    })
  }
}

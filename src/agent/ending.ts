// How a job run ended, decided once: the JobEnding (report/job-report.ts) from what the run knows
// (the wait, the stage it stopped at, the error, the inputs that fail the step), and that ending
// in the log's words: the message that fails the step, or the note that says how the job came
// out. The comment and the summary word the same value (report/job.ts, report/job-ending.ts).
import { messageOf, TimeUpError, withStop } from '../errors.js'
import { GitHubError } from '../github/errors.js'
import type { Cause, Elsewhere, JobEnding, JobOutcome, Stage } from '../report/job-report.js'
import { capitalise } from '../report/markdown.js'
import { formatDuration } from '../report/numbers.js'
import { BudgetError, RateLimitError, ServiceError, type Delivery } from '../service/errors.js'
import { causeOf as knownCause, fixerSentence } from '../causes.js'
import type { AgentJob } from '../service/schema.js'
import { checksFailure } from './checks.js'
import { noPullRequestNote } from './completion.js'
import { deliveryOf } from './send.js'
import type { WaitResult } from './wait.js'

export type { JobEnding, Stage } from '../report/job-report.js'

/** The inputs that decide how a wait ends. */
export interface EndingSettings {
  wait: boolean
  waitTimeoutMs: number
  failOnStatus: readonly string[]
  requirePr?: boolean
}

function outcomeOf(job: AgentJob | undefined): JobOutcome {
  if (job?.status === 'completed') return job.prLink ? 'pull-request' : 'no-pull-request'
  if (job?.status === 'failed') return 'failed'
  return job?.status === 'archived' ? 'archived' : 'other'
}

/**
 * The ending after the wait (or without one, `wait: false`: the status the POST answered may be
 * the job's state from before the instruction, so it decides nothing).
 */
export function afterWait(w: WaitResult, s: EndingSettings): JobEnding {
  if (!s.wait) return { kind: 'not-waited' }
  const status = w.job?.status
  if (w.timedOut)
    return {
      kind: 'timed-out',
      waitedMs: s.waitTimeoutMs,
      ...(status !== undefined ? { status } : {}),
      doubted: w.doubted,
      ...(w.lastPollError ? { lastPoll: causeOf(w.lastPollError) } : {})
    }
  const outcome = outcomeOf(w.job)
  // `require-pr` first: for a completed job without a pull request it is the reason to name.
  const failsBy =
    s.requirePr && outcome === 'no-pull-request'
      ? 'require-pr'
      : status !== undefined && s.failOnStatus.includes(status)
        ? 'fail-on-status'
        : undefined
  return { kind: 'finished', outcome, status: status ?? '', ...(failsBy ? { failsBy } : {}) }
}

/**
 * The ending when an error stopped the run at `stage`: before the POST nothing was sent; during
 * it, the error says whether the service took it; after it, the service has the instruction.
 */
export function stoppedAt(stage: Stage, err: unknown): JobEnding {
  const delivered = stage === 'preparing' ? 'no' : stage === 'sending' ? deliveryOf(err) : 'yes'
  return { kind: 'stopped', stage, delivered, cause: causeOf(err) }
}

const DELIVERED_BY_STAGE: Record<Stage, Delivery> = {
  preparing: 'no',
  sending: 'maybe',
  waiting: 'yes'
}

/** The ending when the runner cancelled the run at `stage`. */
export function cancelledAt(stage: Stage, signal: NodeJS.Signals): JobEnding {
  return { kind: 'cancelled', signal, stage, delivered: DELIVERED_BY_STAGE[stage] }
}

/**
 * The ending when there was no job to follow up. `elsewhere`: the thread's job takes its
 * instructions on the pull request it opened, a reply the gate skips (gate/route.ts) with the
 * answer this ending words.
 */
export function noJob(message: string, elsewhere?: Elsewhere): JobEnding {
  return { kind: 'no-job', message, ...(elsewhere ? { elsewhere } : {}) }
}

/** A job followed to its pull request, nothing failing: the trigger comment gets 🚀. */
export function openedOrUpdated(e: JobEnding): boolean {
  return e.kind === 'finished' && e.outcome === 'pull-request' && e.failsBy === undefined
}

/** The job failed for certain: a re-run of the workflow is a retry and sends the instruction again. */
export function jobFailed(e: JobEnding): boolean {
  return e.kind === 'finished' && e.outcome === 'failed'
}

// ---------------------------------------------------------------------------------------------
// The ending in the log's words

const MAYBE_DELIVERED =
  'the instruction may or may not have been delivered: check the job before sending it again'

const CANCELLED: Record<Stage, string> = {
  preparing: 'nothing was sent to the service',
  sending: MAYBE_DELIVERED,
  waiting: 'the job keeps running on the service; this run stopped waiting'
}

/**
 * The message that fails the step, or undefined: every ending fails it but a job followed to a
 * status nobody minds (or not waited for), and a misplaced reply.
 */
export function stepFailure(e: JobEnding, jobId: string): string | undefined {
  switch (e.kind) {
    case 'not-waited':
      return undefined
    case 'finished':
      return finishedFailure(e, jobId)
    case 'timed-out':
      return timedOutFailure(e, jobId)
    case 'cancelled':
      return `Cancelled (${e.signal}): ${CANCELLED[e.stage]}.`
    case 'stopped':
      return stoppedFailure(e, jobId)
    case 'no-job':
      return e.message
  }
}

function finishedFailure(
  e: Extract<JobEnding, { kind: 'finished' }>,
  jobId: string
): string | undefined {
  if (e.failsBy === 'require-pr')
    return (
      `Job ${jobId} completed without opening a pull request, and \`require-pr\` is \`true\`: ` +
      'the agent may have changed nothing, or committed directly to the branch it works on.'
    )
  if (e.failsBy === 'fail-on-status')
    return `Job ${jobId} ended with status \`${e.status}\`, which \`fail-on-status\` lists.`
  if (e.failsBy === 'checks' && e.checks) return checksFailure(e.checks, jobId)
  return undefined
}

function timedOutFailure(e: Extract<JobEnding, { kind: 'timed-out' }>, jobId: string): string {
  const status = e.status ?? 'unknown'
  const waited = formatDuration(e.waitedMs)
  if (e.doubted)
    return (
      `Timed out after ${waited} waiting for job ${jobId}: it still showed its state from before ` +
      `the instruction (\`${status}\`), so that was not taken as the result. The instruction was ` +
      'delivered; raise `wait-timeout` or lower `settle-time`.'
    )
  if (e.lastPoll)
    return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}): the last poll failed: ${e.lastPoll.message}`
  return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}). Raise \`wait-timeout\`, or set \`wait: false\`.`
}

/**
 * Before the POST nothing was sent; during it, the error's `delivery` says whether the service
 * took it; after it, the service has the instruction and only following the job failed.
 */
function stoppedFailure(e: Extract<JobEnding, { kind: 'stopped' }>, jobId: string): string {
  const { message } = e.cause
  // Who fixes a cause a re-run cannot help, and that a re-run as it is fails the same way.
  const who = fixerSentence(e.cause.known)
  if (e.stage === 'preparing')
    return `${message}. Nothing was sent to the service.${who ? ` ${who}` : ''}`
  if (e.stage === 'waiting')
    return `The service took the instruction, then polling job ${jobId} failed: ${message}`
  const maybe = e.delivered === 'maybe' ? `. ${capitalise(MAYBE_DELIVERED)}.` : ''
  return who ? `${withStop(`${message}${maybe}`)} ${who}` : `${message}${maybe}`
}

/** What the log says of an ending that does not fail the step, when it is worth a line. */
export function endingNote(
  e: JobEnding,
  jobId: string
): { level: 'warning' | 'notice'; text: string } | undefined {
  if (e.kind !== 'finished' || e.failsBy !== undefined) return undefined
  if (e.outcome === 'archived') return { level: 'warning', text: `Job ${jobId} was archived.` }
  if (e.outcome === 'no-pull-request') return { level: 'notice', text: noPullRequestNote(jobId) }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// An error in two wordings

/** An error for the log (its message) and for a comment's reader (`readerCause`). */
function causeOf(err: unknown): Cause {
  const { error, advice } = readerCause(err)
  const known = knownCause(err)
  return {
    message: messageOf(err),
    ...(error !== undefined ? { said: error } : {}),
    ...(advice !== undefined ? { advice } : {}),
    ...(known ? { known } : {})
  }
}

/**
 * Why the run stopped, for a comment's reader: the service's or GitHub's words (a status and
 * what it said, never the request's path: that is for the log) and the action's own advice,
 * kept apart so that the advice renders as Markdown and the words are escaped.
 */
function readerCause(err: unknown): { error?: string; advice?: string } {
  if (err instanceof RateLimitError) {
    const when = `${err.resetAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
    return {
      error: err.serviceText ?? '429 Too Many Requests',
      advice: err.resetKnown
        ? `the service's rate limit resets at ${when}: run it again after that`
        : "the service's hourly limit is spent: run it again within the hour"
    }
  }
  if (err instanceof ServiceError) {
    const { problem, hint } = err.forReaders
    return { ...(problem ? { error: problem } : {}), ...(hint ? { advice: hint } : {}) }
  }
  if (err instanceof GitHubError)
    return { error: err.problem, ...(err.hint ? { advice: err.hint } : {}) }
  if (err instanceof BudgetError)
    return {
      advice:
        `this run may send at most ${err.maxRequests} requests to the service ` +
        '(`max-requests`), and has sent them all'
    }
  if (err instanceof TimeUpError) {
    const cause = err.cause === undefined ? {} : readerCause(err.cause)
    return { ...cause, advice: `the time allowed (${err.limit}) ran out` }
  }
  return { error: messageOf(err) }
}

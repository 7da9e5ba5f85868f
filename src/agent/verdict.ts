// How a job run ended, in words: what fails the step after the wait, and what a cancellation can
// truthfully say at each stage of the run.
import { capitalise, formatDuration } from '../report/markdown.js'
import type { Delivery } from '../service/errors.js'
import type { WaitResult } from './wait.js'

/** Where the run is, for what a cancellation or an error can truthfully say. */
export type Stage = 'preparing' | 'sending' | 'waiting'

const MAYBE_DELIVERED =
  'the instruction may or may not have been delivered: check the job before sending it again'

const CANCELLED: Record<Stage, { text: string; delivered: Delivery }> = {
  preparing: { text: 'nothing was sent to the service', delivered: 'no' },
  sending: { text: MAYBE_DELIVERED, delivered: 'maybe' },
  waiting: {
    text: 'the job keeps running on the service; this run stopped waiting',
    delivered: 'yes'
  }
}

/** The failure message of a run cancelled at `stage`, and whether the instruction was delivered. */
export function cancelled(
  signal: NodeJS.Signals,
  stage: Stage
): { error: string; delivered: Delivery } {
  const { text, delivered } = CANCELLED[stage]
  return { error: `Cancelled (${signal}): ${text}.`, delivered }
}

/**
 * The message that fails the step when the run stopped on an error at `stage`: before the POST
 * nothing was sent; during it, the error's `delivery` says whether the service took it; after it,
 * the service has the instruction and only following the job failed.
 */
export function stoppedBy(
  message: string,
  stage: Stage,
  delivered: Delivery,
  jobId: string
): string {
  if (stage === 'preparing') return `${message}. Nothing was sent to the service.`
  if (stage === 'waiting')
    return `The service took the instruction, then polling job ${jobId} failed: ${message}`
  const maybe = delivered === 'maybe' ? `. ${capitalise(MAYBE_DELIVERED)}.` : ''
  return `${message}${maybe}`
}

/**
 * The message that fails the step after the wait, if any: a timeout, a `fail-on-status`, or
 * `require-pr` and no pull request.
 */
export function exitProblem(
  r: WaitResult,
  jobId: string,
  s: { waitTimeoutMs: number; failOnStatus: readonly string[]; requirePr?: boolean }
): string | undefined {
  const status = r.job?.status ?? 'unknown'
  const waited = formatDuration(s.waitTimeoutMs)
  if (r.timedOut && r.doubted)
    return (
      `Timed out after ${waited} waiting for job ${jobId}: it still showed its state from before ` +
      `the instruction (\`${status}\`), so that was not taken as the result. The instruction was ` +
      'delivered; raise `wait-timeout` or lower `settle-time`.'
    )
  if (r.timedOut && r.lastPollError)
    return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}): the last poll failed: ${r.lastPollError.message}`
  if (r.timedOut)
    return `Timed out after ${waited} waiting for job ${jobId} (last status: ${status}). Raise \`wait-timeout\`, or set \`wait: false\`.`
  if (r.job && s.failOnStatus.includes(r.job.status))
    return `Job ${jobId} ended with status \`${r.job.status}\`, which \`fail-on-status\` lists.`
  if (s.requirePr && r.job?.status === 'completed' && !r.job.prLink)
    return (
      `Job ${jobId} completed without opening a pull request, and \`require-pr\` is \`true\`: ` +
      'the agent may have changed nothing, or committed directly to the branch it works on.'
    )
  return undefined
}

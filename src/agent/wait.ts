// Polls the job until a final status is believed (see completion.ts) or the wait ends.
import { RateLimitError, ServiceError } from '../service/errors.js'
import type { Deadline } from '../deadline.js'
import { TimeUpError } from '../errors.js'
import type { AgentJob } from '../service/schema.js'
import { noteSeen, readPoll, type Evidence } from './completion.js'

export interface JobReader {
  getJob(path: string, maxAttempts?: number): Promise<AgentJob>
}

export interface WaitOptions {
  service: JobReader
  /** The job's path (from `job-path`), already filled in. */
  path: string
  /** No request starts after it; the waits between polls are on its clock. */
  deadline: Deadline
  pollIntervalMs: number
  evidence: Evidence
  jobId: string
  /** The last job seen so far (the POST's answer), returned when no poll succeeds. */
  job?: AgentJob
  /**
   * Called when a believed status or pull request differs from the last one reported (a pull
   * request the job opened is recorded as soon as it shows); not on every poll.
   */
  onChange?: (job: AgentJob) => Promise<void> | void
  log?: (line: string) => void
  warn?: (line: string) => void
  random?: () => number
}

export interface WaitResult {
  /** The last job seen. */
  job?: AgentJob
  timedOut: boolean
  /** The wait ended while a final status was still doubted: the job never showed it took the instruction. */
  doubted: boolean
  /** Why the last poll failed, when it did: a timeout then is the service's doing. */
  lastPollError?: ServiceError
}

/** Polls that fail this many times in a row inside one poll count as one failed poll. */
const ATTEMPTS_PER_POLL = 3

export function jobUrlPath(template: string, projectId: string, jobId: string): string {
  return template
    .replaceAll('{projectId}', encodeURIComponent(projectId))
    .replaceAll('{id}', encodeURIComponent(jobId))
}

/**
 * Poll delays: the first is `intervalMs`; later ones grow by half each time, with jitter, up to
 * max(intervalMs, 30 s), so a long job costs few requests and a short one is seen quickly.
 */
export function* pollDelays(
  intervalMs: number,
  random: () => number = Math.random
): Generator<number> {
  const cap = Math.max(intervalMs, 30_000)
  yield intervalMs
  let nominal = Math.max(intervalMs, 250)
  for (;;) {
    nominal = Math.min(cap, nominal * 1.5)
    yield Math.round(Math.min(cap, nominal * (0.8 + 0.4 * random())))
  }
}

export async function waitForJob(o: WaitOptions): Promise<WaitResult> {
  const { deadline } = o
  const started = o.evidence.answeredAt
  let job = o.job
  let reported = job?.status
  let reportedLink = job?.prLink ?? null
  let lastPollError: ServiceError | undefined
  let doubted = false
  const warnedStatuses = new Set<string>()
  const stamp = (): string => `[${Math.round(deadline.elapsed(started) / 1000)}s]`

  for (const delay of pollDelays(o.pollIntervalMs, o.random)) {
    await deadline.sleep(Math.min(delay, deadline.left()))
    // No request starts once the wait is over.
    if (deadline.passed()) break
    try {
      job = await o.service.getJob(o.path, ATTEMPTS_PER_POLL)
    } catch (err) {
      // The time ran out before or during the poll (a busy runner may start it late): that is
      // the wait timing out, not the job or the service failing.
      if (err instanceof TimeUpError) break
      if (!isTransient(err)) throw err
      lastPollError = err
      o.warn?.(`Polling the job failed, will poll again: ${err.message}`)
      continue
    }
    lastPollError = undefined
    const reading = readPoll(job, o.evidence, deadline.now())
    noteSeen(o.evidence, job)
    if (reading.kind === 'doubted') {
      if (!doubted)
        o.log?.(
          `${stamp()} status: ${job.status}, as before the instruction: the service may not have ` +
            `processed it yet, so this is believed only once the job changes, or from ` +
            `${Math.round((reading.believeAt - started) / 1000)}s on (\`settle-time\`).`
        )
      doubted = true
      continue
    }
    doubted = false
    if (reading.kind === 'unknown-status' && !warnedStatuses.has(job.status)) {
      warnedStatuses.add(job.status)
      o.warn?.(
        `Job ${o.jobId} has status \`${job.status}\`, which this action does not know; it is not ` +
          'one of the final statuses (completed, archived, failed), so the run keeps waiting.'
      )
    }
    const newStatus = job.status !== reported
    if (newStatus) o.log?.(`${stamp()} status: ${job.status}`)
    if (newStatus || job.prLink !== reportedLink) {
      reported = job.status
      reportedLink = job.prLink
      if (reading.kind !== 'final') await o.onChange?.(job)
    }
    if (reading.kind === 'final') {
      if (reading.why === 'settled')
        o.log?.('The job did not change within `settle-time`; its status is believed now.')
      return { job, timedOut: false, doubted: false }
    }
  }
  return { job, timedOut: true, doubted, lastPollError }
}

function isTransient(err: unknown): err is ServiceError {
  if (!(err instanceof ServiceError)) return false
  // The limit resets after the wait would end: polling on would only wait for nothing.
  if (err instanceof RateLimitError) return false
  // An answer of the wrong shape is not retried at once (the same answer would come back), but
  // the next poll may find the job in another state.
  const odd = err.status !== undefined && err.status >= 200 && err.status < 300
  return odd || err.status === undefined || err.status === 429 || err.status >= 500
}

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

/** What the wait has said so far, so that each change is said once. */
interface Told {
  status: string | undefined
  link: string | null
  /** Statuses this action does not know, warned about once each. */
  unknown: Set<string>
  /** The last poll's final status was doubted (said once, until it is believed). */
  doubted: boolean
}

export async function waitForJob(o: WaitOptions): Promise<WaitResult> {
  const { deadline } = o
  let job = o.job
  let lastPollError: ServiceError | undefined
  const told: Told = {
    ...{ status: job?.status, link: job?.prLink ?? null },
    ...{ unknown: new Set(), doubted: false }
  }
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
    if (await believed(o, job, told)) return { job, timedOut: false, doubted: false }
  }
  return { job, timedOut: true, doubted: told.doubted, lastPollError }
}

/** One poll's job, read (completion.ts) and said: true once its final status is believed. */
async function believed(o: WaitOptions, job: AgentJob, told: Told): Promise<boolean> {
  const started = o.evidence.answeredAt
  const stamp = (): string => `[${Math.round(o.deadline.elapsed(started) / 1000)}s]`
  const reading = readPoll(job, o.evidence, o.deadline.now())
  noteSeen(o.evidence, job)
  if (reading.kind === 'doubted') {
    if (!told.doubted)
      o.log?.(
        `${stamp()} status: ${job.status}, as before the instruction: the service may not have ` +
          `processed it yet, so this is believed only once the job changes, or from ` +
          `${Math.round((reading.believeAt - started) / 1000)}s on (\`settle-time\`).`
      )
    told.doubted = true
    return false
  }
  told.doubted = false
  if (reading.kind === 'unknown-status' && !told.unknown.has(job.status)) {
    told.unknown.add(job.status)
    o.warn?.(
      `Job ${o.jobId} has status \`${job.status}\`, which this action does not know; it is not ` +
        'one of the final statuses (completed, archived, failed), so the run keeps waiting.'
    )
  }
  const newStatus = job.status !== told.status
  if (newStatus) o.log?.(`${stamp()} status: ${job.status}`)
  if (newStatus || job.prLink !== told.link) {
    told.status = job.status
    told.link = job.prLink
    if (reading.kind !== 'final') await o.onChange?.(job)
  }
  if (reading.kind !== 'final') return false
  if (reading.why === 'settled')
    o.log?.('The job did not change within `settle-time`; its status is believed now.')
  return true
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

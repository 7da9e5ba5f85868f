// Send the follow-up once, then poll the job until it reaches a final status or the wait ends.
import { FINAL_STATUSES, type AgentJob, type JobStatus } from '../service/schema.js'
import { RateLimitError, ServiceError } from '../service/client.js'

export interface JobService {
  sendMessage(
    projectId: string,
    jobId: string,
    prompt: string,
    deadline: number
  ): Promise<AgentJob | undefined>
  getJob(path: string, deadline: number, maxAttempts?: number): Promise<AgentJob>
}

export interface FollowUpOptions {
  service: JobService
  projectId: string
  jobId: string
  prompt: string
  wait: boolean
  waitTimeoutMs: number
  pollIntervalMs: number
  jobPath: string
  /** Called once the service has taken the message, before polling starts. */
  onSent?: (job: AgentJob | undefined) => Promise<void> | void
  /** Called when the status differs from the last one seen (not on every poll). */
  onChange?: (job: AgentJob, elapsedMs: number) => Promise<void> | void
  log?: (line: string) => void
  warn?: (line: string) => void
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export interface FollowUpResult {
  /** The last job seen: the poll's answer, else the POST's. */
  job?: AgentJob
  status?: JobStatus
  /** When the service answered the POST: the wait is counted from here. */
  sentAt: number
  timedOut: boolean
  /** Why the last poll failed, when it did: a timeout then is the service's doing. */
  lastPollError?: string
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

export async function followUp(o: FollowUpOptions): Promise<FollowUpResult> {
  const now = o.now ?? Date.now
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>(r => setTimeout(r, ms)))
  const sendDeadline = now() + o.waitTimeoutMs
  let job = await o.service.sendMessage(o.projectId, o.jobId, o.prompt, sendDeadline)
  const sentAt = now()
  await o.onSent?.(job)
  if (!o.wait) return { job, status: job?.status, sentAt, timedOut: false }

  const deadline = sentAt + o.waitTimeoutMs
  const path = jobUrlPath(o.jobPath, o.projectId, o.jobId)
  let lastStatus = job?.status
  let lastPollError: string | undefined
  // The POST's answer may still show the state from before the message (it is processed
  // asynchronously), so a final status is believed only from a poll.
  for (const delay of pollDelays(o.pollIntervalMs, o.random)) {
    const left = deadline - now()
    await sleep(Math.max(0, Math.min(delay, left)))
    // No request starts once the wait is over (the client would refuse it anyway).
    if (now() >= deadline) break
    try {
      job = await o.service.getJob(path, deadline, ATTEMPTS_PER_POLL)
    } catch (err) {
      if (!isTransient(err)) throw err
      lastPollError = (err as Error).message
      o.warn?.(`Polling the job failed, will poll again: ${lastPollError}`)
      if (now() >= deadline) break
      continue
    }
    lastPollError = undefined
    const elapsed = now() - sentAt
    if (job.status !== lastStatus) {
      o.log?.(`[${Math.round(elapsed / 1000)}s] status: ${job.status}`)
      lastStatus = job.status
      await o.onChange?.(job, elapsed)
    }
    if (FINAL_STATUSES.includes(job.status))
      return { job, status: job.status, sentAt, timedOut: false }
    if (now() >= deadline) break
  }
  return { job, status: job?.status, sentAt, timedOut: true, lastPollError }
}

function isTransient(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false
  // The limit resets after the wait would end: polling on would only wait for nothing.
  if (err instanceof RateLimitError) return false
  return err.status === undefined || err.status === 429 || err.status >= 500
}

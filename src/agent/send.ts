// Sends the instruction: a follow-up to a job, or a new job. Each is one POST, sent at most once
// (the client retries it only where the service certainly did not take it).
import { ServiceError, type Delivery } from '../service/errors.js'
import type { AgentJob } from '../service/schema.js'
import type { JobReader } from './wait.js'

export type Instruction =
  | { command: 'message'; projectId: string; jobId: string; prompt: string }
  | { command: 'create'; projectId: string; prompt: string }

export interface JobService extends JobReader {
  sendMessage(projectId: string, jobId: string, prompt: string): Promise<AgentJob | undefined>
  createJob(projectId: string, prompt: string): Promise<AgentJob>
}

/** The instruction is with the service (by this run, or by an earlier attempt of it). */
export interface Sent {
  jobId: string
  /** The POST's answer, when it was a job (a follow-up's may be odd and still delivered). */
  job?: AgentJob
  /** When the service answered: the wait is counted from here. */
  answeredAt: number
  /** An earlier attempt of this workflow run delivered it; this run sent nothing. */
  byEarlierAttempt?: true
}

export async function sendInstruction(
  service: JobService,
  i: Instruction,
  clock: { now(): number }
): Promise<Sent> {
  if (i.command === 'create') {
    const job = await service.createJob(i.projectId, i.prompt)
    return { jobId: job.id, job, answeredAt: clock.now() }
  }
  const job = await service.sendMessage(i.projectId, i.jobId, i.prompt)
  return { jobId: i.jobId, job, answeredAt: clock.now() }
}

/**
 * Whether the service took an instruction whose POST failed: a 2xx took it (the answer was only
 * odd), "maybe" leaves it open (a reset, a timeout, a 5xx), anything else never arrived.
 */
export function deliveryOf(err: unknown): Delivery {
  if (!(err instanceof ServiceError)) return 'no'
  if (err.status !== undefined && err.status < 300) return 'yes'
  return err.delivery
}

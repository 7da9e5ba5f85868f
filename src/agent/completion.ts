// What a poll result means. The service processes a follow-up asynchronously, so right after the
// POST a job may still show its final state from before: that state is not this instruction's
// result. A final status is believed only on evidence that the job took the instruction.
import { isFinalStatus, JOB_STATUSES, type AgentJob } from '../service/schema.js'

/** What the run knows about the job since it sent the instruction. */
export interface Evidence {
  /** A job this run created: its first final status is its own. */
  isNew: boolean
  /** The job as a GET showed it just before the POST (only when the run waits). */
  before?: AgentJob
  /** The job was seen in a status that is not final after the POST was sent (its answer included). */
  seenWorking: boolean
  /** When the service answered the POST (ms epoch). */
  answeredAt: number
  settleTimeMs: number
}

export type Reading =
  | { kind: 'final'; why: 'new job' | 'seen working' | 'changed' | 'settled' }
  /** Final, but maybe still the state from before the instruction: believed from `believeAt`. */
  | { kind: 'doubted'; believeAt: number }
  | { kind: 'working' }
  /** A status the service added after this action was written: shown, and not final. */
  | { kind: 'unknown-status' }

function isKnownStatus(status: string): boolean {
  return (JOB_STATUSES as readonly string[]).includes(status)
}

/** True when the fields that a finished instruction changes differ between two snapshots. */
export function jobChanged(before: AgentJob, now: AgentJob): boolean {
  return (
    before.status !== now.status ||
    (before.prLink ?? null) !== (now.prLink ?? null) ||
    (before.archivedAt ?? null) !== (now.archivedAt ?? null)
  )
}

export function readPoll(job: AgentJob, e: Evidence, now: number): Reading {
  if (!isFinalStatus(job.status))
    return isKnownStatus(job.status) ? { kind: 'working' } : { kind: 'unknown-status' }
  if (e.isNew) return { kind: 'final', why: 'new job' }
  if (e.seenWorking) return { kind: 'final', why: 'seen working' }
  if (e.before && jobChanged(e.before, job)) return { kind: 'final', why: 'changed' }
  const believeAt = e.answeredAt + e.settleTimeMs
  if (now >= believeAt) return { kind: 'final', why: 'settled' }
  return { kind: 'doubted', believeAt }
}

/**
 * Records what a job seen after the POST proves: a status that is not final means the
 * instruction is being worked on, so the next final status is its result.
 */
export function noteSeen(e: Evidence, job: AgentJob | undefined): void {
  if (job && !isFinalStatus(job.status)) e.seenWorking = true
}

/** `completed` without a pull request: two explanations, and the run cannot tell them apart. */
export function noPullRequestNote(jobId: string): string {
  return (
    `Job ${jobId} completed without opening a pull request: the agent may have changed nothing, ` +
    'or committed directly to the branch it works on.'
  )
}

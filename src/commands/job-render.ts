// A bridge, to be removed: the JobReport of the reports contract, drawn with today's renderer
// until src/report/job.ts (which takes this JobReport as it is) replaces it. The job command only
// builds JobReport objects; switching renderers is one import.
import {
  escapeText,
  renderJobReport as renderLegacy,
  type JobReport as LegacyReport
} from '../report/markdown.js'
import type { AgentJob } from '../service/schema.js'

export interface JobReport {
  command: 'message' | 'create'
  projectId: string
  /** Undefined while a create has not been answered. */
  jobId?: string
  phase: 'sending' | 'waiting' | 'done' | 'timed-out' | 'cancelled' | 'error' | 'no-job'
  /** The last job object seen. */
  job?: AgentJob
  /** The exact prompt sent. */
  prompt?: string
  startedAt: number
  endedAt?: number
  waited: boolean
  error?: string
  /** On error or cancel: was the instruction taken? */
  delivered?: 'yes' | 'maybe' | 'no'
  runUrl?: string
  trigger?: string
  routedHere?: boolean
  /** When prLink is a pull request of this repository. */
  prNumber?: number
  /** Requests this run sent to the service. */
  requests?: number
}

const LEGACY_PHASE: Record<JobReport['phase'], LegacyReport['phase']> = {
  sending: 'working',
  waiting: 'working',
  done: 'done',
  'timed-out': 'error',
  cancelled: 'cancelled',
  error: 'error',
  'no-job': 'error'
}

const DELIVERED: Record<NonNullable<JobReport['delivered']>, string> = {
  yes: 'The service took the instruction.',
  maybe:
    'The instruction may or may not have been delivered: check the job before sending it again.',
  no: 'Nothing was sent to the service.'
}

export function renderJobReport(r: JobReport): string {
  const legacy: LegacyReport = {
    projectId: r.projectId,
    jobId: r.jobId ?? '–',
    phase: LEGACY_PHASE[r.phase],
    job: r.job,
    prompt: r.prompt,
    elapsedMs: (r.endedAt ?? Date.now()) - r.startedAt,
    runUrl: r.runUrl,
    error: r.error,
    waited: r.waited,
    trigger: r.trigger,
    routedHere: r.routedHere
  }
  let text = renderLegacy(legacy)
  const notes: string[] = []
  if (r.phase === 'done' && r.job?.status === 'completed' && !r.job.prLink) {
    text = text.replace('| no file changed |', '| none opened |')
    notes.push(
      'No pull request was opened: the agent may have changed nothing, or committed directly to the branch.'
    )
  }
  if (r.phase === 'cancelled' && r.error) notes.push(escapeText(r.error))
  if ((r.phase === 'error' || r.phase === 'cancelled') && r.delivered)
    notes.push(DELIVERED[r.delivered])
  if (r.requests !== undefined)
    notes.push(`${r.requests} ${r.requests === 1 ? 'request' : 'requests'} sent to the service.`)
  return notes.length > 0 ? `${text}\n${notes.map(n => `_${n}_`).join('\n\n')}\n` : text
}

// The record that a step delivered its instruction, which a re-run of that step (the same
// GITHUB_RUN_ID, a later GITHUB_RUN_ATTEMPT) finds and follows instead of sending again. It names
// the step exactly, so another step, another matrix leg or another instruction on the same pull
// request never passes for it:
//
//   run/<project>/<run id>/<workflow job>/<step>/<leg>/<instruction hash>/<job-id given>/<job>
//
// The workflow job is GITHUB_JOB and the step GITHUB_ACTION (its `id:`, or the runner's name for
// it). A runner names no matrix leg (GITHUB_JOB is the same for every leg, and the matrix reaches a
// step only through its inputs), so the leg is a hash of the inputs that decide what the step
// sends and where it answers; legs that give all of them alike send the same instruction to the
// same place, and one record serves them. The last part is the job the instruction went to, or
// empty once that delivery is dropped (the job failed: a re-run is the retry): a newer marker,
// never a deletion, so the newest statement wins.
import { createHash } from 'node:crypto'
import type { JobSettings } from '../settings.js'
import { parseRecord, recordKey, type RecordFields } from './kinds.js'
import type { RecordThread } from './thread.js'

/** The step a delivery record names: every part of a `run` record but the job it went to. */
export type DeliveryStep = Omit<RecordFields<'run'>, 'job'>

/** The workflow run, job and step this is (from the runner's environment). */
export interface RunId {
  id: string
  job: string
  step: string
}

/** The step every record of this one names, or undefined when the run has no id. */
export function deliveryStep(s: JobSettings, run: RunId | undefined): DeliveryStep | undefined {
  if (!run) return undefined
  return {
    project: s.projectId,
    run: run.id,
    workflowJob: run.job,
    step: run.step,
    leg: legOf(s),
    instruction: digest(s.prompt, 16),
    jobIdGiven: s.command === 'message' ? s.jobId : ''
  }
}

/** The record that this step delivered its instruction to `jobId`, or (undefined) dropped it. */
export function deliveryKey(step: DeliveryStep, jobId: string | undefined): string {
  return recordKey('run', { ...step, job: jobId ?? '' })
}

/**
 * The job the newest record of this step names: '' once its delivery was dropped, undefined
 * when there is none.
 */
export async function deliveredTo(
  thread: RecordThread,
  step: DeliveryStep
): Promise<string | undefined> {
  return (await thread.newest('run', step))?.job
}

/**
 * Which markers of a comment being edited to keep: the records of delivery of steps other than
 * those `keys` record. Steps that answer in one comment (they follow the same job) each keep
 * their record there, whichever writes last.
 */
export function otherStepsRecords(keys: string[], projectId: string): (key: string) => boolean {
  const stepOf = (key: string): string | undefined => {
    const r = parseRecord('run', key)
    if (r?.project !== projectId) return undefined
    // A record without its last part (the job) names its step.
    return recordKey('run', { ...r, job: '' })
  }
  const mine = keys.map(stepOf).filter(step => step !== undefined)
  return key => {
    const step = stepOf(key)
    return step !== undefined && !mine.includes(step)
  }
}

/** What a matrix leg gives this step besides the instruction and the job id (named on their own). */
function legOf(s: JobSettings): string {
  const given = [
    s.command,
    s.baseUrl,
    s.jobPath,
    s.promptFile ?? '',
    s.context,
    s.whenNoJob,
    s.issueNumber ?? ''
  ]
  return digest(JSON.stringify(given), 12)
}

function digest(text: string, chars: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, chars)
}

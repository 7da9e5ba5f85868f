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
import { markerKey } from '../github/comments.js'
import type { JobSettings } from '../settings.js'
import type { CommandContext } from './context.js'

/** The parts every record of this step starts with, or undefined when the run has no id. */
export function deliveryParts(ctx: CommandContext<JobSettings>): string[] | undefined {
  const run = ctx.run
  if (!run) return undefined
  const s = ctx.settings
  return [
    'run',
    s.projectId,
    run.id,
    run.job,
    run.step,
    legOf(s),
    digest(s.prompt, 16),
    s.command === 'message' ? s.jobId : ''
  ]
}

/** This step's records start with this key (and a `/`). */
export function deliveryPrefix(parts: string[]): string {
  return markerKey(...parts)
}

/** The record that this step delivered its instruction to `jobId`, or (undefined) dropped it. */
export function deliveryKey(parts: string[], jobId: string | undefined): string {
  return markerKey(...parts, jobId ?? '')
}

/**
 * Which markers of a comment being edited to keep: the records of delivery of steps other than
 * those `keys` record. Steps that answer in one comment (they follow the same job) each keep
 * their record there, whichever writes last.
 */
export function otherStepsRecords(keys: string[], projectId: string): (key: string) => boolean {
  const isRecord = (key: string) => key.startsWith(`${markerKey('run', projectId)}/`)
  // A record without its last part (the job) names its step.
  const stepOf = (key: string) => key.slice(0, key.lastIndexOf('/'))
  const mine = keys.filter(isRecord).map(stepOf)
  return key => isRecord(key) && !mine.includes(stepOf(key))
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

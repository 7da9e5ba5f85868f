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
import type { TriggerComment } from '../github/event.js'
import { asObject } from '../json.js'
import type { JobSettings } from '../settings/settings.js'
import { matches, parseRecord, recordKey, type RecordFields } from './kinds.js'
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
function deliveryKey(step: DeliveryStep, jobId: string | undefined): string {
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

// One send per cause (contract: "A pull request people can follow"): the `cause` record says that
// the instruction for a merged pull request (its merge commit) or a trigger comment (its id) went
// to a job, from which workflow run. A second run for the same cause (a dispatch sent twice, the
// same comment delivered again) finds it and sends nothing (gate/sent-already.ts).

/** What a cause record names besides the job: every part but `job`. */
export type CauseStep = Omit<RecordFields<'cause'>, 'job'>

/** What the cause of a job run is read from (the command's context). */
export interface CauseSource {
  settings: JobSettings
  event: { eventName: string }
  payload: Record<string, unknown>
  /** Who asked: a trigger comment or review is the cause it sends for. */
  asker: { comment?: TriggerComment }
  run?: { id: string } | undefined
}

/** The cause this run sends for, or undefined (a run by hand, a schedule, a label: no cause). */
export function causeStep(c: CauseSource): CauseStep | undefined {
  const cause = causeOf(c)
  if (cause === undefined) return undefined
  const s = c.settings
  const given = s.command === 'message' ? s.jobId : ''
  return {
    project: s.projectId,
    cause,
    instruction: digest(`${given}\n${s.prompt}`, 16),
    run: c.run?.id ?? ''
  }
}

function causeOf(c: CauseSource): string | undefined {
  const t = c.asker.comment
  if (t) return `${t.kind === 'review' ? 'review' : 'comment'}-${t.id}`
  const { eventName } = c.event
  const pr =
    eventName === 'repository_dispatch'
      ? asObject(asObject(c.payload.client_payload)?.pull_request)
      : c.payload.action === 'closed' && eventName.startsWith('pull_request')
        ? asObject(c.payload.pull_request)
        : undefined
  if (!pr || (eventName !== 'repository_dispatch' && pr.merged !== true)) return undefined
  const sha = pr.merge_commit_sha
  return typeof sha === 'string' && /^[0-9a-f]{7,64}$/i.test(sha)
    ? `merge-${sha.toLowerCase()}`
    : undefined
}

/** What a delivery records: this step, the run's cause, and whether the job failed (dropped). */
export interface Delivered {
  step: DeliveryStep | undefined
  cause?: CauseStep | undefined
  retry: boolean
}

/** What a run's live comment records once the service has its instruction (records/job.ts). */
export function deliveryOf(
  c: CauseSource & { run?: RunId | undefined },
  retry: boolean
): Delivered {
  return { step: deliveryStep(c.settings, c.run), cause: causeStep(c), retry }
}

/** The records of a delivery to `job`: the step's and the cause's (both dropped on a retry). */
export function deliveredKeys(d: Delivered, job: string): string[] {
  const step = d.step ? [deliveryKey(d.step, d.retry ? undefined : job)] : []
  return [...step, ...causeRecords(d.cause, job, d.retry ? 'dropped' : 'sent').keys]
}

/**
 * What a comment's write says of its cause, the one rule for every comment that carries the
 * record (the run's live comment, the code pull request's): `sent`, the job the instruction went
 * to; `dropped`, a newer record naming none (the job failed: a re-run or a new dispatch is the
 * retry, and sends again); `kept`, the record there stays as it is (the run stopped without
 * learning how the job ended). No cause, or no job yet: nothing.
 */
export function causeRecords(
  cause: CauseStep | undefined,
  job: string | undefined,
  state: 'sent' | 'dropped' | 'kept'
): { keys: string[]; carry?: (key: string) => boolean } {
  if (!cause || job === undefined) return { keys: [] }
  if (state === 'kept') return { keys: [], carry: isCauseOf(cause) }
  return { keys: [causeKey(cause, state === 'sent' ? job : undefined)] }
}

/** The record that a cause's instruction went to `jobId`, or (undefined) was dropped. */
function causeKey(step: CauseStep, jobId: string | undefined): string {
  return recordKey('cause', { ...step, job: jobId ?? '' })
}

/** Whether `key` is a cause record of this step (whichever run and job it names). */
function isCauseOf(step: CauseStep): (key: string) => boolean {
  const { project, cause, instruction } = step
  return key => {
    const r = parseRecord('cause', key)
    return r !== undefined && matches(r, { project, cause, instruction })
  }
}

/** The cause in words: "the merge commit abc1234", "trigger comment 123". */
export function causeWords(step: CauseStep): string {
  const [what = '', id = ''] = step.cause.split(/-(.*)/)
  if (what === 'merge') return `the merge commit ${id.slice(0, 12)}`
  return `${what === 'review' ? 'review' : 'trigger comment'} ${id}`
}

/** Where the instruction for a cause went: the job, the workflow run, the comment recording it. */
export interface SentFor {
  job: string
  run: string
  url: string
}

/** The newest record of this cause's instruction in the thread, unless it was dropped. */
export async function sentFor(thread: RecordThread, step: CauseStep): Promise<SentFor | undefined> {
  const { project, cause, instruction } = step
  const found = await thread.newestWith('cause', { project, cause, instruction })
  if (!found || found.fields.job === '') return undefined
  return { job: found.fields.job, run: found.fields.run, url: found.comment.html_url }
}

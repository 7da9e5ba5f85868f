// The conversation's records (kinds.ts: `route`, `job`, `answer`, `opened`, `instruction`,
// `asked`, `grew`, `explained`, `notify`), as delivery.ts keeps `run`: their keys, and the questions the job run asks of a
// thread, each answered by one rule here. Every "newest" is thread.ts's one rule. The job run
// (commands/job*.ts), the gate's merge check and the growing of an open agent pull request ask
// these; none of them reads a record by its kind.
import type { CommentRef } from '../github/comments.js'
import type { TriggerComment } from '../github/event.js'
import { deliveredKeys, otherStepsRecords, type Delivered } from './delivery.js'
import type { AskedHow, AskedWords } from '../report/job-report.js'
import type { FixRequest } from './fix.js'
import { parseRecord, recordKey } from './kinds.js'
import { fixKey } from './report.js'
import type { RecordThread } from './thread.js'

/** An instruction a pull request's record lists: its number among those sent to the job. */
export interface Listed {
  n: number
  text: string
  /** Who asked (a login), where (a URL) and when (ms): absent in records older than issue 42. */
  asked?: Asked
}

/** Who asked for an instruction, where and when. */
export type Asked = AskedWords

/** The record that a trigger comment here with no `job-id` goes to `job`. */
function routeKey(project: string, job: string): string {
  return recordKey('route', { project, job })
}

/**
 * The key of a run's live comment: the answer to its trigger comment (each instruction gets its
 * own, which a later one never edits; a review is `review-<id>`, as reviews and comments are
 * numbered apart), or, for a run no trigger asked for (a merge, a dispatch), one comment per job.
 */
export function liveCommentKey(
  project: string,
  o: { trigger?: TriggerComment; job: string | undefined }
): string {
  const t = o.trigger
  if (!t) return recordKey('job', { project, job: o.job ?? '' })
  return recordKey('answer', {
    project,
    trigger: t.kind === 'review' ? `review-${t.id}` : `${t.id}`
  })
}

/** The records a live comment carries besides its own key, and those of the comment it keeps. */
export interface LiveRecords {
  routeKeys: string[]
  /** Records of the comment being edited that the edit keeps: other steps' deliveries. */
  carry: (key: string) => boolean
}

/**
 * What a run's live comment records besides its own key: the route (replies go to this job) and,
 * once the service has the instruction (`delivered`), this step's delivery, so that its re-run
 * follows the same job; once the job failed (`retry`), a newer record that drops that delivery (a
 * re-run is the retry); for `fix N`, the suggestions the job is for and the pull request it
 * opened, which the next report shows. An edit keeps the deliveries other steps recorded there.
 */
export function liveCommentRecords(o: {
  project: string
  job: string | undefined
  routeHere: boolean
  delivered?: Delivered
  fixes?: readonly FixRequest[]
  prNumber?: number
}): LiveRecords {
  const keys: string[] = []
  const { job, delivered } = o
  if (job !== undefined) {
    if (o.routeHere) keys.push(routeKey(o.project, job))
    if (delivered) keys.push(...deliveredKeys(delivered, job))
    for (const fix of o.fixes ?? []) keys.push(fixKey(o.project, fix.id, o.prNumber))
  }
  return { routeKeys: keys, carry: otherStepsRecords(keys, o.project) }
}

/** The key of the one comment on a code pull request about the docs job of `repository`. */
export function notifyKey(project: string, repository: string): string {
  return recordKey('notify', { project, repository })
}

/** Which job this thread routes replies to: the newest `route` record (one naming no job: none). */
export async function routedJob(
  thread: RecordThread,
  project: string
): Promise<string | undefined> {
  return nonEmpty((await thread.newest('route', { project }))?.job)
}

/**
 * Which job a run no trigger asked for (a merge, a dispatch) reported in this thread: the newest
 * `job` record (one naming no job: none).
 */
export async function jobStartedHere(
  thread: RecordThread,
  project: string
): Promise<string | undefined> {
  return nonEmpty((await thread.newest('job', { project }))?.job)
}

/**
 * Whether a job of this project opened this pull request, and which: the newest signed `opened`
 * record. The one rule for every reader, read the fail-closed way: any such record makes the pull
 * request the agent's own (its merge starts no job), also one that names no job (`job` is then
 * '': the pull request cannot be grown, nor its instructions listed).
 */
export async function openedBy(
  thread: RecordThread,
  project: string
): Promise<{ job: string } | undefined> {
  const found = await thread.newest('opened', { project })
  return found && { job: found.job }
}

/**
 * The instructions this pull request grew from, oldest first: the `instruction` records of `job`
 * beside the `opened` record that openedBy finds, when that names `job`.
 */
export async function grewFrom(
  thread: RecordThread,
  project: string,
  job: string
): Promise<Listed[]> {
  const found = await thread.newestWith('opened', { project })
  if (!found || found.fields.job !== job) return []
  const inComment = (await thread.counted()).filter(r => r.comment.id === found.comment.id)
  const asked = new Map(inComment.flatMap(({ key }) => askedOf(key, project, job)))
  const listed = inComment.flatMap(({ key }) => {
    const r = instructionOf(key, project, job)
    if (!r || !/^[1-9]\d{0,5}$/.test(r.n)) return []
    const by = asked.get(r.n)
    return [{ n: Number(r.n), text: r.text, ...(by ? { asked: by } : {}) }]
  })
  return listed.sort((a, b) => a.n - b.n)
}

/** The causes an `asked` record may name: one written by a later version is shown as an event. */
const HOWS: readonly string[] = [
  'comment',
  'review',
  'label',
  'merge',
  'dispatch',
  'workflow_dispatch',
  'schedule',
  'event'
] satisfies readonly AskedHow[]

/** An `asked` record of this job, by the instruction's number. */
function askedOf(key: string, project: string, job: string): [string, Asked][] {
  const r = parseRecord('asked', key)
  const when = Date.parse(r?.when ?? '')
  if (!r || r.project !== project || r.job !== job || Number.isNaN(when)) return []
  const how = r.how === '' ? undefined : HOWS.includes(r.how) ? (r.how as AskedHow) : 'event'
  const given = { who: r.who, where: r.where, title: r.title, label: r.label, unlinked: r.unlinked }
  const named = Object.entries(given).filter(([, value]) => value !== '')
  return [[r.n, { when, ...(how ? { how } : {}), ...Object.fromEntries(named) }]]
}

/** The keys of every instruction listed, and of who asked each. */
function listedKeys(project: string, job: string, listed: readonly Listed[]): string[] {
  return listed.flatMap(({ n, text, asked }) => [
    recordKey('instruction', { project, job, n: String(n), text }),
    ...(asked
      ? [
          recordKey('asked', {
            project,
            job,
            n: String(n),
            who: asked.who ?? '',
            where: asked.where ?? '',
            when: new Date(asked.when).toISOString(),
            how: asked.how ?? '',
            title: asked.title ?? '',
            label: asked.label ?? '',
            unlinked: asked.unlinked ?? ''
          })
        ]
      : [])
  ])
}

/**
 * The new comment that tells the pull request's watchers it grew (an edit of its record notifies
 * nobody): one per instruction, which a re-run of the same growth edits.
 */
export function writeGrowthNote(
  thread: RecordThread,
  o: { project: string; job: string; n: number; body: string }
): Promise<CommentRef> {
  const key = recordKey('grew', { project: o.project, job: o.job, n: String(o.n) })
  return thread.upsert({ key, extraKeys: [], body: o.body, mode: 'upsert' })
}

/** What the record on the agent's pull request says (commands/job-comments.ts words it). */
export interface PullRequestRecord {
  project: string
  job: string
  /** The job opened it: the record that makes its merge the agent's own. */
  opened: boolean
  /** A trigger comment there goes to the job. */
  route: boolean
  /** Every instruction it grew from, oldest first (none given: those recorded are kept). */
  instructions?: Listed[]
  /** `body` says why the pull request grew (its 📎 paragraph). */
  explained?: boolean
  body: string
}

/**
 * Writes the record on the agent's pull request in its one comment there (an edit never drops
 * that the job opened it, nor the instructions it lists). Returns the comment and the job the
 * thread routed replies to before (the record then gave the reply hint already).
 */
export async function writePullRequestRecord(
  thread: RecordThread,
  r: PullRequestRecord
): Promise<{ ref: CommentRef; routedBefore?: string }> {
  const { project, job } = r
  const routedBefore = r.route ? await routedJob(thread, project) : undefined
  const opened = recordKey('opened', { project, job })
  const route = routeKey(project, job)
  const listed = listedKeys(project, job, r.instructions ?? [])
  const explained = r.explained ? [growthExplainedKey(project, thread.place.issueNumber)] : []
  const ref = await thread.upsert({
    key: r.opened ? opened : route,
    extraKeys: [...(r.opened && r.route ? [route] : []), ...listed, ...explained],
    body: r.body,
    mode: 'upsert',
    carry: key =>
      key === opened ||
      (listed.length === 0 &&
        (instructionOf(key, project, job) !== undefined || askedOf(key, project, job).length > 0))
  })
  return { ref, ...(routedBefore !== undefined ? { routedBefore } : {}) }
}

function instructionOf(key: string, project: string, job: string) {
  const r = parseRecord('instruction', key)
  return r?.project === project && r.job === job ? r : undefined
}

const nonEmpty = (job: string | undefined): string | undefined => (job === '' ? undefined : job)

/** The record that a comment explained why pull request `pr` grew (its 📎 paragraph). */
export function growthExplainedKey(project: string, pr: number): string {
  return recordKey('explained', { project, pr: String(pr) })
}

/**
 * Whether the action's own comment in this thread already explained why a pull request of this
 * project grew: a signed `explained` record, which only the action's comments can carry (a
 * reader's comment, or one that only quotes the paragraph, never silences it).
 */
export async function growthExplained(thread: RecordThread, project: string): Promise<boolean> {
  return (await thread.newest('explained', { project })) !== undefined
}

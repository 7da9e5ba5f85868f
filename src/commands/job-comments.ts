// The job run's comments on GitHub: the live comment that answers on the run's pull request or
// issue (working…, then the ending), and the route record on the pull request the agent opened,
// which sends later trigger comments there to this job. A failure here only warns: once the
// service has the instruction, nothing on GitHub may end the run early.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import type { CommentRef, Place } from '../github/comments.js'
import { GitHubError } from '../github/errors.js'
import type { TriggerComment } from '../github/event.js'
import { AGENT_LABEL, addLabel } from '../github/labels.js'
import {
  grewFrom,
  growthExplainedKey,
  liveCommentKey,
  writeGrowthNote,
  writePullRequestRecord,
  type Asked,
  type Listed
} from '../records/job.js'
import { clip } from '../report/markdown.js'
import type { Records } from '../records/records.js'
import type { RecordThread } from '../records/thread.js'
import { renderJobReport, type JobReport } from '../report/job.js'
import { explainsGrowth } from '../report/job-instruction.js'
import { growthNote } from '../report/job-growth.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

export interface JobCommentsOptions {
  /** The run's records (absent without a token). */
  records?: Records
  owner: string
  repo: string
  /** Where the live comment goes, if anywhere. */
  target?: Place | undefined
  projectId: string
  commentMode: 'upsert' | 'create' | 'minimize'
  /**
   * The trigger comment (or review) this run answers: each instruction gets its own answer below
   * it, which a later instruction never edits. Without one (a merge, a dispatch), one comment per
   * job (records/job.ts liveCommentKey).
   */
  trigger?: TriggerComment
}

/** The job run's comments, where the gate's answer places them. */
export function jobComments(ctx: CommandContext<JobSettings>): JobComments {
  return new JobComments({
    // Also with `comment: false`: the record that the job opened a pull request is still kept.
    ...(ctx.records ? { records: ctx.records } : {}),
    owner: ctx.event.owner,
    repo: ctx.event.repo,
    target: ctx.target,
    projectId: ctx.settings.projectId,
    commentMode: ctx.commenting.mode,
    ...(ctx.asker.comment ? { trigger: ctx.asker.comment } : {})
  })
}

/** The run's comments, on threads of the run's one Records (each listed at most once per run). */
export class JobComments {
  private ref?: CommentRef
  private broken = false
  /** The pull requests (`pr/job`) this run recorded a job on. */
  private readonly recorded = new Set<string>()
  /** Per pull request and job, the instructions its record lists, this run's last. */
  private readonly instructions = new Map<string, Promise<Listed[]>>()
  /** The growth notes this run wrote, to edit once the checks are read (growthVerdict). */
  private readonly notes: {
    pr: number
    jobId: string
    n: number
    body: (verdict?: string) => string
  }[] = []

  constructor(private readonly o: JobCommentsOptions) {}

  thread(issueNumber: number | undefined): RecordThread | undefined {
    const { records, owner, repo } = this.o
    if (!records || issueNumber === undefined || owner === '' || repo === '') return undefined
    return records.thread({ owner, repo, issueNumber })
  }

  /**
   * Writes the live comment on the target: created once (complete with its markers), edited on
   * changes and at the end. Returns its URL; a failure only warns.
   */
  async write(
    report: JobReport,
    o: { routeKeys?: string[]; carry?: (key: string) => boolean } = {}
  ): Promise<string | undefined> {
    const thread = this.thread(this.o.target?.issueNumber)
    if (!thread || this.broken) return undefined
    // An answer that says why a pull request grew records so: the thread's next growth does not.
    const grew = report.grew?.number
    const explained =
      grew !== undefined && explainsGrowth(report)
        ? [growthExplainedKey(this.o.projectId, grew)]
        : []
    const extraKeys = [...(o.routeKeys ?? []), ...explained]
    // Markers of the edited comment to keep: what other writers of it recorded there.
    const w = {
      key: liveCommentKey(this.o.projectId, { trigger: this.o.trigger, job: report.jobId }),
      extraKeys,
      body: renderJobReport(report),
      ...(o.carry ? { carry: o.carry } : {})
    }
    try {
      this.ref = this.ref
        ? await thread.update(this.ref.id, w)
        : await thread.upsert({ ...w, mode: this.o.commentMode })
      return this.ref.url
    } catch (err) {
      // A token that may not write will not be allowed on the next write either.
      if (err instanceof GitHubError && (err.status === 401 || err.status === 403))
        this.broken = true
      core.warning(messageOf(err))
      return this.ref?.url
    }
  }

  /**
   * The instructions the record on pull request `pr` lists for `jobId` (its signed `instruction`
   * records), then this run's `prompt`; only `prompt` for a job that has just opened it. Read once
   * per run; a thread that cannot be read lists only `prompt`. The first and the newest are kept
   * (GitHub's room for a comment is finite).
   */
  instructionsOn(
    pr: number,
    jobId: string,
    prompt: string,
    o: { opened: boolean; asked?: Asked }
  ): Promise<Listed[]> {
    const { opened, asked } = o
    const id = `${pr}/${jobId}`
    let list = this.instructions.get(id)
    if (!list) {
      const thread = opened ? undefined : this.thread(pr)
      const earlier = thread
        ? grewFrom(thread, this.o.projectId, jobId).catch(() => [])
        : Promise.resolve([])
      list = earlier.then(before => {
        const n = (before.at(-1)?.n ?? 0) + 1
        const text = clip(prompt, INSTRUCTION_MAX_CHARS)
        const all = [...before, { n, text, ...(asked ? { asked } : {}) }]
        return all.length <= INSTRUCTIONS_KEPT
          ? all
          : [all[0] as Listed, ...all.slice(1 - INSTRUCTIONS_KEPT)]
      })
      this.instructions.set(id, list)
    }
    return list
  }

  /**
   * Records the job on the pull request it names (`pr`, not the target: the live comment there
   * carries the route itself), in one comment there: `opened` marks it the job's own work (the only
   * record a merge check believes), `route` sends a reply with the trigger to the job. `body` is
   * what the comment says. `once`: not again if this run wrote it already (while the job runs,
   * the first sight is what counts). Returns whether the route there is new or was this job's
   * already (undefined when nothing could be written); a failure only warns.
   */
  async recordOnPullRequest(
    pr: number,
    jobId: string,
    o: {
      opened: boolean
      /** Also label it (the job has just opened it): what a later run lists to find it. */
      label?: boolean
      route: boolean
      /** Every instruction the pull request holds, oldest first, kept as records. */
      instructions?: Listed[]
      /** `body` says why the pull request grew (report/job-instruction.ts explainsGrowth). */
      explained?: boolean
      body: string
      once?: boolean
    }
  ): Promise<'created' | 'updated' | undefined> {
    const thread = this.thread(pr)
    if (!thread || (!o.opened && !o.route)) return undefined
    const written = `${pr}/${jobId}`
    if (o.once && this.recorded.has(written)) return 'updated'
    try {
      const { ref, routedBefore } = await writePullRequestRecord(thread, {
        project: this.o.projectId,
        job: jobId,
        opened: o.opened,
        route: o.route,
        ...(o.instructions ? { instructions: o.instructions } : {}),
        ...(o.explained ? { explained: true } : {}),
        body: o.body
      })
      const first = !this.recorded.has(written)
      this.recorded.add(written)
      if (o.label && first) await this.label(pr)
      core.info(
        o.opened
          ? `Recorded on pull request #${pr} that job ${jobId} opened it: ${ref.url}`
          : `Recorded job ${jobId} on pull request #${pr}: ${ref.url}`
      )
      // Replies already went to this job here: the hint was said on this record before.
      return routedBefore === jobId ? 'updated' : 'created'
    } catch (err) {
      core.warning(messageOf(err))
      return undefined
    }
  }

  /**
   * Tells pull request `pr` in a new comment that instruction `n` grew it, once per run: an edit
   * of its record notifies nobody. A failure only warns.
   */
  async announceGrowth(
    pr: number,
    jobId: string,
    newest: Listed | undefined,
    prUrl = ''
  ): Promise<void> {
    const thread = this.thread(pr)
    const id = `grew ${pr}/${jobId}/${newest?.n}`
    if (!thread || !newest?.asked || this.recorded.has(id)) return
    this.recorded.add(id)
    const { n, asked } = newest
    const body = (verdict?: string) =>
      growthNote({ ...newest, asked, prUrl, ...(verdict ? { verdict } : {}) })
    try {
      const ref = await writeGrowthNote(thread, {
        project: this.o.projectId,
        job: jobId,
        n,
        body: body()
      })
      this.notes.push({ pr, jobId, n, body })
      core.info(`Told pull request #${pr} that it grew: ${ref.url}`)
    } catch (err) {
      core.warning(messageOf(err))
    }
  }

  /**
   * Adds what the pull request's checks and preview came to (`checks`) to the growth notes this
   * run wrote: an edit, once they are read (the note itself went out at once). A failure warns.
   */
  async growthVerdict(verdict: string | undefined): Promise<void> {
    if (!verdict) return
    for (const note of this.notes) {
      const thread = this.thread(note.pr)
      if (!thread) continue
      const { jobId: job, n } = note
      try {
        await writeGrowthNote(thread, {
          project: this.o.projectId,
          job,
          n,
          body: note.body(verdict)
        })
      } catch (err) {
        core.warning(messageOf(err))
      }
    }
  }

  /** The label a later run finds the open agent pull request by: best effort, a failure warns. */
  private async label(pr: number): Promise<void> {
    const { records, owner, repo } = this.o
    if (!records) return
    try {
      await addLabel(records.octokit, owner, repo, pr, AGENT_LABEL)
    } catch (err) {
      core.warning(
        `Could not label pull request #${pr} \`${AGENT_LABEL}\` (${messageOf(err)}): a later run ` +
          'will not find it to grow it, and starts a new job instead.'
      )
    }
  }
}

/** The most of an instruction a record keeps: it is shown, never sent again. */
const INSTRUCTION_MAX_CHARS = 1000
/** The most instructions a record keeps: the first, and the newest. */
const INSTRUCTIONS_KEPT = 8

// The job run's comments on GitHub: the live comment that answers on the run's pull request or
// issue (working…, then the ending), and the route record on the pull request the agent opened,
// which sends later trigger comments there to this job. A failure here only warns: once the
// service has the instruction, nothing on GitHub may end the run early.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import type { CommentRef, Place } from '../github/comments.js'
import { GitHubError } from '../github/errors.js'
import type { TriggerComment } from '../github/event.js'
import { recordKey } from '../records/kinds.js'
import type { Records } from '../records/records.js'
import type { RecordThread } from '../records/thread.js'
import { renderJobReport, type JobReport } from '../report/job.js'

export interface JobCommentsOptions {
  /** The run's records (absent without a token). */
  records?: Records
  owner: string
  repo: string
  /** Where the live comment goes, if anywhere. */
  target?: Place
  projectId: string
  commentMode: 'upsert' | 'create'
  /**
   * The trigger comment (or review) this run answers, as `answerKey` names it: each instruction
   * gets its own answer below it, which a later instruction never edits. Without one (a merge, a
   * dispatch), one comment per job.
   */
  answerTo?: string
}

/**
 * What an answer's marker names its trigger by: the comment's id, or `review-<id>` for a review
 * (reviews and comments are numbered apart, so their ids may meet).
 */
export function answerKey(trigger: TriggerComment): string {
  return trigger.kind === 'review' ? `review-${trigger.id}` : String(trigger.id)
}

/** The run's comments, on threads of the run's one Records (each listed at most once per run). */
export class JobComments {
  private ref?: CommentRef
  private broken = false
  /** The pull requests (`pr/job`) this run recorded a job on. */
  private readonly recorded = new Set<string>()

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
    const extraKeys = o.routeKeys ?? []
    // Markers of the edited comment to keep: what other writers of it recorded there.
    const w = {
      key:
        this.o.answerTo !== undefined
          ? recordKey('answer', { project: this.o.projectId, trigger: this.o.answerTo })
          : recordKey('job', { project: this.o.projectId, job: report.jobId ?? '' }),
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
    o: { opened: boolean; route: boolean; body: string; once?: boolean }
  ): Promise<'created' | 'updated' | undefined> {
    const thread = this.thread(pr)
    if (!thread || (!o.opened && !o.route)) return undefined
    const written = `${pr}/${jobId}`
    if (o.once && this.recorded.has(written)) return 'updated'
    const project = this.o.projectId
    const opened = recordKey('opened', { project, job: jobId })
    const route = recordKey('route', { project, job: jobId })
    try {
      // Replies already went to this job here: the hint was said on this record before.
      const before = o.route ? (await thread.newest('route', { project }))?.job : undefined
      const ref = await thread.upsert({
        key: o.opened ? opened : route,
        extraKeys: o.opened && o.route ? [route] : [],
        body: o.body,
        mode: 'upsert'
      })
      this.recorded.add(written)
      core.info(
        o.opened
          ? `Recorded on pull request #${pr} that job ${jobId} opened it: ${ref.url}`
          : `Recorded job ${jobId} on pull request #${pr}: ${ref.url}`
      )
      return before !== undefined && before === jobId ? 'updated' : 'created'
    } catch (err) {
      core.warning(messageOf(err))
      return undefined
    }
  }
}

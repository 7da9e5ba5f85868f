// The code pull request of a dispatch (contract: "Two repositories"): with `notify-token`, it gets
// one comment, kept up to date, naming the docs pull request the job opened (or why there is
// none). Its place is `notify-pr`, else the dispatch payload's pull request. The comment carries a
// signed `notify` record (records/kinds.ts), so every write and every re-run edits the same one.
// A cause a re-run cannot help is said with what to change and who changes it (causes.ts), and
// "re-run" only where it can help. A failure to write there is a warning: it never fails the step
// (a refused `notify-token` names that token's own fix, github/permissions.ts).
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { GitHubError } from '../github/errors.js'
import { pullLink, type PullRequestRef } from '../github/pulls.js'
import { codePullRequest } from '../gate/code-pull-request.js'
import { causeRecords, causeStep, type CauseStep } from '../records/delivery.js'
import { notifyKey } from '../records/job.js'
import type { Records } from '../records/records.js'
import { capitalise, escapeText, plainText } from '../report/markdown.js'
import { checksVerdict } from '../report/job-checks.js'
import type { JobEnding } from '../report/job-report.js'
import { whoFixes, type RunCause } from '../errors.js'
import { jobFailed } from '../agent/ending.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** What the comment on the code pull request says. */
export type NoticeState =
  | { kind: 'working' }
  /** `verdict`: its checks and preview (report/job-checks.ts checksVerdict). */
  | { kind: 'opened'; prLink: string; verdict?: string }
  | { kind: 'no-change' }
  /**
   * `dropped`: the job failed, a re-run or a new dispatch is the retry (sends again). `retry`: a
   * re-run of the docs workflow can help (said only then).
   */
  | { kind: 'failed'; why: string; dropped?: boolean; retry: boolean }
  /** Nothing was sent, for a cause someone must fix before a re-run can help (causes.ts). */
  | { kind: 'refused'; cause: RunCause }

export interface NoticeContext {
  /** The records read and written with `notify-token` (the gate's, signed with the API key). */
  records: Records
  projectId: string
  /** owner/name of the docs repository. */
  docsRepository: string
  runUrl: string
  serverUrl: string
  /** The run's cause, recorded here once the service has the instruction (one send per cause). */
  cause?: CauseStep | undefined
  /** The job the instruction went to, once the service answered. */
  jobId?: () => string | undefined
}

export class CodePullRequestNotice {
  /** Why the last write failed (Markdown), when it did: a refused `notify-token` names its own fix. */
  private failed: string | undefined

  constructor(
    private readonly ref: PullRequestRef,
    private readonly c: NoticeContext
  ) {}

  /** The job summary's line on the code pull request: told there, or why it could not be. */
  note(): string {
    return this.failed === undefined
      ? `The code pull request ${this.where()} is told in one comment there.`
      : `The code pull request ${this.where()} could not be told: ${this.failed}`
  }

  /** Writes (or edits) the one comment; a failure is a warning. Returns its URL when written. */
  async say(state: NoticeState): Promise<string | undefined> {
    const place = { owner: this.ref.owner, repo: this.ref.repo, issueNumber: this.ref.number }
    const key = notifyKey(this.c.projectId, this.c.docsRepository)
    try {
      const { keys, carry } = this.causeRecords(state)
      const written = await this.c.records.thread(place).upsert({
        key,
        extraKeys: keys,
        ...(carry ? { carry } : {}),
        body: this.body(state),
        mode: 'upsert'
      })
      this.failed = undefined
      return written.url
    } catch (err) {
      // GitHub's words escaped, the action's advice as Markdown: the summary shows it.
      this.failed =
        err instanceof GitHubError
          ? `${escapeText(err.problem)}.${err.hint ? ` ${err.hint}` : ''}`
          : escapeText(messageOf(err))
      core.warning(`Could not tell the code pull request ${this.where()}: ${messageOf(err)}`)
      return undefined
    }
  }

  /**
   * The cause record this write makes (the docs side of a dispatch often has no comment of its
   * own), by records/delivery.ts's one rule: the job, once the instruction was delivered; dropped
   * once the job failed; otherwise the one there is kept. A key the service refused sent nothing.
   */
  private causeRecords(state: NoticeState): ReturnType<typeof causeRecords> {
    if (state.kind === 'refused') return { keys: [] }
    const said = state.kind !== 'failed' ? 'sent' : state.dropped ? 'dropped' : 'kept'
    return causeRecords(this.c.cause, this.c.jobId?.(), said)
  }

  where(): string {
    return `${this.ref.owner}/${this.ref.repo}#${this.ref.number}`
  }

  private body(state: NoticeState): string {
    const docs = escapeText(this.c.docsRepository)
    const run = this.c.runUrl ? ` ([workflow run](${this.c.runUrl}))` : ''
    const head = '### Docs for this change'
    switch (state.kind) {
      case 'working':
        return `${head}\n\n⏳ The docs agent is working on ${docs}'s documentation for this change${run}.`
      case 'opened': {
        const opened = `📝 Docs pull request: ${pullLink(state.prLink, this.c.serverUrl)}${run}.`
        return `${head}\n\n${opened}${state.verdict ? `\n\n${state.verdict}` : ''}`
      }
      case 'no-change':
        return `${head}\n\n✅ The docs agent found no change needed in ${docs}'s documentation${run}.`
      case 'failed':
        return `${head}\n\n❌ The docs agent could not finish ${docs}'s documentation for this change: ${state.why}${run}.${state.retry ? ' Re-run the docs workflow to try again.' : ''}`
      case 'refused':
        return `${head}\n\n${refusedText(state.cause, docs, run)}`
    }
  }
}

/**
 * A cause someone must fix before a re-run helps: what, what to change there and who changes it;
 * a re-run before then fails the same way.
 */
function refusedText(cause: RunCause, docs: string, run: string): string {
  const icon = cause.kind === 'network' ? '🔌' : '🔑'
  const who = whoFixes(cause.fixer, docs) ?? `the maintainers of the docs workflow in ${docs}`
  return (
    `${icon} The docs agent did not start on ${docs}'s documentation for this change: ${cause.what}${run}.\n\n` +
    `**To fix** (${who}): ${capitalise(cause.fix)}${/[.!?]$/.test(cause.fix) ? '' : '.'} Then ` +
    're-run that workflow run. Nothing was sent to the agent; a re-run before that fails the same way.'
  )
}

/** The notice of a job run, when there is a code pull request to tell, and the summary's note. */
export function noticeFor(ctx: CommandContext<JobSettings>): {
  notice?: CodePullRequestNotice
  note?: string
} {
  const { settings: s, event } = ctx
  const code = codePullRequest({
    ...s,
    eventName: event.eventName,
    payload: ctx.payload,
    serverUrl: ctx.serverUrl
  })
  // The payload's pull request outside the bound: the gate has warned of it (`notify-pr` naming
  // one is that input's own mistake, said here).
  const warned = s.notifyPr === '' && code.outside === ctx.asker.unlinked?.label
  if (code.outside && code.note && !warned) core.warning(plainText(code.note))
  if (!code.ref || !ctx.notifyRecords) return code.note ? { note: code.note } : {}
  const notice = new CodePullRequestNotice(code.ref, {
    records: ctx.notifyRecords,
    projectId: s.projectId,
    docsRepository: `${event.owner}/${event.repo}`,
    runUrl: ctx.runUrl,
    serverUrl: ctx.serverUrl,
    cause: causeStep(ctx),
    jobId: () => ctx.result.outputs.get('job-id')
  })
  return { notice, note: notice.note() }
}

/** What the comment on the code pull request says of the run's ending. */
export function noticeOf(ending: JobEnding, prLink: string | undefined): NoticeState {
  if (ending.kind === 'finished' && ending.outcome === 'pull-request' && prLink) {
    // What the docs pull request's checks and preview came to, where the code's author reads.
    const verdict = checksVerdict(ending.checks)
    return { kind: 'opened', prLink, ...(verdict ? { verdict } : {}) }
  }
  if (ending.kind === 'finished' && ending.outcome === 'no-pull-request')
    return { kind: 'no-change' }
  if (ending.kind === 'not-waited') return { kind: 'working' }
  const known = ending.kind === 'stopped' ? ending.cause.known : undefined
  if (ending.kind === 'stopped' && known && !known.retry && ending.delivered === 'no')
    return { kind: 'refused', cause: known }
  if (jobFailed(ending))
    return {
      kind: 'failed',
      why: `the job ended ${ending.kind === 'finished' ? ending.status : ''}`.trim(),
      dropped: true,
      retry: true
    }
  const why =
    ending.kind === 'finished'
      ? `the job ended ${ending.status || 'without a pull request'}`
      : ending.kind === 'timed-out'
        ? 'the run stopped waiting before the job finished; the job may still open a pull request'
        : ending.kind === 'cancelled'
          ? 'the run was cancelled'
          : known
            ? `the run stopped: ${known.what}`
            : 'the run stopped before the job finished (its log says why)'
  // A re-run sends again only where nothing was sent, or the cause passes.
  const retry =
    (ending.kind === 'cancelled' && ending.delivered === 'no') ||
    (ending.kind === 'stopped' && ending.delivered === 'no' && known?.retry === true)
  return { kind: 'failed', why, retry }
}

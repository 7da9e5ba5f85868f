// The code pull request of a dispatch (contract: "Two repositories"): with `notify-token`, it gets
// one comment, kept up to date, naming the docs pull request the job opened (or why there is
// none). Its place is `notify-pr`, else the dispatch payload's pull request. The comment carries a
// signed `notify` record (records/kinds.ts), so every write and every re-run edits the same one.
// A failure to write there is a warning: it never fails the step.
import * as core from '@actions/core'
import { readDispatch } from '../agent/dispatch.js'
import { messageOf } from '../errors.js'
import type { Octokit } from '../github/octokit.js'
import { pullRequestOfLink, type PullRequestRef } from '../github/pulls.js'
import {
  causeKey,
  causeStep,
  isCauseOf,
  sentFor,
  type CauseStep,
  type SentFor
} from '../records/delivery.js'
import { notifyKey } from '../records/job.js'
import { Records } from '../records/records.js'
import { capitalise, escapeText, link, parseHttpsUrl } from '../report/markdown.js'
import { KEY_REFUSED_HINT } from '../service/hints.js'
import type { JobEnding } from '../report/job-report.js'
import { jobFailed } from '../agent/ending.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import type { JsonObject } from '../json.js'

/** Where the code pull request is, or why nothing is written there. */
export interface CodePullRequest {
  ref?: PullRequestRef
  url?: string
  /** Said in the summary (and the log) when the code pull request is not told. */
  note?: string
  /**
   * The pull request named is outside `notify-repository` (the note names both, and is a
   * warning): nothing with `notify-token` goes there, not even the check's probe.
   */
  outside?: true
}

/**
 * The inputs and the run this needs: `notify-pr`, `notify-token`, `notify-repository`, the event,
 * the server.
 */
export interface NotifySource {
  notifyPr: string
  notifyToken: string
  notifyRepository: string
  eventName: string
  payload: JsonObject
  serverUrl: string
}

/** The code pull request to tell, from `notify-pr` or (with a token) the dispatch payload. */
export function codePullRequest(n: NotifySource): CodePullRequest {
  const fromPayload =
    n.eventName === 'repository_dispatch' ? readDispatch(n.payload)?.pullRequest?.url : undefined
  const url = n.notifyPr || fromPayload
  if (!url) return {}
  const from = n.notifyPr ? '`notify-pr`' : "the dispatch payload's pull request"
  if (n.notifyToken === '')
    return {
      url,
      note: 'The code pull request was not told of this job: set `notify-token` to a token that may comment there.'
    }
  const ref = pullRequestOfLink(url, n.serverUrl)
  if (!ref)
    return {
      url,
      note: `The code pull request was not told: ${from} is not a pull request on ${n.serverUrl}.`
    }
  const repository = `${ref.owner}/${ref.repo}`
  if (repository.toLowerCase() !== n.notifyRepository.toLowerCase()) {
    const note =
      `The code pull request was not told: ${from} names ${escapeText(repository)}#${ref.number}, ` +
      `outside \`notify-repository\` (${n.notifyRepository}); nothing with \`notify-token\` was sent there.`
    return { url, note, outside: true }
  }
  return { ref, url }
}

/** What the comment on the code pull request says. */
export type NoticeState =
  | { kind: 'working' }
  | { kind: 'opened'; prLink: string }
  | { kind: 'no-change' }
  /** `dropped`: the job failed, a re-run or a new dispatch is the retry (sends again). */
  | { kind: 'failed'; why: string; dropped?: boolean }
  /** The service refused the docs workflow's key (401) before it took the instruction. */
  | { kind: 'key-refused' }

export interface NoticeContext {
  octokit: Octokit
  /** Signs the record (the API key). */
  secret: string
  projectId: string
  /** owner/name of the docs repository. */
  docsRepository: string
  runUrl: string
  serverUrl: string
  /** The run's clock (its Deadline): when the record is written. */
  clock: { now(): number }
  /** The run's cause, recorded here once the service has the instruction (one send per cause). */
  cause?: CauseStep | undefined
  /** The job the instruction went to, once the service answered. */
  jobId?: () => string | undefined
}

export class CodePullRequestNotice {
  private readonly records: Records

  constructor(
    private readonly ref: PullRequestRef,
    private readonly c: NoticeContext
  ) {
    this.records = new Records(c.octokit, c.secret, c.clock)
  }

  /** Writes (or edits) the one comment; a failure is a warning. Returns its URL when written. */
  async say(state: NoticeState): Promise<string | undefined> {
    const place = { owner: this.ref.owner, repo: this.ref.repo, issueNumber: this.ref.number }
    const key = notifyKey(this.c.projectId, this.c.docsRepository)
    try {
      const written = await this.records
        .thread(place)
        .upsert({ key, ...this.causeRecords(state), body: this.body(state), mode: 'upsert' })
      return written.url
    } catch (err) {
      core.warning(`Could not tell the code pull request ${this.where()}: ${messageOf(err)}`)
      return undefined
    }
  }

  /**
   * The cause record this write makes (the docs side of a dispatch often has no comment of its
   * own): the job, once the instruction was delivered; dropped once the job failed; otherwise the
   * one there is kept.
   */
  private causeRecords(state: NoticeState): {
    extraKeys: string[]
    carry?: (key: string) => boolean
  } {
    const cause = this.c.cause
    const job = this.c.jobId?.()
    if (!cause || job === undefined || state.kind === 'key-refused') return { extraKeys: [] }
    if (state.kind === 'failed')
      return state.dropped
        ? { extraKeys: [causeKey(cause, undefined)] }
        : { extraKeys: [], carry: isCauseOf(cause) }
    return { extraKeys: [causeKey(cause, job)] }
  }

  /** Where this cause's instruction went, as the code pull request records it. */
  sentFor(step: CauseStep): Promise<SentFor | undefined> {
    const place = { owner: this.ref.owner, repo: this.ref.repo, issueNumber: this.ref.number }
    return sentFor(this.records.thread(place), step)
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
      case 'opened':
        return `${head}\n\n📝 Docs pull request: ${pullLink(state.prLink, this.c.serverUrl)}${run}.`
      case 'no-change':
        return `${head}\n\n✅ The docs agent found no change needed in ${docs}'s documentation${run}.`
      case 'failed':
        return `${head}\n\n❌ The docs agent could not finish ${docs}'s documentation for this change: ${state.why}${run}. Re-run the docs workflow to try again.`
      case 'key-refused':
        // A re-run cannot help until the secret holds a new key: the cause and the fix, said here.
        return (
          `${head}\n\n🔑 The docs agent did not start on ${docs}'s documentation for this change: ` +
          `the service refused the docs workflow's API key (401)${run}. ${capitalise(KEY_REFUSED_HINT)} ` +
          `in ${docs}, then re-run that workflow run. Nothing was sent to the agent.`
        )
    }
  }
}

/** `owner/repo#N` linked, for a pull request on this server; else the link's host and path. */
export function pullLink(prLink: string, serverUrl: string): string {
  const pr = pullRequestOfLink(prLink, serverUrl)
  const url = parseHttpsUrl(prLink)
  // `#` left as it is: GitHub shows `owner/repo#N` as the cross-reference it is.
  const label = pr
    ? `${escapeText(`${pr.owner}/${pr.repo}`)}#${pr.number}`
    : escapeText(url ? url.host + url.pathname : prLink)
  return link(label, prLink)
}

/** Each run's notice, made once (job-cause.ts asks it before the job run does). */
const notices = new WeakMap<object, { notice?: CodePullRequestNotice; note?: string }>()

/** The notice of a job run, when there is a code pull request to tell, and the summary's note. */
export function noticeFor(ctx: CommandContext<JobSettings>): {
  notice?: CodePullRequestNotice
  note?: string
} {
  let made = notices.get(ctx)
  if (!made) notices.set(ctx, (made = makeNotice(ctx)))
  return made
}

function makeNotice(ctx: CommandContext<JobSettings>): {
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
  if (code.outside && code.note) core.warning(code.note)
  if (!code.ref || !ctx.notifyOctokit) return code.note ? { note: code.note } : {}
  const notice = new CodePullRequestNotice(code.ref, {
    octokit: ctx.notifyOctokit,
    secret: s.apiKey,
    projectId: s.projectId,
    docsRepository: `${event.owner}/${event.repo}`,
    runUrl: ctx.runUrl,
    serverUrl: ctx.serverUrl,
    clock: ctx.deadline,
    cause: causeStep(ctx),
    jobId: () => ctx.result.outputs.get('job-id')
  })
  return { notice, note: `The code pull request ${notice.where()} is told in one comment there.` }
}

/** What the comment on the code pull request says of the run's ending. */
export function noticeOf(ending: JobEnding, prLink: string | undefined): NoticeState {
  if (ending.kind === 'finished' && ending.outcome === 'pull-request' && prLink)
    return { kind: 'opened', prLink }
  if (ending.kind === 'finished' && ending.outcome === 'no-pull-request')
    return { kind: 'no-change' }
  if (ending.kind === 'not-waited') return { kind: 'working' }
  if (ending.kind === 'stopped' && ending.cause.keyRefused && ending.delivered === 'no')
    return { kind: 'key-refused' }
  const why =
    ending.kind === 'finished'
      ? `the job ended ${ending.status || 'without a pull request'}`
      : ending.kind === 'timed-out'
        ? 'the run stopped waiting before the job finished'
        : ending.kind === 'cancelled'
          ? 'the run was cancelled'
          : 'the run stopped before the job finished'
  return { kind: 'failed', why, ...(jobFailed(ending) ? { dropped: true } : {}) }
}

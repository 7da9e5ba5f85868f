// What the action trusts on GitHub, for one run: one Records per client, made where the GitHub
// clients are made (gate/clients.ts GitHubClients) and handed to the gate and the command. It lists each thread at most once per run
// (thread.ts), knows the login this token writes as (login.ts), and decides whether a job opened
// the pull request it names. The kinds of records and their keys: kinds.ts.
import type { Place } from '../github/comments.js'
import type { Octokit } from '../github/octokit.js'
import { pullRequestState, type PullRequestRef } from '../github/pulls.js'
import { tokenLogin } from '../github/rights.js'
import { OwnLogin } from './login.js'
import { RecordThread } from './thread.js'

export class Records {
  readonly login: OwnLogin
  private readonly threads = new Map<string, RecordThread>()
  /** When each pull request looked up was created (undefined: GitHub did not say). */
  private readonly created = new Map<string, Promise<number | undefined>>()
  private readonly createdSeen = new Map<string, number | undefined>()

  constructor(
    readonly octokit: Octokit,
    /** Signs and verifies the records (the API key). */
    readonly secret: string,
    /** The run's clock (its Deadline): when each record is written. */
    private readonly clock: { now(): number }
  ) {
    this.login = new OwnLogin(() => tokenLogin(octokit))
  }

  /** The thread of an issue or pull request, listed at most once per run. */
  thread(place: Place): RecordThread {
    const id = `${place.owner}/${place.repo}#${place.issueNumber}`.toLowerCase()
    let thread = this.threads.get(id)
    if (!thread) {
      thread = new RecordThread(this.octokit, place, this.secret, this.login, this.clock)
      this.threads.set(id, thread)
    }
    return thread
  }

  /**
   * Whether GitHub shows pull request `pr` created after the job was (`job.createdAt`): the one
   * sign that the job opened it rather than naming one that was there before. Unknown (either
   * date missing, GitHub not answering) is no. Asked once per pull request per run.
   */
  async createdAfter(pr: PullRequestRef, job: { createdAt?: string }): Promise<boolean> {
    const id = pullId(pr)
    let created = this.created.get(id)
    if (!created) {
      created = pullRequestState(this.octokit, pr.owner, pr.repo, pr.number).then(
        state => state.createdAt,
        () => undefined
      )
      this.created.set(id, created)
      this.createdSeen.set(id, await created)
    }
    return openedAfter(await created, job.createdAt)
  }

  /** What createdAfter found, without asking: no until it has been asked. */
  seenCreatedAfter(pr: PullRequestRef, job: { createdAt?: string }): boolean {
    return openedAfter(this.createdSeen.get(pullId(pr)), job.createdAt)
  }
}

const pullId = (pr: PullRequestRef): string => `${pr.owner}/${pr.repo}#${pr.number}`.toLowerCase()

/**
 * The rule of the `opened` record: the pull request was created at or after the second the job
 * was (GitHub gives whole seconds). Either time unknown: no.
 */
function openedAfter(pullCreatedAt: number | undefined, jobCreatedAt: string | undefined): boolean {
  const job = jobCreatedAt === undefined ? NaN : Date.parse(jobCreatedAt)
  if (pullCreatedAt === undefined || !Number.isFinite(job)) return false
  return pullCreatedAt >= Math.floor(job / 1000) * 1000
}

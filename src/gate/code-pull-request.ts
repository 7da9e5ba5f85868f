// The code pull request a job run tells (contract: "Two repositories"): `notify-pr`, else the
// pull request a dispatch payload names, read once by the gate's reader of the event; or why it
// is not told (no `notify-token`, not a pull request of this GitHub, outside `notify-repository`).
// The gate reads its one comment (a cause sent already), the job run writes it
// (commands/job-notify.ts), the set-up check probes it (commands/check.ts).
import { readDispatch } from '../agent/dispatch.js'
import { pullRequestOfLink, type PullRequestRef } from '../github/pulls.js'
import type { JsonObject } from '../json.js'
import { escapeText } from '../report/markdown.js'

/** Where the code pull request is, or why nothing is written there. */
export interface CodePullRequest {
  ref?: PullRequestRef
  url?: string
  /** Said in the summary (and the log) when the code pull request is not told. */
  note?: string
  /**
   * The pull request named (`owner/repo#N`) is outside `notify-repository` (the note names both,
   * and is a warning): nothing with `notify-token` goes there, not even the check's probe.
   */
  outside?: string
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
    return { url, note, outside: `${repository}#${ref.number}` }
  }
  return { ref, url }
}

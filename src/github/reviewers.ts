// Asking for reviews of a pull request (`pull-requests: write`): one request for every login and
// team named. GitHub refuses the whole request (422) when one of them cannot be asked: someone who
// is no collaborator of the repository, a bot, the pull request's author, a team it does not know.
import { call } from './errors.js'
import type { Octokit } from './octokit.js'
import type { PullRequestRef } from './pulls.js'

/** Who is asked: logins, and team slugs of the repository's organisation. */
export interface ReviewRequest {
  users: string[]
  teams: string[]
}

/** One request; a refusal is the GitHubError (its status, GitHub's words, what it needs). */
export async function requestReviewers(
  octokit: Octokit,
  pr: PullRequestRef,
  who: ReviewRequest
): Promise<void> {
  await call(`asking for reviews of #${pr.number}`, () =>
    octokit.rest.pulls.requestReviewers({
      owner: pr.owner,
      repo: pr.repo,
      pull_number: pr.number,
      reviewers: who.users,
      team_reviewers: who.teams
    })
  )
}

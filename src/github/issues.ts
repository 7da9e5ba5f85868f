// Whether the issue a run will comment on exists, asked before anything else is spent (contract:
// "Causes, and who fixes them"): a report or export that names an `issue-number` GitHub does not
// know would read the whole range of analytics, spending the quota, and then fail to post it.
// One GitHub request; only a 404 or 410 (deleted) stops the run, naming `issue-number`.
import type { Place } from './comments.js'
import { call, GitHubError } from './errors.js'
import type { Octokit } from './octokit.js'

/** `issue-number` names no issue or pull request of the repository the token can see. */
export class IssueMissingError extends Error {
  /** What went wrong, a clause: "issue #999 does not exist in octo/docs (404)". */
  readonly what: string
  /** What to change (Markdown we wrote). */
  readonly fix: string

  constructor(
    readonly place: Place,
    status: number
  ) {
    const repository = `${place.owner}/${place.repo}`
    super(
      `Issue #${place.issueNumber} does not exist in ${repository} (GitHub answered ${status}), so nothing was read and nothing posted.`
    )
    this.name = 'IssueMissingError'
    this.what = `issue #${place.issueNumber} does not exist in ${repository} (${status})`
    this.fix =
      `check \`issue-number\`: it must name an issue or pull request of ${repository} ` +
      '(the tracking issue the report is posted on), or leave it out to write the job summary only'
  }
}

/**
 * Throws IssueMissingError when GitHub says the issue is not there (404, or 410 for one deleted);
 * any other failure is left to the write, which says it then, so a GitHub slow to answer here
 * costs no report.
 */
export async function issueMustExist(
  octokit: Octokit,
  place: Place,
  warn: (line: string) => void
): Promise<void> {
  try {
    await call(`reading issue #${place.issueNumber}`, () =>
      octokit.rest.issues.get({
        owner: place.owner,
        repo: place.repo,
        issue_number: place.issueNumber
      })
    )
  } catch (err) {
    if (err instanceof GitHubError && !err.page && (err.status === 404 || err.status === 410))
      throw new IssueMissingError(place, err.status)
    warn(`Could not check that issue #${place.issueNumber} exists: ${(err as Error).message}`)
  }
}

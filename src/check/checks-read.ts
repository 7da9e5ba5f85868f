// The set-up check's line for `checks` (contract: "The agent's checks"): whether the workflow's
// token may list check runs (`checks: read`), asked once on the run's own commit. Without that
// permission `checks` could not read the agent's pull request's checks, and `require` would fail.
import { messageOf } from '../errors.js'
import { call, GitHubError } from '../github/errors.js'
import type { Octokit } from '../github/octokit.js'
import type { CheckLine } from '../report/check.js'
import type { ChecksMode } from '../settings/settings.js'

const CHECK = 'GitHub token may read check runs'

/** No line with `checks: off`; else one request (none without a token or a commit to ask on). */
export async function checksReadLine(o: {
  checks: ChecksMode
  octokit?: Octokit
  owner: string
  repo: string
  /** The run's commit (`GITHUB_SHA`). */
  commit?: string
}): Promise<CheckLine[]> {
  if (o.checks === 'off') return []
  const { octokit, owner, repo } = o
  const sha = o.commit ?? ''
  if (!octokit) return [skip('no GitHub token is used (`github-token` empty, or `comment: false`)')]
  if (owner === '' || !/^[0-9a-f]{40}$/i.test(sha))
    return [skip('no commit of this repository to list check runs on (`GITHUB_SHA`)')]
  try {
    await call('listing check runs', () =>
      octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 1 })
    )
    return [
      { check: CHECK, verdict: 'pass', seen: `may list the check runs of ${sha.slice(0, 7)}` }
    ]
  } catch (err) {
    const refused = err instanceof GitHubError && (err.status === 403 || err.status === 404)
    const fix = refused
      ? "Add `checks: read` to the workflow's `permissions:` (`checks` reads the check runs of " +
        "the agent's pull request)"
      : 'GitHub did not answer as expected: run the check again'
    return [
      {
        check: CHECK,
        verdict: 'fail',
        seen: 'GitHub refused to list check runs',
        said: messageOf(err),
        fix
      }
    ]
  }
}

const skip = (seen: string): CheckLine => ({ check: CHECK, verdict: 'skip', seen })

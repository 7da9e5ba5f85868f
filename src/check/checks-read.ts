// The set-up check's lines for `checks` (contract: "The agent's checks", "The preview and who
// reviews"): whether the workflow's token may list check runs (`checks: read`) and deployments
// (`deployments: read`), each asked once on the run's own commit. Without the first, `checks`
// could not read the agent's pull request's checks; without the second, its preview; and
// `require` would fail.
import { messageOf } from '../errors.js'
import { call, GitHubError } from '../github/errors.js'
import type { Octokit } from '../github/octokit.js'
import type { CheckLine } from '../report/check.js'
import type { ChecksMode } from '../settings/settings.js'

/** What each line asks GitHub (one request), and what it needs. */
interface Probe {
  check: string
  what: string
  seen: string
  refused: string
  fix: string
  ask(octokit: Octokit, owner: string, repo: string, sha: string): Promise<unknown>
}

const PROBES: readonly Probe[] = [
  {
    check: 'GitHub token may read check runs',
    what: 'listing check runs',
    seen: 'may list the check runs of',
    refused: 'GitHub refused to list check runs',
    fix:
      "Add `checks: read` to the workflow's `permissions:` (`checks` reads the check runs of " +
      "the agent's pull request)",
    ask: (octokit: Octokit, owner: string, repo: string, sha: string) =>
      octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 1 })
  },
  {
    check: 'GitHub token may read deployments',
    what: 'listing deployments',
    seen: 'may list the deployments of',
    refused: 'GitHub refused to list deployments',
    fix:
      "Add `deployments: read` to the workflow's `permissions:` (`checks` reads the preview " +
      "the docs platform's GitHub app deploys of the agent's pull request)",
    ask: (octokit: Octokit, owner: string, repo: string, sha: string) =>
      octokit.rest.repos.listDeployments({ owner, repo, sha, per_page: 1 })
  }
]

/** No line with `checks: off`; else one request each (none without a token or a commit). */
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
  const skip = (seen: string): CheckLine[] =>
    PROBES.map(p => ({ check: p.check, verdict: 'skip', seen }))
  if (!octokit) return skip('no GitHub token is used (`github-token` empty, or `comment: false`)')
  if (owner === '' || !/^[0-9a-f]{40}$/i.test(sha))
    return skip('no commit of this repository to list check runs and deployments on (`GITHUB_SHA`)')
  const lines: CheckLine[] = []
  for (const p of PROBES) {
    try {
      await call(p.what, () => p.ask(octokit, owner, repo, sha))
      lines.push({ check: p.check, verdict: 'pass', seen: `${p.seen} ${sha.slice(0, 7)}` })
    } catch (err) {
      const refused = err instanceof GitHubError && (err.status === 403 || err.status === 404)
      lines.push({
        check: p.check,
        verdict: 'fail',
        seen: p.refused,
        said: err instanceof GitHubError ? err.problem : messageOf(err),
        fix: refused ? p.fix : 'GitHub did not answer as expected: run the check again'
      })
    }
  }
  return lines
}

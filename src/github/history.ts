// When a file of this repository last changed, by GitHub's history: one request, the newest commit
// that touched the path. The checkout is not asked: a shallow clone (the default of
// actions/checkout) would date every file to the one commit it holds.
import { call } from './errors.js'
import type { Octokit } from './octokit.js'

/** ms epoch of the newest commit touching `path`, or undefined when GitHub lists none. */
export async function lastChanged(
  octokit: Octokit,
  owner: string,
  repo: string,
  path: string
): Promise<number | undefined> {
  return call(`reading the history of ${path}`, async () => {
    const { data } = await octokit.rest.repos.listCommits({ owner, repo, path, per_page: 1 })
    const commit = data[0]?.commit
    const date = commit?.committer?.date ?? commit?.author?.date
    const ms = date ? Date.parse(date) : NaN
    return Number.isFinite(ms) ? ms : undefined
  })
}

// What a growth changed (issue 42): the files of the commits pushed to the agent's pull request
// after the run started, from the pull request's commits (one request, 100 at most, oldest
// first) and each such commit's files (one request each, at most MAX_COMMITS). Anything it cannot
// tell (more commits than one page, more new commits than MAX_COMMITS) is undefined: the answer
// then shows no file list, never the whole pull request's files as the growth's.
import type { ChangedFile, PullRequestChanges } from '../report/job-report.js'
import { redact } from '../secrets/redact.js'
import { call } from './errors.js'
import type { Octokit } from './octokit.js'
import type { PullRequestRef } from './pulls.js'

/** The most new commits whose files are read: at most 1 + MAX_COMMITS requests in all. */
const MAX_COMMITS = 5
const PAGE = 100

const count = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0

/** The files of the commits dated at or after `since` (ms), summed by path; undefined: unknown. */
export async function changesSince(
  octokit: Octokit,
  pr: PullRequestRef,
  since: number,
  shown: number
): Promise<PullRequestChanges | undefined> {
  return call(`listing the new commits of ${pr.owner}/${pr.repo}#${pr.number}`, async () => {
    const where = { owner: pr.owner, repo: pr.repo }
    const listed = await octokit.rest.pulls.listCommits({
      ...where,
      pull_number: pr.number,
      per_page: PAGE
    })
    if (listed.data.length >= PAGE) return undefined
    const fresh = listed.data.filter(c => {
      const at = Date.parse(c.commit.committer?.date ?? c.commit.author?.date ?? '')
      return !Number.isNaN(at) && at >= since
    })
    if (fresh.length === 0 || fresh.length > MAX_COMMITS) return undefined
    const byPath = new Map<string, ChangedFile>()
    for (const c of fresh) {
      const { data } = await octokit.rest.repos.getCommit({ ...where, ref: c.sha })
      for (const f of data.files ?? []) {
        const was = byPath.get(f.filename) ?? { path: f.filename, additions: 0, deletions: 0 }
        byPath.set(f.filename, {
          ...was,
          additions: was.additions + count(f.additions),
          deletions: was.deletions + count(f.deletions)
        })
      }
    }
    return summed([...byPath.values()], shown)
  })
}

/** The totals and the first `shown` files; a name that holds a secret is withheld. */
function summed(files: ChangedFile[], shown: number): PullRequestChanges {
  const kept = files.map(f =>
    redact(f.path) === f.path ? f : { ...f, path: '', withheld: true as const }
  )
  return {
    files: kept.slice(0, shown),
    count: files.length,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0)
  }
}

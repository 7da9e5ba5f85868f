// A pull request's changed files, as GitHub lists them (for `context`).
import { call } from './errors.js'
import type { Octokit } from './octokit.js'

/** The first `max` paths of a pull request, in pages of 100: usually one request. */
export async function listPullRequestFiles(
  octokit: Octokit,
  owner: string,
  repo: string,
  pullNumber: number,
  max: number
): Promise<string[]> {
  return call(`listing the files of #${pullNumber}`, async () => {
    const files: string[] = []
    const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
      owner,
      repo,
      pull_number: pullNumber,
      per_page: 100
    })
    for await (const page of pages) {
      for (const file of page.data) files.push(file.filename)
      if (files.length >= max) break
    }
    return files.slice(0, max)
  })
}

// A pull request's changed files, as GitHub lists them: their paths (for `context`), and what a
// job's answer shows of them (the first few, with lines added and removed, and the totals); its
// state and age; and its head, author and target, read once for what follows the job.
import type { ChangedFile, PullRequestChanges } from '../report/job-report.js'
import { escapeText, link, parseHttpsUrl } from '../report/markdown.js'
import { redact } from '../secrets/redact.js'
import { asObject } from '../json.js'
import { call } from './errors.js'
import { mayListMore, readInTime, type Octokit } from './octokit.js'

/** A pull request on this GitHub, perhaps of another repository. */
export interface PullRequestRef {
  owner: string
  repo: string
  number: number
}

/** GitHub lists at most 3,000 files of a pull request: 30 pages of 100. */
const MAX_PAGES = 30

/** Line counts from GitHub are read as untrusted: anything but a count is 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0
}

/**
 * Every page of the pull request's files (100 a page, at most GitHub's 30), handed to `onPage`
 * until it returns `true` (enough).
 */
async function readFiles(
  octokit: Octokit,
  pr: PullRequestRef,
  onPage: (files: ChangedFile[]) => boolean | void
): Promise<void> {
  const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100
  })
  let read = 0
  for await (const page of pages) {
    const files = page.data.map(f => ({
      path: String(f.filename),
      additions: count(f.additions),
      deletions: count(f.deletions)
    }))
    // No page starts after the run's `wait-timeout`.
    if (onPage(files) === true || ++read >= MAX_PAGES || !mayListMore(octokit)) break
  }
}

/** The first `max` paths of a pull request, in pages of 100: usually one request. */
export async function listPullRequestFiles(
  octokit: Octokit,
  owner: string,
  repo: string,
  pullNumber: number,
  max: number
): Promise<string[]> {
  return call(`listing the files of #${pullNumber}`, async () => {
    const paths: string[] = []
    await readFiles(octokit, { owner, repo, number: pullNumber }, files => {
      paths.push(...files.map(f => f.path))
      return paths.length >= max
    })
    return paths.slice(0, max)
  })
}

/**
 * What the pull request changes: its first `shown` files and the totals over all of them (one
 * request for up to 100 files).
 */
export async function pullRequestChanges(
  octokit: Octokit,
  pr: PullRequestRef,
  shown: number
): Promise<PullRequestChanges> {
  return call(`listing the files of ${pr.owner}/${pr.repo}#${pr.number}`, async () => {
    const changes: PullRequestChanges = { files: [], count: 0, additions: 0, deletions: 0 }
    await readFiles(octokit, pr, files => {
      for (const f of files) {
        // A name that holds a secret is not kept at all: nothing downstream can echo it.
        const kept: ChangedFile = redact(f.path) === f.path ? f : { ...f, path: '', withheld: true }
        if (changes.files.length < shown) changes.files.push(kept)
        changes.count++
        changes.additions += f.additions
        changes.deletions += f.deletions
      }
    })
    return changes
  })
}

function basePath(server: URL): string {
  return server.pathname.replace(/\/+$/, '')
}

/**
 * The pull request a link such as 'https://github.com/octo/docs/pull/7' names, when it is on this
 * GitHub (`serverUrl`, a path prefix of GitHub Enterprise kept); anything else is undefined.
 */
export function pullRequestOfLink(link: string, serverUrl: string): PullRequestRef | undefined {
  let url: URL
  let server: URL
  try {
    url = new URL(link.trim())
    server = new URL(serverUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.host !== server.host || url.username !== '' || url.password !== '') return undefined
  const base = basePath(server)
  if (!url.pathname.startsWith(`${base}/`)) return undefined
  const match = /^\/([^/]+)\/([^/]+)\/pull\/([1-9][0-9]{0,15})(?:\/files)?\/?$/.exec(
    url.pathname.slice(base.length)
  )
  if (match === null) return undefined
  const [, owner = '', repo = '', digits = ''] = match
  const number = Number(digits)
  return Number.isSafeInteger(number) ? { owner, repo, number } : undefined
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

/** Where a pull request stands: open, merged (and when), or closed without a merge. */
export interface PullRequestState {
  state: 'open' | 'merged' | 'closed'
  /** ms epoch, when merged. */
  mergedAt?: number
  /** ms epoch, when it was opened (as GitHub says). */
  createdAt?: number
}

export async function pullRequestState(
  octokit: Octokit,
  owner: string,
  repo: string,
  pullNumber: number
): Promise<PullRequestState> {
  const { data } = await call(`reading pull request #${pullNumber}`, () =>
    octokit.rest.pulls.get({ owner, repo, pull_number: pullNumber })
  )
  const createdAt = typeof data.created_at === 'string' ? Date.parse(data.created_at) : NaN
  const created = Number.isFinite(createdAt) ? { createdAt } : {}
  const mergedAt = data.merged_at ? Date.parse(data.merged_at) : NaN
  if (Number.isFinite(mergedAt)) return { state: 'merged', mergedAt, ...created }
  return { state: data.state === 'open' ? 'open' : 'closed', ...created }
}

/** What the checks, the preview and the reviewers need of the job's pull request: one read. */
export interface PullRequestHead {
  /** Its head commit. */
  sha: string
  /** Who opened it (never asked to review it), and whether that is a bot. */
  author?: string
  /** The branch it targets, and the repository's default branch (previews: "The preview"). */
  base?: string
  defaultBranch?: string
  /** The repository its head is in, when that is not this one. */
  fork?: string
}

const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined

/** The pull request's head and the rest of PullRequestHead: one request, within the run's time. */
export async function pullRequestHead(
  octokit: Octokit,
  pr: PullRequestRef
): Promise<PullRequestHead> {
  const data = await readInTime(octokit, `pull request #${pr.number}`, request =>
    call(`reading pull request #${pr.number}`, async () => {
      const answer = await octokit.rest.pulls.get({
        owner: pr.owner,
        repo: pr.repo,
        pull_number: pr.number,
        request
      })
      return answer.data
    })
  )
  const head = asObject(data.head)
  const base = asObject(data.base)
  const sha = textOf(head?.sha) ?? ''
  if (!/^[0-9a-f]{7,64}$/i.test(sha))
    throw new Error(`GitHub: pull request #${pr.number} names no head commit`)
  const author = textOf(asObject(data.user)?.login)
  const headRepo = textOf(asObject(head?.repo)?.full_name)
  const fork =
    headRepo && headRepo.toLowerCase() !== `${pr.owner}/${pr.repo}`.toLowerCase()
      ? headRepo
      : undefined
  const ref = textOf(base?.ref)
  const defaultBranch = textOf(asObject(base?.repo)?.default_branch)
  return {
    sha,
    ...(author ? { author } : {}),
    ...(ref ? { base: ref } : {}),
    ...(defaultBranch ? { defaultBranch } : {}),
    ...(fork ? { fork } : {})
  }
}

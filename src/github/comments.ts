// Comments on issues and pull requests as GitHub keeps them: listed (within bounds), created and
// edited, written whole or cut to GitHub's limit here and nowhere else, with one note that says
// so. What the action trusts in them (its signed records) is decided in records/, not here.
import * as core from '@actions/core'
import { chars, COMMENT_MAX_CHARS, fitMarkdown } from '../report/fit.js'
import { call } from './errors.js'
import { redact } from '../secrets/redact.js'
import { pullRequestOfLink } from './pulls.js'
import { mayListMore, type Octokit } from './octokit.js'

/** An issue or pull request of a repository. */
export interface Place {
  owner: string
  repo: string
  issueNumber: number
}

export interface CommentRef {
  id: number
  url: string
  /** 'if-absent' found a comment for the key and left it as it was. */
  kept?: true
}

/**
 * 'upsert' edits the comment for the key (or adds one), 'create' always adds one, 'minimize' adds
 * one and hides the previous comment of its series as outdated, 'if-absent' adds one only when
 * there is none for the key (an incomplete report never replaces a report).
 */
export type CommentMode = 'upsert' | 'create' | 'minimize' | 'if-absent'

/** A comment body, or a renderer given the room (in characters) that the body may take. */
export type CommentBody = string | ((room: number) => string)

export interface ListedComment {
  id: number
  body: string
  html_url: string
  /** The login that wrote it ('' when GitHub did not say). */
  author: string
  /** GitHub's global id, which GraphQL (hiding a comment) asks for. */
  nodeId?: string
  /** GitHub's user type of its author (`Bot` for an app), when GitHub said. */
  authorType?: string
}

/**
 * Body plus markers: the body is fitted to what GitHub allows once the markers are in, cut at a
 * line with its open blocks closed and one note saying so. A body given as a function renders to
 * that room itself (a report folds rows rather than being cut).
 */
export function composeBody(body: CommentBody, markers: string): string {
  const room = COMMENT_MAX_CHARS - markers.length - 2
  if (room < 200) throw new Error('Comment markers do not fit in a comment')
  const text = typeof body === 'function' ? body(room) : body
  return `${fitMarkdown(text, chars(room))}\n\n${markers}`
}

/** What GitHub answers for a comment: enough to know it again, and who wrote it. */
interface CommentData {
  id: number
  html_url: string
  user?: { login?: string } | null
}

function toRef(data: CommentData): CommentRef & { author: string } {
  return { id: data.id, url: data.html_url, author: loginOf(data.user) }
}

function loginOf(user: { login?: string } | null | undefined): string {
  return (user?.login ?? '').toLowerCase()
}

/** A listing stops after this many pages (10,000 comments): a `next` link forever ends here. */
const MAX_LISTING_PAGES = 100

/**
 * The comments on the issue or pull request, oldest first: at most MAX_LISTING_PAGES pages, and
 * no page after the first once the run's deadline has passed.
 */
export async function listComments(octokit: Octokit, place: Place): Promise<ListedComment[]> {
  return call(`listing the comments on #${place.issueNumber}`, async () => {
    const all: ListedComment[] = []
    let pages = 0
    const iterator = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      owner: place.owner,
      repo: place.repo,
      issue_number: place.issueNumber,
      per_page: 100
    })
    for await (const page of iterator) {
      for (const c of page.data) {
        const authorType = c.user?.type
        all.push({
          id: c.id,
          body: c.body ?? '',
          html_url: c.html_url,
          author: loginOf(c.user),
          ...(typeof authorType === 'string' ? { authorType } : {}),
          ...(typeof c.node_id === 'string' ? { nodeId: c.node_id } : {})
        })
      }
      if (++pages >= MAX_LISTING_PAGES) {
        core.warning(
          `The comments on #${place.issueNumber} were listed up to ${MAX_LISTING_PAGES} pages only; later ones were not read.`
        )
        break
      }
      // The first page is read whatever the time (the run's ending needs it); no later one
      // starts after `wait-timeout`: a slow GitHub with a `next` link for ever ends here.
      if (!mayListMore(octokit)) {
        core.warning(
          `The comments on #${place.issueNumber} were listed up to ${pages} ${pages === 1 ? 'page' : 'pages'}: the time allowed (\`wait-timeout\`) ran out, so later ones were not read.`
        )
        break
      }
    }
    return all
  })
}

/** A plain reply (no marker: it routes nothing and is never edited), fitted to GitHub's limit. */
export async function postReply(octokit: Octokit, place: Place, body: string): Promise<CommentRef> {
  return createComment(octokit, place, fitMarkdown(body, chars(COMMENT_MAX_CHARS)))
}

export async function createComment(
  octokit: Octokit,
  place: Place,
  body: string
): Promise<CommentRef & { author: string }> {
  const { data } = await call(`creating a comment on #${place.issueNumber}`, () =>
    octokit.rest.issues.createComment({
      owner: place.owner,
      repo: place.repo,
      issue_number: place.issueNumber,
      // Every comment passes the secret search here, whatever built it.
      body: redact(body)
    })
  )
  return toRef(data)
}

export async function editComment(
  octokit: Octokit,
  place: Place,
  id: number,
  body: string
): Promise<CommentRef & { author: string }> {
  const { data } = await call(`updating comment ${id} on #${place.issueNumber}`, () =>
    octokit.rest.issues.updateComment({
      owner: place.owner,
      repo: place.repo,
      comment_id: id,
      body: redact(body)
    })
  )
  return toRef(data)
}

/**
 * The pull request number of a link such as 'https://github.com/octo/docs/pull/7' when it points
 * at this repository on this server; anything else is undefined.
 */
export function parsePullRequestLink(
  link: string,
  serverUrl: string,
  owner: string,
  repo: string
): number | undefined {
  const pr = pullRequestOfLink(link, serverUrl)
  if (pr === undefined) return undefined
  if (pr.owner.toLowerCase() !== owner.toLowerCase()) return undefined
  if (pr.repo.toLowerCase() !== repo.toLowerCase()) return undefined
  return pr.number
}

/**
 * Hides a comment as outdated (GraphQL `minimizeComment`, classifier `OUTDATED`): folded on the
 * page, still readable and still listed. One request; GraphQL's errors come back as a GitHubError.
 */
export async function hideAsOutdated(octokit: Octokit, nodeId: string): Promise<void> {
  await call('hiding the previous comment as outdated', () =>
    octokit.graphql(
      'mutation($id: ID!, $classifier: ReportedContentClassifiers!) { minimizeComment(input: {subjectId: $id, classifier: $classifier}) { minimizedComment { isMinimized } } }',
      { id: nodeId, classifier: 'OUTDATED' }
    )
  )
}

// The action's own comments on issues and pull requests: listed once per thread, found again
// by their signed markers (markers.ts), written whole or cut to GitHub's limit here and nowhere
// else, with one note that says so.
import * as core from '@actions/core'
import { chars, fitMarkdown } from '../report/fit.js'
import { call, GitHubError } from './errors.js'
import {
  decodeKey,
  markerKey,
  markersFor,
  verifiedMarkers,
  type Marker,
  type Place
} from './markers.js'
import { pullRequestOfLink } from './pulls.js'
import type { Octokit } from './octokit.js'

export { markerKey, type Place } from './markers.js'

/** GitHub's maximum comment body length (characters). */
const COMMENT_LIMIT = 65536

export interface CommentRef {
  id: number
  url: string
  /** 'if-absent' found a comment for the key and left it as it was. */
  kept?: true
}

/**
 * 'upsert' edits the comment for the key (or adds one), 'create' always adds one, 'if-absent'
 * adds one only when there is none for the key (an incomplete report never replaces a report).
 */
export type CommentMode = 'upsert' | 'create' | 'if-absent'

/** A comment body, or a renderer given the room (in characters) that the body may take. */
export type CommentBody = string | ((room: number) => string)

export interface ListedComment {
  id: number
  body: string
  html_url: string
  /** The login that wrote it ('' when GitHub did not say). */
  author: string
}

/**
 * Body plus markers: the body is fitted to what GitHub allows once the markers are in, cut at a
 * line with its open blocks closed and one note saying so. A body given as a function renders to
 * that room itself (a report folds rows rather than being cut).
 */
function composeBody(body: CommentBody, markers: string): string {
  const room = COMMENT_LIMIT - markers.length - 2
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

/** The comments on the issue or pull request, oldest first: at most MAX_LISTING_PAGES pages. */
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
      for (const c of page.data)
        all.push({ id: c.id, body: c.body ?? '', html_url: c.html_url, author: loginOf(c.user) })
      if (++pages >= MAX_LISTING_PAGES) {
        core.warning(
          `The comments on #${place.issueNumber} were listed up to ${MAX_LISTING_PAGES} pages only; later ones were not read.`
        )
        break
      }
    }
    return all
  })
}

/** A comment and the markers in it that verify. */
export interface MarkedComment {
  comment: ListedComment
  markers: Marker[]
}

/**
 * The comment with the newest verified marker matching `pick` (by the marker's signed time; on a
 * tie the older comment, the original of any copy), and what `pick` chose in it.
 */
function newestMarked<T>(
  marked: MarkedComment[],
  pick: (keys: string[]) => T | undefined
): { comment: ListedComment; value: T } | undefined {
  let best: { comment: ListedComment; value: T; at: number } | undefined
  for (const { comment, markers } of marked) {
    const value = pick(markers.map(m => m.key))
    if (value === undefined) continue
    const at = Math.max(...markers.map(m => m.at))
    if (!best || at > best.at || (at === best.at && comment.id < best.comment.id))
      best = { comment, value, at }
  }
  return best && { comment: best.comment, value: best.value }
}

/** A plain reply (no marker: it routes nothing and is never edited), fitted to GitHub's limit. */
export async function postReply(octokit: Octokit, place: Place, body: string): Promise<CommentRef> {
  return createComment(octokit, place, fitMarkdown(body, chars(COMMENT_LIMIT)))
}

async function createComment(
  octokit: Octokit,
  place: Place,
  body: string
): Promise<CommentRef & { author: string }> {
  const { data } = await call(`creating a comment on #${place.issueNumber}`, () =>
    octokit.rest.issues.createComment({
      owner: place.owner,
      repo: place.repo,
      issue_number: place.issueNumber,
      body
    })
  )
  return toRef(data)
}

async function editComment(
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
      body
    })
  )
  return toRef(data)
}

export interface CommentWrite {
  key: string
  extraKeys?: string[]
  body: CommentBody
  /**
   * Markers of the comment being edited that the edit keeps (signed anew), besides its own keys:
   * records that other writers of the same comment left there (another step's delivery).
   */
  carry?: (key: string) => boolean
}

/**
 * One issue or pull request as this run sees it: its comments are listed once, then kept
 * current as the run writes, so looking up a route and then upserting costs one listing.
 */
export class CommentThread {
  private list?: ListedComment[]
  /** The time stamped on this run's last markers: each write is newer than the one before. */
  private lastAt = 0
  /** The login this token writes as, once GitHub has answered a write. */
  private writer?: string

  constructor(
    private readonly octokit: Octokit,
    readonly place: Place,
    private readonly secret: string
  ) {}

  async comments(): Promise<ListedComment[]> {
    this.list ??= await listComments(this.octokit, this.place)
    return this.list
  }

  /**
   * The comments written by the login this token writes as, with their verified markers. An
   * installation token cannot ask who it is (GET /user), so the login is learned from the
   * comments the action wrote: from GitHub's answer once this run has written one, else from the
   * oldest comment whose markers verify (a copy of a marker, even one taken from a comment's public
   * edit history, can only be posted after the original). A marker in anyone else's comment
   * never counts.
   */
  async marked(): Promise<MarkedComment[]> {
    const all = (await this.comments())
      .map(comment => ({
        comment,
        markers: verifiedMarkers(comment.body, this.secret, this.place, comment.id)
      }))
      .filter(m => m.markers.length > 0)
    const oldest = all.reduce<MarkedComment | undefined>(
      (a, b) => (a === undefined || b.comment.id < a.comment.id ? b : a),
      undefined
    )
    const writer = this.writer ?? oldest?.comment.author
    return writer ? all.filter(m => m.comment.author === writer) : []
  }

  /**
   * What the newest of this thread's markers under `prefix` (`markerKey(...)` of its first parts)
   * says after it: the rest of its key, decoded ('' when it ends there); undefined when none.
   */
  async newestUnder(prefix: string): Promise<string | undefined> {
    const start = `${prefix}/`
    const pick = (keys: string[]): string | undefined => {
      // The last such marker in a comment is the newest statement in it.
      const rest = keys.filter(key => key.startsWith(start)).map(key => key.slice(start.length))
      return rest.length > 0 ? decodeKey(rest[rest.length - 1] ?? '') : undefined
    }
    return newestMarked(await this.marked(), pick)?.value
  }

  /**
   * The job id from the newest verified `route/<projectId>/<jobId>` marker (as built by
   * `markerKey('route', projectId, jobId)`).
   */
  async findRoutedJob(projectId: string): Promise<string | undefined> {
    const jobId = await this.newestUnder(markerKey('route', projectId))
    return jobId === '' ? undefined : jobId
  }

  /**
   * The job id from the newest verified `job/<projectId>/<jobId>` marker: the comment of a run
   * that no trigger asked for (a merge, a dispatch) reporting on its job.
   */
  async findReportedJob(projectId: string): Promise<string | undefined> {
    const jobId = await this.newestUnder(markerKey('job', projectId))
    return jobId === '' ? undefined : jobId
  }

  /**
   * Posts body with a marker for `key` (and `extraKeys`). 'upsert' edits the comment carrying the
   * newest verified `key` marker, so reruns refresh one comment; 'create' always adds one;
   * 'if-absent' adds one only when no comment carries the key. A new comment is complete,
   * markers signed, in the one request that creates it.
   */
  async upsert(o: CommentWrite & { mode: CommentMode }): Promise<CommentRef> {
    if (o.mode !== 'create') {
      const found = newestMarked(await this.marked(), keys =>
        keys.includes(o.key) ? true : undefined
      )
      if (found !== undefined && o.mode === 'if-absent')
        return { id: found.comment.id, url: found.comment.html_url, kept: true }
      if (found !== undefined) {
        try {
          return await this.update(found.comment.id, o)
        } catch (error) {
          // Deleted between listing and editing: a fresh comment is what the user expects.
          if (!(error instanceof GitHubError && error.status === 404)) throw error
        }
      }
    }
    const body = this.compose(o)
    const created = await createComment(this.octokit, this.place, body)
    this.remember(created, body)
    return { id: created.id, url: created.url }
  }

  /** Edits a known comment in place, markers re-appended and signed anew. */
  async update(id: number, o: CommentWrite): Promise<CommentRef> {
    const body = this.compose(
      o,
      this.list?.find(c => c.id === id)
    )
    const ref = await editComment(this.octokit, this.place, id, body)
    this.remember(ref, body)
    return { id: ref.id, url: ref.url }
  }

  private compose(o: CommentWrite, editing?: ListedComment): string {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1)
    const keys = [o.key, ...(o.extraKeys ?? [])]
    const carry = o.carry
    if (editing && carry)
      for (const { key } of verifiedMarkers(editing.body, this.secret, this.place, editing.id))
        if (carry(key) && !keys.includes(key)) keys.push(key)
    return composeBody(o.body, markersFor(keys, this.secret, this.place, this.lastAt))
  }

  /** A comment this run wrote: who GitHub says wrote it is the login this token writes as. */
  private remember(ref: CommentRef & { author: string }, body: string): void {
    if (ref.author !== '') this.writer = ref.author
    if (!this.list) return
    const known = this.list.find(c => c.id === ref.id)
    if (known) known.body = body
    else this.list.push({ id: ref.id, body, html_url: ref.url, author: ref.author })
  }
}

/** Posts body with a marker for `key` once, for callers that write one comment per run. */
export async function upsertComment(
  octokit: Octokit,
  place: Place,
  o: CommentWrite & { mode: CommentMode; secret: string }
): Promise<CommentRef> {
  return new CommentThread(octokit, place, o.secret).upsert(o)
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

// The action's own comments on issues and pull requests, found again through signed hidden
// markers. An installation token cannot ask who it is (GET /user is refused) and anyone can type
// an HTML comment, so a marker only counts when its HMAC, keyed with a secret no commenter has
// and bound to this repository, issue and comment id, verifies: a marker copied into another
// comment, even on the same pull request, does not.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { getOctokit } from '@actions/github'
import { redact } from '../secrets.js'

type Octokit = ReturnType<typeof getOctokit>

/** GitHub's maximum comment body length. */
export const COMMENT_LIMIT = 65536
/** Space callers must leave for markers when fitting a body. */
export const MARKER_ROOM = 1024

const MARKER_PREFIX = 'docs-agent:'
const SIG_HEX = 32
// encodeURIComponent never emits whitespace, '<' or '>', so an encoded key cannot end the marker.
const MARKER_PATTERN = /<!-- docs-agent:([A-Za-z0-9\-_.!~*'()%]+) sig=([0-9a-f]+) -->/g
const TRUNCATED_NOTE = '\n\n…(truncated)'

export interface Place {
  owner: string
  repo: string
  issueNumber: number
}

export interface CommentRef {
  id: number
  url: string
}

export interface ListedComment {
  id: number
  body: string
  html_url: string
}

/** Failure of a GitHub call, with a message safe to show: no stack, no token. */
export class GitHubError extends Error {
  readonly status: number | undefined

  constructor(what: string, status: number | undefined, detail: string) {
    const parts = [status === undefined ? undefined : String(status), detail].filter(Boolean)
    const hint =
      status === 403 || status === 401
        ? '. The token cannot write here: give the workflow `issues: write` and ' +
          '`pull-requests: write` (a pull request from a fork gets a read-only token), or set `comment: false`'
        : ''
    super(`GitHub: ${what} failed${parts.length > 0 ? ` (${parts.join(' ')})` : ''}${hint}`)
    this.name = 'GitHubError'
    this.status = status
  }
}

/** Builds a key from parts such as ('job', projectId, jobId); parts are encoded so '/' inside an id stays unambiguous. */
export function markerKey(...parts: string[]): string {
  return parts.map(part => encodeURIComponent(part)).join('/')
}

function signature(key: string, secret: string, place: Place, commentId: number): string {
  if (secret === '') throw new Error('A secret is required to sign comment markers')
  return createHmac('sha256', secret)
    .update(`${place.owner}/${place.repo}#${place.issueNumber}\n${commentId}\n${key}`)
    .digest('hex')
    .slice(0, SIG_HEX)
}

export function makeMarker(key: string, secret: string, place: Place, commentId: number): string {
  const sig = signature(key, secret, place, commentId)
  return `<!-- ${MARKER_PREFIX}${encodeURIComponent(key)} sig=${sig} -->`
}

function sameSignature(actual: string, expected: string): boolean {
  // Constant time, so the signature cannot be guessed byte by byte from response timing.
  return (
    actual.length === expected.length && timingSafeEqual(Buffer.from(actual), Buffer.from(expected))
  )
}

function decodeKey(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}

/** Keys of the markers in body whose signature verifies, in order of appearance. */
export function verifiedKeys(
  body: string,
  secret: string,
  place: Place,
  commentId: number
): string[] {
  // With no secret nothing can be told apart from a forgery.
  if (secret === '' || typeof body !== 'string') return []
  const keys: string[] = []
  for (const match of body.matchAll(MARKER_PATTERN)) {
    const key = decodeKey(match[1] ?? '')
    const expected = key === undefined ? '' : signature(key, secret, place, commentId)
    if (key !== undefined && sameSignature(match[2] ?? '', expected)) {
      keys.push(key)
    }
  }
  return keys
}

function markersFor(keys: string[], secret: string, place: Place, commentId: number): string {
  return keys.map(key => makeMarker(key, secret, place, commentId)).join('\n')
}

/** Body plus markers, the body cut short if needed so the comment is never refused for length. */
function composeBody(
  body: string,
  keys: string[],
  secret: string,
  place: Place,
  commentId: number
): string {
  const markers = markersFor(keys, secret, place, commentId)
  const room = COMMENT_LIMIT - markers.length - 2
  if (room < TRUNCATED_NOTE.length) throw new Error('Comment markers do not fit in a comment')
  const fitted =
    body.length <= room ? body : cutAt(body, room - TRUNCATED_NOTE.length) + TRUNCATED_NOTE
  return `${fitted}\n\n${markers}`
}

function cutAt(text: string, length: number): string {
  const cut = text.slice(0, length)
  // Do not leave half of a surrogate pair behind.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}

function errorDetail(error: unknown): { status: number | undefined; detail: string } {
  const record =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {}
  const status = typeof record.status === 'number' && record.status > 0 ? record.status : undefined
  const response = record.response as { data?: unknown } | undefined
  const data = response?.data as { message?: unknown } | undefined
  let detail: string
  if (typeof data?.message === 'string') detail = data.message
  else if (error instanceof Error) detail = error.message
  else detail = String(error)
  return { status, detail: cleanDetail(detail) }
}

function cleanDetail(text: string): string {
  return (
    redact(text)
      // octokit appends " - <documentation_url>", which is noise in a log line.
      .replace(/ - https:\/\/docs\.github\.com\S*/g, '')
      // Never echo anything that looks like a credential.
      .replace(/\b(gh[opusr]_|github_pat_)[A-Za-z0-9_]+/g, '[REDACTED]')
      .replace(/\b(bearer|token)\s+\S+/gi, '$1 [REDACTED]')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300)
  )
}

async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    const { status, detail } = errorDetail(error)
    throw new GitHubError(what, status, detail)
  }
}

function toRef(data: { id: number; html_url: string }): CommentRef {
  return { id: data.id, url: data.html_url }
}

/** Every comment on the issue or pull request, oldest first. */
export async function listComments(octokit: Octokit, place: Place): Promise<ListedComment[]> {
  const all = await call(`listing the comments on #${place.issueNumber}`, () =>
    octokit.paginate(octokit.rest.issues.listComments, {
      owner: place.owner,
      repo: place.repo,
      issue_number: place.issueNumber,
      per_page: 100
    })
  )
  return all.map(c => ({ id: c.id, body: c.body ?? '', html_url: c.html_url }))
}

/** The newest comment with a verified marker matching `pick`, and what `pick` chose in it. */
function newestMarked<T>(
  comments: ListedComment[],
  secret: string,
  place: Place,
  pick: (keys: string[]) => T | undefined
): { comment: ListedComment; value: T } | undefined {
  // Ids grow with creation time, which survives any ordering of the listing.
  const newestFirst = [...comments].sort((a, b) => b.id - a.id)
  for (const comment of newestFirst) {
    const value = pick(verifiedKeys(comment.body, secret, place, comment.id))
    if (value !== undefined) return { comment, value }
  }
  return undefined
}

async function createComment(octokit: Octokit, place: Place, body: string): Promise<CommentRef> {
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
): Promise<CommentRef> {
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
  body: string
}

/**
 * One issue or pull request as this run sees it: its comments are listed once, then kept
 * current as the run writes, so looking up a route and then upserting costs one listing.
 */
export class CommentThread {
  private list?: ListedComment[]

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
   * The job id from the newest verified `route/<projectId>/<jobId>` marker (as built by
   * `markerKey('route', projectId, jobId)`).
   */
  async findRoutedJob(projectId: string): Promise<string | undefined> {
    const prefix = `${markerKey('route', projectId)}/`
    const pick = (keys: string[]): string | undefined => {
      // The last route marker in a comment is the newest statement in it.
      const routes = keys.filter(key => key.startsWith(prefix)).map(key => key.slice(prefix.length))
      const jobId = routes.length > 0 ? decodeKey(routes[routes.length - 1] ?? '') : undefined
      return jobId === '' ? undefined : jobId
    }
    return newestMarked(await this.comments(), this.secret, this.place, pick)?.value
  }

  /**
   * Posts body with a marker for `key` (and `extraKeys`). 'upsert' edits the newest comment
   * already carrying a verified `key` marker, so reruns refresh one comment; 'create' always adds
   * one. A new comment's markers are signed with its id, so they need an edit after creating it;
   * with `signLater` that edit is left to the caller's next update, which rewrites the body anyway.
   */
  async upsert(
    o: CommentWrite & { mode: 'upsert' | 'create'; signLater?: boolean }
  ): Promise<CommentRef & { signed: boolean }> {
    if (o.mode === 'upsert') {
      const found = newestMarked(await this.comments(), this.secret, this.place, keys =>
        keys.includes(o.key) ? true : undefined
      )
      if (found !== undefined) {
        try {
          return { ...(await this.update(found.comment.id, o)), signed: true }
        } catch (error) {
          // Deleted between listing and editing: a fresh comment is what the user expects.
          if (!(error instanceof GitHubError && error.status === 404)) throw error
        }
      }
    }
    const body = composeBody(o.body, [], this.secret, this.place, 0)
    const created = await createComment(this.octokit, this.place, body)
    this.remember(created.id, body, created.url)
    if (o.signLater) return { ...created, signed: false }
    return { ...(await this.update(created.id, o)), signed: true }
  }

  /** Edits a known comment in place, markers re-appended and signed. */
  async update(id: number, o: CommentWrite): Promise<CommentRef> {
    const keys = [o.key, ...(o.extraKeys ?? [])]
    const body = composeBody(o.body, keys, this.secret, this.place, id)
    const ref = await editComment(this.octokit, this.place, id, body)
    this.remember(id, body, ref.url)
    return ref
  }

  private remember(id: number, body: string, url: string): void {
    if (!this.list) return
    const known = this.list.find(c => c.id === id)
    if (known) known.body = body
    else this.list.push({ id, body, html_url: url })
  }
}

/** Posts body with a marker for `key` once, for callers that write one comment per run. */
export async function upsertComment(
  octokit: Octokit,
  place: Place,
  o: CommentWrite & { mode: 'upsert' | 'create'; secret: string }
): Promise<CommentRef> {
  const { id, url } = await new CommentThread(octokit, place, o.secret).upsert(o)
  return { id, url }
}

/** Edits a known comment in place (progress updates), markers re-appended. */
export async function updateCommentBody(
  octokit: Octokit,
  place: Place,
  id: number,
  o: CommentWrite & { secret: string }
): Promise<CommentRef> {
  return new CommentThread(octokit, place, o.secret).update(id, o)
}

/** See CommentThread.findRoutedJob. */
export async function findRoutedJob(
  octokit: Octokit,
  place: Place,
  projectId: string,
  secret: string
): Promise<string | undefined> {
  return new CommentThread(octokit, place, secret).findRoutedJob(projectId)
}

function basePath(server: URL): string {
  return server.pathname.replace(/\/+$/, '')
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
  const [, linkOwner = '', linkRepo = '', digits = ''] = match
  if (linkOwner.toLowerCase() !== owner.toLowerCase()) return undefined
  if (linkRepo.toLowerCase() !== repo.toLowerCase()) return undefined
  const number = Number(digits)
  return Number.isSafeInteger(number) ? number : undefined
}

// One issue or pull request as this run sees it: its comments listed once (github/comments.ts),
// then kept current as the run writes; the records in them that count (signature.ts: signed for
// the comment's author; older formats only in the action's own comments); the newest record of a
// kind; and the one place that decides which comment the action may edit: only one whose author
// is its own login (login.ts). Every other comment, a reader's above all, is never edited.
import {
  composeBody,
  createComment,
  editComment,
  listComments,
  type CommentBody,
  type CommentMode,
  type CommentRef,
  type ListedComment,
  type Place
} from '../github/comments.js'
import { GitHubError } from '../github/errors.js'
import type { Octokit } from '../github/octokit.js'
import { parseRecord, matches, type RecordFields, type RecordKind } from './kinds.js'
import type { OwnLogin } from './login.js'
import { claimedKeys, markersFor, verifiedMarkers, type Marker } from './signature.js'

/** A comment and the records in it that count. */
export interface MarkedComment {
  comment: ListedComment
  markers: Marker[]
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

export class RecordThread {
  private list?: ListedComment[]
  /** The time stamped on this run's last markers: each write is newer than the one before. */
  private lastAt = 0

  constructor(
    private readonly octokit: Octokit,
    readonly place: Place,
    private readonly secret: string,
    private readonly login: OwnLogin
  ) {}

  async comments(): Promise<ListedComment[]> {
    this.list ??= await listComments(this.octokit, this.place)
    return this.list
  }

  /**
   * The comments with records that count: markers signed for the comment's author, and in the
   * action's own comments the older formats too. The own login is asked for only when a comment
   * holds marker lines that the first rule leaves unread.
   */
  async marked(): Promise<MarkedComment[]> {
    const comments = await this.comments()
    const bound = comments.map(comment => ({ comment, markers: this.verify(comment, false) }))
    const unread = bound.some(m => claimedKeys(m.comment.body).length > m.markers.length)
    const own = unread ? await this.login.own() : undefined
    return bound
      .map(m =>
        own !== undefined && m.comment.author === own
          ? { ...m, markers: this.verify(m.comment, true) }
          : m
      )
      .filter(m => m.markers.length > 0)
  }

  private verify(comment: ListedComment, own: boolean): Marker[] {
    const by = { author: comment.author, own, commentId: comment.id }
    return verifiedMarkers(comment.body, this.secret, this.place, by)
  }

  /**
   * The newest record of `kind` whose parts match `match` (by its signed time; on a tie the older
   * comment, the original of any copy), and the comment it is in.
   */
  async newestWith<K extends RecordKind>(
    kind: K,
    match: Partial<RecordFields<K>>
  ): Promise<{ fields: RecordFields<K>; comment: ListedComment } | undefined> {
    let best: { fields: RecordFields<K>; comment: ListedComment; at: number } | undefined
    for (const { comment, markers } of await this.marked()) {
      // The last such record in a comment is the newest statement in it.
      const found = markers
        .map(m => ({ fields: parseRecord(kind, m.key), at: m.at }))
        .filter(x => x.fields !== undefined && matches(x.fields, match))
        .at(-1)
      if (!found?.fields) continue
      if (!best || found.at > best.at || (found.at === best.at && comment.id < best.comment.id))
        best = { fields: found.fields, comment, at: found.at }
    }
    return best && { fields: best.fields, comment: best.comment }
  }

  /** What the newest record of `kind` matching `match` says, or undefined. */
  async newest<K extends RecordKind>(
    kind: K,
    match: Partial<RecordFields<K>>
  ): Promise<RecordFields<K> | undefined> {
    return (await this.newestWith(kind, match))?.fields
  }

  /**
   * Whether the action's own comments claim a record `wanted` picks that does not verify with
   * this secret (the API key was rotated since it was written). When the own login cannot be
   * learned, any comment's claim counts: better to say nothing can be read than to guess.
   */
  async holdsUnreadable(wanted: (key: string) => boolean): Promise<boolean> {
    const counted = new Set((await this.marked()).map(m => m.comment.id))
    const own = await this.login.own()
    return (await this.comments()).some(
      c =>
        !counted.has(c.id) &&
        (own === undefined || c.author === own) &&
        claimedKeys(c.body).some(wanted)
    )
  }

  /**
   * Posts body with a marker for `key` (and `extraKeys`). 'upsert' edits the action's own comment
   * carrying the newest `key` record, so reruns refresh one comment; 'create' always adds one;
   * 'if-absent' adds one only when no comment carries the key. A new comment is complete,
   * markers signed, in the one request that creates it.
   */
  async upsert(o: CommentWrite & { mode: CommentMode }): Promise<CommentRef> {
    if (o.mode !== 'create') {
      const found = await this.newestKey(o.key)
      if (found !== undefined && o.mode === 'if-absent')
        return { id: found.id, url: found.html_url, kept: true }
      const own = found && (await this.login.own())
      // Never another login's comment: a record there may count, but the comment is not ours.
      if (found !== undefined && own !== undefined && found.author === own) {
        try {
          return await this.update(found.id, o)
        } catch (error) {
          // Deleted between listing and editing: a fresh comment is what the user expects.
          if (!(error instanceof GitHubError && error.status === 404)) throw error
        }
      }
    }
    const writer = await this.login.own()
    if (writer === undefined) return this.createUnsigned(o)
    const body = this.compose(o, writer)
    const created = await createComment(this.octokit, this.place, body)
    this.remember(created, body)
    return { id: created.id, url: created.url }
  }

  /** The comment holding the newest counted marker with exactly `key`. */
  private async newestKey(key: string): Promise<ListedComment | undefined> {
    let best: { comment: ListedComment; at: number } | undefined
    for (const { comment, markers } of await this.marked()) {
      const at = Math.max(...markers.filter(m => m.key === key).map(m => m.at))
      if (at === -Infinity) continue
      if (!best || at > best.at || (at === best.at && comment.id < best.comment.id))
        best = { comment, at }
    }
    return best?.comment
  }

  /** Edits a comment of this run's own login in place, markers re-appended and signed anew. */
  async update(id: number, o: CommentWrite): Promise<CommentRef> {
    const writer = await this.login.own()
    const known = this.list?.find(c => c.id === id)
    if (writer === undefined || (known && known.author !== writer))
      throw new Error(`Comment ${id} on #${this.place.issueNumber} is not this token's to edit`)
    const body = this.compose(o, writer, known)
    const ref = await editComment(this.octokit, this.place, id, body)
    this.remember(ref, body)
    return { id: ref.id, url: ref.url }
  }

  /**
   * GitHub would not say which login this token writes as: the comment is created without
   * records, and GitHub's answer (its author) signs them in an edit of that same comment.
   */
  private async createUnsigned(o: CommentWrite): Promise<CommentRef> {
    const created = await createComment(this.octokit, this.place, composeBody(o.body, ''))
    this.remember(created, '')
    return this.update(created.id, o)
  }

  private compose(o: CommentWrite, writer: string, editing?: ListedComment): string {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1)
    const keys = [o.key, ...(o.extraKeys ?? [])]
    const carry = o.carry
    if (editing && carry)
      for (const { key } of this.verify(editing, true))
        if (carry(key) && !keys.includes(key)) keys.push(key)
    const markers = markersFor(keys, this.secret, this.place, writer, this.lastAt)
    return composeBody(o.body, markers)
  }

  /** A comment this run wrote: who GitHub says wrote it is the login this token writes as. */
  private remember(ref: CommentRef & { author: string }, body: string): void {
    this.login.learn(ref.author)
    if (!this.list) return
    const known = this.list.find(c => c.id === ref.id)
    if (known) known.body = body
    else this.list.push({ id: ref.id, body, html_url: ref.url, author: ref.author })
  }
}

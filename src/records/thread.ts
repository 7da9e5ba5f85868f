// One issue or pull request as this run sees it: its comments listed once (github/comments.ts),
// then kept current as the run writes; the records in them that count (signature.ts: signed for
// the comment's author; older formats only in the action's own comments); the newest record of a
// kind (by the one rule of "newest", below); and the one place that decides which comment the action
// may edit: only one whose author is its own login (login.ts). Every other comment, a reader's
// above all, is never edited. Markers are signed for the author GitHub's answer to the write
// names: GraphQL's `viewer` is only the first guess, signed again when the answer differs.
import {
  composeBody,
  createComment,
  editComment,
  hideAsOutdated,
  listComments,
  type CommentBody,
  type CommentMode,
  type CommentRef,
  type ListedComment,
  type Place
} from '../github/comments.js'
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { GitHubError } from '../github/errors.js'
import type { Octokit } from '../github/octokit.js'
import { isBot } from '../github/trigger.js'
import { parseRecord, matches, type RecordFields, type RecordKind } from './kinds.js'
import type { OwnLogin } from './login.js'
import type { Series } from './series.js'
import { claimedKeys, markersFor, verifiedMarkers, type Marker } from './signature.js'

/** A comment and the records in it that count. */
export interface MarkedComment {
  comment: ListedComment
  markers: Marker[]
}

/** A record that counts, where it is: its comment, and its line among the comment's markers. */
export interface ReadRecord extends Marker {
  comment: ListedComment
  line: number
}

/**
 * The one rule of "newest", for every record the action reads: the later signed time; on a tie,
 * the older comment (the original of any copy); within one comment, the later line (its newest
 * statement). Sorts newest first.
 */
function newestFirst(a: ReadRecord, b: ReadRecord): number {
  return b.at - a.at || a.comment.id - b.comment.id || b.line - a.line
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
  /**
   * The comment's series (series.ts): `upsert` edits, and `minimize` hides, only a comment of it
   * whose text is the action's and whose range ends no later. Without one, the series is the
   * comment's own key (one answer per trigger).
   */
  series?: Series
}

/** At most this many earlier comments are hidden by one run (one or two in practice). */
const MAX_HIDDEN = 5

export class RecordThread {
  private list?: ListedComment[]
  /** The time stamped on this run's last markers: each write is newer than the one before. */
  private lastAt = 0

  constructor(
    private readonly octokit: Octokit,
    readonly place: Place,
    private readonly secret: string,
    private readonly login: OwnLogin,
    /** The run's clock (its Deadline): the time each write stamps on its markers. */
    private readonly clock: { now(): number }
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

  /** Every record that counts, newest first (newestFirst). */
  async counted(): Promise<ReadRecord[]> {
    const read = (await this.marked()).flatMap(({ comment, markers }) =>
      markers.map((m, line) => ({ ...m, comment, line }))
    )
    return read.sort(newestFirst)
  }

  /** The newest record of `kind` whose parts match `match`, and the comment it is in. */
  async newestWith<K extends RecordKind>(
    kind: K,
    match: Partial<RecordFields<K>>
  ): Promise<{ fields: RecordFields<K>; comment: ListedComment } | undefined> {
    for (const r of await this.counted()) {
      const fields = parseRecord(kind, r.key)
      if (fields && matches(fields, match)) return { fields, comment: r.comment }
    }
    return undefined
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
   * learned at all, only comments written by bots may claim to be the action's: a reader's
   * look-alike line never makes the action refuse.
   */
  async holdsUnreadable(wanted: (key: string) => boolean): Promise<boolean> {
    const counted = new Set((await this.marked()).map(m => m.comment.id))
    const own = await this.login.own()
    const mayClaim = (c: ListedComment): boolean =>
      own === undefined ? isBot(c) : c.author === own
    return (await this.comments()).some(
      c => !counted.has(c.id) && mayClaim(c) && claimedKeys(c.body).some(wanted)
    )
  }

  /**
   * Posts body with a marker for `key` (and `extraKeys`). 'upsert' edits the action's own comment
   * carrying the newest `key` record, so reruns refresh one comment; 'create' always adds one;
   * 'if-absent' adds one only when no comment carries the key. A new comment is complete,
   * markers signed, in the one request that creates it.
   */
  async upsert(o: CommentWrite & { mode: CommentMode }): Promise<CommentRef> {
    if (o.mode === 'minimize') return this.replace(o)
    if (o.series) await this.sayNewer(o.series)
    if (o.mode !== 'create') {
      const found = await this.newestKey(o.key, o.series)
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
    return this.create(o)
  }

  /**
   * A new comment, then the earlier ones of its series that a reader still sees hidden as
   * outdated: only comments the own login wrote whose records count, whose text is the action's
   * and whose range ends no later (series.ts). A newer one stays in view, and the run says so. A
   * failure to hide is a warning; the new comment stands.
   */
  private async replace(o: CommentWrite): Promise<CommentRef> {
    const earlier = await this.counted()
    const ref = await this.create(o)
    // Asked after the write: its answer is what names the own login for certain.
    const own = await this.login.own()
    const mine = earlier.filter(r => own !== undefined && r.comment.author === own)
    const { hide, newer } = o.series
      ? outOfDate(o.series, mine)
      : { hide: mine.filter(r => r.key === o.key).slice(0, 1), newer: [] }
    for (const { comment } of hide.filter(r => r.comment.id !== ref.id)) await this.hide(comment)
    sayNewer(newer)
    return ref
  }

  /** Says the comments of `series` that end later than the run's range, which it leaves alone. */
  private async sayNewer(series: Series): Promise<void> {
    const own = await this.login.own()
    const mine = (await this.counted()).filter(r => own !== undefined && r.comment.author === own)
    sayNewer(outOfDate(series, mine).newer)
  }

  private async hide(comment: ListedComment): Promise<void> {
    if (comment.nodeId === undefined) return
    try {
      await hideAsOutdated(this.octokit, comment.nodeId)
    } catch (error) {
      core.warning(
        `The previous comment (${comment.html_url}) could not be hidden as outdated, so both show: ${messageOf(error)}`
      )
    }
  }

  /**
   * The comment holding the newest counted marker with exactly `key`; with a series, only one
   * whose text is the action's.
   */
  private async newestKey(key: string, series?: Series): Promise<ListedComment | undefined> {
    return (await this.counted()).find(
      r => r.key === key && (!series || series.ownBody(r.comment.body))
    )?.comment
  }

  /** Edits a comment of this run's own login in place, markers re-appended and signed anew. */
  async update(id: number, o: CommentWrite): Promise<CommentRef> {
    const writer = await this.login.own()
    const known = this.list?.find(c => c.id === id)
    if (writer === undefined || (known && known.author !== writer))
      throw new Error(`Comment ${id} on #${this.place.issueNumber} is not this token's to edit`)
    const keys = this.keysOf(o, known)
    const body = this.sign(o.body, keys, writer)
    const ref = await editComment(this.octokit, this.place, id, body)
    return this.settle(ref, { body: o.body, keys, writer, written: body })
  }

  /**
   * A new comment, complete in the one request that creates it: its markers signed for the login
   * this token is thought to write as (a write's answer, else GraphQL's `viewer`). When GitHub
   * would not say, the comment is created without records, and GitHub's answer signs them.
   */
  private async create(o: CommentWrite): Promise<CommentRef> {
    const writer = await this.login.own()
    const keys = this.keysOf(o)
    const body = writer === undefined ? composeBody(o.body, '') : this.sign(o.body, keys, writer)
    const created = await createComment(this.octokit, this.place, body)
    return this.settle(created, { body: o.body, keys, writer, written: body })
  }

  /**
   * GitHub's answer to a write names its author: the login this token writes as, learned here.
   * Markers signed for another login (`viewer` named another, or nobody) are signed again for
   * the author shown, in an edit of that same comment; otherwise they would never verify.
   */
  private async settle(
    ref: CommentRef & { author: string },
    w: { body: CommentBody; keys: string[]; writer: string | undefined; written: string }
  ): Promise<CommentRef> {
    this.remember(ref, w.written)
    // An answer that names no author leaves the signature as it was made.
    if (ref.author === w.writer || (ref.author === '' && w.writer !== undefined))
      return { id: ref.id, url: ref.url }
    if (ref.author === '')
      throw new Error(
        `GitHub did not say who wrote comment ${ref.id} on #${this.place.issueNumber}`
      )
    const body = this.sign(w.body, w.keys, ref.author)
    const edited = await editComment(this.octokit, this.place, ref.id, body)
    this.remember({ ...edited, author: ref.author }, body)
    return { id: edited.id, url: edited.url }
  }

  /** The keys a write records: its own, and those `carry` keeps of the comment it edits. */
  private keysOf(o: CommentWrite, editing?: ListedComment): string[] {
    const keys = [o.key, ...(o.extraKeys ?? [])]
    const carry = o.carry
    if (editing && carry)
      for (const { key } of this.verify(editing, true))
        if (carry(key) && !keys.includes(key)) keys.push(key)
    return keys
  }

  /** The body with `keys` signed for `writer`, stamped newer than this run's last write. */
  private sign(body: CommentBody, keys: string[], writer: string): string {
    this.lastAt = Math.max(this.clock.now(), this.lastAt + 1)
    return composeBody(body, markersFor(keys, this.secret, this.place, writer, this.lastAt))
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

/** The newer comments of a run's series, said once each: the run touched none of them. */
function sayNewer(newer: readonly ReadRecord[]): void {
  for (const { comment } of newer)
    core.notice(
      `A newer comment of this series stays in view (${comment.html_url}): this run's range ends earlier, so it hid and edited nothing newer.`
    )
}

/**
 * Of the own login's records, the comments of `series` a reader still sees whose text is the
 * action's: those ending no later than the run's range, to hide (the newest MAX_HIDDEN), and
 * those ending later, which stay in view.
 */
function outOfDate(
  series: Series,
  mine: readonly ReadRecord[]
): { hide: ReadRecord[]; newer: ReadRecord[] } {
  const shown = series.shown(mine.filter(r => series.ownBody(r.comment.body)))
  return {
    hide: shown.filter(r => series.covers(r.key)).slice(0, MAX_HIDDEN),
    newer: shown.filter(r => series.isNewer(r.key))
  }
}

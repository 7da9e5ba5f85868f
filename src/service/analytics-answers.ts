// What the analytics operations answer (analytics.ts asks), as the report relies on it: the rows
// and pages, and the one check of each answer before any other code sees it (counts are safe
// integers, rates finite, texts bounded; an empty answer is a feature that is off), and a page's
// cursor read (opaque, a ULID, or a whole URL). Unknown fields are ignored.
import { ShapeError, type VisitorCounts, type VisitorRow, type VisitorsPage } from './schema.js'
import { isObject } from '../json.js'

export interface ViewsPage {
  totals: VisitorCounts
  views: VisitorRow[]
  hasMore: boolean
}

export interface SearchRow {
  searchQuery: string
  hits: number
  /** Click-through, 0 to 1 (a share, as the service sends it). */
  ctr: number
  topClickedPage: string | null
  lastSearchedAt?: string
}

export interface SearchesPage {
  totalSearches: number
  searches: SearchRow[]
  nextCursor: string | null
  /** How the service gave `nextCursor` (when it gave one). */
  cursorForm?: CursorForm
}

export interface FeedbackRow {
  path: string
  thumbsUp: number
  thumbsDown: number
  code: number
  total: number
}

export interface FeedbackPage {
  feedback: FeedbackRow[]
  hasMore: boolean
}

/** A written comment from the feedback export (`GET feedback`): page ratings only. */
export interface PageComment {
  path: string
  comment: string
  /** false: written with a 👎. Absent when the service did not say. */
  helpful?: boolean
  /** Where the team is with it (`pending`, `in_progress`, `resolved`, `dismissed`), if said. */
  status?: string
}

export interface Conversation {
  id: string
  timestamp?: string
  query: string
  /** What the assistant answered (text from the public's question, in its words): when given. */
  response?: string
  resolutionStatus: string
  pageUrl?: string | null
}

export interface ConversationsPage {
  conversations: Conversation[]
  nextCursor: string | null
  hasMore: boolean
  cursorForm?: CursorForm
}

export interface CallerStats {
  web: number
  api: number
  other: number
  total: number
}

/** A count: a finite, non-negative safe integer. Anything else is refused, naming the field. */
function count(o: Record<string, unknown>, key: string, where: string): number {
  const v = o[key]
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new ShapeError(`${where}.${key} is not a count (a whole number, 0 or more): ${short(v)}`)
  return v
}

/** A rate such as `ctr`: a finite number, 0 or more. */
function rate(o: Record<string, unknown>, key: string, where: string): number {
  const v = o[key]
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
    throw new ShapeError(`${where}.${key} is not a number, 0 or more: ${short(v)}`)
  return v
}

/** A value as an error names it: short, whatever it holds. */
function short(v: unknown): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : String(v)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * Observed of the service (not documented): a feature that is off answers 200 with nothing in
 * it. Such an answer is an empty section ("no data for this range"), not an error.
 */
function isNothing(body: unknown): boolean {
  return body === null || body === undefined || (isObject(body) && Object.keys(body).length === 0)
}

function text(o: Record<string, unknown>, key: string, where: string): string {
  const v = o[key]
  if (typeof v !== 'string') throw new ShapeError(`${where}.${key} is not a string`)
  return v
}

function optionalText(o: Record<string, unknown>, key: string, where: string): string | null {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'string') throw new ShapeError(`${where}.${key} is neither a string nor null`)
  return v
}

function list(body: Record<string, unknown>, key: string): unknown[] {
  const v = body[key]
  if (!Array.isArray(v)) throw new ShapeError(`${key} is not an array`)
  return v
}

function object(v: unknown, where: string): Record<string, unknown> {
  if (!isObject(v)) throw new ShapeError(`${where} is not an object`)
  return v
}

/** How a `nextCursor` came: opaque, a ULID (as the assistant documents it) or a whole URL. */
export type CursorForm = 'opaque' | 'ulid' | 'url'

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i

/**
 * The cursor to send back, and how it came. Observed: a `nextCursor` may be a whole URL; its
 * `cursor` query parameter is the cursor, and the URL is never requested nor sent as a cursor.
 * Anything else is sent back as given. The end is null; an empty string is refused.
 */
export function readCursor(value: unknown): { cursor: string | null; form?: CursorForm } {
  const v = value ?? null
  if (v === null) return { cursor: null }
  if (typeof v !== 'string' || v === '')
    throw new ShapeError('nextCursor is neither a non-empty string nor null')
  if (/^https?:\/\//i.test(v)) {
    let inner: string | null = null
    try {
      inner = new URL(v).searchParams.get('cursor')
    } catch {
      // Not a URL after all: refused below, never followed.
    }
    if (!inner) throw new ShapeError('nextCursor is a URL without a `cursor` parameter')
    return { cursor: inner, form: 'url' }
  }
  return { cursor: v, form: ULID.test(v) ? 'ulid' : 'opaque' }
}

function checkCounts(v: unknown, where: string): VisitorCounts {
  const o = object(v, where)
  return {
    human: count(o, 'human', where),
    ai: count(o, 'ai', where),
    total: count(o, 'total', where)
  }
}

/**
 * The one check of an offset page (`visitors`, `views`): the totals, the rows under `key` (each a
 * path with counts; other fields kept as they came), `hasMore`.
 */
function checkOffsetPage<K extends 'visitors' | 'views'>(
  body: unknown,
  key: K
): { totals: VisitorCounts; hasMore: boolean } & Record<K, VisitorRow[]> {
  const o = isNothing(body)
    ? { totals: { human: 0, ai: 0, total: 0 }, [key]: [], hasMore: false }
    : object(body, `the ${key} page`)
  const rows = list(o, key).map((row, i) => {
    const where = `${key}[${i}]`
    const r = object(row, where)
    text(r, 'path', where)
    checkCounts(r, where)
    return r as unknown as VisitorRow
  })
  if (typeof o.hasMore !== 'boolean') throw new ShapeError('hasMore is not a boolean')
  const page = { totals: checkCounts(o.totals, 'totals'), hasMore: o.hasMore, [key]: rows }
  return page as { totals: VisitorCounts; hasMore: boolean } & Record<K, VisitorRow[]>
}

export const checkVisitorsPage = (body: unknown): VisitorsPage => checkOffsetPage(body, 'visitors')
export const checkViewsPage = (body: unknown): ViewsPage => checkOffsetPage(body, 'views')

export function checkSearchesPage(body: unknown): SearchesPage {
  if (isNothing(body)) return { totalSearches: 0, searches: [], nextCursor: null }
  const o = object(body, 'the searches page')
  const searches = list(o, 'searches').map((row, i): SearchRow => {
    const where = `searches[${i}]`
    const r = object(row, where)
    const lastSearchedAt = optionalText(r, 'lastSearchedAt', where)
    return {
      searchQuery: text(r, 'searchQuery', where),
      hits: count(r, 'hits', where),
      ctr: rate(r, 'ctr', where),
      topClickedPage: optionalText(r, 'topClickedPage', where),
      ...(lastSearchedAt !== null ? { lastSearchedAt } : {})
    }
  })
  const { cursor, form } = readCursor(o.nextCursor)
  return {
    totalSearches: count(o, 'totalSearches', 'page'),
    searches,
    nextCursor: cursor,
    ...(form ? { cursorForm: form } : {})
  }
}

export function checkFeedbackPage(body: unknown): FeedbackPage {
  if (isNothing(body)) return { feedback: [], hasMore: false }
  const o = object(body, 'the feedback page')
  const feedback = list(o, 'feedback').map((row, i): FeedbackRow => {
    const where = `feedback[${i}]`
    const r = object(row, where)
    return {
      path: text(r, 'path', where),
      thumbsUp: count(r, 'thumbsUp', where),
      thumbsDown: count(r, 'thumbsDown', where),
      code: count(r, 'code', where),
      total: count(r, 'total', where)
    }
  })
  if (typeof o.hasMore !== 'boolean') throw new ShapeError('hasMore is not a boolean')
  return { feedback, hasMore: o.hasMore }
}

/** The rows of `GET feedback` that carry a written comment; other fields are not relied on. */
export function checkFeedbackComments(body: unknown): PageComment[] {
  if (isNothing(body)) return []
  const o = object(body, 'the feedback page')
  return list(o, 'feedback').flatMap((row, i): PageComment[] => {
    const where = `feedback[${i}]`
    const r = object(row, where)
    const comment = optionalText(r, 'comment', where)
    const path = optionalText(r, 'path', where)
    if (comment === null || path === null || comment.trim() === '') return []
    return [
      {
        path,
        comment,
        ...(typeof r.helpful === 'boolean' ? { helpful: r.helpful } : {}),
        ...(typeof r.status === 'string' ? { status: r.status } : {})
      }
    ]
  })
}

export function checkConversationsPage(body: unknown): ConversationsPage {
  if (isNothing(body)) return { conversations: [], nextCursor: null, hasMore: false }
  const o = object(body, 'the assistant page')
  const conversations = list(o, 'conversations').map((row, i): Conversation => {
    const where = `conversations[${i}]`
    const r = object(row, where)
    const id = r.id
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new ShapeError(`${where}.id is missing`)
    const timestamp = optionalText(r, 'timestamp', where)
    // The reference requires it; a row without it is still a question asked.
    const response = typeof r.response === 'string' ? r.response : undefined
    return {
      id: String(id),
      ...(timestamp !== null ? { timestamp } : {}),
      query: text(r, 'query', where),
      ...(response !== undefined ? { response } : {}),
      resolutionStatus: text(r, 'resolutionStatus', where),
      pageUrl: optionalText(r, 'pageUrl', where)
    }
  })
  const { cursor: nextCursor, form } = readCursor(o.nextCursor)
  const hasMore = typeof o.hasMore === 'boolean' ? o.hasMore : nextCursor !== null
  return { conversations, nextCursor, hasMore, ...(form ? { cursorForm: form } : {}) }
}

export function checkCallerStats(body: unknown): CallerStats {
  if (isNothing(body)) return { web: 0, api: 0, other: 0, total: 0 }
  const o = object(body, 'the caller stats')
  const where = 'callerStats'
  return {
    web: count(o, 'web', where),
    api: count(o, 'api', where),
    other: count(o, 'other', where),
    total: count(o, 'total', where)
  }
}

// The `feedback` section: one request to `feedback/by-page` (it has no cursor), the pages with
// the most thumbs-down, thumbs-up and code-snippet feedback beside them; and, when a page has a
// 👎, one request of 100 rows to `feedback` for what readers wrote (the newest comments, those
// given with a 👎 or without a rating, that the team has not resolved or dismissed: the request
// carries `status=pending,in_progress`). With `compare`, the previous period's thumbs-down over
// the same kind of page, one request.
import { OPEN_FEEDBACK, type AnalyticsApi } from '../../service/analytics.js'
import type { FeedbackPage, FeedbackRow, PageComment } from '../../service/analytics-answers.js'
import { RateLimitError, ServiceError } from '../../service/errors.js'
import { ShapeError } from '../../service/schema.js'
import type { DateRange } from '../../period.js'
import { canNarrow, halved, isGatewayTimeout, narrowingNote } from '../../service/timeouts.js'
import { caveats, type ReadCaveats, type SectionInput } from './section.js'
import { eachPathOnce } from '../top.js'

/** The most the operation accepts, and all a report reads: there is no next page to ask for. */
const FEEDBACK_LIMIT = 100

export interface FeedbackSection extends ReadCaveats {
  name: 'feedback'
  ok: true
  /** Sums over the pages read. */
  thumbsDown: number
  thumbsUp: number
  code: number
  /** Thumbs-down over the pages read for the previous period. */
  previous?: number
  /** Pages read. */
  pages: number
  /** The service has feedback on more pages than one request returns. */
  hasMore: boolean
  /** Most thumbs-down first (then most feedback), at most `top`. */
  top: FeedbackRow[]
  /** What readers wrote with a 👎 (or no rating), newest first as the service sent them. */
  comments?: PageComment[]
}

/** Written comments read: one request, whatever the number of pages. */
const COMMENTS_LIMIT = 100

/** The period before's 👎, summed as the section sums its own (each page once). */
async function thumbsDown(input: SectionInput): Promise<number> {
  const { page: before } = await readFeedbackPage(input.api, input.previous ?? input.range)
  return eachPathOnce(before.feedback).reduce((n, r) => n + r.thumbsDown, 0)
}

export async function readFeedback(input: SectionInput): Promise<FeedbackSection> {
  const { api } = input
  const { page, limit } = await readFeedbackPage(api, input.range)
  const rows = eachPathOnce(page.feedback, path =>
    input.onWarning(
      `Feedback: the service sent the page ${JSON.stringify(path)} more than once; each page is counted and shown once.`
    )
  )
  const sum = (key: 'thumbsDown' | 'thumbsUp' | 'code') => rows.reduce((n, r) => n + r[key], 0)
  const section: FeedbackSection = {
    name: 'feedback',
    ok: true,
    thumbsDown: sum('thumbsDown'),
    thumbsUp: sum('thumbsUp'),
    code: sum('code'),
    pages: rows.length,
    hasMore: page.hasMore,
    top: rows
      .filter(r => r.thumbsDown > 0 || r.code > 0)
      .sort((a, b) => b.thumbsDown - a.thumbsDown || b.total - a.total)
      .slice(0, input.top),
    ...caveats(
      limit < FEEDBACK_LIMIT ? [narrowingNote('pages', { from: FEEDBACK_LIMIT, to: limit })] : [],
      undefined,
      limit < FEEDBACK_LIMIT
    )
  }
  if (section.top.some(r => r.thumbsDown > 0)) {
    const comments = await readComments(input)
    if (Array.isArray(comments)) section.comments = comments
    else section.notes = [...(section.notes ?? []), comments.note]
  }
  if (input.previous) section.previous = input.known?.thumbsDown ?? (await thumbsDown(input))
  return section
}

/**
 * The written comments, or why they were not read: their failure costs the report only the
 * quotes (the quota running out still stops everything).
 */
async function readComments(input: SectionInput): Promise<PageComment[] | { note: string }> {
  try {
    const rows = await input.api.feedbackComments(input.range, COMMENTS_LIMIT)
    // The service filters by status; a row it sent resolved or dismissed anyway is left out too.
    return rows.filter(c => c.helpful !== true && isOpen(c))
  } catch (err) {
    if (
      err instanceof RateLimitError ||
      !(err instanceof ServiceError || err instanceof ShapeError)
    )
      throw err
    const why =
      err instanceof ServiceError && err.status ? `status ${err.status}` : 'not understood'
    return { note: `Written comments not read (${why}).` }
  }
}

/** Not resolved or dismissed by the team (a row that does not say counts as open). */
export function isOpen(c: PageComment): boolean {
  return c.status === undefined || (OPEN_FEEDBACK as readonly string[]).includes(c.status)
}

/** The one page of feedback, asked again for half as many pages while the gateway times out. */
async function readFeedbackPage(
  api: AnalyticsApi,
  range: DateRange
): Promise<{ page: FeedbackPage; limit: number }> {
  for (let limit = FEEDBACK_LIMIT; ; limit = halved(limit)) {
    try {
      return { page: await api.feedbackByPage(range, limit, { halvable: canNarrow(limit) }), limit }
    } catch (err) {
      if (!canNarrow(limit) || !isGatewayTimeout(err)) throw err
    }
  }
}

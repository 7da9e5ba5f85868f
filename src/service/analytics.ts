// The analytics operations a docs-health report reads: each one's path and query, and how a page
// is asked for (a gateway timeout the reader halves, a bare cursor after a 414). What they answer,
// and its checks, is analytics-answers.ts's.
import type { DateRange } from '../period.js'
import { enc, type GetOptions } from './client.js'
import type { VisitorCounts, VisitorsPage } from './schema.js'
import {
  checkCallerStats,
  checkConversationsPage,
  checkFeedbackComments,
  checkFeedbackPage,
  checkSearchesPage,
  checkViewsPage,
  checkVisitorsPage,
  type CallerStats,
  type ConversationsPage,
  type FeedbackPage,
  type PageComment,
  type SearchesPage,
  type ViewsPage
} from './analytics-answers.js'

/** The one call every operation goes through (the service client's retries, errors, counter). */
export interface JsonGetter {
  getJson<T>(path: string, check: (json: unknown) => T, o?: GetOptions): Promise<T>
}

/**
 * The written feedback worth quoting: what the team has not resolved or dismissed in the
 * dashboard. Asked of the service as its `status` filter (a comma-separated list).
 */
export const OPEN_FEEDBACK = ['pending', 'in_progress'] as const

/**
 * How a page is asked for. `halvable`: a gateway timeout (502, 504) comes back at once instead of
 * being retried at the same size, since the reader asks again for fewer rows. `bare`: the cursor
 * and `limit` alone, with no range (the cursor encodes its window), after a 414.
 */
export interface PageAsk {
  signal?: AbortSignal
  halvable?: boolean
  bare?: boolean
  /** A single try, no retry. */
  once?: boolean
}

const GATEWAY_TIMEOUTS = [502, 504] as const

/** The operations of one project: what a section is given to read with. */
export class AnalyticsApi {
  constructor(
    private readonly client: JsonGetter,
    private readonly projectId: string
  ) {}

  /** `signal` cancels a page that read-ahead abandoned. */
  visitors(range: DateRange, limit: number, offset: number, ask?: PageAsk): Promise<VisitorsPage> {
    return this.get('visitors', { ...range, limit, offset }, checkVisitorsPage, ask)
  }

  views(range: DateRange, limit: number, offset: number, ask?: PageAsk): Promise<ViewsPage> {
    return this.get('views', { ...range, limit, offset }, checkViewsPage, ask)
  }

  /** `once`: a single try, no retry (a trend point that fails is left out, not fought for). */
  visitorsTotals(range: DateRange, once = false): Promise<VisitorCounts> {
    // One row is the least a page can hold; the totals come with every page.
    const q = { ...range, limit: 1, offset: 0 }
    return this.get('visitors', q, b => checkVisitorsPage(b).totals, { once })
  }

  viewsTotals(range: DateRange, once = false): Promise<VisitorCounts> {
    const q = { ...range, limit: 1, offset: 0 }
    return this.get('views', q, b => checkViewsPage(b).totals, { once })
  }

  searches(range: DateRange, limit: number, cursor?: string, ask?: PageAsk): Promise<SearchesPage> {
    const q = ask?.bare && cursor !== undefined ? { limit, cursor } : { ...range, limit, cursor }
    return this.get('searches', q, checkSearchesPage, ask)
  }

  feedbackByPage(range: DateRange, limit: number, ask?: PageAsk): Promise<FeedbackPage> {
    return this.get('feedback/by-page', { ...range, limit }, checkFeedbackPage, ask)
  }

  /**
   * One page of the page ratings' feedback the team has not resolved or dismissed, those with a
   * written comment kept.
   */
  feedbackComments(range: DateRange, limit: number): Promise<PageComment[]> {
    const status = OPEN_FEEDBACK.join(',')
    return this.get(
      'feedback',
      { ...range, source: 'contextual', status, limit },
      checkFeedbackComments
    )
  }

  conversations(
    range: DateRange,
    limit: number,
    cursor?: string,
    ask?: PageAsk
  ): Promise<ConversationsPage> {
    const q = ask?.bare && cursor !== undefined ? { limit, cursor } : { ...range, limit, cursor }
    return this.get('assistant', q, checkConversationsPage, ask)
  }

  callerStats(range: DateRange, ask?: PageAsk): Promise<CallerStats> {
    return this.get('assistant/caller-stats', { ...range }, checkCallerStats, ask)
  }

  private get<T>(
    operation: string,
    query: Record<string, string | number | undefined>,
    check: (json: unknown) => T,
    ask: PageAsk = {}
  ): Promise<T> {
    const params = new URLSearchParams()
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) params.set(name, String(value))
    const search = params.toString()
    const path = `/v1/analytics/${enc(this.projectId)}/${operation}${search ? `?${search}` : ''}`
    // The client starts no request after the run's deadline (`wait-timeout` bounds the report).
    return this.client.getJson(path, check, {
      ...(ask.signal ? { signal: ask.signal } : {}),
      ...(ask.halvable ? { noRetry: GATEWAY_TIMEOUTS } : {}),
      ...(ask.once ? { maxAttempts: 1 } : {})
    })
  }
}

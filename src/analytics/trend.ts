// The trend: the totals of the periods before the range, so "is it going up?" is answered without
// last week's report open beside this one. A period costs one request (`limit=1`) per section
// drawn, unless the compare or an earlier report in the issue already knows it. Read newest
// first, each once (no retry): the first period that fails ends the reading, so what is missing
// is always the oldest, and nothing is ever drawn for a period that was not read.
import { messageOf, TimeUpError } from '../errors.js'
import type { DateRange } from '../period.js'
import type { AnalyticsApi } from '../service/analytics.js'
import { BudgetError, RateLimitError, ServiceError } from '../service/errors.js'
import type { VisitorCounts } from '../service/schema.js'
import type { PeriodTotals } from './period-totals.js'
import type { RunLimit } from './sections/section.js'

export interface TrendPoint {
  range: Required<DateRange>
  /** That period's unique visitors (the service's totals); undefined if not known. */
  visitors?: VisitorCounts
  /** That period's page views; undefined if not known. */
  views?: VisitorCounts
}

/** Why the trend stopped short: the period it stopped at, and what stopped it. */
export interface TrendStop {
  /** The newest period left without its totals; it and every older one are not drawn. */
  at: Required<DateRange>
  /** The periods left without their totals. */
  missing: number
  /** A limit of the run, or a failure of that period's request. */
  limit: RunLimit | 'failure'
  /** The service's words, for the log. */
  reason: string
  /** What ended the reading, when it ends the run too (the quota). */
  error?: Error
}

export interface Trend {
  /** Oldest first, every period asked for; the range itself is not among them. */
  points: TrendPoint[]
  /** Requests the trend sent. */
  requests: number
  /** Periods whose totals came from the compare or an earlier report, at no request. */
  known: number
  stop?: TrendStop
}

export type TrendSeries = 'visitors' | 'views'

export interface TrendRead {
  /** The periods before the range, oldest first. */
  ranges: readonly Required<DateRange>[]
  /** The series drawn: the sections the report read. */
  series: readonly TrendSeries[]
  /** What is known of a period without asking (the compare, an earlier report's record). */
  known: (range: Required<DateRange>) => PeriodTotals | undefined
  /** The run already stopped (the quota, `max-requests`): draw what is known, read nothing. */
  stopped?: { limit: RunLimit; reason: string }
}

/**
 * The trend's points, newest first as read, returned oldest first. A period is complete when
 * every series has its total; the first that cannot be completed stops the reading.
 */
export async function readTrend(api: AnalyticsApi, t: TrendRead): Promise<Trend> {
  const points: TrendPoint[] = t.ranges.map(range => ({ range }))
  let requests = 0
  let known = 0
  let stop: TrendStop | undefined
  for (let i = points.length - 1; i >= 0; i--) {
    const point = points[i] as TrendPoint
    const have = t.known(point.range) ?? {}
    const lacking = t.series.filter(name => have[name] === undefined)
    for (const name of t.series) if (have[name]) point[name] = have[name]
    if (lacking.length === 0) {
      known++
      continue
    }
    if (t.stopped) {
      stop = { at: point.range, missing: i + 1, ...t.stopped }
      break
    }
    try {
      for (const name of lacking) {
        requests++
        point[name] =
          name === 'visitors'
            ? await api.visitorsTotals(point.range, true)
            : await api.viewsTotals(point.range, true)
      }
    } catch (err) {
      stop = { at: point.range, missing: i + 1, ...stoppedBy(err) }
      break
    }
  }
  return { points, requests, known, ...(stop ? { stop } : {}) }
}

function stoppedBy(err: unknown): Omit<TrendStop, 'at' | 'missing'> {
  const reason = messageOf(err)
  if (err instanceof BudgetError) return { limit: 'max-requests', reason, error: err }
  if (err instanceof RateLimitError || (err instanceof ServiceError && err.status === 429))
    return { limit: 'quota', reason, error: err }
  if (err instanceof TimeUpError) return { limit: 'time', reason }
  return { limit: 'failure', reason }
}

// The trend: the totals of the periods before the range, one request (`limit=1`) per period per
// section drawn, so "is it going up?" is answered without last week's report open beside this one.
import { messageOf } from '../errors.js'
import type { DateRange } from '../period.js'
import type { AnalyticsApi } from '../service/analytics.js'
import { BudgetError, RateLimitError } from '../service/errors.js'

export interface TrendPoint {
  range: Required<DateRange>
  /** That period's unique visitors (the service's deduplicated total); undefined if not read. */
  visitors?: number
  /** That period's page views; undefined if not read. */
  views?: number
}

export interface Trend {
  /** Oldest first; the range itself is not among them (its totals are the sections'). */
  points: TrendPoint[]
  requests: number
}

/**
 * Reads the totals of `ranges` (oldest first) for the sections asked for. A period that fails is
 * left out of the line with a warning; the quota or `max-requests` running out ends the reading.
 */
export async function readTrend(
  api: AnalyticsApi,
  ranges: readonly Required<DateRange>[],
  sections: { visitors: boolean; views: boolean },
  onWarning: (line: string) => void
): Promise<Trend> {
  const points: TrendPoint[] = ranges.map(range => ({ range }))
  let requests = 0
  for (const point of points) {
    try {
      if (sections.visitors) {
        requests++
        point.visitors = (await api.visitorsTotals(point.range)).total
      }
      if (sections.views) {
        requests++
        point.views = (await api.viewsTotals(point.range)).total
      }
    } catch (err) {
      if (err instanceof RateLimitError || err instanceof BudgetError) {
        onWarning(`Trend: stopped at ${point.range.dateFrom}: ${messageOf(err)}`)
        break
      }
      onWarning(
        `Trend: the period from ${point.range.dateFrom} could not be read: ${messageOf(err)}`
      )
    }
  }
  return { points, requests }
}

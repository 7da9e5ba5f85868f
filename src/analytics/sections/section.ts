// What every report section is given, and how a section that could not be read is drawn. A section reads only
// what it shows; a failure (refused, or an error retries could not cure) is drawn in its place.
import type { SectionName } from '../section-names.js'
import type { AnalyticsApi } from '../../service/analytics.js'
import type { DateRange } from '../../period.js'

export interface SectionInput {
  api: AnalyticsApi
  range: DateRange
  /** The period before, when `compare` is on: each section reads its headline number for it. */
  previous?: Required<DateRange>
  /** Rows shown in each table. */
  top: number
  pageSize: number
  maxRows: number
  concurrency: number
  deadline: number
  onWarning: (line: string) => void
}

export interface SectionFailure {
  name: SectionName
  ok: false
  /** The HTTP status, when the service answered. */
  status?: number
  /** 403 or 404: the feature is not enabled on this plan. */
  refused: boolean
  /** Not read at all: the time or the quota ran out before it (no request was sent for it). */
  skipped?: true
  reason: string
}

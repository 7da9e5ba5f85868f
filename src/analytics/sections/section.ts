// What every report section is given, and how a section that could not be read is drawn. A section reads only
// what it shows; a failure (refused, or an error retries could not cure) is drawn in its place.
import type { SectionName } from '../section-names.js'
import type { AnalyticsApi } from '../../service/analytics.js'
import type { DateRange } from '../../period.js'
import type { Deadline } from '../../deadline.js'
import type { PeriodTotals } from '../period-totals.js'

export interface SectionInput {
  api: AnalyticsApi
  range: DateRange
  /** The period before, when `compare` is on: each section reads its headline number for it. */
  previous?: Required<DateRange>
  /**
   * What an earlier report recorded of the period before: a section takes its headline number
   * for `compare` from here instead of asking the service again.
   */
  known?: PeriodTotals
  /** Rows shown in each table. */
  top: number
  /**
   * Pages another section shows: the visitors' top pages, for the views beside them, and the
   * pages with feedback, to weigh their 👎 against their views.
   */
  shownPaths?: string[]
  /** Pages a fix asked for is measured on: the views section keeps their views too (no request). */
  measuredPaths?: string[]
  pageSize: number
  maxRows: number
  /** The most offset pages one read asks for (default 400: pages.ts MAX_PAGES). */
  maxPages?: number
  concurrency: number
  /** The run's deadline: cursors and pages stop at it (the client starts nothing after it). */
  deadline: Deadline
  onWarning: (line: string) => void
}

/**
 * What the service made a section's reading do, in the summary's words (the reader's own, never
 * the service's): read by every section that was read.
 */
export interface ReadCaveats {
  /** What the reading had to do to get the answer: pages narrowed, a range read by weeks. */
  notes?: string[]
  /**
   * Why the section is incomplete: the service still said more exist when the reading had to
   * stop (empty pages in a row). The report is then headed incomplete.
   */
  incomplete?: string
  /**
   * The reading was narrowed (smaller pages or a week at a time after gateway timeouts): what
   * it shows stands, but its totals are not recorded for later reports to compare against.
   */
  narrowed?: true
}

/** The caveats of a read, without empty fields. */
export function caveats(notes: string[], incomplete?: string, narrowed = false): ReadCaveats {
  return {
    ...(notes.length > 0 ? { notes } : {}),
    ...(incomplete !== undefined ? { incomplete } : {}),
    ...(narrowed ? { narrowed: true as const } : {})
  }
}

export type RunLimit = 'quota' | 'time' | 'max-requests'

export interface SectionFailure {
  name: SectionName
  ok: false
  /** The HTTP status, when the service answered. */
  status?: number
  /** 403 or 404: the feature is not enabled on this plan. */
  refused: boolean
  /** Not read (or not to the end): a limit of the run ran out before or during it. */
  skipped?: true
  /** Which limit: the service's hourly quota, the time (`wait-timeout`), or `max-requests`. */
  limit?: RunLimit
  /** The service's words and what to change, as the log has them. */
  reason: string
  /**
   * For a refusal: what to change, in the action's words (Markdown we wrote), and the service's
   * own words when that advice does not already say what they say.
   */
  advice?: { hint: string; said?: string }
}

// A period's totals, as a report knows them: read from the service in this run, or recorded by an
// earlier report in the same issue (the report remembers: see github/report-records.ts). A number
// is the same whichever way it came: each is taken from what a section read in one place
// (sections/totals.ts).
import type { VisitorCounts } from '../service/schema.js'

export interface PeriodTotals {
  /** Unique visitors: the service's totals (`total` deduplicated). */
  visitors?: VisitorCounts
  views?: VisitorCounts
  /** `totalSearches`. */
  searches?: number
  /** 👎 over the pages one `feedback/by-page` request returns. */
  thumbsDown?: number
  /** Questions to the assistant (caller-stats `total`). */
  questions?: number
  /** Questions read, and how many of them went unanswered (the share's parts). */
  answers?: { unanswered: number; read: number }
}

/** Both, the first winning where both know a number. */
export function mergeTotals(first: PeriodTotals, second: PeriodTotals | undefined): PeriodTotals {
  return { ...second, ...first }
}

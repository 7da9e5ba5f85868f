// Which earlier comments a run's comment may edit or hide (contract: "Series"). A series is a kind
// of comment (a project's report, a roll-up), its project and its cadence: the length of its range
// in days, a calendar month being one cadence whatever its days. So the weekly report, the
// monthly report and the roll-up of one project on one issue are three series, and `minimize`
// or `upsert` in one never touches another. A run edits or hides only a comment of its own
// series, written by the action's own login (thread.ts asks), whose text is the action's (its
// title and its footer: a marker copied into another workflow's comment, which writes as the
// same `github-actions[bot]`, makes that comment no report), and whose range ends no later than
// the run's own: re-running an older week leaves the newer report in view. Which comments a
// reader still sees follows from the same rule (shown), and `fix N` reads the newest of those.
import { parseInstant, type DateRange } from '../period.js'
import { isHealthReportBody } from '../report/health.js'
import { isRollupBody } from '../report/rollup.js'
import { parseRecord } from './kinds.js'
import { textAboveMarkers } from './signature.js'

type SeriesKind = 'report' | 'rollup'

const DAY = 86_400_000

/** A record of a series, where it is: its key, when it was signed, its comment. */
export interface SeriesRecord {
  key: string
  at: number
  comment: { id: number }
}

export class Series {
  private readonly cadence: string
  private readonly end: number

  private constructor(
    readonly kind: SeriesKind,
    readonly project: string,
    readonly range: DateRange
  ) {
    this.cadence = cadenceOf(range)
    this.end = endOf(range)
  }

  /** The reports of `projectId` at the cadence of `range`. */
  static report(projectId: string, range: DateRange): Series {
    return new Series('report', projectId, range)
  }

  /** The roll-ups at the cadence of `range` (the span of their projects' ranges). */
  static rollup(range: DateRange): Series {
    return new Series('rollup', '*', range)
  }

  /** The range a record names when it is of this series (its kind, project and cadence). */
  rangeOf(key: string): DateRange | undefined {
    const fields = parseRecord(this.kind, key)
    if (fields?.project !== this.project) return undefined
    const range = {
      ...(fields.from !== '' ? { dateFrom: fields.from } : {}),
      ...(fields.to !== '' ? { dateTo: fields.to } : {})
    }
    return cadenceOf(range) === this.cadence ? range : undefined
  }

  /** Whether a record is of this series and its range ends no later than the run's own. */
  covers(key: string): boolean {
    const range = this.rangeOf(key)
    return range !== undefined && endOf(range) <= this.end
  }

  /** Whether a record is of this series and its range ends after the run's own. */
  isNewer(key: string): boolean {
    const range = this.rangeOf(key)
    return range !== undefined && endOf(range) > this.end
  }

  /** Whether a comment's body (markers and all) is the action's comment of this kind. */
  ownBody(body: string): boolean {
    const text = textAboveMarkers(body)
    return this.kind === 'report' ? isHealthReportBody(text) : isRollupBody(text)
  }

  /**
   * The comments of this series a reader still sees, newest first: each comment's newest record
   * of the series, less those that a later comment of the series ending no earlier put out of
   * date (what `minimize` hides). Records of other series are ignored.
   */
  shown<R extends SeriesRecord>(records: readonly R[]): R[] {
    const latest = new Map<number, R>()
    for (const r of records)
      if (this.rangeOf(r.key) && (latest.get(r.comment.id)?.at ?? -1) < r.at)
        latest.set(r.comment.id, r)
    const list = [...latest.values()]
    const ends = (r: R) => endOf(this.rangeOf(r.key) ?? {})
    return list
      .filter(r => !list.some(d => d !== r && d.at > r.at && ends(d) >= ends(r)))
      .sort((a, b) => b.at - a.at)
  }
}

/** When a range ends: an open end is the latest of all. */
function endOf(range: DateRange): number {
  return range.dateTo === undefined ? Infinity : (parseInstant(range.dateTo) ?? Infinity)
}

/**
 * The cadence of a range: `month` for a calendar month (the 1st to the 1st), else its length in
 * days (`7d`), and `open` for a range without both ends.
 */
export function cadenceOf(range: DateRange): string {
  const from = parseInstant(range.dateFrom ?? '')
  const to = parseInstant(range.dateTo ?? '')
  if (from === undefined || to === undefined) return 'open'
  const f = new Date(from)
  const monthLater = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1)
  if (f.getUTCDate() === 1 && from % DAY === 0 && to === monthLater) return 'month'
  return `${Math.round(((to - from) / DAY) * 1000) / 1000}d`
}

// A cursor section's reading of its range: whole, or, when the service's gateway still times out on
// the smallest page, a week at a time (field notes: a fetcher read in 7-day chunks for this reason).
// Only sections whose rows can be put together again read by weeks: questions are turns in time,
// and searches add up by query. Unique visitors cannot (a visitor of two weeks counts once in the
// range), so the visitors and views pages are never read this way.
import type { DateRange } from '../../period.js'
import type { CursorResult } from '../../service/cursor.js'
import { ServiceError } from '../../service/errors.js'
import { isGatewayTimeout, narrowingNote, weeklyChunks } from '../../service/timeouts.js'

/**
 * A reading of one range. `limit`: where to start when an earlier part had to narrow;
 * `splittable`: the range would be read by weeks if it keeps timing out (readCursorPages).
 */
export type ReadRange<T> = (
  range: DateRange,
  o: { limit?: number; splittable: boolean }
) => Promise<CursorResult<T>>

export interface RangeRead<T> {
  /** Every part's items, newest part first. */
  items: T[]
  /** The service said of every part that nothing more exists. */
  complete: boolean
  /** Some part stopped at its page bound with fewer rows a page than asked for. */
  short: boolean
  /** Some part stopped at empty pages that still carried a cursor. */
  endedShort: boolean
  /** What the reading had to do, in the summary's words. */
  notes: string[]
  /** Set when the range was read by weeks: how many. */
  weeks?: number
  /** A part's reading failed past its first page: what it read is kept, the rest is missing. */
  failure?: unknown
  /** Read in smaller pages or by weeks, after gateway timeouts. */
  narrowed: boolean
}

/**
 * Reads `range` whole; when that ends in a gateway timeout at the smallest page and the range is
 * longer than a week, reads it again week by week, newest first. `what` names the rows in notes.
 */
export async function readWholeOrByWeek<T>(
  range: DateRange,
  what: string,
  read: ReadRange<T>
): Promise<RangeRead<T>> {
  let parts: CursorResult<T>[]
  let weeks: number | undefined
  const chunks = weeklyChunks(range)
  try {
    parts = [await read(range, { splittable: chunks !== undefined })]
  } catch (err) {
    if (!chunks || !isGatewayTimeout(err)) throw err
    parts = []
    let limit: number | undefined
    for (const week of chunks) {
      const part = await read(week, {
        ...(limit !== undefined ? { limit } : {}),
        splittable: false
      })
      limit = part.narrowed?.to ?? limit
      parts.push(part)
    }
    weeks = chunks.length
  }
  const narrowed = parts.find(part => part.narrowed)?.narrowed
  const notes = [
    ...(narrowed ? [narrowingNote(what, narrowed)] : []),
    ...(weeks !== undefined
      ? [
          `The service timed out (502/504) on the whole range even at the smallest page, so it ` +
            `was read a week at a time (${weeks} weeks).`
        ]
      : [])
  ]
  return {
    items: parts.flatMap(part => part.items),
    complete: parts.every(part => part.complete),
    short: parts.some(part => part.short),
    endedShort: parts.some(part => part.endedShort),
    notes,
    narrowed: narrowed !== undefined || weeks !== undefined,
    ...(weeks !== undefined ? { weeks } : {}),
    ...failureOf(parts)
  }
}

function failureOf<T>(parts: CursorResult<T>[]): { failure?: unknown } {
  const failed = parts.find(part => part.failure !== undefined)
  return failed ? { failure: failed.failure } : {}
}

/**
 * Why a section is incomplete, in the action's words (the service's are in the log): the reading
 * stopped at empty pages, or failed past its first page.
 */
export function cursorIncomplete(
  title: string,
  what: string,
  read: RangeRead<unknown>
): string | undefined {
  if (read.endedShort) return endedShortNote(title, what)
  if (read.failure === undefined) return undefined
  const status = read.failure instanceof ServiceError ? ` (HTTP ${read.failure.status})` : ''
  return (
    `${title}: a later page failed${status} after ${read.items.length} ${what} were read; ` +
    `the report shows those, which are not all of them.`
  )
}

/** The section's incomplete mark when a reading stopped at empty pages. */
function endedShortNote(title: string, what: string): string {
  return (
    `${title}: the service sent 3 empty pages in a row while saying more ${what} exist, so the ` +
    `reading stopped there and the ${what} read are not all of them.`
  )
}

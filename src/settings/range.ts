// The range inputs of `visitors` and `report`: the dates or the period, and the periods before it
// that `compare` and `trend` read. An InputError names the input and the form it accepts.
import { type GetInput } from './parse.js'
import { InputError, quote } from '../errors.js'
import {
  END_INSTANT,
  FIRST_INSTANT,
  parseInstant,
  parsePeriod,
  previousRange,
  rangesBefore,
  resolvePeriod,
  type DateRange,
  type Period
} from '../period.js'

export interface RangeSettings {
  range: DateRange
  period?: Period
  previous?: Required<DateRange>
  trendRanges?: Required<DateRange>[]
}

const YEARS =
  'falls outside the years 1 to 9999 (an instant in UTC, after its offset), which no date can ' +
  'name; expected a date from 0001-01-01 to 9999-12-31'
const BEFORE_YEAR_ONE = 'choose a later range or fewer periods'

/**
 * The range of an analytics command from `date-from`/`date-to` or `period`, and the periods
 * before it that `compare` and `trend` need (both need a bounded range).
 */
export function readRange(
  get: GetInput,
  now: Date,
  want: { compare: boolean; trend: number }
): RangeSettings {
  const periodText = get('period')
  const asked: Pick<RangeSettings, 'range' | 'period'> =
    periodText !== '' ? readPeriod(get, periodText, now) : { range: readDates(get) }
  const previous = want.compare ? { previous: readPrevious(asked) } : {}
  const trend = want.trend > 0 ? { trendRanges: readTrendRanges(asked, want.trend) } : {}
  return { ...asked, ...previous, ...trend }
}

/** `period`, resolved to its dates on `now`; never with `date-from` or `date-to`. */
function readPeriod(
  get: GetInput,
  periodText: string,
  now: Date
): Pick<RangeSettings, 'range' | 'period'> {
  if (get('date-from') !== '' || get('date-to') !== '')
    throw new InputError(
      'period',
      'cannot be combined with `date-from` or `date-to`: use one or the other'
    )
  const period = parsePeriod(periodText)
  if (!period)
    throw new InputError(
      'period',
      `${quote(periodText)} is not a period; expected \`Nd\` (N from 1 to 366), \`yesterday\`, \`last-week\` or \`last-month\``
    )
  return { period, range: resolvePeriod(period, now) }
}

/** `date-from` and `date-to` as given (each optional), once they name real instants in order. */
function readDates(get: GetInput): DateRange {
  const from = get('date-from')
  const to = get('date-to')
  const form = '`YYYY-MM-DD` or an ISO 8601 date-time such as `2026-11-01T00:00:00Z`'
  const fromAt = from === '' ? undefined : parseInstant(from)
  const toAt = to === '' ? undefined : parseInstant(to)
  if (from !== '' && fromAt === undefined)
    throw new InputError('date-from', `${quote(from)} is not a real date; expected ${form}`)
  if (to !== '' && toAt === undefined)
    throw new InputError('date-to', `${quote(to)} is not a real date; expected ${form}`)
  if (fromAt !== undefined && (fromAt < FIRST_INSTANT || fromAt >= END_INSTANT))
    throw new InputError('date-from', `${quote(from)} ${YEARS}`)
  if (toAt !== undefined && (toAt <= FIRST_INSTANT || toAt > END_INSTANT))
    throw new InputError('date-to', `${quote(to)} ${YEARS}`)
  if (fromAt !== undefined && toAt !== undefined && toAt <= fromAt)
    throw new InputError(
      'date-to',
      `must be after \`date-from\` (it is exclusive): ${to} is not after ${from}`
    )
  return { ...(from !== '' ? { dateFrom: from } : {}), ...(to !== '' ? { dateTo: to } : {}) }
}

/** The range, bounded on both ends: what `compare` and `trend` count back from. */
function bounded(range: DateRange, input: 'compare' | 'trend'): Required<DateRange> {
  const { dateFrom, dateTo } = range
  if (dateFrom === undefined || dateTo === undefined)
    throw new InputError(
      input,
      'needs a bounded range: set `period`, or both `date-from` and `date-to`'
    )
  return { dateFrom, dateTo }
}

/** `compare`: the period just before the range. */
function readPrevious(asked: Pick<RangeSettings, 'range' | 'period'>): Required<DateRange> {
  const previous = previousRange(bounded(asked.range, 'compare'), asked.period)
  if (previous === undefined)
    throw new InputError(
      'compare',
      `needs the period before the range, which would start before year 1: ${BEFORE_YEAR_ONE}`
    )
  return previous
}

/** `trend`: that many periods before the range, each of its length. */
function readTrendRanges(
  asked: Pick<RangeSettings, 'range' | 'period'>,
  trend: number
): Required<DateRange>[] {
  const ranges = rangesBefore(bounded(asked.range, 'trend'), trend, asked.period)
  if (ranges === undefined)
    throw new InputError(
      'trend',
      `(${trend}) reaches back before year 1 from this range: ${BEFORE_YEAR_ONE}`
    )
  return ranges
}

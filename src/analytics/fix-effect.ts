// What a fix did: for a suggestion whose pull request was merged, the subject's rate in the
// period it was suggested and in each complete period since the merge, and the verdict by the
// rule that marks changes (marks.ts). A rate, not a count, so that a week of more or less traffic
// cannot fake a result: zero-click searches per 1,000 searches, 👎 per 1,000 views, unanswered
// per 100 questions. It costs no request: the numbers come from every row this report read (not
// only the rows it shows: a gap people now click, or one below the top, still counts) and from
// what earlier reports in the issue recorded (records/report.ts, kind `measure`). A subject
// absent from every row read is "not among the N rows read", never 0: the rows cannot say.
import { isoDay, parseInstant, type DateRange } from '../period.js'
import { countChangeMatters, pointsChangeMatter } from './marks.js'
import { pageRowOf, type SectionOutcome } from './sections/outcome.js'
import type { PagesSection } from './sections/visitors.js'
import { currentId, gapId, pageId, questionId, type FixState } from './suggestions.js'

type Range = Required<DateRange>

export type SubjectKind = 'gap' | 'page' | 'question'

/** A subject's count and what it is counted among (searches, views, questions read). */
export interface Counted {
  count: number
  of: number
}

/** A subject's numbers in one period, or that it was absent from all the `below` rows read. */
export type SubjectNumbers = Counted | { below: number }

export type Verdict = 'better' | 'worse' | 'unchanged'

/** The periods back from this report's start that a merge is followed for. */
const EFFECT_PERIODS = 8

/** Per how many of the denominator each kind's rate is given. */
export const RATE_PER: Record<SubjectKind, number> = { gap: 1000, page: 1000, question: 100 }

function kindOfId(id: string): SubjectKind | undefined {
  const kind = id.slice(0, id.indexOf(':'))
  return kind === 'gap' || kind === 'page' || kind === 'question' ? kind : undefined
}

export const isCounted = (n: SubjectNumbers | undefined): n is Counted =>
  n !== undefined && 'count' in n

/** The rate (per RATE_PER), or undefined with nothing to count among. */
export function rateOf(kind: SubjectKind, n: Counted): number | undefined {
  return n.of > 0 ? (n.count * RATE_PER[kind]) / n.of : undefined
}

type Read<N extends SectionOutcome['name']> = Extract<SectionOutcome, { name: N; ok: true }>

function read<N extends SectionOutcome['name']>(
  sections: readonly SectionOutcome[],
  name: N
): Read<N> | undefined {
  return sections.find((x): x is Read<N> => x.name === name && x.ok)
}

/**
 * A subject's numbers among every row this report read; undefined when its section was not read
 * (or, for a page, its views were not: a count without its denominator is no rate).
 */
export function subjectNumbers(
  sections: readonly SectionOutcome[],
  id: string
): SubjectNumbers | undefined {
  switch (kindOfId(id)) {
    case 'gap': {
      const x = read(sections, 'searches')
      if (!x) return undefined
      // Each query once (the gaps are among the top too, and all among the queries read).
      const rows = x.queries ?? [
        ...new Map([...x.gaps, ...x.top].map(q => [q.searchQuery, q])).values()
      ]
      const topic = rows.filter(q => gapId(q.searchQuery) === currentId(id))
      // Searches that found no click: all of a zero-click row's, the rest's share otherwise.
      const count = Math.round(topic.reduce((n, q) => n + q.hits * (1 - q.ctr), 0))
      return topic.length > 0 ? { count, of: x.totalSearches } : { below: x.read }
    }
    case 'page': {
      const x = read(sections, 'feedback')
      if (!x) return undefined
      const rows = x.rows ?? x.top
      const row = rows.find(p => pageId(p.path) === id)
      if (!row) return { below: x.rows ? x.rows.length : x.pages }
      const views = sections.find((v): v is PagesSection => v.ok && v.name === 'views')
      const seen = pageRowOf(views, row.path)
      return seen ? { count: row.thumbsDown, of: seen.total } : undefined
    }
    case 'question': {
      const x = read(sections, 'assistant')
      if (!x || x.read === 0) return undefined
      return questionNumbers(x, currentId(id))
    }
    default:
      return undefined
  }
}

/** A question topic's unanswered count among the questions read (0 when all were answered). */
function questionNumbers(x: Read<'assistant'>, id: string): SubjectNumbers {
  const topics =
    x.topics ?? x.top.map(q => ({ topic: questionId(q.question).slice(9), unanswered: q.count }))
  const mine = topics.filter(t => `question:${t.topic}` === id)
  const count = mine.reduce((n, t) => n + t.unanswered, 0)
  return mine.length > 0 ? { count, of: x.read } : { below: x.read }
}

/**
 * The verdict on the periods since the merge taken together, against the period suggested, by
 * the marks rule: for zero-click searches and 👎, the count seen against the count the old rate
 * gives for the same traffic (20 and 5 % at least); for the unanswered share, 1 point at least.
 * Undefined when no period since was counted (the subject left the rows read).
 */
export function verdictOf(
  kind: SubjectKind,
  before: Counted,
  since: readonly SubjectNumbers[]
): Verdict | undefined {
  const counted = since.filter(isCounted)
  const after = counted.reduce((t, n) => ({ count: t.count + n.count, of: t.of + n.of }), {
    count: 0,
    of: 0
  })
  const was = rateOf(kind, before)
  const now = rateOf(kind, after)
  if (counted.length === 0 || was === undefined || now === undefined) return undefined
  if (kind === 'question') {
    if (!pointsChangeMatter(now - was)) return 'unchanged'
    return now < was ? 'better' : 'worse'
  }
  const expected = (before.count / before.of) * after.of
  if (!countChangeMatters(after.count, expected)) return 'unchanged'
  return after.count < expected ? 'better' : 'worse'
}

interface MeasuredPeriod {
  range: Range
  numbers: SubjectNumbers
}

export interface FixEffect {
  id: string
  kind: SubjectKind
  /** What it is about, as the report that suggested it showed it (untrusted text). */
  subject: string
  pr: number
  mergedAt: number
  /** The period it was suggested in, and its numbers then. */
  suggested: { range: Range; numbers: Counted }
  /** Each complete period since the merge that a report knows, oldest first. */
  since: MeasuredPeriod[]
  verdict?: Verdict
  /**
   * Merged too late for any period this report knows: the period whose report first measures
   * it (its first complete period after the merge). `since` is then empty.
   */
  firstMeasured?: Range
}

export interface EffectInput {
  /** This report's period and what it read. */
  range: Range
  sections: readonly SectionOutcome[]
  /** Where each fix asked for stands, by suggestion id. */
  fixes: ReadonlyMap<string, FixState>
  /** The earlier reports in the issue: their periods and the suggestions each made. */
  reports: readonly { range: Range; suggestions: readonly { id: string; subject: string }[] }[]
  /** What a report recorded of a subject in a period. */
  recorded: (range: Range, id: string) => SubjectNumbers | undefined
}

const sameRange = (a: Range, b: Range): boolean =>
  a.dateFrom === b.dateFrom && a.dateTo === b.dateTo

const lengthOf = (r: Range): number | undefined => {
  const from = parseInstant(r.dateFrom)
  const to = parseInstant(r.dateTo)
  return from !== undefined && to !== undefined && to > from ? to - from : undefined
}

/** What each fix merged within the last EFFECT_PERIODS periods did, newest merge first. */
export function fixEffects(input: EffectInput): FixEffect[] {
  const start = parseInstant(input.range.dateFrom)
  const length = lengthOf(input.range)
  if (start === undefined || length === undefined) return []
  const effects: FixEffect[] = []
  for (const [id, fix] of input.fixes) {
    const kind = kindOfId(id)
    const { pr, mergedAt } = fix
    if (fix.state !== 'merged' || !kind || pr === undefined || mergedAt === undefined) continue
    if (mergedAt < start - EFFECT_PERIODS * length) continue
    const effect = effectOf(input, { id, kind, pr, mergedAt }, length)
    if (effect) effects.push(effect)
  }
  return effects.sort((a, b) => b.mergedAt - a.mergedAt)
}

function effectOf(
  input: EffectInput,
  fix: { id: string; kind: SubjectKind; pr: number; mergedAt: number },
  length: number
): FixEffect | undefined {
  // The newest report (by its period) that suggested it before the merge.
  const suggestedIn = input.reports
    .filter(r => r.range.dateFrom < input.range.dateFrom)
    .filter(r => (parseInstant(r.range.dateFrom) ?? Infinity) < fix.mergedAt)
    .filter(r => r.suggestions.some(s => s.id === fix.id))
    .sort((a, b) => (a.range.dateFrom < b.range.dateFrom ? 1 : -1))[0]
  if (!suggestedIn) return undefined
  const before = input.recorded(suggestedIn.range, fix.id)
  if (!isCounted(before)) return undefined
  const subject = suggestedIn.suggestions.find(s => s.id === fix.id)?.subject ?? ''
  const known = { ...fix, subject, suggested: { range: suggestedIn.range, numbers: before } }
  const since = measuredSince(input, fix, length)
  if (since.length === 0) {
    // Merged after this period began: said now, measured by a later report.
    const start = parseInstant(input.range.dateFrom) ?? Infinity
    const firstMeasured = fix.mergedAt > start && firstPeriodAfter(input.range, fix.mergedAt)
    return firstMeasured ? { ...known, since, firstMeasured } : undefined
  }
  const verdict = verdictOf(
    fix.kind,
    before,
    since.map(p => p.numbers)
  )
  // A subject gone from every row read is rarer than the rows read can show: a "worse" of the
  // periods before would say the opposite of what the newest period says.
  const gone = !isCounted(since.at(-1)?.numbers)
  const kept = verdict === 'worse' && gone ? undefined : verdict
  return { ...known, since, ...(kept ? { verdict: kept } : {}) }
}

/** Each complete period since the merge that this report or an earlier one measured. */
function measuredSince(
  input: EffectInput,
  fix: { id: string; mergedAt: number },
  length: number
): MeasuredPeriod[] {
  const periods = [...input.reports.map(r => r.range), input.range]
    .filter((r, i, all) => all.findIndex(o => sameRange(o, r)) === i)
    .filter(r => lengthOf(r) === length && r.dateTo <= input.range.dateTo)
    .filter(r => (parseInstant(r.dateFrom) ?? -Infinity) >= fix.mergedAt)
    .sort((a, b) => (a.dateFrom < b.dateFrom ? -1 : 1))
  return periods.flatMap((range): MeasuredPeriod[] => {
    const numbers = sameRange(range, input.range)
      ? subjectNumbers(input.sections, fix.id)
      : input.recorded(range, fix.id)
    return numbers ? [{ range, numbers }] : []
  })
}

/**
 * The first period after `range`, of its kind (the next calendar month for a month, else the
 * same length), that begins at or after `at`: its report is the first to measure a fix merged
 * then. Undefined past a year of periods (no report would follow it that far).
 */
export function firstPeriodAfter(range: Range, at: number): Range | undefined {
  let next = periodAfter(range)
  for (let i = 0; next && i < 400; i++) {
    const from = parseInstant(next.dateFrom)
    if (from === undefined) return undefined
    if (from >= at) return next
    next = periodAfter(next)
  }
  return undefined
}

/** The period right after a range: the next calendar month for a month, else the same length. */
function periodAfter(range: Range): Range | undefined {
  const from = parseInstant(range.dateFrom)
  const to = parseInstant(range.dateTo)
  if (from === undefined || to === undefined || to <= from) return undefined
  const f = new Date(from)
  const t = new Date(to)
  const month =
    f.getUTCDate() === 1 &&
    t.getUTCDate() === 1 &&
    t.getUTCFullYear() * 12 + t.getUTCMonth() - (f.getUTCFullYear() * 12 + f.getUTCMonth()) === 1
  const end = month ? Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1) : to + (to - from)
  const days = /^\d{4}-\d{2}-\d{2}$/.test(range.dateTo)
  return { dateFrom: range.dateTo, dateTo: days ? isoDay(end) : new Date(end).toISOString() }
}

/** The subjects whose numbers a report records: those it suggests and those it measures. */
export function subjectsToRecord(
  suggested: readonly string[],
  effects: readonly FixEffect[],
  fixes: ReadonlyMap<string, FixState>
): string[] {
  // A merged fix is measured by the reports after it, each recording its period for the next.
  const merged = [...fixes].filter(([, f]) => f.state === 'merged').map(([id]) => id)
  return [...new Set([...suggested, ...effects.map(e => e.id), ...merged])]
}

/** A fix's effect in the `report` output: each period's numbers with its rate (one decimal). */
export function effectJson(e: FixEffect): object {
  const period = (p: MeasuredPeriod) => {
    const rate = isCounted(p.numbers) ? rateOf(e.kind, p.numbers) : undefined
    return {
      range: p.range,
      ...p.numbers,
      ...(rate !== undefined ? { rate: Math.round(rate * 10) / 10 } : {})
    }
  }
  return {
    id: e.id,
    kind: e.kind,
    subject: e.subject,
    pr: e.pr,
    mergedAt: new Date(e.mergedAt).toISOString(),
    per: RATE_PER[e.kind],
    suggested: period(e.suggested),
    since: e.since.map(period),
    verdict: e.verdict ?? null,
    ...(e.firstMeasured ? { firstMeasured: e.firstMeasured } : {})
  }
}

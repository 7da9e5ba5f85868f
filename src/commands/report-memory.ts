// What a report remembers from the issue it is posted on, and what it leaves there for the next
// one: the totals of each period it knows (the next report takes compare and trend totals from
// them and reads only what it lacks), its suggestions with their instructions, and, from the
// answers to `/docs-agent fix N`, the pull request each fix opened and where it stands. GitHub
// failing here costs requests, never the report: it is then read from the service in full.
import * as core from '@actions/core'
import { fixEffects, subjectNumbers, type FixEffect } from '../analytics/fix-effect.js'
import { mergeTotals, type PeriodTotals } from '../analytics/period-totals.js'
import { totalsBefore, totalsRead } from '../analytics/sections/totals.js'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import type { FixState, Suggested } from '../analytics/suggestions.js'
import type { Trend } from '../analytics/trend.js'
import { messageOf } from '../errors.js'
import { pullRequestState } from '../github/pulls.js'
import {
  measureKey,
  readReportRecords,
  suggestionKey,
  totalsKey,
  type ReportRecords
} from '../records/report.js'
import type { RecordThread } from '../records/thread.js'
import type { DateRange } from '../period.js'
import {
  subjectOf,
  type EarlierSuggestion,
  type NumberedSuggestion
} from '../report/suggestions.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

type Range = Required<DateRange>

/** The thread the report is posted on, listed once for reading and writing alike. */
export function reportThread(ctx: CommandContext<AnalyticsSettings>): RecordThread | undefined {
  const { records, target } = ctx
  return records && target ? records.thread(target) : undefined
}

/** The records in the thread, or undefined (none can be read: everything is read anew). */
export async function recall(
  ctx: CommandContext<AnalyticsSettings>,
  thread: RecordThread | undefined
): Promise<ReportRecords | undefined> {
  if (!thread) return undefined
  try {
    return await readReportRecords(thread, ctx.settings.projectId)
  } catch (err) {
    core.warning(
      `Could not read the earlier reports on #${thread.place.issueNumber}, so every total is read from the service: ${messageOf(err)}`
    )
    return undefined
  }
}

const sameRange = (a: Range, b: DateRange | undefined): boolean =>
  a.dateFrom === b?.dateFrom && a.dateTo === b.dateTo

/** What is known of a trend period without a request: the comparison's read, then the records. */
export function knownTotals(
  sections: readonly SectionOutcome[],
  previous: Range | undefined,
  records: ReportRecords | undefined
): (range: Range) => PeriodTotals | undefined {
  const before = totalsBefore(sections)
  return range =>
    sameRange(range, previous)
      ? mergeTotals(before, records?.totals(range))
      : records?.totals(range)
}

/** The pages a fix was asked for on: what the fix did needs their views. */
export function fixedPages(records: ReportRecords | undefined): string[] {
  return [...(records?.fixes.keys() ?? [])].flatMap(id =>
    id.startsWith('page:') ? [id.slice(5)] : []
  )
}

/** The most pull requests a report looks up: the newest fixes asked for. */
const MAX_FIX_LOOKUPS = 20

/** Where each fix asked for in this issue stands, by suggestion id (one GitHub read per PR). */
export async function fixStates(
  ctx: CommandContext<AnalyticsSettings>,
  records: ReportRecords | undefined
): Promise<Map<string, FixState>> {
  const states = new Map<string, FixState>()
  const { octokit, event } = ctx
  if (!records || !octokit) return states
  const fixes = [...records.fixes.values()].sort((a, b) => b.at - a.at).slice(0, MAX_FIX_LOOKUPS)
  for (const fix of fixes) {
    if (fix.pr === undefined) {
      states.set(fix.id, { state: 'no pull request' })
      continue
    }
    try {
      const { state, mergedAt } = await pullRequestState(octokit, event.owner, event.repo, fix.pr)
      states.set(fix.id, { pr: fix.pr, state, ...(mergedAt !== undefined ? { mergedAt } : {}) })
    } catch (err) {
      core.warning(`${messageOf(err)}: the report shows its state as unknown.`)
      states.set(fix.id, { pr: fix.pr, state: 'unknown' })
    }
  }
  return states
}

/**
 * The suggestions of the newest earlier report (another range), each with what became of it when
 * a `/docs-agent fix N` asked for it from that report (its answer written after the report);
 * then those the data raises again but a fix holds back (`held`), so a fix's pull request is
 * followed until the report suggests the thing again or stops raising it; none whose pull
 * request "What the fix did" already follows (`followed`).
 */
export function earlierSuggestions(
  records: ReportRecords | undefined,
  range: DateRange,
  fixes: ReadonlyMap<string, FixState>,
  held: Suggested['held'],
  followed: ReadonlySet<number> = new Set()
): EarlierSuggestion[] {
  // Newest by range first: the newest report of a range that ended by this one's end.
  const last = records?.reports.find(
    r =>
      !sameRange(r.range, range) && (range.dateTo === undefined || r.range.dateTo <= range.dateTo)
  )
  // When that range was first posted: a re-run may write a new comment of it (a hidden series).
  const posted = Math.min(
    ...(records?.reports ?? [])
      .filter(r => last && sameRange(r.range, last.range))
      .map(r => r.commentId)
  )
  const listed: EarlierSuggestion[] = (last?.suggestions ?? []).map(s => {
    const asked = records?.fixes.get(s.id)
    const fix = asked && asked.commentId > posted ? fixes.get(s.id) : undefined
    return { n: s.n, id: s.id, subject: s.subject, ...(fix ? { fix } : {}) }
  })
  const more = held
    .filter(h => !listed.some(e => e.id === h.suggestion.id))
    .filter(h => h.fix.pr === undefined || !followed.has(h.fix.pr))
    .map(h => ({ id: h.suggestion.id, subject: subjectOf(h.suggestion), fix: h.fix }))
  return [...listed, ...more]
}

/** What each fix merged in the last periods did: from the rows read and the records, no request. */
export function effectsOf(
  records: ReportRecords | undefined,
  range: DateRange,
  sections: readonly SectionOutcome[],
  fixes: ReadonlyMap<string, FixState>
): FixEffect[] {
  if (!records || range.dateFrom === undefined || range.dateTo === undefined) return []
  return fixEffects({
    range: { dateFrom: range.dateFrom, dateTo: range.dateTo },
    sections,
    fixes,
    reports: records.reports,
    recorded: (r, id) => records.measured(r, id)
  })
}

/**
 * How many reports in a row, this one included, suggest `id`: 1, or more when the reports of the
 * periods just before suggested it too.
 */
export function timesSuggested(
  records: ReportRecords | undefined,
  range: DateRange,
  id: string
): number {
  let times = 1
  let next = range.dateFrom
  // Newest first by range: each earlier one must end where the one after it begins.
  for (const r of records?.reports ?? []) {
    if (r.range.dateTo > (next ?? '')) continue
    if (r.range.dateTo !== next || !r.suggestions.some(x => x.id === id)) break
    times++
    next = r.range.dateFrom
  }
  return times
}

/**
 * The records this report leaves in its comment: the totals of its range, of the period before
 * and of each trend period it knows, its suggestions with the instruction each one carries, and
 * the numbers of each subject it suggests or measures (`measured`: their ids), for what the fix
 * did.
 */
export function recordKeys(
  s: AnalyticsSettings,
  sections: readonly SectionOutcome[],
  trend: Trend | undefined,
  suggestions: readonly NumberedSuggestion[],
  measured: readonly string[] = []
): string[] {
  const range = s.range as Partial<Range>
  if (range.dateFrom === undefined || range.dateTo === undefined) return []
  const own: Range = { dateFrom: range.dateFrom, dateTo: range.dateTo }
  const periods: [Range, PeriodTotals][] = [[own, totalsRead(sections)]]
  const before = totalsBefore(sections)
  for (const point of trend?.points ?? []) {
    const t: PeriodTotals = {
      ...(point.visitors ? { visitors: point.visitors } : {}),
      ...(point.views ? { views: point.views } : {})
    }
    periods.push([point.range, sameRange(point.range, s.previous) ? mergeTotals(before, t) : t])
  }
  if (s.previous && !periods.some(([r]) => sameRange(r, s.previous)))
    periods.push([s.previous, before])
  const keys = periods.flatMap(([r, t]) => totalsKey(s.projectId, r, t) ?? [])
  for (const x of suggestions) {
    const record = { n: x.n, id: x.id, subject: subjectOf(x), instruction: x.instruction }
    keys.push(suggestionKey(s.projectId, own, record))
  }
  for (const id of measured) {
    const numbers = subjectNumbers(sections, id)
    if (numbers) keys.push(measureKey(s.projectId, own, id, numbers))
  }
  return keys
}

// What a docs-health report remembers, kept in the comments the action writes and signed as the
// route records are (kinds.ts, signature.ts): the totals of each period a report knew, its numbered
// suggestions with the instruction each one carries, and on the answer to `/docs-agent fix N`
// which suggestion the job is for and the pull request it opened. A record is read back only
// when its signature verifies, so an edited or pasted one counts for nothing, and the visible
// text of a comment is never read: editing a report changes no instruction.
import type { SubjectNumbers } from '../analytics/fix-effect.js'
import type { PeriodTotals } from '../analytics/period-totals.js'
import type { DateRange } from '../period.js'
import { parseRecord, recordKey } from './kinds.js'
import { cadenceOf, Series } from './series.js'
import type { ReadRecord, RecordThread } from './thread.js'

type Range = Required<DateRange>

export interface StoredSuggestion {
  n: number
  /** The suggestion's subject, the same from week to week (`gap:…`, `page:…`, `question:…`). */
  id: string
  /** What it is about as the report showed it (the query, path or question), for later reports. */
  subject: string
  /** The instruction the report showed for it, as the agent will get it. */
  instruction: string
}

interface StoredReport {
  range: Range
  /** When it was written (its markers' signed time). */
  at: number
  commentId: number
  suggestions: StoredSuggestion[]
}

/** A `/docs-agent fix N` answer: the suggestion's subject and the pull request, once opened. */
interface StoredFix {
  id: string
  at: number
  /** The answer's comment: one written after a report's comment answered a `fix N` on it. */
  commentId: number
  pr?: number
}

export interface ReportRecords {
  /** Newest first (by range: the one that ends last, then starts last, then the newest read). */
  reports: StoredReport[]
  /** Per suggestion subject, the newest fix asked for. */
  fixes: Map<string, StoredFix>
  /** What the records say of a period, field by field, the newest record winning. */
  totals(range: Range): PeriodTotals | undefined
  /** What the newest record says of a subject's numbers in a period. */
  measured(range: Range, id: string): SubjectNumbers | undefined
}

export function reportKey(projectId: string, range: DateRange): string {
  return recordKey('report', {
    project: projectId,
    from: range.dateFrom ?? '',
    to: range.dateTo ?? ''
  })
}

/** The key of the note that a range's report was refused for its key (report-refused.ts). */
export function keyRefusedKey(projectId: string, range: DateRange): string {
  return recordKey('refused', {
    project: projectId,
    from: range.dateFrom ?? '',
    to: range.dateTo ?? ''
  })
}

/** The key of the visitors table of a range: one comment per range (commands/visitors.ts). */
export function visitorsKey(projectId: string, range: DateRange): string {
  return recordKey('visitors', {
    project: projectId,
    from: range.dateFrom ?? '',
    to: range.dateTo ?? ''
  })
}

export function suggestionKey(projectId: string, range: Range, s: StoredSuggestion): string {
  return recordKey('suggestion', {
    project: projectId,
    from: range.dateFrom,
    to: range.dateTo,
    n: String(s.n),
    id: s.id,
    subject: s.subject,
    instruction: s.instruction
  })
}

export function fixKey(projectId: string, id: string, pr?: number): string {
  return recordKey('fix', { project: projectId, id, pr: pr === undefined ? '' : String(pr) })
}

/** The record of a period's totals, or undefined when nothing is known of it. */
export function totalsKey(projectId: string, range: Range, t: PeriodTotals): string | undefined {
  const fields = encodeTotals(t)
  return fields === ''
    ? undefined
    : recordKey('totals', { project: projectId, from: range.dateFrom, to: range.dateTo, fields })
}

/** The record of a subject's numbers in a period. */
export function measureKey(projectId: string, range: Range, id: string, n: SubjectNumbers): string {
  return recordKey('measure', {
    project: projectId,
    from: range.dateFrom,
    to: range.dateTo,
    id,
    numbers: encodeNumbers(n)
  })
}

/** "40 of 2000", or "below 10". */
export function encodeNumbers(n: SubjectNumbers): string {
  return 'below' in n ? `below ${n.below}` : `${n.count} of ${n.of}`
}

/** What "40 of 2000" or "below 10" says, or undefined when it is neither. */
export function decodeNumbers(text: string): SubjectNumbers | undefined {
  const m = /^(?:(\d{1,15}) of (\d{1,15})|below (\d{1,15}))$/.exec(text)
  if (!m) return undefined
  if (m[3] !== undefined) return { below: Number(m[3]) }
  const [count, of] = [Number(m[1]), Number(m[2])]
  return count <= of ? { count, of } : undefined
}

// ---------------------------------------------------------------------------------------------
// Totals as text: "visitors=10412.2496.12000 views=… searches=8734 thumbsDown=131 …"

const COUNTS = ['visitors', 'views'] as const

export function encodeTotals(t: PeriodTotals): string {
  const parts: string[] = []
  for (const name of COUNTS) {
    const c = t[name]
    if (c) parts.push(`${name}=${c.human}.${c.ai}.${c.total}`)
  }
  if (t.searches !== undefined) parts.push(`searches=${t.searches}`)
  if (t.thumbsDown !== undefined) parts.push(`thumbsDown=${t.thumbsDown}`)
  if (t.questions !== undefined) parts.push(`questions=${t.questions}`)
  if (t.answers) parts.push(`answers=${t.answers.unanswered}.${t.answers.read}`)
  return parts.join(' ')
}

/** The counts of "a.b.c": safe whole numbers, as many as asked, or undefined. */
function counts(text: string, n: number): number[] | undefined {
  const parts = text.split('.')
  if (parts.length !== n || !parts.every(p => /^\d{1,15}$/.test(p))) return undefined
  const values = parts.map(Number)
  return values.every(Number.isSafeInteger) ? values : undefined
}

/** What a record says; a field it does not hold, or holds in another form, is left out. */
export function decodeTotals(text: string): PeriodTotals {
  const t: PeriodTotals = {}
  for (const part of text.split(' ')) {
    const [name = '', value = ''] = part.split('=')
    if (name === 'visitors' || name === 'views') {
      const c = counts(value, 3)
      if (c) t[name] = { human: c[0] as number, ai: c[1] as number, total: c[2] as number }
    } else if (name === 'searches' || name === 'thumbsDown' || name === 'questions') {
      const c = counts(value, 1)
      if (c) t[name] = c[0]
    } else if (name === 'answers') {
      const c = counts(value, 2)
      if (c && (c[0] as number) <= (c[1] as number))
        t.answers = { unanswered: c[0] as number, read: c[1] as number }
    }
  }
  return t
}

// ---------------------------------------------------------------------------------------------
// Reading them back

const rangeKey = (r: Range): string => `${r.dateFrom}/${r.dateTo}`

/**
 * Every record of `projectId` in the thread's comments that counts (RecordThread.counted(): signed
 * for the comment's author, never under a code fence), read newest first by the one rule of
 * thread.ts, so the first record read of anything is the newest. Reports come newest first by
 * their range: the one that ends last, then starts last, so re-running last week's report does not
 * make it "the newest".
 */
export async function readReportRecords(
  thread: RecordThread,
  projectId: string
): Promise<ReportRecords> {
  const read = await thread.counted()
  const fixes = new Map<string, StoredFix>()
  const totals = new Map<string, PeriodTotals>()
  const measures = new Map<string, SubjectNumbers>()
  for (const { key, at, comment } of read) {
    const t = parseRecord('totals', key)
    const m = parseRecord('measure', key)
    const f = parseRecord('fix', key)
    if (t?.project === projectId) {
      const range = `${t.from}/${t.to}`
      // Field by field, the newer record's value wins.
      totals.set(range, { ...decodeTotals(t.fields), ...totals.get(range) })
    } else if (m?.project === projectId) {
      const n = decodeNumbers(m.numbers)
      const where = `${m.from}/${m.to}/${m.id}`
      if (n && !measures.has(where)) measures.set(where, n)
    } else if (f?.project === projectId && f.id !== '' && !fixes.has(f.id)) {
      const pr = /^[1-9]\d{0,15}$/.test(f.pr) ? Number(f.pr) : undefined
      fixes.set(f.id, { id: f.id, at, commentId: comment.id, ...(pr ? { pr } : {}) })
    }
  }
  return {
    reports: storedReports(read, projectId),
    fixes,
    totals: range => totals.get(rangeKey(range)),
    measured: (range, id) => measures.get(`${rangeKey(range)}/${id}`)
  }
}

/**
 * The reports of `projectId`, one per comment (its newest `report` line) with the suggestions of
 * its range there, the range that ends last first, then the one that starts last; reports of one
 * range stay in the order read (newest first).
 */
function storedReports(read: readonly ReadRecord[], projectId: string): StoredReport[] {
  const reports = new Map<number, StoredReport>()
  for (const { key, at, comment } of read) {
    const r = parseRecord('report', key)
    if (r?.project !== projectId || reports.has(comment.id)) continue
    const range = { dateFrom: r.from, dateTo: r.to }
    reports.set(comment.id, { range, at, commentId: comment.id, suggestions: [] })
  }
  for (const { key, comment } of read) {
    const s = parseRecord('suggestion', key)
    const report = reports.get(comment.id)
    if (!report || s?.project !== projectId || `${s.from}/${s.to}` !== rangeKey(report.range))
      continue
    if (!/^[1-9]$/.test(s.n) || s.instruction === '') continue
    const { n, id, subject, instruction } = s
    report.suggestions.push({ n: Number(n), id, subject, instruction })
  }
  const later = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0)
  const list = [...reports.values()]
  for (const r of list) r.suggestions.sort((x, y) => x.n - y.n)
  return list.sort(
    (x, y) => later(x.range.dateTo, y.range.dateTo) || later(x.range.dateFrom, y.range.dateFrom)
  )
}

/**
 * The reports a reader still sees, in their order: none that a later report of its series put out
 * of date (series.ts). `fix N` reads the first.
 */
export function shownReports(reports: readonly StoredReport[], projectId: string): StoredReport[] {
  const records = reports.map(r => ({
    key: reportKey(projectId, r.range),
    at: r.at,
    comment: { id: r.commentId }
  }))
  const bySeries = new Map<string, Series>()
  for (const r of reports) bySeries.set(cadenceOf(r.range), Series.report(projectId, r.range))
  const shown = new Set(
    [...bySeries.values()].flatMap(series => series.shown(records).map(x => x.comment.id))
  )
  return reports.filter(r => shown.has(r.commentId))
}

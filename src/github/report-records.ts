// What a docs-health report remembers, kept in the comments the action writes and signed as the
// route records are (markers.ts): the totals of each period a report knew, its numbered
// suggestions with the instruction each one carries, and on the answer to `/docs-agent fix N`
// which suggestion the job is for and the pull request it opened. A record is read back only
// when its signature verifies, so an edited or pasted one counts for nothing, and the visible
// text of a comment is never read: editing a report changes no instruction.
import type { PeriodTotals } from '../analytics/period-totals.js'
import type { DateRange } from '../period.js'
import type { CommentThread } from './comments.js'
import { decodeKey, markerKey } from './markers.js'

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

export interface StoredReport {
  range: Range
  /** When it was written (its markers' signed time). */
  at: number
  commentId: number
  suggestions: StoredSuggestion[]
}

/** A `/docs-agent fix N` answer: the suggestion's subject and the pull request, once opened. */
export interface StoredFix {
  id: string
  at: number
  pr?: number
}

export interface ReportRecords {
  /** Newest first (by signed time); one per comment. */
  reports: StoredReport[]
  /** Per suggestion subject, the newest fix asked for. */
  fixes: Map<string, StoredFix>
  /** What the records say of a period, field by field, the newest record winning. */
  totals(range: Range): PeriodTotals | undefined
}

export function reportKey(projectId: string, range: DateRange): string {
  return markerKey('report', projectId, range.dateFrom ?? '', range.dateTo ?? '')
}

export function suggestionKey(projectId: string, range: Range, s: StoredSuggestion): string {
  return markerKey(
    'suggestion',
    projectId,
    range.dateFrom,
    range.dateTo,
    String(s.n),
    s.id,
    s.subject,
    s.instruction
  )
}

export function fixKey(projectId: string, id: string, pr?: number): string {
  return markerKey('fix', projectId, id, pr === undefined ? '' : String(pr))
}

/** The record of a period's totals, or undefined when nothing is known of it. */
export function totalsKey(projectId: string, range: Range, t: PeriodTotals): string | undefined {
  const fields = encodeTotals(t)
  return fields === ''
    ? undefined
    : markerKey('totals', projectId, range.dateFrom, range.dateTo, fields)
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

/** The parts of a key markerKey built, decoded; undefined when one does not decode. */
function partsOf(key: string): string[] | undefined {
  const parts = key.split('/').map(decodeKey)
  return parts.every((p): p is string => p !== undefined) ? parts : undefined
}

const rangeKey = (r: Range): string => `${r.dateFrom}/${r.dateTo}`

/**
 * Every verified record of `projectId` in the thread's comments (listed once per thread): only
 * in comments the action itself wrote, never under a code fence (CommentThread.marked()).
 */
export async function readReportRecords(
  thread: CommentThread,
  projectId: string
): Promise<ReportRecords> {
  const reports: StoredReport[] = []
  const fixes = new Map<string, StoredFix>()
  const totals = new Map<string, { at: number; t: PeriodTotals }[]>()
  for (const { comment, markers } of await thread.marked()) {
    let report: StoredReport | undefined
    const suggestions: (StoredSuggestion & { range: string })[] = []
    for (const { key, at } of markers) {
      const parts = partsOf(key)
      if (!parts || parts[1] !== projectId) continue
      const [kind, , a = '', b = '', c = '', d = '', e = '', f = ''] = parts
      if (kind === 'report' && parts.length === 4)
        report = { range: { dateFrom: a, dateTo: b }, at, commentId: comment.id, suggestions: [] }
      else if (kind === 'suggestion' && parts.length === 8 && /^[1-9]$/.test(c) && f !== '')
        suggestions.push({ n: Number(c), id: d, subject: e, instruction: f, range: `${a}/${b}` })
      else if (kind === 'totals' && parts.length === 5) {
        const list = totals.get(`${a}/${b}`) ?? []
        totals.set(`${a}/${b}`, [...list, { at, t: decodeTotals(c) }])
      } else if (kind === 'fix' && parts.length === 4 && a !== '') {
        const pr = /^[1-9]\d{0,15}$/.test(b) ? Number(b) : undefined
        const known = fixes.get(a)
        if (!known || at > known.at) fixes.set(a, { id: a, at, ...(pr ? { pr } : {}) })
      }
    }
    if (!report) continue
    const own = rangeKey(report.range)
    report.suggestions = suggestions
      .filter(x => x.range === own)
      .map(({ range: _own, ...s }) => s)
      .sort((x, y) => x.n - y.n)
    reports.push(report)
  }
  reports.sort((x, y) => y.at - x.at || x.commentId - y.commentId)
  return {
    reports,
    fixes,
    totals: range => {
      const list = totals.get(rangeKey(range))
      if (!list) return undefined
      // Oldest first, so each newer record's fields win.
      return list.sort((x, y) => x.at - y.at).reduce<PeriodTotals>((t, r) => ({ ...t, ...r.t }), {})
    }
  }
}

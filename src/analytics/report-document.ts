// The report's JSON file (`output-file` of `command: report`) as another run reads it back: the
// fields a roll-up relies on, their one writer's helpers and their one reader. The file names
// its format and version; a roll-up reads version 1 and names and skips anything else. The
// stable fields: `format`, `version`, `project`, `range`, `previous`, `generatedAt`,
// `incomplete`, `totals`, `totalsBefore`, `suggestions[].n`, `.kind`, `.subject`, and
// `commentUrl`. The rest of the file (sections, trend, fix effects, instructions) is the `report`
// output's and may change between versions without a roll-up noticing. A file is untrusted
// JSON: every field is checked, and text is only ever shown escaped.
import { clip } from '../public-text.js'
import { asObject, isObject, type JsonObject } from '../json.js'
import { messageOf } from '../errors.js'
import { parseInstant, type DateRange } from '../period.js'
import type { VisitorCounts } from '../service/schema.js'
import type { PeriodTotals } from './period-totals.js'
import type { SectionOutcome } from './sections/outcome.js'
import { totalsShown } from './sections/totals.js'
import { contentGaps } from './search-gaps.js'
import type { Suggestion } from './suggestions.js'

export const REPORT_FORMAT = 'docs-agent-action/report'
export const REPORT_FORMAT_VERSION = 1
/** The most a report's document holds (the `report` output and file): small enough for any output. */
export const REPORT_DOCUMENT_MAX_BYTES = 512 * 1024

/** A period's totals as the report showed them, and its content gaps (zero-click queries). */
export type DocumentTotals = PeriodTotals & { contentGaps?: number }

/** A suggestion, as far as a roll-up shows it. */
interface DocumentSuggestion {
  n: number
  kind: Suggestion['kind']
  /** The query, path or question (text from the public, cleaned; shown escaped). */
  subject: string
}

/** What a roll-up reads of one report file. */
export interface ReportDocument {
  project: string
  range: DateRange
  previous?: DateRange
  /** ms epoch the report was made. */
  generatedAt: number
  /** The run stopped part way (the report says why). */
  incomplete: boolean
  totals: DocumentTotals
  /** With `compare`: the period before's totals. */
  totalsBefore?: DocumentTotals
  suggestions: DocumentSuggestion[]
  /** The report's comment, when the run wrote one. */
  commentUrl?: string
}

/** The totals of the sections read (whole or not: as the report's overview shows them). */
export function documentTotals(sections: readonly SectionOutcome[]): DocumentTotals {
  const searches = sections.find(x => x.ok && x.name === 'searches')
  const assistant = sections.find(x => x.ok && x.name === 'assistant')
  const answered = assistant?.ok && assistant.name === 'assistant' ? assistant.answered : []
  const gaps =
    searches?.ok && searches.name === 'searches' && searches.read > 0
      ? { contentGaps: contentGaps(searches.gaps, answered).gaps.length }
      : {}
  return { ...totalsShown(sections), ...gaps }
}

export type DocumentRead = { ok: true; doc: ReportDocument } | { ok: false; why: string }

/** One report file's text, read: the document, or why it is not one this version reads. */
export function readReportDocument(text: string): DocumentRead {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, why: 'not JSON' }
  }
  const o = asObject(json)
  if (o?.format !== REPORT_FORMAT) return { ok: false, why: 'not a report of this action' }
  if (o.version !== REPORT_FORMAT_VERSION) {
    // Only a number is said back: the why is shown as our words, never the file's text.
    const given = Number.isSafeInteger(o.version) ? ` ${String(o.version)}` : ''
    return {
      ok: false,
      why: `a report of an unknown format version${given} (this action reads version ${REPORT_FORMAT_VERSION})`
    }
  }
  try {
    return { ok: true, doc: documentOf(o) }
  } catch (err) {
    return { ok: false, why: `not a report of this action: ${messageOf(err)}` }
  }
}

/** Throws naming the first field that is not what the writer writes. */
function documentOf(o: JsonObject): ReportDocument {
  const project = text(o.project, 'project', 200)
  if (project === '') throw new Error('`project` is empty')
  const generatedAt = parseInstant(text(o.generatedAt, 'generatedAt', 40))
  if (generatedAt === undefined) throw new Error('`generatedAt` is not a time')
  const url = o.commentUrl === undefined ? undefined : text(o.commentUrl, 'commentUrl', 2000)
  return {
    project,
    range: rangeOf(o.range, 'range'),
    ...(o.previous !== undefined ? { previous: rangeOf(o.previous, 'previous') } : {}),
    generatedAt,
    incomplete: o.incomplete !== undefined,
    totals: totalsOf(o.totals, 'totals'),
    ...(o.totalsBefore !== undefined
      ? { totalsBefore: totalsOf(o.totalsBefore, 'totalsBefore') }
      : {}),
    suggestions: suggestionsOf(o.suggestions),
    ...(url ? { commentUrl: url } : {})
  }
}

function text(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string') throw new Error(`\`${name}\` is not text`)
  return clip(value, max)
}

function count(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`\`${name}\` is not a count`)
  return value
}

function rangeOf(value: unknown, name: string): DateRange {
  if (!isObject(value)) throw new Error(`\`${name}\` is not a range`)
  const bound = (key: 'dateFrom' | 'dateTo') => {
    const v = value[key]
    if (v === undefined) return {}
    if (typeof v !== 'string' || parseInstant(v) === undefined)
      throw new Error(`\`${name}.${key}\` is not a date`)
    return { [key]: v }
  }
  return { ...bound('dateFrom'), ...bound('dateTo') }
}

function countsOf(value: unknown, name: string): VisitorCounts {
  if (!isObject(value)) throw new Error(`\`${name}\` is not a set of counts`)
  const of = (key: 'human' | 'ai' | 'total') => count(value[key], `${name}.${key}`)
  return { human: of('human'), ai: of('ai'), total: of('total') }
}

/** The totals a roll-up shows; a field absent is a section the report did not read. */
function totalsOf(value: unknown, name: string): DocumentTotals {
  if (!isObject(value)) throw new Error(`\`${name}\` is not an object`)
  const t: DocumentTotals = {}
  if (value.visitors !== undefined) t.visitors = countsOf(value.visitors, `${name}.visitors`)
  if (value.views !== undefined) t.views = countsOf(value.views, `${name}.views`)
  for (const key of ['searches', 'thumbsDown', 'questions', 'contentGaps'] as const)
    if (value[key] !== undefined) t[key] = count(value[key], `${name}.${key}`)
  if (value.answers !== undefined) {
    const a = asObject(value.answers)
    if (!a) throw new Error(`\`${name}.answers\` is not an object`)
    const answers = { unanswered: count(a.unanswered, 'unanswered'), read: count(a.read, 'read') }
    if (answers.unanswered > answers.read) throw new Error(`\`${name}.answers\` adds up wrong`)
    t.answers = answers
  }
  return t
}

const KINDS: readonly Suggestion['kind'][] = ['gap', 'page', 'question', 'stale']

function suggestionsOf(value: unknown): DocumentSuggestion[] {
  if (!Array.isArray(value)) throw new Error('`suggestions` is not a list')
  return value.slice(0, 20).map((item: unknown, i) => {
    const s = asObject(item)
    const kind = KINDS.find(k => k === s?.kind)
    if (!s || !kind) throw new Error(`\`suggestions[${i}].kind\` is not a kind of suggestion`)
    return {
      n: count(s.n, `suggestions[${i}].n`),
      kind,
      subject: text(s.subject, `suggestions[${i}].subject`, 200)
    }
  })
}

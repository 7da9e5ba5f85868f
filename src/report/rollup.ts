// The roll-up: one table of many projects' docs health, drawn from the JSON files their `report`
// runs wrote (analytics/report-document.ts), with the report's own formats and marks. A row per
// project, most visitors first: its name (linked to its report's comment) over its top
// suggestion, then visitors and their change, views, searches over content gaps, 👎 and the
// share of questions unanswered; then a total row, and a line saying what the totals add and
// what they cannot. Two lines a row keep six columns inside a comment 760 px wide. Every project
// id, subject and path is text from a file and passes through escapeText.
import type { DocumentTotals, ReportDocument } from '../analytics/report-document.js'
import { parseInstant, type DateRange } from '../period.js'
import { fitRows, isCutNote, type Room } from './fit.js'
import { change, HEALTH_TITLE } from './health.js'
import {
  clipPath,
  clipWidth,
  escapeText,
  link,
  provenance,
  tableHead,
  tableRow,
  type Column
} from './markdown.js'
import { formatNumber, formatShare, MARKS, plural } from './numbers.js'
import { shortRange } from './range.js'
import { inlineSubject, KIND_LABELS } from './suggestions.js'

/** A report file a roll-up left out, and why (our words; the path is the workflow's). */
export interface SkippedFile {
  path: string
  why: string
}

export interface Rollup {
  /** One report per project (the newest range of each), in any order. */
  projects: ReportDocument[]
  /** Files that are no report this version reads, and globs that found none. */
  skipped: SkippedFile[]
  /** A project's older reports, left out for its newest range. */
  replaced: { project: string; path: string; range: DateRange }[]
  /** Report files read. */
  files: number
  /** ms epoch. */
  generatedAt: number
  runUrl?: string
}

/** A suggestion's subject, on the third line of a project's cell (under its kind). */
const SUBJECT_MAX_COLUMNS = 18
const PROJECT_MAX_COLUMNS = 24
const PATH_MAX_COLUMNS = 60
const NONE = '–'

/** Most unique visitors first; projects without visitors after them, by name. */
export function rollupOrder(projects: readonly ReportDocument[]): ReportDocument[] {
  const visitors = (p: ReportDocument): number => p.totals.visitors?.total ?? -1
  return [...projects].sort((a, b) => visitors(b) - visitors(a) || (a.project < b.project ? -1 : 1))
}

/** The Markdown of a roll-up in its room: rows are left out (and said) before it is cut. */
export function renderRollup(r: Rollup, room: Room): string {
  const ordered = rollupOrder(r.projects)
  return fitRows(rows => render(r, ordered, rows), ordered.length, room)
}

/** The footer's end: what no report's footer says (it counts analytics requests). */
const ROLLUP_FOOTER_END = 'read, no request to the service_'

/**
 * Whether a comment's text (its markers left out) is a roll-up this action drew: its title (a
 * report's, with the number of projects) first, its footer (or the note of a body cut to fit)
 * last. What series.ts asks before a roll-up edits or hides a comment: every workflow of a
 * repository writes as `github-actions[bot]`, so a marker copied into another workflow's
 * comment must not make it the roll-up's.
 */
export function isRollupBody(text: string): boolean {
  const lines = text.trim().split('\n')
  const last = lines.at(-1) ?? ''
  const title = new RegExp(`^${HEALTH_TITLE}[\\d,]+ projects? · `)
  return (
    title.test(lines[0] ?? '') &&
    ((last.startsWith('_made ') && last.endsWith(ROLLUP_FOOTER_END)) || isCutNote(last))
  )
}

function render(r: Rollup, ordered: readonly ReportDocument[], rows: number): string {
  const span = spanOf(ordered.map(p => p.range))
  const same = ordered.every(p => sameRange(p.range, ordered[0]?.range))
  const title = `${HEALTH_TITLE}${plural(ordered.length, 'project')} · ${shortRange(span, r.generatedAt)}`
  const shown = ordered.slice(0, rows)
  const more = ordered.length - shown.length
  return [
    title,
    metaLine(ordered, same, r.generatedAt),
    ordered.length > 0 ? table(ordered, shown, same, r.generatedAt) : '',
    more > 0 ? `_${plural(more, 'more project')} left out to fit; the job summary has them._` : '',
    totalsNote(ordered, same),
    skippedBlock(r),
    `_${[...provenance(r), plural(r.files, 'report file')].join(' · ')} ${ROLLUP_FOOTER_END}`
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n')
}

function metaLine(projects: readonly ReportDocument[], same: boolean, now: number): string {
  const before = projects.flatMap(p => (p.previous ? [p.previous] : []))
  const compared =
    before.length === 0
      ? []
      : before.every(b => sameRange(b, before[0]))
        ? [`vs ${shortRange(before[0] ?? {}, now)}`]
        : ['vs the period before each range']
  return [
    'Most visitors first · ↳ top suggestion',
    ...(same ? [] : ['ranges differ: each under its project']),
    ...compared,
    `${MARKS.better} better · ${MARKS.worse} worse for the docs`
  ].join(' · ')
}

const COLUMNS: Column[] = [
  { header: 'Project' },
  { header: 'Visitors', align: 'right' },
  { header: 'Views', align: 'right' },
  { header: 'Searches', align: 'right' },
  { header: '👎', align: 'right' },
  { header: 'Unanswered', align: 'right' }
]

function table(
  all: readonly ReportDocument[],
  shown: readonly ReportDocument[],
  same: boolean,
  now: number
): string {
  const rows = shown.map(p => projectRow(p, same, now))
  // One project is its own total.
  return [tableHead(COLUMNS), ...rows, ...(all.length > 1 ? [totalRow(all)] : [])].join('\n')
}

/** Two lines in a cell: the figure, and under it what qualifies it. */
const twoLines = (first: string, second: string): string =>
  second ? `${first}<br>${second}` : first

function projectRow(p: ReportDocument, same: boolean, now: number): string {
  const name = `**${escapeText(clipWidth(p.project, PROJECT_MAX_COLUMNS))}**`
  const first = [p.commentUrl ? link(name, p.commentUrl) : name, ...(p.incomplete ? ['⚠️'] : [])]
  // A range of its own, when they differ, on a line of its own: the column stays narrow.
  const cell = [first.join(' · '), ...(same ? [] : [shortRange(p.range, now)]), topSuggestion(p)]
  return tableRow([cell.join('<br>'), ...figures(p.totals, p.totalsBefore)])
}

/** The project's suggestion 1: its kind, and what it is about. */
function topSuggestion(p: ReportDocument): string {
  const top = [...p.suggestions].sort((a, b) => a.n - b.n)[0]
  if (!top) return '↳ _no suggestion_'
  const isPage = top.kind === 'page' || top.kind === 'stale'
  // Clipped by what a reader sees (a wide script takes two columns a character).
  // A page keeps its end, where its name is (clipped at its start); a query or question its start.
  const shown = isPage
    ? clipPath(top.subject, SUBJECT_MAX_COLUMNS)
    : clipWidth(top.subject, SUBJECT_MAX_COLUMNS, 0)
  // Clipped already (a wide character takes two columns: room enough for them all).
  const subject = inlineSubject(isPage, shown, shown.length * 2)
  return `↳ ${KIND_LABELS[top.kind]}<br>${subject}`
}

/** Visitors (and change), views, searches (and gaps), 👎, unanswered share. */
function figures(
  t: Partial<DocumentTotals>,
  before: Partial<DocumentTotals> | undefined
): string[] {
  const n = (v: number | undefined): string => (v === undefined ? NONE : formatNumber(v))
  const visitors = t.visitors?.total
  return [
    twoLines(
      visitors === undefined ? NONE : `**${formatNumber(visitors)}**`,
      visitors === undefined ? '' : change(visitors, before?.visitors?.total, 'up-is-better')
    ),
    n(t.views?.total),
    twoLines(n(t.searches), t.contentGaps === undefined ? '' : plural(t.contentGaps, 'gap')),
    n(t.thumbsDown),
    t.answers && t.answers.read > 0 ? formatShare(t.answers.unanswered, t.answers.read) : NONE
  ]
}

/** The sums of every project's figures, and the share of all questions read. */
function totalRow(projects: readonly ReportDocument[]): string {
  const befores = projects.map(p => p.totalsBefore)
  // A change of the sum only when every project knows its period before.
  const before = befores.every(b => b?.visitors !== undefined)
    ? sumTotals(befores.map(b => b ?? {}))
    : undefined
  const totals = sumTotals(projects.map(p => p.totals))
  return tableRow([`**Total** · ${plural(projects.length, 'project')}`, ...figures(totals, before)])
}

/** Each figure added over the projects that have it (the unanswered share: of all read). */
export function sumTotals(list: readonly DocumentTotals[]): DocumentTotals {
  const add = (of: (t: DocumentTotals) => number | undefined): number | undefined => {
    const values = list.map(of).filter((v): v is number => v !== undefined)
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : undefined
  }
  const counts = (name: 'visitors' | 'views') => {
    const total = add(t => t[name]?.total)
    if (total === undefined) return {}
    const [human, ai] = [add(t => t[name]?.human) ?? 0, add(t => t[name]?.ai) ?? 0]
    return { [name]: { human, ai, total } }
  }
  const field = (name: 'searches' | 'thumbsDown' | 'questions' | 'contentGaps') => {
    const total = add(t => t[name])
    return total === undefined ? {} : { [name]: total }
  }
  const unanswered = add(t => t.answers?.unanswered)
  const read = add(t => t.answers?.read)
  return {
    ...counts('visitors'),
    ...counts('views'),
    ...field('searches'),
    ...field('contentGaps'),
    ...field('thumbsDown'),
    ...field('questions'),
    ...(unanswered !== undefined && read !== undefined ? { answers: { unanswered, read } } : {})
  }
}

const FIGURES: [string, (t: DocumentTotals) => unknown][] = [
  ['visitors', t => t.visitors],
  ['views', t => t.views],
  ['searches', t => t.searches],
  ['👎', t => t.thumbsDown],
  ['assistant', t => t.answers]
]

/** "visitors, views and 👎": a list in words. */
function listed(words: readonly string[]): string {
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`
}

/**
 * Each project a total leaves out, named once with the figures it lacks: "docs-internal is
 * left out of the views and assistant totals (not read there)".
 */
function leftOutOfTotals(
  projects: readonly ReportDocument[],
  name: (p: ReportDocument) => string
): string[] {
  return projects.flatMap(p => {
    const lacking = FIGURES.filter(
      ([, of]) => of(p.totals) === undefined && projects.some(o => of(o.totals) !== undefined)
    ).map(([figure]) => figure)
    if (lacking.length === 0) return []
    const totals = lacking.length === 1 ? 'total' : 'totals'
    return [`${name(p)} is left out of the ${listed(lacking)} ${totals} (not read there)`]
  })
}

/**
 * What the table's marks mean and what the total row adds, and where adding is not the whole
 * truth: a reader of two sites is a unique visitor of each; a figure some reports lack is the
 * sum of the others; the change of the sum needs every project's period before; ranges that
 * differ are added as they are.
 */
function totalsNote(projects: readonly ReportDocument[], same: boolean): string {
  const name = (p: ReportDocument) => escapeText(clipWidth(p.project, PROJECT_MAX_COLUMNS))
  const names = (list: readonly ReportDocument[]) => list.map(name).join(', ')
  const lacking = leftOutOfTotals(projects, name)
  const noBefore = projects.filter(p => p.totalsBefore?.visitors === undefined)
  const sentences = [
    ...(projects.some(p => p.incomplete)
      ? ['⚠️ marks a report that stopped part way (its comment says what was not read).']
      : []),
    ...(projects.length > 1
      ? [
          'The total adds each project’s figures (a reader of two sites counts on each); the ' +
            'unanswered share is of every question read' +
            (same ? '' : '; the ranges differ, and are added as they are') +
            (lacking.length > 0 ? `; ${lacking.join('; ')}` : '') +
            '.',
          ...(noBefore.length > 0 && noBefore.length < projects.length
            ? [`No change of the total: ${names(noBefore)} compared with no period before.`]
            : [])
        ]
      : [])
  ]
  return sentences.length > 0 ? `_${sentences.join(' ')}_` : ''
}

/** The files left out, each named with why; and a project found twice, which range it keeps. */
function skippedBlock(r: Rollup): string {
  const path = (p: string) => escapeText(clipPath(p, PATH_MAX_COLUMNS))
  const lines = [
    ...r.skipped.map(x => `> ⚠️ Skipped ${path(x.path)}: ${x.why}.`),
    ...r.replaced.map(
      x =>
        `> ${escapeText(clipWidth(x.project, PROJECT_MAX_COLUMNS))} was found twice: its newest range is shown; ${path(x.path)} (${shortRange(x.range, r.generatedAt)}) is left out.`
    )
  ]
  return lines.join('\n>\n')
}

/** The range from the earliest start to the latest end (an open end stays open). */
export function spanOf(ranges: readonly DateRange[]): DateRange {
  const pick = (key: 'dateFrom' | 'dateTo', later: boolean): string | undefined => {
    if (ranges.length === 0 || ranges.some(r => r[key] === undefined)) return undefined
    const at = (v: string | undefined) => parseInstant(v ?? '') ?? 0
    return ranges.map(r => r[key]).reduce((a, b) => (at(b) > at(a) === later ? b : a))
  }
  const from = pick('dateFrom', false)
  const to = pick('dateTo', true)
  return {
    ...(from !== undefined ? { dateFrom: from } : {}),
    ...(to !== undefined ? { dateTo: to } : {})
  }
}

function sameRange(a: DateRange, b: DateRange | undefined): boolean {
  return a.dateFrom === b?.dateFrom && a.dateTo === b?.dateTo
}

// The docs-health report, laid out to be read in one screen: the title says the range once; an
// incomplete run says so first; one overview table gives a headline per section with its change,
// marked better or worse for the docs when the change matters; sections that could not be read
// are explained once per reason; then the trend, what to fix this week, and one folded table per
// question (pages, searches, feedback, assistant). Every query, path and service message is
// untrusted and passes through escapeText.
import type { DateRange, Period } from '../period.js'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import type { SectionFailure } from '../analytics/sections/section.js'
import {
  capitalise,
  clip,
  escapeText,
  provenance,
  tableHead,
  tableRow,
  type Column
} from './markdown.js'
import { formatNumber, formatPercentChange, formatShare, MARKS, plural } from './numbers.js'
import { fitRows, isCutNote, type Room } from './fit.js'
import { previousLabel, shortRange } from './range.js'
import type { Trend, TrendSeries } from '../analytics/trend.js'
import { trendBlock } from './chart.js'
import { sectionTables, isEmpty, type ReadSection } from './health-tables.js'
import {
  suggestionsBlock,
  undatedNote,
  type EarlierSuggestion,
  type NumberedSuggestion
} from './suggestions.js'
import { contentGaps } from '../analytics/search-gaps.js'
import type { FixEffect } from '../analytics/fix-effect.js'
import { effectBlock } from './fix-effect.js'
import { countChangeMatters, pointsChangeMatter } from '../analytics/marks.js'

export interface HealthReport {
  projectId: string
  range: DateRange
  /** The `period` the range came from: names the comparison ("the week before"). */
  period?: Period
  previous?: Required<DateRange>
  sections: SectionOutcome[]
  /** Analytics requests this run sent. */
  requests: number
  /** ms epoch the report was made. */
  generatedAt: number
  runUrl?: string
  /** https address of the docs site: page paths link there. */
  siteUrl?: string
  /** With `trend`: the periods before the range, oldest first, and what reading them cost. */
  trend?: Trend
  /** What to fix this week, numbered, each with its instruction for the agent. */
  suggestions?: NumberedSuggestion[]
  /** The suggestions of the report before in this issue, and what became of each. */
  earlier?: EarlierSuggestion[]
  /** Pages shown whose file was not found under `docs-root`: not checked for age. */
  pagesWithoutFile?: number
  /** Queries or questions carrying markup, left out of the suggestions (they stay in their tables). */
  leftOut?: number
  /** Pages with a file the stale-page check could not date: `wait-timeout` ran out. */
  pagesUndated?: number
  /** What each fix merged in the last periods did (no request: the rows read and the records). */
  effects?: FixEffect[]
  /**
   * The comment trigger that starts the agent on a suggestion (`/docs-agent`), said in the
   * comment on the issue; the job summary, read on the run's page, has no one to reply to.
   */
  trigger?: string
  /**
   * The run stopped part way (the quota, the time, `max-requests`): the action's own words on
   * why, and when to run again. Markdown we wrote, not escaped.
   */
  incomplete?: string
}

const REASON_MAX_CHARS = 600

const SECTION_TITLES: Record<SectionOutcome['name'], string> = {
  visitors: 'Visitors',
  views: 'Views',
  searches: 'Searches',
  feedback: 'Feedback',
  assistant: 'Assistant'
}

/**
 * Markdown for the job summary (room in bytes) and the comment (in characters): tables lose rows
 * (as many as fit: fitRows) until the report fits, and only a report that fits with none is cut.
 */
export function renderHealthReport(r: HealthReport, room: Room): string {
  const longest = Math.max(0, ...r.sections.map(x => (x.ok ? x.top.length : 0)))
  return fitRows(rows => render(r, rows, rows < longest), longest, room)
}

/** How every report's title begins (a roll-up's too: isRollupBody tells them apart). */
export const HEALTH_TITLE = '## Docs health · '

/**
 * Whether a comment's text (its markers left out) is a report this action drew: the title first
 * and the footer (or the note of a body cut to fit) last. What series.ts asks before a report
 * edits or hides a comment: a copied marker in another workflow's comment makes it no report.
 */
export function isHealthReportBody(text: string): boolean {
  const lines = text.trim().split('\n')
  const last = lines.at(-1) ?? ''
  return (
    (lines[0] ?? '').startsWith(HEALTH_TITLE) &&
    (/^_made \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · .* analytics requests?_$/.test(last) ||
      isCutNote(last))
  )
}

function render(r: HealthReport, rows: number, cut: boolean): string {
  const title = `${HEALTH_TITLE}${shortRange(r.range, r.generatedAt)}`
  const blocks = [
    r.incomplete ? `${title} · incomplete` : title,
    metaLine(r),
    r.incomplete ? `> ⚠️ **This report is incomplete.** ${r.incomplete}` : '',
    overview(r),
    notRead(r.sections),
    readNotes(r.sections),
    trendOf(r),
    suggestionsBlock(r.suggestions ?? [], r.earlier ?? [], r.trigger, r.range, {
      pagesWithoutFile: r.pagesWithoutFile ?? 0,
      leftOut: r.leftOut ?? 0
    }),
    r.pagesUndated ? `_${undatedNote(r.pagesUndated)}_` : '',
    effectBlock(r.effects ?? [], r.range, r.generatedAt),
    sectionTables(r, rows)
  ].filter(Boolean)
  if (cut) blocks.push(`_Tables are cut to ${rows} rows to fit; the \`report\` output has more._`)
  blocks.push(footer(r))
  return blocks.join('\n\n') + '\n'
}

/**
 * Under the title (which says the range), on one line: whose report, compared with what, and
 * what the marks in the overview mean.
 */
function metaLine(r: HealthReport): string {
  const compared = r.previous ? [`vs ${shortRange(r.previous, r.generatedAt)}`] : []
  const marked = r.sections.some(
    x => x.ok && Object.values(MARKS).some(mark => headline(x, r.sections)[1].includes(mark))
  )
  // Which changes get a mark (they matter: analytics/marks.ts) is stated in docs/weekly-report.md.
  const marks = marked ? [`${MARKS.better} better · ${MARKS.worse} worse for the docs`] : []
  return [`Project ${escapeText(r.projectId)}`, ...compared, ...marks].join(' · ')
}

/** Where it came from, at the end: a comment outlives its run, so a reader needs it, but later. */
function footer(r: HealthReport): string {
  return `_${provenance({ ...r, requestNoun: 'analytics request' }).join(' · ')}_`
}

function trendOf(r: HealthReport): string {
  const { dateFrom, dateTo } = r.range
  if (!r.trend || dateFrom === undefined || dateTo === undefined) return ''
  const totals = (name: TrendSeries) => {
    const x = r.sections.find(s => s.name === name)
    return x?.ok && (x.name === 'visitors' || x.name === 'views') ? x.totals : undefined
  }
  const visitors = totals('visitors')
  const views = totals('views')
  return trendBlock({
    trend: r.trend,
    series: [...(visitors ? ['visitors' as const] : []), ...(views ? ['views' as const] : [])],
    current: { range: { dateFrom, dateTo }, visitors, views }
  })
}

// ---------------------------------------------------------------------------------------------
// The overview: one row per section, the answer first, the change marked for the docs

/** Whether more is good for the docs, bad, or neither (more searches say nothing alone). */
export type Direction = 'up-is-better' | 'up-is-worse' | 'neutral'

// A change is marked only when it matters: analytics/marks.ts holds the rule
// (docs/weekly-report.md states it).

function overview(r: HealthReport): string {
  const compare = r.previous !== undefined
  const columns: Column[] = [
    { header: 'Section' },
    { header: shortRange(r.range, r.generatedAt) },
    ...(compare ? [{ header: `vs ${previousLabel(r.range, r.period)}` }] : [])
  ]
  // Sections not read for the same reason share one row (the quota spent at once stops them all).
  const rows: { names: string[]; now: string; change: string }[] = []
  for (const x of r.sections) {
    const [now, change] = x.ok ? headline(x, r.sections) : [failedHeadline(x), '']
    const same = x.ok ? undefined : rows.find(row => row.now === now && row.change === '')
    if (same) same.names.push(SECTION_TITLES[x.name])
    else rows.push({ names: [SECTION_TITLES[x.name]], now, change })
  }
  const lines = rows.map(row =>
    tableRow([row.names.join(', '), row.now, ...(compare ? [row.change || '–'] : [])])
  )
  const table = `${tableHead(columns)}\n${lines.join('\n')}`
  return table
}

/** "+20.0% 🟢": a relative change with its mark; '' with nothing to compare with. */
export function change(now: number, before: number | undefined, direction: Direction): string {
  if (before === undefined) return ''
  const text = formatPercentChange(now, before)
  if (text === undefined) return now > 0 ? 'none before' : ''
  return countChangeMatters(now, before) ? withMark(text, now - before, direction) : text
}

function withMark(text: string, diff: number, direction: Direction): string {
  if (diff === 0 || text === 'no change' || direction === 'neutral') return text
  const better = direction === 'up-is-better' ? diff > 0 : diff < 0
  return `${text} ${better ? MARKS.better : MARKS.worse}`
}

const NO_DATA = 'no data for this range'

/** The section's headline and its change (empty without `compare`). */
function headline(x: ReadSection, sections: readonly SectionOutcome[]): [string, string] {
  if (isEmpty(x)) return [NO_DATA, '']
  switch (x.name) {
    case 'visitors':
    case 'views':
      return [
        `**${formatNumber(x.totals.total)}** ${x.name === 'visitors' ? 'unique visitors' : 'page views'}`,
        change(x.totals.total, x.previous?.total, 'up-is-better')
      ]
    case 'searches': {
      const assistant = sections.find(s => s.name === 'assistant')
      const answered = assistant?.ok && assistant.name === 'assistant' ? assistant.answered : []
      const gaps =
        x.read === 0 ? '' : ` · ${plural(contentGaps(x.gaps, answered).gaps.length, 'content gap')}`
      return [
        `**${formatNumber(x.totalSearches)}** searches${gaps}`,
        change(x.totalSearches, x.previous, 'neutral')
      ]
    }
    case 'feedback':
      return [
        `**${formatNumber(x.thumbsDown)}** 👎 · ${formatNumber(x.thumbsUp)} 👍`,
        prefixed('👎', change(x.thumbsDown, x.previous, 'up-is-worse'))
      ]
    case 'assistant': {
      const share = x.read > 0 ? ` · **${formatShare(x.unanswered, x.read)}** unanswered` : ''
      // In the order of the headline: the questions, then the share unanswered.
      const parts = [change(x.callers.total, x.previous, 'neutral')]
      if (x.previousShare && x.read > 0 && x.previousShare.read > 0) {
        const points = pointsChange(
          x.unanswered / x.read,
          x.previousShare.unanswered / x.previousShare.read
        )
        parts.push(points === 'no change' ? 'share unchanged' : points)
      }
      const said = parts.filter(Boolean)
      return [
        `**${formatNumber(x.callers.total)}** questions${share}`,
        said.every(part => part === 'no change' || part === 'share unchanged') && said.length > 1
          ? 'no change'
          : said.join(' · ')
      ]
    }
  }
}

function prefixed(what: string, text: string): string {
  return text ? `${what} ${text}` : ''
}

/** The change of a share in percentage points, marked: a larger unanswered share is worse. */
function pointsChange(now: number, before: number): string {
  const diff = (now - before) * 100
  const shown = Math.abs(diff).toFixed(1)
  if (shown === '0.0') return 'no change'
  const text = `${diff > 0 ? '+' : '\u2212'}${shown} pp`
  // Judged on the points shown, so "+1.0 pp" is never left unmarked for being 0.99999.
  return pointsChangeMatter(diff) ? withMark(text, diff, 'up-is-worse') : text
}

function failedHeadline(x: SectionFailure): string {
  if (x.skipped) return `⚠️ ${x.reason}`
  const status = x.status !== undefined ? ` (HTTP ${x.status})` : ''
  return x.refused ? `⚠️ refused by the service${status}` : `⚠️ failed${status}`
}

/** What the service made the reading do (pages narrowed, a range read by weeks): our words. */
function readNotes(sections: readonly SectionOutcome[]): string {
  const notes = sections.flatMap(x =>
    x.ok ? (x.notes ?? []).map(note => `_${SECTION_TITLES[x.name]}: ${note}_`) : []
  )
  return notes.join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Sections that could not be read: each reason said once, with the sections it holds for

function notRead(sections: readonly SectionOutcome[]): string {
  const groups = new Map<string, string[]>()
  for (const x of sections) {
    if (x.ok || x.skipped) continue
    // Our advice is Markdown we wrote (its `project-id` stays code); the service's words are
    // not, and are left out where the advice already says what they say (refusal advice).
    const theirs = x.advice ? x.advice.said : x.reason
    const words = theirs !== undefined ? escapeText(clip(theirs, REASON_MAX_CHARS)) : ''
    // The service's words start with the status ("403 Forbidden: …") when it answered.
    const said = x.status !== undefined && theirs?.startsWith(`${x.status} `) === true
    const status = x.status !== undefined && !said ? ` (HTTP ${x.status})` : ''
    const what = x.refused ? `refused${status}` : `failed${status}`
    const key = `${what}: ${[words, x.advice ? capitalise(x.advice.hint) : ''].filter(Boolean).join('. ')}`
    groups.set(key, [...(groups.get(key) ?? []), SECTION_TITLES[x.name]])
  }
  const lines = [...groups].map(([reason, names]) => `> ⚠️ **${names.join(', ')}** ${reason}`)
  return lines.join('\n>\n')
}

// The docs-health report: a title with the range, a headline per section that leads with the
// answer, then each section's tables. Every query, path and service message is untrusted (anyone
// on the internet types search queries) and passes through escapeText; a section that failed is
// drawn in its place with the reason.
import type { DateRange, Period } from '../period.js'
import type { AssistantSection } from '../analytics/sections/assistant.js'
import type { FeedbackSection } from '../analytics/sections/feedback.js'
import type { SearchesSection } from '../analytics/sections/searches.js'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import type { SectionFailure } from '../analytics/sections/section.js'
import type { PagesSection } from '../analytics/sections/visitors.js'
import {
  clip,
  escapeText,
  fitRows,
  foldedTable,
  formatNumber,
  formatPercentChange,
  formatShare,
  formatTimestamp,
  plural,
  provenance,
  tableHead,
  tableRow,
  type Column
} from './markdown.js'
import { exactRange, previousLabel, shortRange } from './range.js'
import type { Trend } from '../analytics/trend.js'
import { trendBlock } from './chart.js'
import { pageCell, pageColumns, pageRow, pagesFoldLabel } from './pages-table.js'

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
}

/**
 * A query or question keeps its start, where its meaning is. A query shares its row with a page
 * column, so both are short; a question (words, so it wraps) gets more.
 */
const QUERY_MAX_CHARS = 48
/** The clicked page beside a query: both must fit a comment's width with the numbers. */
const CLICKED_PAGE_MAX_CHARS = 40
const QUESTION_MAX_CHARS = 120
const REASON_MAX_CHARS = 600

type ReadSection = Exclude<SectionOutcome, SectionFailure>

const TITLES: Record<SectionOutcome['name'], string> = {
  visitors: 'Visitors',
  views: 'Views',
  searches: 'Searches',
  feedback: 'Feedback',
  assistant: 'Assistant'
}

/**
 * Markdown for the job summary and the comment, at most maxBytes UTF-8 bytes: tables lose rows
 * (as many as fit: fitRows) until the report fits, and only a report that fits with none is cut.
 */
export function renderHealthReport(r: HealthReport, maxBytes: number): string {
  const longest = Math.max(0, ...r.sections.map(x => (x.ok ? x.top.length : 0)))
  return fitRows(rows => render(r, rows, rows < longest), longest, maxBytes)
}

function render(r: HealthReport, rows: number, cut: boolean): string {
  const blocks = [
    `## Docs health · ${shortRange(r.range, r.generatedAt)}`,
    metaLine(r),
    overview(r),
    trendOf(r),
    ...r.sections.map(x => sectionBlock(x, r, rows))
  ].filter(Boolean)
  if (cut) blocks.push(`_Tables are cut to ${rows} rows to fit; the \`report\` output has more._`)
  return blocks.join('\n\n') + '\n'
}

function trendOf(r: HealthReport): string {
  if (!r.trend || r.range.dateFrom === undefined) return ''
  const total = (name: 'visitors' | 'views'): number | undefined => {
    const x = r.sections.find(s => s.name === name)
    return x?.ok && (x.name === 'visitors' || x.name === 'views') ? x.totals.total : undefined
  }
  return trendBlock({
    points: r.trend.points,
    current: { dateFrom: r.range.dateFrom, visitors: total('visitors'), views: total('views') },
    requests: r.trend.requests
  })
}

function metaLine(r: HealthReport): string {
  const range = r.previous
    ? `${exactRange(r.range)}, compared with ${exactRange(r.previous)}`
    : exactRange(r.range)
  const made = provenance({ ...r, requestNoun: 'analytics request' })
  return [`Project ${escapeText(r.projectId)}`, range, ...made].join(' · ')
}

// ---------------------------------------------------------------------------------------------
// Headlines: one line per section, the answer first

function overview(r: HealthReport): string {
  const columns: Column[] = [{ header: 'Section' }, { header: 'Headline' }]
  const rows = r.sections.map(x =>
    tableRow([TITLES[x.name], x.ok ? headline(x, r) : failedHeadline(x)])
  )
  return `${tableHead(columns)}\n${rows.join('\n')}`
}

/** ", +5.0% vs the week before" with compare, else ''. */
function versus(now: number, before: number | undefined, r: HealthReport): string {
  if (!r.previous || before === undefined) return ''
  const label = previousLabel(r.range, r.period)
  const change = formatPercentChange(now, before)
  return change ? `, ${change} vs ${label}` : `, none in ${label}`
}

/**
 * A section with nothing in it. Observed of the service (not documented): a feature that is off
 * answers 200 with nothing, so this reads "no data", not as an error or as a broken site.
 */
function isEmpty(x: ReadSection): boolean {
  switch (x.name) {
    case 'visitors':
    case 'views':
      return x.totals.total === 0 && x.top.length === 0
    case 'searches':
      return x.totalSearches === 0 && x.read === 0
    case 'feedback':
      return x.pages === 0
    case 'assistant':
      return x.callers.total === 0 && x.read === 0
  }
}

const NO_DATA = 'no data for this range'

function headline(x: ReadSection, r: HealthReport): string {
  if (isEmpty(x)) return NO_DATA
  switch (x.name) {
    case 'visitors':
      return plural(x.totals.total, 'unique visitor') + versus(x.totals.total, x.previous?.total, r)
    case 'views':
      return plural(x.totals.total, 'page view') + versus(x.totals.total, x.previous?.total, r)
    case 'searches': {
      const head =
        plural(x.totalSearches, 'search', 'searches') + versus(x.totalSearches, x.previous, r)
      if (x.read === 0) return head
      const among = x.complete ? formatNumber(x.read) : `the top ${formatNumber(x.read)}`
      return `${head} · ${formatNumber(x.gaps.length)} of ${among} queries with no click`
    }
    case 'feedback':
      return (
        `${formatNumber(x.thumbsDown)} 👎${versus(x.thumbsDown, x.previous, r)} · ` +
        `${formatNumber(x.thumbsUp)} 👍 on ${plural(x.pages, 'page')}`
      )
    case 'assistant': {
      const asked = plural(x.callers.total, 'question') + versus(x.callers.total, x.previous, r)
      if (x.read === 0) return asked
      return `${formatShare(x.unanswered, x.read)} of ${plural(x.read, 'question')} read unanswered · ${asked}`
    }
  }
}

function failedHeadline(x: SectionFailure): string {
  if (x.skipped) return '⚠️ not read'
  const status = x.status !== undefined ? ` (HTTP ${x.status})` : ''
  return x.refused ? `⚠️ not available${status}` : `⚠️ failed${status}`
}

// ---------------------------------------------------------------------------------------------
// Sections

function sectionBlock(x: SectionOutcome, r: HealthReport, rows: number): string {
  const title = `### ${TITLES[x.name]}`
  if (!x.ok) return `${title}\n\n${failureNote(x)}`
  if (isEmpty(x)) return `${title}\n\nNo data for this range.`
  const body = (() => {
    switch (x.name) {
      case 'visitors':
      case 'views':
        return pagesBlock(x, r, rows)
      case 'searches':
        return searchesBlock(x, r, rows)
      case 'feedback':
        return feedbackBlock(x, r, rows)
      case 'assistant':
        return assistantBlock(x, rows)
    }
  })()
  return `${title}\n\n${body}`
}

/** The service's words, escaped: a refusal carries why (the plan), a failure its cause. */
function failureNote(x: SectionFailure): string {
  // The action's own words (which limit ran out), written as Markdown: `wait-timeout` is code.
  if (x.skipped) return `> ⚠️ **Not read:** ${x.reason.replace(/^not read: /, '')}.`
  const status = x.status !== undefined ? ` (HTTP ${x.status})` : ''
  const what = x.refused
    ? `**Not available:** the service refused this section${status}.`
    : `**Failed:** this section could not be read${status}.`
  return `> ⚠️ ${what}\n>\n> ${escapeText(clip(x.reason, REASON_MAX_CHARS))}`
}

const rank = (i: number) => String(i + 1)
const foldLabel = (noun: string) => (first: number, last: number) =>
  `${noun} ${formatNumber(first)}–${formatNumber(last)}`

function pagesBlock(x: PagesSection, r: HealthReport, rows: number): string {
  const noun = x.name === 'visitors' ? 'unique visitors' : 'page views'
  const { human, ai, total } = x.totals
  const stopped = x.maxRowsReached
    ? ' The export stopped at `max-rows`: the top pages are those of the rows read; the totals are the whole site’s.'
    : ''
  const lines = [
    `**${formatNumber(total)}** ${noun}: ${formatNumber(human)} human, ${formatNumber(ai)} AI, ` +
      `on ${plural(x.rows, 'page')}.${stopped}`
  ]
  if (x.name === 'visitors' && human + ai !== total)
    lines.push('_The total counts each visitor once, so it is not the sum of human and AI._')
  const table = foldedTable(
    pageColumns(false),
    x.top.slice(0, rows).map((row, i) => pageRow(row, i + 1, r.siteUrl)),
    pagesFoldLabel
  )
  return [lines.join('\n\n'), table].filter(Boolean).join('\n\n')
}

function searchesBlock(x: SearchesSection, r: HealthReport, rows: number): string {
  if (x.read === 0) return 'No search in this range.'
  const blocks = ['The top queries by hits, with their click-through and the page clicked most:']
  const top = foldedTable(
    [
      { header: '#', align: 'right' },
      { header: 'Query' },
      { header: 'Hits', align: 'right' },
      { header: 'Click-through', align: 'right' },
      { header: 'Top clicked page' }
    ],
    x.top
      .slice(0, rows)
      .map((q, i) =>
        tableRow([
          rank(i),
          textCell(q.searchQuery, QUERY_MAX_CHARS),
          formatNumber(q.hits),
          percent(q.ctr),
          q.topClickedPage === null
            ? '–'
            : pageCell(q.topClickedPage, r.siteUrl, CLICKED_PAGE_MAX_CHARS)
        ])
      ),
    foldLabel('Queries')
  )
  if (top) blocks.push(top)
  const scope = x.complete
    ? `among all ${plural(x.read, 'query', 'queries')}`
    : `among the top ${plural(x.read, 'query', 'queries')} read (the service has more)`
  if (x.gaps.length === 0) {
    blocks.push(`No content gaps ${scope}: every query led to a click.`)
    return blocks.join('\n\n')
  }
  blocks.push(`#### Content gaps\n\nQueries nobody clicked a result for, ${scope}:`)
  const gaps = countedTable(
    ['Query', 'Hits', 'Last searched', 'Queries'],
    x.gaps
      .slice(0, rows)
      .map(q => [textCell(q.searchQuery, QUERY_MAX_CHARS), q.hits, q.lastSearchedAt])
  )
  if (gaps) blocks.push(gaps)
  return blocks.join('\n\n')
}

function feedbackBlock(x: FeedbackSection, r: HealthReport, rows: number): string {
  // The order of this operation is not documented: with more pages than one answer holds, the
  // ranking covers only those the service returned first.
  const scope = x.hasMore
    ? ` (only the first ${plural(x.pages, 'page')} the service returned are ranked: it has ` +
      'feedback on more, in an order it does not document)'
    : ''
  const blocks = [
    `**${formatNumber(x.thumbsDown)}** 👎, ${formatNumber(x.thumbsUp)} 👍 and ` +
      `${formatNumber(x.code)} on code snippets, on ${plural(x.pages, 'page')}${scope}.`
  ]
  if (x.top.length === 0) {
    blocks.push('No page got a thumbs-down or code-snippet feedback.')
    return blocks.join('\n\n')
  }
  blocks.push('The pages with the most thumbs-down:')
  blocks.push(
    foldedTable(
      [
        { header: '#', align: 'right' },
        { header: 'Page' },
        { header: '👎', align: 'right' },
        { header: '👍', align: 'right' },
        { header: 'Code', align: 'right' },
        { header: 'Total', align: 'right' }
      ],
      x.top
        .slice(0, rows)
        .map((p, i) =>
          tableRow([
            rank(i),
            pageCell(p.path, r.siteUrl),
            formatNumber(p.thumbsDown),
            formatNumber(p.thumbsUp),
            formatNumber(p.code),
            formatNumber(p.total)
          ])
        ),
      foldLabel('Pages')
    )
  )
  return blocks.filter(Boolean).join('\n\n')
}

function assistantBlock(x: AssistantSection, rows: number): string {
  const { web, api, other, total } = x.callers
  const by = `web ${formatNumber(web)}, API ${formatNumber(api)}, other ${formatNumber(other)}`
  if (x.read === 0) return `**${formatNumber(total)}** questions: ${by}. No question to read.`
  const blocks = [
    `**${formatNumber(total)}** questions: ${by}. **${formatNumber(x.unanswered)}** of the ` +
      `${plural(x.read, 'question')} read (in ${plural(x.conversations, 'conversation')}) ` +
      'went unanswered.'
  ]
  if (!x.complete)
    blocks.push(
      `_Only the first ${plural(x.read, 'question')} were read: the share and the ` +
        `questions below cover those._`
    )
  if (x.top.length === 0) {
    blocks.push('No unanswered question.')
    return blocks.join('\n\n')
  }
  blocks.push(
    'The unanswered questions asked most often (the same text, ignoring case and spaces):'
  )
  blocks.push(
    countedTable(
      ['Question', 'Times asked', 'Last asked', 'Questions'],
      x.top
        .slice(0, rows)
        .map(q => [textCell(q.question, QUESTION_MAX_CHARS), q.count, q.lastAskedAt])
    )
  )
  return blocks.filter(Boolean).join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Cells

/** A query or question: one line, escaped, clipped so the number columns stay in view. */
function textCell(text: string, maxChars: number): string {
  const shown = clip(text.trim(), maxChars)
  return shown === '' ? '_(empty)_' : escapeText(shown)
}

/** An ISO 8601 instant as "2026-11-23 09:00 UTC"; other text as it is (escaped). */
function instant(text: string | undefined): string {
  if (!text) return '–'
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN
  return Number.isFinite(ms) ? formatTimestamp(ms) : escapeText(clip(text, 40))
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`
}

/**
 * A ranked table of texts with how often and when last (content gaps, unanswered questions):
 * `[text header, count header, time header, what the folded rows are]`, and rows of an escaped
 * text cell, a count and a time as the service sent it.
 */
function countedTable(
  [text, count, time, folded]: [string, string, string, string],
  items: [string, number, string | undefined][]
): string {
  return foldedTable(
    [
      { header: '#', align: 'right' },
      { header: text },
      { header: count, align: 'right' },
      { header: time }
    ],
    items.map(([cell, n, at], i) => tableRow([rank(i), cell, formatNumber(n), instant(at)])),
    foldLabel(folded)
  )
}

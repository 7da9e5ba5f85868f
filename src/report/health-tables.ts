// The health report's tables, one per question a docs team asks: which pages people read
// (visitors and views side by side), what they search for (content gaps marked in place), where
// the docs let them down (feedback), what the assistant could not answer. Each shows `VISIBLE_ROWS`
// rows and folds the rest; dates are days, not clock times.
import type { AssistantSection } from '../analytics/sections/assistant.js'
import type { FeedbackSection } from '../analytics/sections/feedback.js'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import type { SearchesSection } from '../analytics/sections/searches.js'
import type { SectionFailure } from '../analytics/sections/section.js'
import type { PagesSection } from '../analytics/sections/visitors.js'
import type { VisitorRow } from '../service/schema.js'
import {
  clip,
  escapeText,
  foldedTable,
  formatPercentChange,
  formatNumber,
  formatShare,
  plural,
  tableRow,
  type Column
} from './markdown.js'
import { pageCell, pagesFoldLabel } from './pages-table.js'

export type ReadSection = Exclude<SectionOutcome, SectionFailure>

/** What the tables need of the report. */
export interface TablesInput {
  sections: readonly SectionOutcome[]
  /** Set with `compare`: the pages table shows each page's change. */
  previous?: unknown
  /** https address of the docs site: page paths link there. */
  siteUrl?: string
}

/**
 * A query or question keeps its start, where its meaning is. A query shares its row with a page
 * column, so both are short; a question (words, so it wraps) gets more.
 */
const QUERY_MAX_CHARS = 48
/** The clicked page beside a query: both must fit a comment's width with the numbers. */
const CLICKED_PAGE_MAX_CHARS = 40
const QUESTION_MAX_CHARS = 120
/** Marks a query nobody clicked a result for, in the click-through cell. */
const GAP = '⚠️'

/**
 * A section with nothing in it. Observed of the service (not documented): a feature that is off
 * answers 200 with nothing, so this reads "no data", not as an error or as a broken site.
 */
export function isEmpty(x: ReadSection): boolean {
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

/** The tables of the sections that were read and hold something, `rows` rows each at most. */
export function sectionTables(r: TablesInput, rows: number): string {
  const read = r.sections.filter((x): x is ReadSection => x.ok && !isEmpty(x))
  const find = <N extends ReadSection['name']>(name: N) =>
    read.find((x): x is Extract<ReadSection, { name: N }> => x.name === name)
  const visitors = find('visitors')
  const views = find('views')
  const searches = find('searches')
  const feedback = find('feedback')
  const assistant = find('assistant')
  return [
    visitors || views ? pagesBlock(r, rows, visitors, views) : '',
    searches ? searchesBlock(searches, r, rows) : '',
    feedback ? feedbackBlock(feedback, r, rows) : '',
    assistant ? assistantBlock(assistant, rows) : ''
  ]
    .filter(Boolean)
    .join('\n\n')
}

const rank = (i: number) => String(i + 1)
const foldLabel = (noun: string) => (first: number, last: number) =>
  `${noun} ${formatNumber(first)}–${formatNumber(last)}`

// ---------------------------------------------------------------------------------------------
// Pages: one table, visitors and views side by side

function findRow(x: PagesSection | undefined, path: string): VisitorRow | undefined {
  return x?.top.find(row => row.path === path) ?? x?.shown?.find(row => row.path === path)
}

/** "+22.0%", "new": a percentage alone, so two change columns fit a comment without wrapping. */
function pageChange(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return now === 0 ? '0' : 'new'
  return formatPercentChange(now, before) ?? '–'
}

function previousTotal(x: PagesSection, path: string): number | undefined {
  return x.previousRows?.find(row => row.path === path)?.total
}

/** "12,000 unique visitors (10,412 human, 2,496 AI)". */
function split(x: PagesSection): string {
  const noun = x.name === 'visitors' ? 'unique visitors' : 'page views'
  const { human, ai, total } = x.totals
  return `**${formatNumber(total)}** ${noun} (${formatNumber(human)} human, ${formatNumber(ai)} AI)`
}

function pagesBlock(
  r: TablesInput,
  rows: number,
  visitors: PagesSection | undefined,
  views: PagesSection | undefined
): string {
  // Ranked by visitors (people, not reloads); by views only when visitors were not read.
  const lead = (visitors ?? views) as PagesSection
  const compare = r.previous !== undefined
  const shown = [visitors, views].filter((x): x is PagesSection => x !== undefined)
  const columns: Column[] = [{ header: '#', align: 'right' }, { header: 'Page' }]
  for (const x of shown) {
    columns.push({ header: x.name === 'visitors' ? 'Visitors' : 'Views', align: 'right' })
    if (compare && x.previousRows) columns.push({ header: 'Change', align: 'right' })
  }
  const cells = (row: VisitorRow, i: number): string =>
    tableRow([
      rank(i),
      pageCell(row.path, r.siteUrl),
      ...shown.flatMap(x => {
        const found = x === lead ? row : findRow(x, row.path)
        const value = found ? formatNumber(found.total) : '–'
        if (!compare || !x.previousRows) return [value]
        return [value, found ? pageChange(found.total, previousTotal(x, row.path)) : '–']
      })
    ])
  const sentences = [
    `${shown.map(split).join('; ')}, on ${plural(lead.rows, 'page')}.`,
    visitors && visitors.totals.human + visitors.totals.ai !== visitors.totals.total
      ? 'A visitor who came as both human and AI counts once in the total.'
      : '',
    shown.some(x => x.maxRowsReached)
      ? 'The export stopped at `max-rows`: the top pages are those of the rows read; the totals are the whole site’s.'
      : '',
    views && visitors ? 'The top pages by unique visitors:' : ''
  ]
  const table = foldedTable(
    columns,
    lead.top.slice(0, rows).map((row, i) => cells(row, i)),
    pagesFoldLabel
  )
  return ['### Top pages', sentences.filter(Boolean).join(' '), table].filter(Boolean).join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Searches: the top queries, content gaps marked in place

function searchesBlock(x: SearchesSection, r: TablesInput, rows: number): string {
  const head = '### Searches'
  if (x.read === 0) return `${head}\n\nNo search in this range.`
  const scope = x.complete
    ? `all ${plural(x.read, 'query', 'queries')}`
    : `the top ${plural(x.read, 'query', 'queries')} read; the service has more`
  const gaps =
    x.gaps.length === 0
      ? `Every query led to a click, among ${scope}.`
      : `${GAP} marks a content gap, a query nobody clicked a result for: ${formatNumber(x.gaps.length)} among ${scope}.`
  const table = foldedTable(
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
          q.ctr === 0 ? `0% ${GAP}` : percent(q.ctr),
          q.topClickedPage === null
            ? '–'
            : pageCell(q.topClickedPage, r.siteUrl, CLICKED_PAGE_MAX_CHARS)
        ])
      ),
    foldLabel('Queries')
  )
  return [head, `The top queries by hits. ${gaps}`, table].filter(Boolean).join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Feedback: the pages with the most thumbs-down

function feedbackBlock(x: FeedbackSection, r: TablesInput, rows: number): string {
  // The order of this operation is not documented: with more pages than one answer holds, the
  // ranking covers only those the service returned first.
  const scope = x.hasMore
    ? ` (only the first ${plural(x.pages, 'page')} the service returned are ranked: it has ` +
      'feedback on more, in an order it does not document)'
    : ''
  const intro =
    `**${formatNumber(x.thumbsDown)}** 👎 and ${formatNumber(x.thumbsUp)} 👍 on whether a page ` +
    `helped, and ${plural(x.code, 'report')} on code snippets, on ${plural(x.pages, 'page')}${scope}.`
  if (x.top.length === 0)
    return ['### Feedback', intro, 'No page got a thumbs-down or code-snippet feedback.'].join(
      '\n\n'
    )
  const table = foldedTable(
    [
      { header: '#', align: 'right' },
      { header: 'Page' },
      { header: '👎 Not helpful', align: 'right' },
      { header: '👍 Helpful', align: 'right' },
      { header: 'On code snippets', align: 'right' },
      { header: 'All feedback', align: 'right' }
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
  return ['### Feedback', `${intro} The pages with the most 👎:`, table].join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Assistant: the unanswered questions asked most often

function assistantBlock(x: AssistantSection, rows: number): string {
  const { web, api, other, total } = x.callers
  const by = `web ${formatNumber(web)}, API ${formatNumber(api)}, other ${formatNumber(other)}`
  const head = '### Assistant'
  if (x.read === 0)
    return `${head}\n\n**${formatNumber(total)}** questions (${by}). No question to read.`
  const intro =
    `**${formatNumber(total)}** questions (${by}) in ${plural(x.conversations, 'conversation')}; ` +
    `**${formatNumber(x.unanswered)}** of the ${plural(x.read, 'question')} read went unanswered ` +
    `(${formatShare(x.unanswered, x.read)}).` +
    (x.complete
      ? ''
      : ` Only the first ${plural(x.read, 'question')} were read: the share and the questions below cover those.`)
  if (x.top.length === 0) return [head, intro, 'No unanswered question.'].join('\n\n')
  const table = foldedTable(
    [
      { header: '#', align: 'right' },
      { header: 'Unanswered question' },
      { header: 'Times asked', align: 'right' },
      { header: 'Last asked' }
    ],
    x.top
      .slice(0, rows)
      .map((q, i) =>
        tableRow([
          rank(i),
          textCell(q.question, QUESTION_MAX_CHARS),
          formatNumber(q.count),
          day(q.lastAskedAt)
        ])
      ),
    foldLabel('Questions')
  )
  return [head, `${intro} Asked most often (the same text, ignoring case and spaces):`, table].join(
    '\n\n'
  )
}

// ---------------------------------------------------------------------------------------------
// Cells

/** A query or question: one line, escaped, clipped so the number columns stay in view. */
function textCell(text: string, maxChars: number): string {
  const shown = clip(text.trim(), maxChars)
  return shown === '' ? '_(empty)_' : escapeText(shown)
}

/** The day of an ISO 8601 instant ("2026-11-21"); other text as it is (escaped). */
function day(text: string | undefined): string {
  if (!text) return '–'
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : escapeText(clip(text, 40))
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`
}

// The health report's tables, one per question a docs team asks: which pages people read
// (visitors and views side by side), what they search for (content gaps marked in place), where
// the docs let them down (feedback), what the assistant could not answer. Each sits folded under
// a one-line summary (the overview, trend and suggestions above are the screen a reader sees
// first), shows `VISIBLE_ROWS` rows when unfolded and folds the rest; columns and cells are kept
// narrow enough that no table wraps in a comment 760 px wide.
import type { AssistantSection } from '../analytics/sections/assistant.js'
import type { FeedbackSection } from '../analytics/sections/feedback.js'
import { pageRowOf, type SectionOutcome } from '../analytics/sections/outcome.js'
import type { SearchesSection } from '../analytics/sections/searches.js'
import type { SectionFailure } from '../analytics/sections/section.js'
import type { PagesSection } from '../analytics/sections/visitors.js'
import type { VisitorRow } from '../service/schema.js'
import { contentGaps, type SearchQuery } from '../analytics/search-gaps.js'
import { clipWidth, details, escapeText, foldedTable, tableRow, type Column } from './markdown.js'
import { formatNumber, formatShare, plural } from './numbers.js'
import { pageCell, pageChange } from './pages-table.js'

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
 * A query or question keeps its start, where its meaning is; each is clipped so its row stays on
 * one line at a comment's width. A query shares its row with a page column, so both are short.
 */
const QUERY_MAX_CHARS = 25
/** The clicked page beside a query: both must fit a comment's width with the numbers. */
const CLICKED_PAGE_MAX_CHARS = 22
/** A page beside four number columns (feedback): less room than beside three. */
const FEEDBACK_PAGE_MAX_CHARS = 34
const QUESTION_MAX_CHARS = 64
/** Marks a query nobody clicked a result for, in the click-through cell. */
const GAP = '⚠️'
/** Marks a zero-click query the assistant answered: not a content gap. */
const ASSISTANT = '💬'

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
    visitors || views ? pagesBlock(r, rows, visitors, views) : undefined,
    searches ? searchesBlock(searches, assistant, r, rows) : undefined,
    feedback ? feedbackBlock(feedback, views, r, rows) : undefined,
    assistant ? assistantBlock(assistant, rows) : undefined
  ]
    .filter((b): b is Folded => b !== undefined)
    .map(b => details(`<b>${b.title}</b> · ${b.summary}`, b.body))
    .join('\n\n')
}

/** A table folded under one line: its title and what it holds (our own words and numbers). */
interface Folded {
  title: string
  summary: string
  body: string
}

const rank = (i: number) => String(i + 1)

/** A section's top items, ranked (`#`), each row's other cells from `cells`, folded past ten. */
function rankedTable<T>(
  columns: readonly Column[],
  items: readonly T[],
  noun: string,
  cells: (item: T) => string[]
): string {
  return foldedTable(
    [{ header: '#', align: 'right' }, ...columns],
    items.map((item, i) => tableRow([rank(i), ...cells(item)])),
    noun
  )
}

// ---------------------------------------------------------------------------------------------
// Pages: one table, visitors and views side by side

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
): Folded {
  // Ranked by visitors (people, not reloads); by views only when visitors were not read.
  const lead = (visitors ?? views) as PagesSection
  const compare = r.previous !== undefined
  const shown = [visitors, views].filter((x): x is PagesSection => x !== undefined)
  const columns: Column[] = [{ header: 'Page' }]
  for (const x of shown) {
    columns.push({ header: x.name === 'visitors' ? 'Visitors' : 'Views', align: 'right' })
    if (compare && x.previousRows) columns.push({ header: 'Change', align: 'right' })
  }
  const cells = (row: VisitorRow): string[] => [
    pageCell(row.path, r.siteUrl),
    ...shown.flatMap(x => {
      const found = x === lead ? row : pageRowOf(x, row.path)
      const value = found ? formatNumber(found.total) : '–'
      if (!compare || !x.previousRows) return [value]
      return [value, found ? pageChange(found.total, previousTotal(x, row.path)) : '–']
    })
  ]
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
  const table = rankedTable(columns, lead.top.slice(0, rows), 'Pages', cells)
  return {
    title: 'Top pages',
    summary: `by ${visitors ? 'unique visitors' : 'page views'}, ${plural(lead.rows, 'page')}`,
    body: [sentences.filter(Boolean).join(' '), table].filter(Boolean).join('\n\n')
  }
}

// ---------------------------------------------------------------------------------------------
// Searches: the top queries, content gaps marked in place

function clicks(q: SearchQuery, answered: ReadonlySet<SearchQuery>): string {
  if (q.ctr !== 0) return percent(q.ctr)
  return `0% ${answered.has(q) ? ASSISTANT : GAP}`
}

function searchesBlock(
  x: SearchesSection,
  assistant: AssistantSection | undefined,
  r: TablesInput,
  rows: number
): Folded {
  const title = 'Searches'
  if (x.read === 0)
    return { title, summary: 'none in this range', body: 'No search in this range.' }
  const split = contentGaps(
    x.top.filter(q => q.ctr === 0),
    assistant?.answered
  )
  const allGaps = contentGaps(x.gaps, assistant?.answered).gaps.length
  const answered = new Set(split.answeredByAssistant)
  const scope = x.complete
    ? `all ${plural(x.read, 'query', 'queries')}`
    : `the top ${plural(x.read, 'query', 'queries')} read; the service has more`
  const gaps =
    allGaps === 0
      ? `No content gap among ${scope}.`
      : `${GAP} marks a content gap, a query nobody clicked a result for: ${formatNumber(allGaps)} among ${scope}.`
  const notes = [
    `The top queries by hits. ${gaps}`,
    answered.size > 0
      ? `${ASSISTANT} marks one the search bar handed to the assistant, which answered it: no gap.`
      : '',
    x.folded > 0 ? foldedNote(x) : ''
  ]
  const columns: Column[] = [
    { header: 'Query' },
    { header: 'Hits', align: 'right' },
    { header: 'Clicked', align: 'right' },
    { header: 'Top clicked page' }
  ]
  const table = rankedTable(columns, x.top.slice(0, rows), 'Queries', q => [
    textCell(q.searchQuery, QUERY_MAX_CHARS),
    formatNumber(q.hits),
    clicks(q, answered),
    q.topClickedPage === null ? '–' : pageCell(q.topClickedPage, r.siteUrl, CLICKED_PAGE_MAX_CHARS)
  ])
  return {
    title,
    summary: `top queries, ${plural(allGaps, 'content gap')}`,
    body: [notes.filter(Boolean).join(' '), table].filter(Boolean).join('\n\n')
  }
}

/** The rows that were a query half typed, with one of them as the example. */
function foldedNote(x: SearchesSection): string {
  const one = x.top.find(q => q.prefixes?.length)
  const example = one
    ? ` (“${textCell(one.prefixes?.[0] ?? '', QUERY_MAX_CHARS)}” on the way to “${textCell(one.searchQuery, QUERY_MAX_CHARS)}”)`
    : ''
  const many = x.folded !== 1
  return (
    `${plural(x.folded, 'row')} of the log ${many ? 'were' : 'was'} a query half typed${example}: ` +
    `${many ? 'each is' : 'it is'} counted in the query ${many ? 'they lead' : 'it leads'} to.`
  )
}

// ---------------------------------------------------------------------------------------------
// Feedback: the pages with the most thumbs-down

function feedbackBlock(
  x: FeedbackSection,
  views: PagesSection | undefined,
  r: TablesInput,
  rows: number
): Folded {
  // The order of this operation is not documented: with more pages than one answer holds, the
  // ranking covers only those the service returned first.
  const scope = x.hasMore
    ? ` (only the first ${plural(x.pages, 'page')} the service returned are ranked: it has ` +
      'feedback on more, in an order it does not document)'
    : ''
  const intro =
    `**${formatNumber(x.thumbsDown)}** 👎 and ${formatNumber(x.thumbsUp)} 👍 on whether a page ` +
    `helped, and ${plural(x.code, 'report')} on code snippets, on ${plural(x.pages, 'page')}${scope}.`
  const title = 'Feedback'
  if (x.top.length === 0)
    return {
      title,
      summary: 'no 👎',
      body: [intro, 'No page got a thumbs-down or code-snippet feedback.'].join('\n\n')
    }
  const counts = ['👎', '👍', 'Code', ...(views ? ['Views'] : [])]
  const columns: Column[] = [
    { header: 'Page' },
    ...counts.map(header => ({ header, align: 'right' as const }))
  ]
  const table = rankedTable(columns, x.top.slice(0, rows), 'Pages', p => [
    pageCell(p.path, r.siteUrl, FEEDBACK_PAGE_MAX_CHARS),
    formatNumber(p.thumbsDown),
    formatNumber(p.thumbsUp),
    formatNumber(p.code),
    ...(views ? [viewsOf(views, p.path)] : [])
  ])
  return {
    title,
    summary: 'the pages with the most 👎',
    body: [`${intro} The pages with the most 👎 (Code: feedback on code snippets):`, table].join(
      '\n\n'
    )
  }
}

function viewsOf(views: PagesSection, path: string): string {
  const row = pageRowOf(views, path)
  return row ? formatNumber(row.total) : '–'
}

// ---------------------------------------------------------------------------------------------
// Assistant: the unanswered questions asked most often

function assistantBlock(x: AssistantSection, rows: number): Folded {
  const { web, api, other, total } = x.callers
  const by = `web ${formatNumber(web)}, API ${formatNumber(api)}, other ${formatNumber(other)}`
  const title = 'Assistant'
  if (x.read === 0)
    return {
      title,
      summary: 'no question read',
      body: `**${formatNumber(total)}** questions (${by}). No question to read.`
    }
  const intro =
    `**${formatNumber(total)}** questions (${by}) in ${plural(x.conversations, 'conversation')}; ` +
    `**${formatNumber(x.unanswered)}** of the ${plural(x.read, 'question')} read went unanswered ` +
    `(${formatShare(x.unanswered, x.read)}).` +
    (x.complete
      ? ''
      : ` Only the first ${plural(x.read, 'question')} were read: the share and the questions below cover those.`)
  if (x.top.length === 0)
    return {
      title,
      summary: 'no unanswered question',
      body: [intro, 'No unanswered question.'].join('\n\n')
    }
  const columns: Column[] = [{ header: 'Unanswered question' }, { header: 'Asked', align: 'right' }]
  const table = rankedTable(columns, x.top.slice(0, rows), 'Questions', q => [
    textCell(q.question, QUESTION_MAX_CHARS),
    formatNumber(q.count)
  ])
  return {
    title,
    summary: 'the unanswered questions asked most often',
    body: [`${intro} Asked most often (the same text, ignoring case and spaces):`, table].join(
      '\n\n'
    )
  }
}

// ---------------------------------------------------------------------------------------------
// Cells

/** A query or question: one line, escaped, clipped so the number columns stay in view. */
function textCell(text: string, maxColumns: number): string {
  const shown = clipWidth(text.trim().replace(/\s+/g, ' '), maxColumns, 0)
  return shown === '' ? '_(empty)_' : escapeText(shown)
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`
}

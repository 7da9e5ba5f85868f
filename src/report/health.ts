// The docs-health report: a headline per section, then each section's tables. Every query, path
// and service message is untrusted (anyone on the internet types search queries) and passes
// through escapeText; a section that failed is drawn in its place with the reason.
import { Buffer } from 'node:buffer'
import type { DateRange } from '../analytics/period.js'
import type { AssistantSection } from '../analytics/sections/assistant.js'
import type { FeedbackSection } from '../analytics/sections/feedback.js'
import type { SearchesSection } from '../analytics/sections/searches.js'
import type { SectionFailure, SectionOutcome } from '../analytics/sections/section.js'
import type { PagesSection } from '../analytics/sections/visitors.js'
import { escapeText, fitComment, formatChange, formatNumber } from './markdown.js'

export interface HealthReport {
  projectId: string
  range: DateRange
  previous?: Required<DateRange>
  sections: SectionOutcome[]
  requests: number
  /** ISO 8601 instant the report was made. */
  madeAt: string
  runUrl?: string
  /** Without a trailing slash: page paths become links to it. */
  siteUrl?: string
}

/** Rows shown before the rest of a table folds into <details>. */
const OPEN_ROWS = 10
const TEXT_MAX_CHARS = 200
const REASON_MAX_CHARS = 600

const TITLES: Record<SectionOutcome['name'], string> = {
  visitors: 'Visitors',
  views: 'Views',
  searches: 'Searches',
  feedback: 'Feedback',
  assistant: 'Assistant'
}

/**
 * Markdown for the job summary and the comment, at most maxBytes UTF-8 bytes: tables lose rows
 * (halving) until the report fits, and only a report that fits with none is cut.
 */
export function renderHealthReport(r: HealthReport, maxBytes: number): string {
  const longest = Math.max(0, ...r.sections.map(x => (x.ok ? x.top.length : 0)))
  for (let rows = longest; ; rows = Math.floor(rows / 2)) {
    const md = render(r, rows, rows < longest)
    if (Buffer.byteLength(md) <= maxBytes) return md
    if (rows === 0) return fitComment(md, maxBytes)
  }
}

function render(r: HealthReport, rows: number, cut: boolean): string {
  const blocks = [
    '## Docs health report',
    head(r),
    overview(r),
    ...r.sections.map(x => sectionBlock(x, r, rows))
  ]
  if (cut) blocks.push(`_Tables are cut to ${rows} rows to fit; the \`report\` output has more._`)
  blocks.push(footer(r))
  return blocks.join('\n\n') + '\n'
}

function head(r: HealthReport): string {
  const parts = [`**Project:** ${escapeText(r.projectId)}`, `**Range:** ${describeRange(r.range)}`]
  if (r.previous) parts.push(`**Compared with:** ${describeRange(r.previous)}`)
  return parts.join(' · ')
}

function describeRange(range: DateRange): string {
  const from = range.dateFrom ? escapeText(range.dateFrom) : undefined
  const to = range.dateTo ? escapeText(range.dateTo) : undefined
  if (from && to) return `${from} → ${to} (end exclusive)`
  if (from) return `since ${from}`
  if (to) return `until ${to} (exclusive)`
  return 'all time'
}

// ---------------------------------------------------------------------------------------------
// The overview: one line per section

function overview(r: HealthReport): string {
  const compare = r.previous !== undefined
  const lines = [
    `| Section | Headline |${compare ? ' Change |' : ''}`,
    `|---|---|${compare ? '---:|' : ''}`
  ]
  for (const x of r.sections) {
    const change = compare ? ` ${x.ok ? headlineChange(x) : '–'} |` : ''
    lines.push(`| ${TITLES[x.name]} | ${x.ok ? headline(x) : failedHeadline(x)} |${change}`)
  }
  return lines.join('\n')
}

function headline(x: Exclude<SectionOutcome, SectionFailure>): string {
  switch (x.name) {
    case 'visitors':
      return `${formatNumber(x.totals.total)} unique visitors`
    case 'views':
      return `${formatNumber(x.totals.total)} page views`
    case 'searches':
      if (x.read === 0) return `${formatNumber(x.totalSearches)} searches`
      return `${formatNumber(x.totalSearches)} searches · ${formatNumber(x.gaps.length)} ${plural(x.gaps.length, 'content gap', 'content gaps')} in the top ${formatNumber(x.read)}`
    case 'feedback':
      return `${formatNumber(x.thumbsDown)} 👎 · ${formatNumber(x.thumbsUp)} 👍 on ${formatNumber(x.pages)} ${plural(x.pages, 'page', 'pages')}`
    case 'assistant':
      return `${formatNumber(x.callers.total)} questions · ${share(x.unanswered, x.read)} unanswered`
  }
}

function headlineNumber(x: Exclude<SectionOutcome, SectionFailure>): number {
  switch (x.name) {
    case 'visitors':
    case 'views':
      return x.totals.total
    case 'searches':
      return x.totalSearches
    case 'feedback':
      return x.thumbsDown
    case 'assistant':
      return x.callers.total
  }
}

function previousNumber(x: Exclude<SectionOutcome, SectionFailure>): number | undefined {
  return 'totals' in x ? x.previous?.total : x.previous
}

function headlineChange(x: Exclude<SectionOutcome, SectionFailure>): string {
  const before = previousNumber(x)
  return before === undefined ? '–' : formatChange(headlineNumber(x), before)
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

function failureNote(x: SectionFailure): string {
  if (x.skipped) return `> ⚠️ **Not read:** ${escapeText(x.reason.replace(/^not read: /, ''))}.`
  const why = x.refused
    ? `The service refused this section${x.status !== undefined ? ` (HTTP ${x.status})` : ''}: the feature may not be enabled on this plan.`
    : `This section could not be read${x.status !== undefined ? ` (HTTP ${x.status})` : ''}.`
  return `> ⚠️ **Not available.** ${why}\n>\n> ${escapeText(clip(x.reason, REASON_MAX_CHARS))}`
}

function pagesBlock(x: PagesSection, r: HealthReport, rows: number): string {
  const noun = x.name === 'visitors' ? 'unique visitors' : 'page views'
  const { human, ai, total } = x.totals
  const lines = [
    `**${formatNumber(total)}** ${noun} (${formatNumber(human)} human, ${formatNumber(ai)} AI)` +
      ` across ${formatNumber(x.rows)} ${plural(x.rows, 'page', 'pages')}` +
      `${x.maxRowsReached ? ' (stopped at `max-rows`: the service has more)' : ''}.` +
      changeNote(total, x.previous?.total)
  ]
  if (x.name === 'visitors')
    lines.push('', '_Total counts each visitor once, so it is not the sum of human and AI._')
  const table = foldedTable(
    ['#', 'Page', 'Human', 'AI', 'Total'],
    ['---:', '---', '---:', '---:', '---:'],
    x.top
      .slice(0, rows)
      .map((row, i) => [
        String(i + 1),
        pageCell(row.path, r.siteUrl),
        formatNumber(row.human),
        formatNumber(row.ai),
        formatNumber(row.total)
      ]),
    'pages'
  )
  return [lines.join('\n'), table].filter(Boolean).join('\n\n')
}

function searchesBlock(x: SearchesSection, r: HealthReport, rows: number): string {
  const total = `**${formatNumber(x.totalSearches)}** searches.${changeNote(x.totalSearches, x.previous)}`
  if (x.read === 0) return `${total} No search query in this range.`
  const blocks = [
    `${total} The top queries by hits, with their click-through and the page people clicked most:`
  ]
  const top = foldedTable(
    ['#', 'Query', 'Hits', 'Click-through', 'Top clicked page'],
    ['---:', '---', '---:', '---:', '---'],
    x.top
      .slice(0, rows)
      .map((q, i) => [
        String(i + 1),
        queryCell(q.searchQuery),
        formatNumber(q.hits),
        percent(q.ctr),
        q.topClickedPage === null ? '–' : pageCell(q.topClickedPage, r.siteUrl)
      ]),
    'queries'
  )
  if (top) blocks.push(top)
  const scope = x.complete
    ? `among all ${formatNumber(x.read)} queries`
    : `among the top ${formatNumber(x.read)} queries read (the service has more)`
  if (x.gaps.length === 0) {
    blocks.push(`No content gaps ${scope}: every query led to a click.`)
    return blocks.join('\n\n')
  }
  blocks.push(
    `#### Content gaps\n\nQueries nobody clicked a result for (click-through 0), ${scope}:`
  )
  const gaps = foldedTable(
    ['#', 'Query', 'Hits', 'Last searched'],
    ['---:', '---', '---:', '---'],
    x.gaps
      .slice(0, rows)
      .map((q, i) => [
        String(i + 1),
        queryCell(q.searchQuery),
        formatNumber(q.hits),
        instant(q.lastSearchedAt)
      ]),
    'queries'
  )
  if (gaps) blocks.push(gaps)
  return blocks.join('\n\n')
}

function feedbackBlock(x: FeedbackSection, r: HealthReport, rows: number): string {
  const scope = x.hasMore
    ? ` (the first ${formatNumber(x.pages)} pages the service returned; it has feedback on more)`
    : ''
  const blocks = [
    `**${formatNumber(x.thumbsDown)}** 👎, ` +
      `${formatNumber(x.thumbsUp)} 👍 and ${formatNumber(x.code)} on code snippets, ` +
      `on ${formatNumber(x.pages)} ${plural(x.pages, 'page', 'pages')}${scope}.` +
      changeNote(x.thumbsDown, x.previous, 'Thumbs-down: ')
  ]
  if (x.top.length === 0) {
    blocks.push('No page got a thumbs-down or code-snippet feedback.')
    return blocks.join('\n\n')
  }
  blocks.push('The pages with the most thumbs-down:')
  blocks.push(
    foldedTable(
      ['#', 'Page', '👎', '👍', 'Code', 'Total'],
      ['---:', '---', '---:', '---:', '---:', '---:'],
      x.top
        .slice(0, rows)
        .map((p, i) => [
          String(i + 1),
          pageCell(p.path, r.siteUrl),
          formatNumber(p.thumbsDown),
          formatNumber(p.thumbsUp),
          formatNumber(p.code),
          formatNumber(p.total)
        ]),
      'pages'
    )
  )
  return blocks.filter(Boolean).join('\n\n')
}

function assistantBlock(x: AssistantSection, rows: number): string {
  const { web, api, other, total } = x.callers
  const blocks = [
    `**${formatNumber(total)}** questions ` +
      `(web ${formatNumber(web)} · API ${formatNumber(api)} · other ${formatNumber(other)}).` +
      `${changeNote(total, x.previous)} ` +
      `**${share(x.unanswered, x.read)}** unanswered: ${formatNumber(x.unanswered)} of ` +
      `${formatNumber(x.read)} conversations read.`
  ]
  if (!x.complete)
    blocks.push(
      `_Only the first ${formatNumber(x.read)} conversations were read: the share and the ` +
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
    foldedTable(
      ['#', 'Question', 'Times asked', 'Last asked'],
      ['---:', '---', '---:', '---'],
      x.top
        .slice(0, rows)
        .map((q, i) => [
          String(i + 1),
          queryCell(q.question),
          formatNumber(q.count),
          instant(q.lastAskedAt)
        ]),
      'questions'
    )
  )
  return blocks.filter(Boolean).join('\n\n')
}

// ---------------------------------------------------------------------------------------------
// Tables and cells

/** The first rows open, the rest folded into <details>; '' when there are no rows. */
function foldedTable(head: string[], align: string[], rows: string[][], noun: string): string {
  if (rows.length === 0) return ''
  const header = `| ${head.join(' | ')} |\n|${align.join('|')}|`
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  const open = `${header}\n${rows.slice(0, OPEN_ROWS).map(line).join('\n')}`
  const rest = rows.slice(OPEN_ROWS)
  if (rest.length === 0) return open
  // Blank lines around the inner table: GitHub renders Markdown inside HTML blocks only then.
  return [
    open,
    `<details><summary>${formatNumber(rest.length)} more ${noun}</summary>`,
    `${header}\n${rest.map(line).join('\n')}`,
    '</details>'
  ].join('\n\n')
}

function queryCell(text: string): string {
  const shown = clip(text.trim(), TEXT_MAX_CHARS)
  return shown === '' ? '_(empty)_' : escapeText(shown)
}

/** A page path as text, or a link into the docs site when `site-url` is set. */
function pageCell(path: string, siteUrl: string | undefined): string {
  if (path === '') return '_(empty path)_'
  const text = escapeText(clip(path, TEXT_MAX_CHARS))
  const url = siteUrl ? pageUrl(siteUrl, path) : undefined
  return url ? `[${text}](${url})` : text
}

/**
 * The page's address on the docs site, or undefined when the path is not a plain site path.
 * Everything outside a small safe set is percent-encoded, so nothing can end the link, open
 * another one, or leave the site (`//host`, `\\host`, `..`).
 */
export function pageUrl(siteUrl: string, path: string): string | undefined {
  if (!path.startsWith('/') || path.startsWith('//') || /\\|(^|\/)\.\.?(\/|$)/.test(path))
    return undefined
  const bare = path.split(/[?#]/, 1)[0] ?? ''
  const encoded = Array.from(bare, c => (/[A-Za-z0-9\-._~/]/.test(c) ? c : encodeChar(c))).join('')
  return `${siteUrl}${encoded}`
}

function encodeChar(c: string): string {
  return [...Buffer.from(c, 'utf8')]
    .map(b => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('')
}

function footer(r: HealthReport): string {
  const made = r.madeAt.replace('T', ' ').replace(/:\d{2}(\.\d+)?Z$/, ' UTC')
  const parts = [
    `Made ${escapeText(made)}`,
    `${formatNumber(r.requests)} ${plural(r.requests, 'request', 'requests')} to the service`
  ]
  if (r.runUrl) parts.push(`[workflow run](${encodeURI(r.runUrl).replace(/[()]/g, encodeChar)})`)
  return `<sub>${parts.join(' · ')}</sub>`
}

// ---------------------------------------------------------------------------------------------
// Numbers and words

/** An ISO 8601 instant as `YYYY-MM-DD HH:MM UTC`; other text as it is (escaped). */
function instant(text: string | undefined): string {
  if (!text) return '–'
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(text)
  return m ? `${m[1]} ${m[2]} UTC` : escapeText(clip(text, 40))
}

/** " −120 (−3.1%) on the period before." as a sentence of its own, or '' without compare. */
function changeNote(now: number, before: number | undefined, what = ''): string {
  return before === undefined ? '' : ` ${what}${formatChange(now, before)} on the period before.`
}

function share(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)}%`
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many
}

function clip(s: string, max: number): string {
  const chars = Array.from(s)
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`
}

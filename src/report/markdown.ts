// The one Markdown renderer of the action: the job summary and the pull-request/issue comments
// are both built here, so every untrusted string passes through the same escaping.

import { Buffer } from 'node:buffer'
import type { AgentJob, JobStatus, VisitorCounts, VisitorRow } from '../service/schema.js'
import type { DateRange } from '../analytics/period.js'

// ---------------------------------------------------------------------------------------------
// Escaping

/**
 * U+2060 WORD JOINER: invisible and never a line-break opportunity. GitHub links @mentions,
 * #123 references and bare URLs in the *rendered* text, after HTML entities are decoded, so an
 * entity alone does not stop them; a joiner between the trigger character and what follows does.
 */
const JOINER = '\u2060'

/** Markdown/HTML punctuation as numeric entities: they render as the character, never as syntax. */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '\\': '&#92;',
  '`': '&#96;',
  '*': '&#42;',
  _: '&#95;',
  '[': '&#91;',
  ']': '&#93;',
  '(': '&#40;',
  ')': '&#41;',
  '!': '&#33;',
  '~': '&#126;',
  $: '&#36;', // GitHub renders $…$ as math
  '#': `&#35;${JOINER}`, // headings, #123 and org/repo#1 references
  '@': `&#64;${JOINER}`, // @mentions and e-mail autolinks
  ':': `&#58;${JOINER}` // only matched before "//": breaks https:// autolinks
}

const SPECIAL_CHARS = /[&<>|\\`*_[\]()!~$#@]|:(?=\/\/)|(?<=www)\./gi
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/g
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g
/** Bidirectional overrides can make text read differently from what it is ("Trojan Source"). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

function escapeChar(c: string): string {
  if (c === '.') return `${JOINER}.` // "www." stays text, not a link
  return ENTITIES[c] ?? c
}

/** Characters that start a block (list, setext underline) when they open a line. */
function escapeLineStart(s: string): string {
  return s
    .replace(/^-/, '&#45;')
    .replace(/^\+/, '&#43;')
    .replace(/^=/, '&#61;')
    .replace(/^(\d+)\./, '$1&#46;')
}

/**
 * Makes untrusted text (paths, prompts, service messages) inert in Markdown: one line, safe in
 * a GFM table cell and in running text, with no HTML, links, mentions, references or emphasis.
 */
export function escapeText(s: string): string {
  const oneLine = s
    .replace(LONE_SURROGATES, '\ufffd')
    .replace(LINE_BREAKS, ' ')
    .replace(CONTROL_CHARS, ' ')
    .replace(BIDI_CONTROLS, '')
  return escapeLineStart(oneLine.replace(SPECIAL_CHARS, escapeChar))
}

/** Cuts to at most maxChars UTF-16 units without splitting a surrogate pair. */
function cutAt(s: string, maxChars: number): string {
  if (s.length <= maxChars) return s
  const cut = s.slice(0, Math.max(0, maxChars))
  const last = cut.charCodeAt(cut.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut
}

function countCodePoints(s: string): number {
  return Array.from(s).length
}

/** Cuts one-line text to maxChars, marking the cut with "…". */
function clip(s: string, maxChars: number): string {
  return s.length <= maxChars ? s : `${cutAt(s, maxChars - 1)}…`
}

/** One quoted line: leading spaces would otherwise turn into an indented code block. */
function quoteLine(line: string): string {
  const text = line.trimEnd()
  const indent = /^ */.exec(text)?.[0].length ?? 0
  return '&nbsp;'.repeat(indent) + escapeText(text.slice(indent))
}

/** Untrusted multi-line text as a blockquote, each line escaped, cut to maxChars with a note. */
export function quoteBlock(s: string, maxChars: number): string {
  const shown = cutAt(s, maxChars)
  const lines = shown.split(LINE_BREAKS).map(quoteLine)
  const out = lines.map((line, i) => {
    // A trailing backslash is a hard line break, so the prompt keeps its lines; a blank line
    // already separates paragraphs, and a backslash before one would render literally.
    const next = lines[i + 1]
    return line === '' ? '>' : `> ${line}${next ? '\\' : ''}`
  })
  if (shown.length < s.length) {
    const more = countCodePoints(s.slice(shown.length))
    out.push('>', `> _… (${formatNumber(more)} more characters)_`)
  }
  return lines.every(line => line === '') ? '> _(empty)_' : out.join('\n')
}

// ---------------------------------------------------------------------------------------------
// Numbers

export function formatDuration(ms: number): string {
  const seconds = Number.isFinite(ms) && ms > 0 ? Math.round(ms / 1000) : 0
  const pad = (n: number) => String(n).padStart(2, '0')
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${pad(seconds % 60)}s`
  return `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}m`
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US')
}

export function formatShare(part: number, whole: number): string {
  if (!Number.isFinite(whole) || whole === 0) return '–'
  return `${((part / whole) * 100).toFixed(1)}%`
}

const MINUS = '\u2212' // a typographic minus lines up with "+" in table columns

export function formatChange(now: number, before: number | undefined): string {
  if (now === 0 && !before) return '0'
  if (before === undefined || before === 0) return 'new'
  const diff = now - before
  if (diff === 0) return '0'
  const sign = diff > 0 ? '+' : MINUS
  const percent = (Math.abs(diff) / before) * 100
  return `${sign}${formatNumber(Math.abs(diff))} (${sign}${percent.toFixed(1)}%)`
}

// ---------------------------------------------------------------------------------------------
// Links

/** Characters allowed unencoded in a link destination: none of them ends the link or a cell. */
const UNSAFE_IN_DESTINATION = /[^A-Za-z0-9\-._~:/?#@!$&*+,;=%]/g

function percentEncode(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
}

/** A Markdown link destination for a URL we trust (the workflow run). */
function linkDestination(url: string): string {
  return url.replace(UNSAFE_IN_DESTINATION, percentEncode)
}

/** The URL when it is a plain https URL (no credentials), else undefined. */
function parseHttpsUrl(raw: string): URL | undefined {
  if (!URL.canParse(raw)) return undefined
  const url = new URL(raw)
  if (url.protocol !== 'https:' || url.username || url.password) return undefined
  return url
}

// ---------------------------------------------------------------------------------------------
// Agent job report

export interface JobReport {
  projectId: string
  jobId: string
  phase: 'working' | 'done' | 'cancelled' | 'error'
  job?: AgentJob
  status?: JobStatus
  prompt?: string
  elapsedMs: number
  runUrl?: string
  error?: string
  waited: boolean
  trigger?: string
  routedHere?: boolean
}

const PROMPT_MAX_CHARS = 2000
const ERROR_MAX_CHARS = 2000

const STATUS_EMOJI: Readonly<Record<JobStatus, string>> = {
  active: '⏳',
  completed: '✅',
  archived: '📦',
  failed: '❌'
}

function jobStatus(r: JobReport): JobStatus | undefined {
  return r.status ?? r.job?.status
}

function jobHeadline(r: JobReport): string {
  const status = jobStatus(r)
  if (r.phase === 'error') return '⚠️ Docs agent follow-up: error'
  if (r.phase === 'cancelled') return '🚫 Docs agent follow-up: cancelled'
  if (r.phase === 'working' || status === undefined || status === 'active')
    return `⏳ Docs agent follow-up: ${r.waited ? 'working' : 'started'}`
  return `${STATUS_EMOJI[status]} Docs agent follow-up: ${status}`
}

function pullRequestCell(r: JobReport): string {
  const prLink = r.job?.prLink
  if (prLink) {
    const url = parseHttpsUrl(prLink)
    if (!url) return escapeText(clip(prLink, 300))
    return `[${escapeText(clip(url.host + url.pathname, 120))}](${linkDestination(url.href)})`
  }
  return jobStatus(r) === 'completed' ? 'no file changed' : '–'
}

function cell(value: string | null | undefined): string {
  return value ? escapeText(clip(value, 300)) : '–'
}

function jobTable(r: JobReport): string[] {
  const status = jobStatus(r)
  return [
    '| | |',
    '|---|---|',
    `| Job id | ${cell(r.jobId)} |`,
    `| Project | ${cell(r.projectId)} |`,
    `| Status | ${cell(status ?? r.phase)} |`,
    `| Elapsed | ${formatDuration(r.elapsedMs)} |`,
    `| Pull request | ${pullRequestCell(r)} |`,
    `| Repository | ${cell(r.job?.source?.repository)} |`,
    `| Ref | ${cell(r.job?.source?.ref)} |`,
    `| Model | ${cell(r.job?.model)} |`
  ]
}

function jobErrorLine(r: JobReport): string | undefined {
  const detail = r.error ? escapeText(clip(r.error, ERROR_MAX_CHARS)) : undefined
  if (r.phase === 'error') return `**Error:** ${detail ?? 'unknown error'}`
  if (jobStatus(r) === 'failed') return `**The job failed.**${detail ? ` ${detail}` : ''}`
  return undefined
}

/** Markdown for the job summary and the pull-request comment about one follow-up. */
export function renderJobReport(r: JobReport): string {
  const blocks: string[] = [`### ${jobHeadline(r)}`]
  if (r.prompt?.trim()) blocks.push(quoteBlock(r.prompt, PROMPT_MAX_CHARS))
  blocks.push(jobTable(r).join('\n'))
  const errorLine = jobErrorLine(r)
  if (errorLine) blocks.push(errorLine)
  if (!r.waited)
    blocks.push('_Not waited for (wait: false): the job keeps running on the service._')
  if (r.runUrl) blocks.push(`[View workflow run](${linkDestination(r.runUrl)})`)
  if (r.routedHere && r.trigger) {
    blocks.push(
      `Reviewers can reply **${escapeText(r.trigger)} &lt;instruction&gt;** on this pull ` +
        'request to send a follow-up to this job.'
    )
  }
  return blocks.join('\n\n') + '\n'
}

// ---------------------------------------------------------------------------------------------
// Visitors report

export interface VisitorsReport {
  projectId: string
  range: DateRange
  totals: VisitorCounts
  rows: number
  /** Already sorted, most total visitors first. */
  top: VisitorRow[]
  previous?: { range: DateRange; totals: VisitorCounts; byPath: Map<string, VisitorCounts> }
  file?: string
  maxRowsReached?: boolean
}

export interface VisitorsRenderOptions {
  maxChars: number
  /** Trusted Markdown naming where the complete data is, e.g. "`out/visitors.csv`". */
  fullDataHint?: string
}

const CHART_MAX_BARS = 15
const CHART_LABEL_MAX_CHARS = 24
const PATH_MAX_CHARS = 300

/**
 * Size against a budget in UTF-8 bytes: never less than the string length, so a result within
 * budget fits both the comment limit (characters) and the job summary limit (bytes).
 */
function size(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

function describeRange(range: DateRange): string {
  const from = range.dateFrom ? escapeText(range.dateFrom) : undefined
  const to = range.dateTo ? escapeText(range.dateTo) : undefined
  if (from && to) return `${from} → ${to} (end exclusive)`
  if (from) return `since ${from}`
  if (to) return `until ${to} (exclusive)`
  return 'all time'
}

function totalsTable(r: VisitorsReport): string {
  const { totals, previous } = r
  const change = (key: keyof VisitorCounts) =>
    previous ? ` ${formatChange(totals[key], previous.totals[key])} |` : ''
  return [
    `| Traffic | Unique visitors | Share of total |${previous ? ' Change |' : ''}`,
    `|---|---:|---:|${previous ? '---:|' : ''}`,
    `| Human | ${formatNumber(totals.human)} | ${formatShare(totals.human, totals.total)} |${change('human')}`,
    `| AI | ${formatNumber(totals.ai)} | ${formatShare(totals.ai, totals.total)} |${change('ai')}`,
    `| Total | ${formatNumber(totals.total)} | |${change('total')}`
  ].join('\n')
}

function exportedLine(r: VisitorsReport): string {
  const rows = `${formatNumber(r.rows)} ${r.rows === 1 ? 'row' : 'rows'} exported`
  const file = r.file ? ` to ${escapeText(r.file)}` : ''
  const limit = r.maxRowsReached ? ' (stopped at the row limit: the service has more)' : ''
  return `${rows}${file}${limit}.`
}

function reportHead(r: VisitorsReport): string {
  const lines = [
    '### Docs visitors',
    '',
    `**Project:** ${escapeText(r.projectId)} · **Range:** ${describeRange(r.range)}`
  ]
  if (r.previous) lines.push('', `**Compared with:** ${describeRange(r.previous.range)}`)
  lines.push(
    '',
    totalsTable(r),
    '',
    '_Total counts each unique visitor once, so it is not the sum of human and AI._',
    '',
    exportedLine(r)
  )
  return lines.join('\n')
}

function topPagesHeader(withChange: boolean): string {
  return [
    '#### Top pages',
    '',
    `| # | Page | Human | AI | Total |${withChange ? ' Change |' : ''}`,
    `|---:|---|---:|---:|---:|${withChange ? '---:|' : ''}`
  ].join('\n')
}

function topPageRow(r: VisitorsReport, row: VisitorRow, rank: number): string {
  const page = row.path ? escapeText(clip(row.path, PATH_MAX_CHARS)) : '_(empty path)_'
  const counts = `${formatNumber(row.human)} | ${formatNumber(row.ai)} | ${formatNumber(row.total)}`
  const change = r.previous
    ? ` ${formatChange(row.total, r.previous.byPath.get(row.path)?.total)} |`
    : ''
  return `| ${rank} | ${page} | ${counts} |${change}`
}

function omittedNote(omitted: number, fullDataHint: string | undefined): string {
  const where = fullDataHint ? `; the full data is in ${fullDataHint}` : ''
  return `_${formatNumber(omitted)} more ${omitted === 1 ? 'row' : 'rows'} not shown${where}._`
}

/** A Mermaid x-axis label: a small safe charset, so a path cannot break out of the quotes. */
function chartLabel(path: string): string {
  const safe = path.replace(/[^A-Za-z0-9/._~-]/g, '_') || '_'
  return safe.length > CHART_LABEL_MAX_CHARS ? `${safe.slice(0, CHART_LABEL_MAX_CHARS - 1)}…` : safe
}

/** Labels made unique: Mermaid would merge bars with the same category name. */
function uniqueLabels(paths: string[]): string[] {
  const seen = new Map<string, number>()
  return paths.map(path => {
    const label = chartLabel(path)
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} (${count})`
  })
}

function topPagesChart(top: VisitorRow[]): string {
  const bars = top.slice(0, CHART_MAX_BARS)
  if (bars.length === 0) return ''
  const labels = uniqueLabels(bars.map(row => row.path)).map(label => `"${label}"`)
  const values = bars.map(row => (Number.isFinite(row.total) ? Math.round(row.total) : 0))
  return [
    '```mermaid',
    'xychart-beta',
    `    title "Top ${bars.length} pages by unique visitors"`,
    `    x-axis [${labels.join(', ')}]`,
    '    y-axis "Visitors"',
    `    bar [${values.join(', ')}]`,
    '```'
  ].join('\n')
}

/** Table rows that fit in the budget, in order: a row that does not fit ends the table. */
function rowsWithinBudget(r: VisitorsReport, budget: number): string[] {
  const rows: string[] = []
  let used = 0
  for (const [i, row] of r.top.entries()) {
    const line = topPageRow(r, row, i + 1)
    used += size(line) + 1
    if (used > budget) break
    rows.push(line)
  }
  return rows
}

/** Markdown for the visitors export, never longer than opts.maxChars whatever the row count. */
export function renderVisitorsReport(r: VisitorsReport, opts: VisitorsRenderOptions): string {
  const head = reportHead(r)
  if (r.top.length === 0) return fitComment(`${head}\n`, opts.maxChars, opts.fullDataHint)

  const header = topPagesHeader(r.previous !== undefined)
  const longestNote = omittedNote(r.top.length, opts.fullDataHint)
  // Blank lines between blocks and the final newline.
  const separators = 8
  const fixed = size(head) + size(header) + size(longestNote) + separators
  let chart = topPagesChart(r.top)
  if (fixed + size(chart) > opts.maxChars) chart = '' // the table matters more than the chart

  const rows = rowsWithinBudget(r, opts.maxChars - fixed - size(chart))
  const blocks = [head]
  if (rows.length > 0) blocks.push(`${header}\n${rows.join('\n')}`)
  const omitted = r.top.length - rows.length
  if (omitted > 0) blocks.push(omittedNote(omitted, opts.fullDataHint))
  if (chart) blocks.push(chart)
  // Only reached with a budget too small for the fixed parts: cut as a last resort.
  return fitComment(blocks.join('\n\n') + '\n', opts.maxChars, opts.fullDataHint)
}

// ---------------------------------------------------------------------------------------------
// Fitting a comment

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/

/** The fence that is still open at the end of the Markdown, if any (e.g. "```"). */
function openFence(markdown: string): string | undefined {
  let open: string | undefined
  for (const line of markdown.split('\n')) {
    const match = FENCE_LINE.exec(line)
    if (!match) continue
    const [, fence = '', rest = ''] = match
    if (open === undefined) {
      // A backtick fence's info string may not contain backticks, else it is inline code.
      if (!(fence.startsWith('`') && rest.includes('`'))) open = fence
    } else if (fence[0] === open[0] && fence.length >= open.length && rest.trim() === '') {
      open = undefined
    }
  }
  return open
}

/** Cuts at the last line break within maxChars (or mid-line, if there is none). */
function cutAtLine(s: string, maxChars: number): string {
  const cut = cutAt(s, maxChars)
  if (cut.length === s.length) return cut
  const lastBreak = cut.lastIndexOf('\n')
  return lastBreak > 0 ? cut.slice(0, lastBreak) : cut
}

/**
 * Last resort for a body longer than a GitHub comment allows: cut at a line boundary, close an
 * open code fence and say where the full report is. The result is at most maxChars long.
 */
export function fitComment(body: string, maxChars = 65536, note = 'the job summary'): string {
  if (body.length <= maxChars) return body
  const notice = `\n\n_… cut to fit a GitHub comment; the full report is in ${note}._\n`
  let budget = maxChars - notice.length
  // Cutting shorter can only close fences, so a second pass with room for the closing fits.
  for (let attempt = 0; attempt < 3 && budget > 0; attempt++) {
    const cut = cutAtLine(body, budget)
    const fence = openFence(cut)
    const closing = fence ? `\n${fence}` : ''
    if (cut.length + closing.length + notice.length <= maxChars) return cut + closing + notice
    budget = maxChars - notice.length - closing.length
  }
  return cutAt(notice.trim(), maxChars)
}

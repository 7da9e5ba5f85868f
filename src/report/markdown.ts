// Markdown primitives shared by every report: escaping of untrusted text, cutting, links,
// tables, folding. Numbers and times in words are numbers.ts. Fitting a body into its room is fit.ts; the reports themselves
// live in job.ts, visitors.ts, health.ts (with health-tables.ts) and check.ts; the pages table
// in pages-table.ts; the charts in chart.ts.

import { Buffer } from 'node:buffer'
import { clip, cutAt, instructionText, oneLine } from '../public-text.js'
import { formatNumber, formatTimestamp, plural } from './numbers.js'

export { clip, cutAt }

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
  // Only matched before "//" (breaks https:// autolinks) or opening a `:shortcode:` (no emoji).
  ':': `&#58;${JOINER}`
}

/**
 * A run of 7 or more hexadecimal characters standing alone: GitHub links one of 7 to 40 as a
 * commit of the repository (`deadbeefcafe1234`). Broken every HEX_PIECE characters, no piece is
 * long enough to be one.
 */
const HEX_RUN = '(?<!\\w)[0-9a-f]{7,}(?!\\w)'
const HEX_PIECE = 6

/**
 * Where an emoji shortcode opens: a name that starts with a letter (`:smile:`), digits then a
 * letter (`:8ball:`), `:+1:`, `:-1:`, or one of the two all-digit names; a clock time
 * (`12:30:00+02:00`) is left alone.
 */
const SHORTCODE = '[a-z][\\w+-]*:|\\d+[a-z_][\\w+-]*:|[+-]1:|100:|1234:'

const SPECIAL_CHARS = new RegExp(
  `[&<>|\\\\\`*_[\\]()!~$#@]|:(?=\\/\\/|${SHORTCODE})|(?<=www)\\.|(?<=\\bgh)-(?=\\d)|${HEX_RUN}`,
  'gi'
)

function escapeChar(c: string): string {
  if (c === '.') return `${JOINER}.` // "www." stays text, not a link
  if (c === '-') return `-${JOINER}` // only matched in "GH-1": no reference to issue 1
  if (c.length >= 7) return c.replace(new RegExp(`.{${HEX_PIECE}}(?=.)`, 'g'), `$&${JOINER}`)
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
 * Makes untrusted text (paths, prompts, service messages) inert in Markdown: one line cleaned as
 * all text from the public is (public-text.ts: nothing invisible, no control character), safe in
 * a GFM table cell and in running text, with no HTML, links, mentions, references, commit links,
 * emoji shortcodes or emphasis.
 * Only for interpolated values: the action's own Markdown is written as Markdown.
 */
export function escapeText(s: string): string {
  return escapeLineStart(oneLine(s).replace(SPECIAL_CHARS, escapeChar))
}

/**
 * Markdown of ours as a plain-text line (a log line, `::error::`, an annotation, a notice): the
 * entities escapeText wrote are the characters again and its joiners go; a link is its label and
 * its address. Plain-text lines carry no HTML entities: escaping is for Markdown only.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, '$1 ($2)')
    .replace(/&#(\d{1,6});/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&(amp|lt|gt);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>' })[name] ?? '')
    .replaceAll(JOINER, '')
}

// ---------------------------------------------------------------------------------------------
// Cutting

function countCodePoints(s: string): number {
  return Array.from(s).length
}

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' })
/** A character that may take two columns (or half of one that may). */
const WIDE_OR_PAIRED = /[\u1100-\uffff]/

/**
 * Display columns of a grapheme (its first code point decides): 2 for East Asian wide and
 * full-width characters and emoji, 1 for others.
 */
function charWidth(c: string): number {
  const cp = c.codePointAt(0) ?? 0
  return (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
    ? 2
    : 1
}

function takeWidth(chars: readonly string[], width: number): string[] {
  const out: string[] = []
  let used = 0
  for (const c of chars) {
    if (used + charWidth(c) > width) break
    out.push(c)
    used += charWidth(c)
  }
  return out
}

/** The columns text takes on screen: a wide (CJK) character takes two. */
export function displayWidth(s: string): number {
  return Array.from(GRAPHEMES.segment(s), g => charWidth(g.segment)).reduce((n, w) => n + w, 0)
}

/**
 * Clipped by what a reader sees: at most `maxColumns` display columns, whole graphemes only (a
 * vowel sign stays with its letter), so a table cell stays on one line whatever the script. The
 * "…" goes in the middle (a path's both ends say the most) or, with `tailShare` 0, at the end.
 */
export function clipWidth(s: string, maxColumns: number, tailShare = 0.4): string {
  // No character is wider than 2 columns, and none below U+1100 wider than 1: most text is
  // settled without segmenting it (a report may clip 100,000 paths, several times over).
  if (s.length * 2 <= maxColumns || (s.length <= maxColumns && !WIDE_OR_PAIRED.test(s))) return s
  const chars = Array.from(GRAPHEMES.segment(s), g => g.segment)
  if (chars.reduce((n, c) => n + charWidth(c), 0) <= maxColumns) return s
  const tail = Math.floor((maxColumns - 1) * tailShare)
  const head = takeWidth(chars, maxColumns - 1 - tail)
  const end = takeWidth([...chars].reverse(), tail).reverse()
  return `${head.join('').trimEnd()}…${end.join('').trimStart()}`
}

/**
 * A path clipped at its start, where a reader loses least: at most `maxColumns` display columns,
 * "…" first, then whole segments when one fits ("…/integrations/billing"), else the end of the
 * last one. A path's end names the page; its start is the section every sibling shares.
 */
export function clipPath(path: string, maxColumns: number): string {
  const clipped = clipWidth(path, maxColumns, 1)
  if (clipped === path) return path
  const tail = clipped.slice(1)
  const at = tail.indexOf('/')
  return at > 0 && at < tail.length - 1 ? `…${tail.slice(at)}` : clipped
}

/**
 * Untrusted multi-line text verbatim in a fenced code block (GitHub shows it as it is: no
 * Markdown, HTML, links or mentions), cut to maxChars with a note below. The fence is longer than
 * any run of backticks in the text, so no line of it can close the block. Control characters
 * and what renders as nothing (bidi controls, tag characters…) go: a code block must read as
 * what it holds.
 */
export function codeBlock(s: string, maxChars: number, info = 'text'): string {
  const shown = cutAt(s, maxChars)
  const text = instructionText(shown).replace(/\t/g, '    ').replace(/[ ]+$/gm, '')
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), m => m[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  const block = `${fence}${info}\n${text.trim() === '' ? '(empty)' : text.replace(/^\n+|\n+$/g, '')}\n${fence}`
  if (shown.length === s.length) return block
  const more = countCodePoints(s.slice(shown.length))
  return `${block}\n\n_… (${formatNumber(more)} more characters)_`
}

/** The text with its first letter in capitals: a sentence made of a clause. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

// ---------------------------------------------------------------------------------------------
// Links

/** Characters allowed unencoded in a link destination: none of them ends the link or a cell. */
const UNSAFE_IN_DESTINATION = /[^A-Za-z0-9\-._~:/?#@!$&*+,;=%]/g

function percentEncode(c: string): string {
  return Array.from(Buffer.from(c, 'utf8'))
    .map(byte => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('')
}

/** A Markdown link destination for a URL we trust (the workflow run, a checked https URL). */
export function linkDestination(url: string): string {
  return oneLine(url).replace(/\s/g, ' ').replace(UNSAFE_IN_DESTINATION, percentEncode)
}

/** The URL when it is a plain https URL (no credentials), else undefined. */
export function parseHttpsUrl(raw: string): URL | undefined {
  if (!URL.canParse(raw)) return undefined
  const url = new URL(raw)
  if (url.protocol !== 'https:' || url.username || url.password) return undefined
  return url
}

/** `[label](url)` for Markdown we wrote as the label; plain label when the URL is not https. */
export function link(label: string, url: string | undefined): string {
  const checked = url ? parseHttpsUrl(url) : undefined
  return checked ? `[${label}](${linkDestination(checked.href)})` : label
}

/**
 * The address of a page path on the docs site. Every character of the path that could end the
 * destination or change its meaning (`?`, `#`, spaces, parentheses) is percent-encoded, so a path
 * can only ever name a page below `siteUrl`.
 */
export function pageUrl(siteUrl: string, path: string): string | undefined {
  const site = parseHttpsUrl(siteUrl)
  if (!site) return undefined
  const base = site.href.replace(/\/+$/, '')
  const segments = path
    .split('/')
    .filter(segment => segment !== '' && segment !== '.' && segment !== '..')
    .map(segment => encodeURIComponent(oneLine(segment)).replace(/[!'()*]/g, percentEncode))
  return `${base}/${segments.join('/')}`
}

export interface Provenance {
  /** ms epoch the report was made. */
  generatedAt: number
  runUrl?: string
  /** Requests the run sent to the service. */
  requests?: number
  /** What the requests were, e.g. "analytics request". */
  requestNoun?: string
}

/**
 * Where a report comes from, for its meta line: when it was made, the run that made it, what it
 * cost. A comment outlives its run, so a reader needs all three.
 */
export function provenance(p: Provenance): string[] {
  const parts = [`made ${formatTimestamp(p.generatedAt)}`]
  if (p.runUrl) parts.push(link('workflow run', p.runUrl))
  if (p.requests !== undefined) parts.push(plural(p.requests, p.requestNoun ?? 'request'))
  return parts
}

// ---------------------------------------------------------------------------------------------
// Blocks

export interface Column {
  /** Markdown we wrote: a header is never untrusted. */
  header: string
  align?: 'left' | 'right'
}

/** The header and delimiter lines of a GFM table. */
export function tableHead(columns: readonly Column[]): string {
  const header = columns.map(c => c.header).join(' | ')
  const delimiter = columns.map(c => (c.align === 'right' ? '---:' : '---')).join('|')
  return `| ${header} |\n|${delimiter}|`
}

/** One table row of cells that are already Markdown (escaped where untrusted). */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`
}

/** A collapsed block: `summary` is our own text; the body is Markdown (blank lines kept). */
export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`
}

/** Rows a table shows before the rest is folded away: a reader sees the answer, not a wall. */
export const VISIBLE_ROWS = 10

/**
 * A table whose rows past the first `visible` sit in a collapsed block (with the header repeated,
 * so that part is a table of its own), named by the folded ranks: "Pages 11–20" (`noun`: Pages).
 */
export function foldedTable(
  columns: readonly Column[],
  rows: readonly string[],
  noun: string,
  visible = VISIBLE_ROWS
): string {
  const head = tableHead(columns)
  if (rows.length === 0) return ''
  const shown = `${head}\n${rows.slice(0, visible).join('\n')}`
  if (rows.length <= visible) return shown
  const rest = `${head}\n${rows.slice(visible).join('\n')}`
  const label = `${noun} ${formatNumber(visible + 1)}–${formatNumber(rows.length)}`
  return `${shown}\n\n${details(label, rest)}`
}

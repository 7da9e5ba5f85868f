// The set-up check's job summary: the verdict in the title, one row per check (passed, failed,
// not checked), what to change as a numbered list below it, and what the service answered per
// operation (the `service-profile` output): counts and forms only, never a row or a secret. The
// service's words are untrusted and pass through escapeText.
import type { DateRange } from '../period.js'
import type { CursorForm } from '../service/analytics-answers.js'
import { clip, escapeText, tableHead, tableRow } from './markdown.js'
import { formatNumber } from './numbers.js'
import { fitMarkdown, type Room } from './fit.js'
import { shortRange } from './range.js'

export type Operation =
  | 'visitors'
  | 'views'
  | 'searches'
  | 'feedback'
  | 'assistant'
  | 'caller-stats'
  | 'agent'
  | 'feedback-comments'

/** What one operation answered: the `service-profile` entry. */
export interface ProfileEntry {
  operation: Operation
  /** The HTTP status, when the service answered. */
  status?: number
  /** Not sent: `max-requests` was spent, or an earlier request found the service unreachable. */
  notSent?: true
  /** From the request to the answer, retries included. */
  ms: number
  /** Rows in the answer (a count only). */
  rows?: number
  cursor?: CursorForm
  /** The scale of `ctr` in searches: 0-100 or 0-1; unknown when no value tells. */
  ctr?: 'percent' | 'fraction' | 'unknown'
  /** Whether the rows came most first (by `total`; searches by `hits`). */
  sorted?: boolean
  /** Rate-limit headers of the last answer, as sent (redacted, clipped). */
  rateLimit?: Record<string, string>
  /**
   * Written feedback asked with `status=pending,in_progress`: every row sent was pending or in
   * progress, some were not (the filter is ignored), or no row tells.
   */
  statusFilter?: 'honoured' | 'ignored' | 'unknown'
}

/** One line of the check: our words in `seen` and `fix` (Markdown), the service's in `said`. */
export interface CheckLine {
  check: string
  verdict: 'pass' | 'fail' | 'skip'
  /** What was seen, in our words (Markdown we wrote). */
  seen: string
  /** The service's or GitHub's own words (untrusted, redacted), when a request failed. */
  said?: string
  /** What to change (Markdown we wrote), for a line that failed. */
  fix?: string
  /** The line whose failure this one follows from: its fix is the fix (not listed twice). */
  because?: string
}

/** One thing to change, and the checks that failed for want of it. */
export interface Fix {
  checks: string[]
  /** What to change (Markdown we wrote). */
  fix: string
}

/**
 * What to change: each fix once, with the lines that failed on their own account for want of it
 * (six analytics operations a plan lacks are one thing to change, not six).
 */
export function toChange(lines: readonly CheckLine[]): Fix[] {
  const fixes = new Map<string, string[]>()
  for (const line of lines) {
    if (line.verdict !== 'fail' || line.because !== undefined) continue
    const fix = line.fix ?? line.seen
    fixes.set(fix, [...(fixes.get(fix) ?? []), line.check])
  }
  return [...fixes].map(([fix, checks]) => ({ checks, fix }))
}

export interface CheckReport {
  projectId: string
  baseUrl: string
  range: Required<DateRange>
  lines: CheckLine[]
  profile: ProfileEntry[]
  /** Requests the check sent to the service, and the most it may. */
  requests: number
  maxRequests: number
  /** ms epoch the check ran. */
  generatedAt: number
}

const MARK: Record<CheckLine['verdict'], string> = { pass: '✅', fail: '❌', skip: '➖' }
const SAID_MAX_CHARS = 300

/**
 * The line that says whether the key may start agent jobs: never proven without starting one, so
 * a check that passes says "ready to read", not "ready", unless this line passed.
 */
export const JOBS_CHECK = 'Key may start agent jobs'

/** The title's verdict: what is to fix, or ready (to read, while agent jobs are not verified). */
function verdictOf(r: CheckReport, failed: readonly Fix[]): string {
  if (failed.length > 0) return `❌ ${failed.length} to fix`
  const jobs = r.lines.find(line => line.check === JOBS_CHECK)
  return jobs && jobs.verdict !== 'pass' ? '✅ ready to read; agent jobs not verified' : '✅ ready'
}

export function renderCheck(r: CheckReport, room: Room): string {
  const failed = toChange(r.lines)
  const title = `## Set-up check · ${verdictOf(r, failed)}`
  const meta = [
    `Project ${escapeText(r.projectId)}`,
    escapeText(r.baseUrl),
    `analytics of ${shortRange(r.range, r.generatedAt)}`,
    `${r.requests} of at most ${r.maxRequests} requests`
  ].join(' · ')
  const table = [
    tableHead([{ header: '' }, { header: 'Check' }, { header: 'Result' }]),
    ...r.lines.map(line => tableRow([MARK[line.verdict], line.check, resultCell(line)]))
  ].join('\n')
  const fixes = failed.map((f, i) => `${i + 1}. **${joinChecks(f.checks)}**: ${f.fix}`)
  const blocks = [
    title,
    meta,
    table,
    fixes.length > 0 ? `### What to change\n\n${fixes.join('\n')}` : '',
    profileBlock(r.profile)
  ].filter(Boolean)
  return fitMarkdown(`${blocks.join('\n\n')}\n`, room)
}

/** "Analytics: visitors, views, searches": a shared "Analytics:" said once. */
export function joinChecks(checks: readonly string[]): string {
  const prefix = /^[^:]+: /.exec(checks[0] ?? '')?.[0]
  if (prefix && checks.every(c => c.startsWith(prefix)))
    return prefix + checks.map(c => c.slice(prefix.length)).join(', ')
  return checks.join(', ')
}

function resultCell(line: CheckLine): string {
  const said = line.said ? `: ${escapeText(clip(line.said, SAID_MAX_CHARS))}` : ''
  const because = line.because ? ` (see “${line.because}”)` : ''
  return `${line.seen}${said}${because}`
}

/** Per operation what the service answered: the facts no documentation gives. */
function profileBlock(profile: ProfileEntry[]): string {
  if (profile.length === 0) return ''
  const rows = profile.map(e =>
    tableRow([
      `\`${e.operation}\``,
      e.status !== undefined ? String(e.status) : e.notSent ? 'not sent' : 'no answer',
      // A time is one word: it does not wrap in a narrow column.
      `${formatNumber(e.ms)}\u00a0ms`,
      e.rows === undefined ? '–' : formatNumber(e.rows),
      e.cursor ?? '–',
      e.ctr ?? '–',
      e.sorted === undefined ? '–' : e.sorted ? 'yes' : 'no'
    ])
  )
  const head = tableHead([
    { header: 'Operation' },
    { header: 'Status', align: 'right' },
    { header: 'Time', align: 'right' },
    { header: 'Rows', align: 'right' },
    { header: 'Cursor' },
    { header: '`ctr`' },
    { header: 'Sorted' }
  ])
  return [
    '### What the service answered',
    `${head}\n${rows.join('\n')}`,
    rateLimitLine(profile),
    '_Also in the `service-profile` output, as JSON. Rows are counted, never shown._'
  ].join('\n\n')
}

/** The rate-limit headers each operation's answer carried, or that none did. */
function rateLimitLine(profile: ProfileEntry[]): string {
  const sent = profile.filter(e => e.rateLimit)
  if (sent.length === 0) return 'Rate-limit headers: none.'
  const each = sent.map(e => {
    const headers = Object.entries(e.rateLimit ?? {})
      .map(([name, value]) => `${escapeText(name)} ${escapeText(value)}`)
      .join(', ')
    return `\`${e.operation}\`: ${headers}`
  })
  return `Rate-limit headers: ${each.join('; ')}.`
}

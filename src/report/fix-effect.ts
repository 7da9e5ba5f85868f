// "What the fix did": per suggestion whose pull request was merged lately, the subject's rate in
// the period it was suggested and in each complete period since the merge, and the verdict
// (analytics/fix-effect.ts). Folded to one line like the tables below it, and open when a fix
// is measured for the first time. The subject is text from the public: escaped and clipped.
import {
  isCounted,
  RATE_PER,
  rateOf,
  type FixEffect,
  type SubjectKind,
  type SubjectNumbers,
  type Verdict
} from '../analytics/fix-effect.js'
import { isoDay, type DateRange } from '../period.js'
import { details, formatNumber, MARKS, tableHead, tableRow } from './markdown.js'
import { periodNoun, shortRange } from './range.js'
import { inlineSubject, KIND_LABELS } from './suggestions.js'

const DAY = 86_400_000

/** "Nov 12": the day of an instant. */
const dayOf = (ms: number, now: number): string =>
  shortRange({ dateFrom: isoDay(ms), dateTo: isoDay(ms + DAY) }, now)

/** The fixes a comment shows; the `report` output has them all. */
const SHOWN_EFFECTS = 5
const SUBJECT_MAX_CHARS = 36

/** What each kind's rate counts, and among what: "zero-click per 1,000 searches". */
const COUNTED: Record<SubjectKind, readonly [counted: string, among: string]> = {
  gap: ['zero-click', 'searches'],
  page: ['👎', 'views'],
  question: ['unanswered', 'questions']
}

const unitOf = (kind: SubjectKind): string =>
  `${COUNTED[kind][0]} per ${formatNumber(RATE_PER[kind])} ${COUNTED[kind][1]}`

/** "🟢 better", "🔴 worse", "unchanged". */
const verdictText = (v: Verdict): string => (v === 'unchanged' ? v : `${MARKS[v]} ${v}`)

/** "20.0", or "below the top 10 now" (never 0: the rows read cannot say how many). */
export function shownRate(kind: SubjectKind, n: SubjectNumbers): string {
  if (!isCounted(n))
    return n.below > 0 ? `below the top ${n.below} now` : 'not among the rows read now'
  const rate = rateOf(kind, n)
  return rate === undefined ? '–' : rate.toFixed(1)
}

/** "Search gap “rotate key”", "Page /api/auth": the suggestion as the report named it. */
function subjectCell(e: FixEffect): string {
  return `${KIND_LABELS[e.kind]} ${inlineSubject(e.kind === 'page', e.subject, SUBJECT_MAX_CHARS)}`
}

/** "20.0 → 1.8 → 1.1 zero-click per 1,000 searches", its periods in small type under it. */
function ratesCell(e: FixEffect, now: number): string {
  const periods = [e.suggested, ...e.since]
  const rates = periods.map(p => shownRate(e.kind, p.numbers)).join(' → ')
  const when = periods.map(p => shortRange(p.range, now)).join(' → ')
  return `${rates} ${unitOf(e.kind)}<br><sub>${when}</sub>`
}

/** The one line the block folds to: the newest fix, its first and last rate, its verdict. */
function summaryOf(effects: readonly FixEffect[]): string {
  const [e] = effects
  if (!e) return ''
  const last = e.since.at(-1)
  const rates = `${shownRate(e.kind, e.suggested.numbers)} → ${last ? shownRate(e.kind, last.numbers) : '–'}`
  const verdict = e.verdict ? `, ${verdictText(e.verdict)}` : ''
  const more = effects.length > 1 ? ` · ${effects.length - 1} more` : ''
  return `#${e.pr}: ${rates} ${unitOf(e.kind)}${verdict}${more}`
}

/** The block, or '' with no fix measured. */
export function effectBlock(effects: readonly FixEffect[], range: DateRange, now: number): string {
  if (effects.length === 0) return ''
  const rows = effects
    .slice(0, SHOWN_EFFECTS)
    .map(e =>
      tableRow([
        `#${e.pr}`,
        subjectCell(e),
        dayOf(e.mergedAt, now),
        ratesCell(e, now),
        e.verdict ? verdictText(e.verdict) : '–'
      ])
    )
  const noun = periodNoun(range)
  const period = /^\d/.test(noun) ? `period of ${noun}` : noun
  const table = [
    tableHead([
      { header: 'Fix' },
      { header: 'Suggestion' },
      { header: 'Merged' },
      { header: `Rate when suggested → each ${period} since` },
      { header: 'Verdict' }
    ]),
    ...rows
  ].join('\n')
  const cut =
    effects.length > SHOWN_EFFECTS
      ? `\n\n_${effects.length - SHOWN_EFFECTS} more in the \`report\` output._`
      : ''
  const note =
    `Each fixed suggestion's rate in the ${period} it was suggested, then in each complete ` +
    `${period} since its pull request was merged (a rate, so more or less traffic cannot fake ` +
    'a result); the verdict weighs those together by the rule that marks the changes above.'
  // Our own words and numbers only: the subjects are in the table, escaped.
  return details(
    `<b>What the fix did</b> · ${summaryOf(effects)}`,
    `${note}\n\n${table}${cut}`,
    effects.some(e => e.first)
  )
}

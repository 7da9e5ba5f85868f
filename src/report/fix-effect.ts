// "What the fix did": per suggestion whose pull request was merged lately, the subject's rate in
// the period it was suggested and in each complete period since the merge, and the verdict
// (analytics/fix-effect.ts); a fix merged too late for any period says which report first
// measures it. Folded to one line that gives each fix's own verdict, like the tables below it, so
// the overview, trend and suggestions stay on one screen. One short row per fix: its rates, its
// verdict apart, the units said once under the table. The subject is text from the public:
// escaped and clipped.
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
import { details, tableHead, tableRow } from './markdown.js'
import { formatNumber, MARKS, plural } from './numbers.js'
import { periodNoun, shortRange } from './range.js'
import { inlineSubject, KIND_LABELS } from './suggestions.js'

const DAY = 86_400_000

/** "Nov 12": the day of an instant. */
const dayOf = (ms: number, now: number): string =>
  shortRange({ dateFrom: isoDay(ms), dateTo: isoDay(ms + DAY) }, now)

/** The fixes a comment shows; the `report` output has them all. */
const SHOWN_EFFECTS = 5
const SUBJECT_MAX_CHARS = 28

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

/** "20.0", or "not among the 100 rows read" (never 0: the rows read cannot say how many). */
export function shownRate(kind: SubjectKind, n: SubjectNumbers): string {
  if (!isCounted(n)) return `not among the ${plural(n.below, 'row')} read`
  const rate = rateOf(kind, n)
  return rate === undefined ? '–' : rate.toFixed(1)
}

/** "first measured in the report for Nov 16–22". */
const firstMeasuredText = (range: DateRange, now: number): string =>
  `first measured in the report for ${shortRange(range, now)}`

/** "Search gap “rotate key”", "Page /api/auth": the suggestion as the report named it. */
function subjectCell(e: FixEffect): string {
  return `${KIND_LABELS[e.kind]} ${inlineSubject(e.kind === 'page', e.subject, SUBJECT_MAX_CHARS)}`
}

/** "20.0 → 1.8 → 1.1", or "20.0 → first measured in the report for Nov 16–22". */
function ratesCell(e: FixEffect, now: number): string {
  const rates = [e.suggested, ...e.since].map(p => shownRate(e.kind, p.numbers))
  if (e.firstMeasured) rates.push(firstMeasuredText(e.firstMeasured, now))
  return rates.join(' → ')
}

/** A fix's standing in a word or two: its verdict, when it is first measured, or none yet. */
function standing(e: FixEffect, now: number): string {
  if (e.verdict) return verdictText(e.verdict)
  if (e.firstMeasured) return `measured from ${shortRange(e.firstMeasured, now)}`
  return 'no verdict yet'
}

/**
 * The one line the block folds to: each fix's own verdict (or when it is first measured); with
 * one fix, its first and last rate too.
 */
function summaryOf(effects: readonly FixEffect[], now: number): string {
  const [e] = effects
  if (!e) return ''
  if (effects.length === 1) {
    if (e.firstMeasured)
      return `#${e.pr} merged ${dayOf(e.mergedAt, now)}: ${firstMeasuredText(e.firstMeasured, now)}`
    const last = e.since.at(-1)
    const rates = `${shownRate(e.kind, e.suggested.numbers)} → ${last ? shownRate(e.kind, last.numbers) : '–'}`
    const verdict = e.verdict ? `, ${verdictText(e.verdict)}` : ''
    return `#${e.pr}: ${rates} ${unitOf(e.kind)}${verdict}`
  }
  const shown = effects.slice(0, SHOWN_EFFECTS).map(x => `#${x.pr} ${standing(x, now)}`)
  const more = effects.length > SHOWN_EFFECTS ? [`${effects.length - SHOWN_EFFECTS} more`] : []
  return [...shown, ...more].join(' · ')
}

/** The block, or '' with no fix merged lately. */
export function effectBlock(effects: readonly FixEffect[], range: DateRange, now: number): string {
  if (effects.length === 0) return ''
  const rows = effects.slice(0, SHOWN_EFFECTS).map(e =>
    tableRow([
      // One line: the day merged stays with its pull request.
      `#${e.pr}\u00a0·\u00a0${dayOf(e.mergedAt, now).replace(/ /g, '\u00a0')}`,
      subjectCell(e),
      ratesCell(e, now),
      e.verdict ? verdictText(e.verdict) : '–'
    ])
  )
  const noun = periodNoun(range)
  const period = /^\d/.test(noun) ? `period of ${noun}` : noun
  const table = [
    tableHead([
      { header: 'Fix, merged' },
      { header: 'Suggestion' },
      { header: `Rate: suggested → ${period}s since` },
      { header: 'Verdict' }
    ]),
    ...rows
  ].join('\n')
  const cut =
    effects.length > SHOWN_EFFECTS
      ? `\n\n_${effects.length - SHOWN_EFFECTS} more in the \`report\` output._`
      : ''
  const kinds = [...new Set(effects.slice(0, SHOWN_EFFECTS).map(e => e.kind))]
  const units = kinds.map(k => `${KIND_LABELS[k]}: ${unitOf(k)}`).join(' · ')
  const note =
    `_Rates, by kind: ${units}. A rate, so more or less traffic cannot fake a ` +
    `result; the verdict weighs the ${period}s since the merge together against the ${period} ` +
    'suggested, by the rule that marks the changes above._'
  // Our own words and numbers only in the summary: the subjects are in the table, escaped.
  return details(
    `<b>What the fix did</b> · ${summaryOf(effects, now)}`,
    `${table}${cut}\n\n${note}`
  )
}

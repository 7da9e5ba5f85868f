// A period's totals as the sections read them (period-totals.ts says what each number is): the
// range's own, and the period before's (`compare`). The report records both for the next one.
import type { PeriodTotals } from '../period-totals.js'
import type { Section, SectionOutcome } from './outcome.js'

type When = 'range' | 'before'

/** What one section knows of its range, or of the period before. */
function totalsOf(x: Section, when: When): PeriodTotals {
  const pick = <T>(now: T, before: T | undefined): T | undefined =>
    when === 'range' ? now : before
  switch (x.name) {
    case 'visitors':
    case 'views': {
      const counts = pick(x.totals, x.previous)
      return counts ? { [x.name]: counts } : {}
    }
    case 'searches': {
      const searches = pick(x.totalSearches, x.previous)
      return searches !== undefined ? { searches } : {}
    }
    case 'feedback': {
      const thumbsDown = pick(x.thumbsDown, x.previous)
      return thumbsDown !== undefined ? { thumbsDown } : {}
    }
    case 'assistant': {
      const questions = pick(x.callers.total, x.previous)
      const answers = pick({ unanswered: x.unanswered, read: x.read }, x.previousShare)
      return {
        ...(questions !== undefined ? { questions } : {}),
        ...(answers ? { answers } : {})
      }
    }
  }
}

function merged(sections: readonly SectionOutcome[], when: When): PeriodTotals {
  return Object.assign({}, ...sections.map(x => (x.ok ? totalsOf(x, when) : {}))) as PeriodTotals
}

/**
 * Whether a section read its range whole: not narrowed, cut (`max-rows`) or incomplete. Only
 * such a read's totals are recorded for later reports; theirs read that range afresh.
 */
function readWhole(x: Section): boolean {
  if (x.incomplete !== undefined || x.narrowed) return false
  return !((x.name === 'visitors' || x.name === 'views') && x.maxRowsReached)
}

/** What this run's sections read whole of their own range (only those are recorded). */
export function totalsRead(sections: readonly SectionOutcome[]): PeriodTotals {
  return merged(
    sections.filter(x => x.ok && readWhole(x)),
    'range'
  )
}

/** What this run's sections know of the period before (`compare`). */
export function totalsBefore(sections: readonly SectionOutcome[]): PeriodTotals {
  return merged(sections, 'before')
}

/** What this run's sections read of their own range, whole or not: what the report shows. */
export function totalsShown(sections: readonly SectionOutcome[]): PeriodTotals {
  return merged(sections, 'range')
}

// The roll-up's one record (kinds.ts `rollup`): this comment is the roll-up of that range, so a
// re-run edits it and a new week gets its own. A roll-up sends nothing to the service and needs
// no API key; given one (the recipe passes it), its record is signed with it, as every other
// record is: bound to the writer and the thread, with a secret no other workflow holds. Without
// one it is signed with a key everyone can read, and what guards the other workflows' comments
// (all written as `github-actions[bot]`) is the body: a roll-up edits or hides only a comment
// whose text is a roll-up's (series.ts). No other record is read or written by a roll-up.
import type { DateRange } from '../period.js'
import { recordKey } from './kinds.js'

/** What a roll-up without an API key signs its record with: public, see above. */
const ROLLUP_SIGNING_KEY = 'docs-agent-action rollup'

/** The key a run's records are signed with: the API key, or for a roll-up without one the public one. */
export function recordSecret(s: { command: string; apiKey: string }): string {
  return s.command === 'rollup' && s.apiKey === '' ? ROLLUP_SIGNING_KEY : s.apiKey
}

/** The roll-up of a range (the span of its projects' ranges): one comment per range. */
export function rollupKey(range: DateRange): string {
  return recordKey('rollup', { project: '*', from: range.dateFrom ?? '', to: range.dateTo ?? '' })
}

// The roll-up's one record (kinds.ts `rollup`): this comment is the roll-up of that range, so a
// re-run edits it and a new week gets its own. A roll-up has no API key (it sends nothing to the
// service), so its record is signed with a key everyone can read: it counts, as every record
// does, only in a comment the action's own login wrote (thread.ts), and it decides nothing but
// which of those comments a roll-up edits. No other record is read or written by a roll-up.
import type { DateRange } from '../period.js'
import { recordKey } from './kinds.js'

/** What a roll-up's record is signed with: public, see above. */
const ROLLUP_SIGNING_KEY = 'docs-agent-action rollup'

/** The key a run's records are signed with: the API key, or for a roll-up the public one. */
export function recordSecret(s: { command: string; apiKey: string }): string {
  return s.command === 'rollup' ? ROLLUP_SIGNING_KEY : s.apiKey
}

/** The roll-up of a range (the span of its projects' ranges): one comment per range. */
export function rollupKey(range: DateRange): string {
  return recordKey('rollup', { project: '*', from: range.dateFrom ?? '', to: range.dateTo ?? '' })
}

// `/docs-agent fix N [more words]` on an issue that holds a docs-health report: the agent gets
// suggestion N's instruction as the newest report wrote and signed it (report.ts), never the
// comment's visible text, plus the words after N. `fix 1 3` asks for several in one job. On a
// thread with no report of this project, `fix 2 typos` is an ordinary instruction; on one whose
// report the key can no longer read (it was rotated), nothing is sent and the reply says why.
import { shortRange } from '../report/range.js'
import { claimOf } from './kinds.js'
import { readReportRecords, shownReports, type StoredSuggestion } from './report.js'
import type { RecordThread } from './thread.js'

/** A suggestion a `fix N` trigger asks for: what the job's answer records for the next report. */
export interface FixRequest {
  n: number
  /** The suggestion's subject (`gap:…`, `page:…`, `question:…`). */
  id: string
  /** What it is about as the report showed it (the query, path or question): public text. */
  subject: string
}

/** The numbers after `fix` (`fix 1 3`, `fix #1, #3`), each once, and the words after them. */
export interface FixAsked {
  numbers: number[]
  more: string
}

/** `fix N [M …]` and the words after the numbers, when the instruction starts so. */
export function parseFix(prompt: string): FixAsked | undefined {
  const m = /^fix\s+(#?\d{1,4}(?:\s*,?\s*#?\d{1,4})*)(?=\s|$)([\s\S]*)$/i.exec(prompt.trim())
  if (!m) return undefined
  const numbers = [...new Set((m[1] ?? '').match(/\d+/g)?.map(Number) ?? [])]
  return { numbers, more: (m[2] ?? '').trim() }
}

export type FixResolution =
  /** The thread holds no report of this project: the words are an ordinary instruction. */
  | { kind: 'not-a-report' }
  | { kind: 'fix'; fixes: FixRequest[]; prompt: string }
  /** The newest report holds no suggestion N: what to reply (nothing is sent). */
  | { kind: 'no-such-suggestion'; reply: string }
  /** The action's own report is here, but signed with another key: what to reply (nothing sent). */
  | { kind: 'unreadable'; reply: string }

/**
 * The instruction sent: the suggestion's, then the commenter's words after a blank line. Several
 * suggestions are numbered in the order asked, each instruction whole (its data block with it).
 */
function fixPrompt(chosen: readonly StoredSuggestion[], more: string): string {
  const body =
    chosen.length === 1
      ? (chosen[0]?.instruction ?? '')
      : `Do these ${chosen.length} things, in one pull request.\n\n` +
        chosen.map((s, i) => `${i + 1}. ${s.instruction}`).join('\n\n')
  return more === '' ? body : `${body}\n\n${more}`
}

export async function resolveFix(
  thread: RecordThread,
  o: { projectId: string; trigger: string; now: number },
  asked: FixAsked
): Promise<FixResolution> {
  const records = await readReportRecords(thread, o.projectId)
  // The newest report a reader sees: never one a later report of its series hid.
  const newest = shownReports(records.reports, o.projectId)[0]
  if (!newest) {
    const claim = (key: string) => {
      const c = claimOf(key)
      return c?.kind === 'report' && c.project === o.projectId
    }
    return (await thread.holdsUnreadable(claim))
      ? { kind: 'unreadable', reply: unreadableReply(asked.numbers, o.trigger) }
      : { kind: 'not-a-report' }
  }
  const chosen = asked.numbers.map(n => newest.suggestions.find(x => x.n === n))
  if (chosen.every(s => s !== undefined)) {
    const fixes = chosen.map(s => ({ n: s.n, id: s.id, subject: s.subject }))
    return { kind: 'fix', fixes, prompt: fixPrompt(chosen, asked.more) }
  }
  const unknown = asked.numbers.filter((_, i) => chosen[i] === undefined)
  const which = shortRange(newest.range, o.now)
  const numbers = newest.suggestions.map(x => x.n)
  const valid =
    numbers.length === 0
      ? `The newest report on this issue (${which}) has no suggestion to fix.`
      : `The newest report on this issue (${which}) has suggestion${numbers.length === 1 ? '' : 's'} ${list(numbers)}; ` +
        `reply e.g. \`${o.trigger} fix ${numbers[0]}\`${several(numbers, o.trigger)} ` +
        '(words after the numbers are added to the instruction).'
  return {
    kind: 'no-such-suggestion',
    reply: `There is no suggestion${unknown.length === 1 ? '' : 's'} ${list(unknown)}, so nothing was sent to the docs agent. ${valid}`
  }
}

function unreadableReply(numbers: readonly number[], trigger: string): string {
  const n = list(numbers)
  const fix = `fix ${numbers.join(' ')}`
  return (
    `The report on this issue cannot be read with this key, so nothing was sent to the docs agent ` +
    `(suggestion ${n} was not sent, nor "${fix}" as an instruction). Its suggestions were signed ` +
    'with the API key the action had when the report was written, and the key has changed since. ' +
    'Run the report workflow again to post a new report on this issue, then reply with ' +
    `\`${trigger} fix N\` to it.`
  )
}

/** How to ask for several in one job, when the report has several. */
function several(numbers: readonly number[], trigger: string): string {
  if (numbers.length < 2) return ''
  return `, or \`${trigger} fix ${numbers.slice(0, 2).join(' ')}\` for one job with both`
}

/** "1", "1 and 2", "1, 2 and 3". */
function list(numbers: readonly number[]): string {
  if (numbers.length === 1) return String(numbers[0])
  return `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`
}

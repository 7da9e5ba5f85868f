// `/docs-agent fix N [more words]` on an issue that holds a docs-health report: the agent gets
// suggestion N's instruction as the newest report wrote and signed it (report.ts), never the
// comment's visible text, plus the words after N. On a thread with no report of this project,
// `fix 2 typos` is an ordinary instruction; on one whose report the key can no longer read (it
// was rotated), nothing is sent and the reply says why.
import { shortRange } from '../report/range.js'
import { claimOf } from './kinds.js'
import { readReportRecords, type StoredSuggestion } from './report.js'
import type { RecordThread } from './thread.js'

/** The suggestion a `fix N` trigger asks for: what the job's answer records for the next report. */
export interface FixRequest {
  n: number
  /** The suggestion's subject (`gap:…`, `page:…`, `question:…`). */
  id: string
}

/** `fix N` and the words after it, when the instruction starts so. */
export function parseFix(prompt: string): { n: number; more: string } | undefined {
  const m = /^fix\s+#?(\d{1,4})(?=\s|$)([\s\S]*)$/i.exec(prompt.trim())
  if (!m) return undefined
  return { n: Number(m[1]), more: (m[2] ?? '').trim() }
}

export type FixResolution =
  /** The thread holds no report of this project: the words are an ordinary instruction. */
  | { kind: 'not-a-report' }
  | { kind: 'fix'; fix: FixRequest; prompt: string }
  /** The newest report holds no suggestion N: what to reply (nothing is sent). */
  | { kind: 'no-such-suggestion'; reply: string }
  /** The action's own report is here, but signed with another key: what to reply (nothing sent). */
  | { kind: 'unreadable'; reply: string }

/** The instruction sent: the suggestion's, then the commenter's words after a blank line. */
export function fixPrompt(s: StoredSuggestion, more: string): string {
  return more === '' ? s.instruction : `${s.instruction}\n\n${more}`
}

export async function resolveFix(
  thread: RecordThread,
  o: { projectId: string; trigger: string; now: number },
  asked: { n: number; more: string }
): Promise<FixResolution> {
  const records = await readReportRecords(thread, o.projectId)
  const newest = records.reports[0]
  if (!newest) {
    const claim = (key: string) => {
      const c = claimOf(key)
      return c?.kind === 'report' && c.project === o.projectId
    }
    return (await thread.holdsUnreadable(claim))
      ? { kind: 'unreadable', reply: unreadableReply(asked.n, o.trigger) }
      : { kind: 'not-a-report' }
  }
  const s = newest.suggestions.find(x => x.n === asked.n)
  if (s) return { kind: 'fix', fix: { n: s.n, id: s.id }, prompt: fixPrompt(s, asked.more) }
  const which = shortRange(newest.range, o.now)
  const numbers = newest.suggestions.map(x => x.n)
  const valid =
    numbers.length === 0
      ? `The newest report on this issue (${which}) has no suggestion to fix.`
      : `The newest report on this issue (${which}) has suggestion${numbers.length === 1 ? '' : 's'} ${list(numbers)}; ` +
        `reply e.g. \`${o.trigger} fix ${numbers[0]}\` (words after the number are added to its instruction).`
  return {
    kind: 'no-such-suggestion',
    reply: `There is no suggestion ${asked.n}, so nothing was sent to the docs agent. ${valid}`
  }
}

function unreadableReply(n: number, trigger: string): string {
  return (
    `The report on this issue cannot be read with this key, so nothing was sent to the docs agent ` +
    `(suggestion ${n} was not sent, nor "fix ${n}" as an instruction). Its suggestions were signed ` +
    'with the API key the action had when the report was written, and the key has changed since. ' +
    'Run the report workflow again to post a new report on this issue, then reply with ' +
    `\`${trigger} fix N\` to it.`
  )
}

/** "1", "1 and 2", "1, 2 and 3". */
function list(numbers: readonly number[]): string {
  if (numbers.length === 1) return String(numbers[0])
  return `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`
}

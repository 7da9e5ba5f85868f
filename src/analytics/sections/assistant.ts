// The `assistant` section: the number of questions (caller-stats, one request), and from the
// conversations (cursor pages of up to 1000) the share unanswered and the unanswered questions
// asked most often, grouped by their text trimmed and case-folded. Conversations are read only
// up to a cap: the grouping then covers the first ones, and the report says so.
import type { CallerStats, Conversation } from '../../service/analytics.js'
import { readCursorPages } from '../../service/cursor.js'
import { textKey } from '../search-gaps.js'
import type { SectionInput } from './section.js'

export const CONVERSATIONS_LIMIT = 1000
/** Three requests at most: enough for a frequency ranking, cheap against an hourly quota of ~100. */
export const CONVERSATIONS_CAP = 3000

export interface UnansweredQuestion {
  /** The group's most frequent spelling, trimmed, spaces collapsed. */
  question: string
  count: number
  /** The latest timestamp in the group, when the service gave one. */
  lastAskedAt?: string
}

export interface AssistantSection {
  name: 'assistant'
  ok: true
  /** From caller-stats. */
  callers: CallerStats
  /** caller-stats total of the previous period. */
  previous?: number
  /** With `compare`: the previous period's questions read and how many went unanswered. */
  previousShare?: { unanswered: number; read: number }
  /** Questions read (each row is one turn): the share and the grouping cover these. */
  read: number
  /** Conversations among the questions read: their distinct ids (turns of one share its id). */
  conversations: number
  /** Questions read that went unanswered. */
  unanswered: number
  /** The service has no more conversations than those read. */
  complete: boolean
  /** Most asked first, at most `top`. */
  top: UnansweredQuestion[]
  /**
   * The questions (as `textKey` compares them) answered more often than not: a zero-click
   * search the search bar handed to the assistant, which answered it, is no content gap.
   */
  answered: string[]
}

export async function readAssistant(input: SectionInput): Promise<AssistantSection> {
  const { api, range } = input
  const callers = await api.callerStats(range)
  const result = await readQuestions(input, range)
  const unanswered = result.items.filter(c => c.resolutionStatus === 'unanswered')
  const section: AssistantSection = {
    name: 'assistant',
    ok: true,
    callers,
    read: result.items.length,
    conversations: new Set(result.items.map(c => c.id)).size,
    unanswered: unanswered.length,
    complete: result.complete,
    top: groupQuestions(unanswered).slice(0, input.top),
    answered: mostlyAnswered(result.items)
  }
  if (input.previous) {
    const { known, previous } = input
    section.previous = known?.questions ?? (await api.callerStats(previous)).total
    // The share unanswered is what the change is about: more questions is neither good nor bad.
    section.previousShare = known?.answers ?? shareOf((await readQuestions(input, previous)).items)
  }
  return section
}

function shareOf(questions: readonly Conversation[]): { unanswered: number; read: number } {
  const unanswered = questions.filter(c => c.resolutionStatus === 'unanswered').length
  return { unanswered, read: questions.length }
}

/** The texts of the questions answered more often than they went unanswered. */
function mostlyAnswered(questions: readonly Conversation[]): string[] {
  const balance = new Map<string, number>()
  for (const c of questions) {
    const key = textKey(c.query)
    const delta =
      c.resolutionStatus === 'answered' ? 1 : c.resolutionStatus === 'unanswered' ? -1 : 0
    balance.set(key, (balance.get(key) ?? 0) + delta)
  }
  return [...balance].filter(([, n]) => n > 0).map(([key]) => key)
}

/** The questions (turns) of a range, up to the cap, in pages of 1000. */
async function readQuestions(input: SectionInput, range: SectionInput['range']) {
  const result = await readCursorPages<Conversation>({
    fetchPage: async (limit, cursor) => {
      const page = await input.api.conversations(range, limit, cursor)
      return { items: page.conversations, nextCursor: page.hasMore ? page.nextCursor : null }
    },
    limit: CONVERSATIONS_LIMIT,
    enough: CONVERSATIONS_CAP,
    deadline: input.deadline
  })
  if (result.short)
    input.onWarning(
      `Assistant: the service gave fewer questions a page than asked for; the report covers the ${result.items.length} read.`
    )
  return result
}

/**
 * Groups by the text trimmed, spaces collapsed and case-folded; most asked first. A group shows
 * its most frequent spelling (the earliest among equals).
 */
export function groupQuestions(conversations: Conversation[]): UnansweredQuestion[] {
  interface Group {
    count: number
    first: number
    lastAskedAt?: string
    spellings: Map<string, number>
  }
  const groups = new Map<string, Group>()
  conversations.forEach((c, i) => {
    const asked = c.query.trim().replace(/\s+/g, ' ')
    const key = textKey(asked)
    const group = groups.get(key) ?? { count: 0, first: i, spellings: new Map<string, number>() }
    group.count++
    group.spellings.set(asked, (group.spellings.get(asked) ?? 0) + 1)
    if (c.timestamp && (!group.lastAskedAt || c.timestamp > group.lastAskedAt))
      group.lastAskedAt = c.timestamp
    groups.set(key, group)
  })
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .map(g => ({
      question: mostFrequent(g.spellings),
      count: g.count,
      ...(g.lastAskedAt ? { lastAskedAt: g.lastAskedAt } : {})
    }))
}

function mostFrequent(counts: Map<string, number>): string {
  let best = ''
  let most = 0
  for (const [text, n] of counts) {
    if (n > most) [best, most] = [text, n]
  }
  return best
}

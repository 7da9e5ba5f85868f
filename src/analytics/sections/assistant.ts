// The `assistant` section: the number of questions (caller-stats, one request), and from the
// conversations (cursor pages of up to 1000) the share unanswered and the unanswered questions
// asked most often, grouped by their text trimmed and case-folded. Conversations are read only
// up to a cap: the grouping then covers the first ones, and the report says so.
import type { CallerStats, Conversation } from '../../service/analytics-answers.js'
import { readCursorPages } from '../../service/cursor.js'
import { messageOf } from '../../errors.js'
import { publicText } from '../../public-text.js'
import { isGatewayTimeout, weeklyChunks } from '../../service/timeouts.js'
import { byTopic, textKey } from '../search-gaps.js'
import { caveats, type ReadCaveats, type SectionInput } from './section.js'
import { cursorIncomplete, readWholeOrByWeek, type RangeRead } from './weekly.js'

const CONVERSATIONS_LIMIT = 1000
/** Three requests at most: enough for a frequency ranking, cheap against an hourly quota of ~100. */
const CONVERSATIONS_CAP = 3000

export interface UnansweredQuestion {
  /** The group's most frequent spelling, trimmed, spaces collapsed. */
  question: string
  count: number
  /** The latest timestamp in the group, when the service gave one. */
  lastAskedAt?: string
  /**
   * What the assistant answered the group's latest question (its first answer among equals), on
   * one line and clipped: public text, the evidence beside a suggestion (read with the rows, no
   * request of its own).
   */
  answer?: string
}

/** An answer kept as evidence: enough to see what the assistant said, short enough to scan. */
const ANSWER_MAX_CHARS = 300

/** A topic of the questions read (search-gaps.ts topicKey): times asked, times unanswered. */
interface QuestionTopic {
  topic: string
  asked: number
  unanswered: number
}

export interface AssistantSection extends ReadCaveats {
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
   * Every topic among the questions read, answered or not: what a fix did is counted among them
   * all (a question now answered still counts, as 0 unanswered). Not in the JSON; a section
   * made without it (a test's) has only `top`.
   */
  topics?: QuestionTopic[]
  /**
   * The questions (as `textKey` compares them) answered more often than not: a zero-click
   * search the search bar handed to the assistant, which answered it, is no content gap.
   */
  answered: string[]
}

export async function readAssistant(input: SectionInput): Promise<AssistantSection> {
  const { range } = input
  const callers = await readCallers(input, range)
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
    topics: questionTopics(result.items),
    answered: mostlyAnswered(result.items),
    ...caveats(result.notes, cursorIncomplete('Assistant', 'questions', result), result.narrowed)
  }
  if (input.previous) {
    const { known, previous } = input
    section.previous = known?.questions ?? (await readCallers(input, previous)).total
    // The share unanswered is what the change is about: more questions is neither good nor bad.
    section.previousShare = known?.answers ?? shareOf((await readQuestions(input, previous)).items)
  }
  return section
}

function shareOf(questions: readonly Conversation[]): { unanswered: number; read: number } {
  const unanswered = questions.filter(c => c.resolutionStatus === 'unanswered').length
  return { unanswered, read: questions.length }
}

/** Each topic of the questions read, with how often it was asked and went unanswered. */
function questionTopics(questions: readonly Conversation[]): QuestionTopic[] {
  return byTopic(
    questions,
    c => c.query,
    () => 1
  ).map(t => ({
    topic: t.key,
    asked: t.total,
    unanswered: t.rows.filter(c => c.resolutionStatus === 'unanswered').length
  }))
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

/**
 * The questions (turns) of a range, up to the cap, in pages of 1000; by weeks (newest first, the
 * cap shared) when the gateway keeps timing out on the whole range.
 */
async function readQuestions(
  input: SectionInput,
  range: SectionInput['range']
): Promise<RangeRead<Conversation>> {
  let read = 0
  let byWeeks = false
  const result = await readWholeOrByWeek<Conversation>(range, 'questions', async (part, o) => {
    // The weeks share the cap afresh: what the whole range gave before it timed out is dropped.
    if (part !== range && !byWeeks) [byWeeks, read] = [true, 0]
    const enough = CONVERSATIONS_CAP - read
    // The cap is spent: the weeks left are not read (and the reading is not complete).
    if (enough <= 0) return { items: [], complete: false, short: false, endedShort: false }
    const got = await readCursorPages<Conversation>({
      fetchPage: async (size, cursor, ask) => {
        const page = await input.api.conversations(part, size, cursor, ask)
        return { items: page.conversations, nextCursor: page.hasMore ? page.nextCursor : null }
      },
      limit: o.limit ?? CONVERSATIONS_LIMIT,
      enough,
      deadline: input.deadline,
      splittable: o.splittable
    })
    read += got.items.length
    return got
  })
  if (result.failure !== undefined)
    input.onWarning(`Assistant: the reading stopped at a failed page: ${messageOf(result.failure)}`)
  if (result.short)
    input.onWarning(
      `Assistant: the service gave fewer questions a page than asked for; the report covers the ${result.items.length} read.`
    )
  return result
}

/** The caller stats of a range; added up over its weeks when the gateway times out on it whole. */
async function readCallers(
  input: SectionInput,
  range: SectionInput['range']
): Promise<CallerStats> {
  const weeks = weeklyChunks(range)
  try {
    return await input.api.callerStats(range, { halvable: weeks !== undefined })
  } catch (err) {
    if (!weeks || !isGatewayTimeout(err)) throw err
    const sum: CallerStats = { web: 0, api: 0, other: 0, total: 0 }
    for (const week of weeks) {
      const part = await input.api.callerStats(week)
      for (const key of ['web', 'api', 'other', 'total'] as const) sum[key] += part[key]
    }
    return sum
  }
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
    /** The answer to the latest question of the group that has one, and when it was asked. */
    answer?: { text: string; at: string }
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
    const answer = publicText(c.response ?? '', ANSWER_MAX_CHARS)
    const at = c.timestamp ?? ''
    if (answer !== '' && (!group.answer || at > group.answer.at))
      group.answer = { text: answer, at }
    groups.set(key, group)
  })
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .map(g => ({
      question: mostFrequent(g.spellings),
      count: g.count,
      ...(g.lastAskedAt ? { lastAskedAt: g.lastAskedAt } : {}),
      ...(g.answer ? { answer: g.answer.text } : {})
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

// Unit tier: what a fix did (analytics/fix-effect.ts, report/fix-effect.ts): the rate of a
// subject counted among every row read, the verdict by the rule that marks changes, a subject
// absent from every row read ("not among the N rows read", never 0, no verdict), which periods
// count, a fix merged too late to measure yet, the records of a subject's numbers, and how many
// reports in a row made a suggestion.
import { describe, it, expect } from '@jest/globals'
import {
  firstPeriodAfter,
  fixEffects,
  rateOf,
  subjectNumbers,
  verdictOf,
  type EffectInput,
  type SubjectNumbers
} from '../src/analytics/fix-effect.js'
import type { SectionOutcome } from '../src/analytics/sections/outcome.js'
import { decodeNumbers, encodeNumbers, type ReportRecords } from '../src/records/report.js'
import { effectBlock, shownRate } from '../src/report/fix-effect.js'
import { earlierSuggestions, timesSuggested } from '../src/commands/report-memory.js'
import { suggestionsBlock } from '../src/report/suggestions.js'
import type { FixState } from '../src/analytics/suggestions.js'

const week = (from: string, to: string) => ({ dateFrom: from, dateTo: to })
const W1 = week('2026-11-02', '2026-11-09')
const W2 = week('2026-11-09', '2026-11-16')
const W3 = week('2026-11-16', '2026-11-23')
const W4 = week('2026-11-23', '2026-11-30')
const NOW = Date.UTC(2026, 10, 30, 9)

const searches = (rows: [string, number, number][], total: number): SectionOutcome => {
  const top = rows.map(([searchQuery, hits, ctr]) => ({
    searchQuery,
    hits,
    ctr,
    topClickedPage: null
  }))
  return {
    name: 'searches',
    ok: true,
    totalSearches: total,
    top,
    gaps: top.filter(q => q.ctr === 0),
    read: rows.length,
    folded: 0,
    complete: true
  }
}

describe('the rate and the verdict', () => {
  it('rates per 1,000 searches or views, per 100 questions', () => {
    expect(rateOf('gap', { count: 40, of: 2000 })).toBe(20)
    expect(rateOf('page', { count: 3, of: 1500 })).toBe(2)
    expect(rateOf('question', { count: 6, of: 300 })).toBe(2)
    expect(rateOf('gap', { count: 0, of: 0 })).toBeUndefined()
  })

  it('judges the periods since together against the period suggested, by the marks rule', () => {
    const before = { count: 40, of: 2000 }
    // 6 where the old rate gives 82: better.
    expect(
      verdictOf('gap', before, [
        { count: 4, of: 2200 },
        { count: 2, of: 1900 }
      ])
    ).toBe('better')
    // Twice the traffic, twice the count: the same rate, however the count moved.
    expect(verdictOf('gap', before, [{ count: 80, of: 4000 }])).toBe('unchanged')
    // 15 fewer than expected: under the 20 a change needs.
    expect(verdictOf('gap', before, [{ count: 25, of: 2000 }])).toBe('unchanged')
    expect(verdictOf('page', { count: 10, of: 1000 }, [{ count: 60, of: 1000 }])).toBe('worse')
    // A share: 1 percentage point at least.
    expect(verdictOf('question', { count: 10, of: 200 }, [{ count: 9, of: 200 }])).toBe('unchanged')
    expect(verdictOf('question', { count: 10, of: 200 }, [{ count: 7, of: 200 }])).toBe('better')
    // Nothing counted since: no verdict, rather than a guess.
    expect(verdictOf('gap', before, [{ below: 10 }])).toBeUndefined()
  })
})

describe('a subject among every row read', () => {
  it('counts a topic’s zero-click searches among every query read, clicked or below the top', () => {
    const read = searches(
      [
        ['rotate key', 4, 0],
        ['quickstart', 500, 0.4],
        ['sso', 12, 0]
      ],
      2200
    ) as Extract<SectionOutcome, { name: 'searches'; ok: true }>
    // The top shown holds one query; the rows read hold them all.
    const shown = {
      ...read,
      top: read.top.slice(0, 1),
      gaps: read.gaps.slice(0, 1),
      queries: read.top
    }
    expect(subjectNumbers([shown], 'gap:rot key')).toEqual({ count: 4, of: 2200 })
    // Clicked now: the searches that found no click, though it is no gap any more.
    expect(subjectNumbers([shown], 'gap:quickstart')).toEqual({ count: 300, of: 2200 })
    // Below the top shown, still among the rows read.
    expect(subjectNumbers([shown], 'gap:sso')).toEqual({ count: 12, of: 2200 })
    // Absent from every row read: not among the 3 read.
    expect(subjectNumbers([shown], 'gap:webhooks')).toEqual({ below: 3 })
    // A topic's phrasings add up (an earlier version's id names its phrasing's topic).
    const topic = searches(
      [
        ['rotate key', 4, 0],
        ['rotating keys', 10, 0.5]
      ],
      1000
    )
    expect(subjectNumbers([topic], 'gap:rotate key')).toEqual({ count: 9, of: 1000 })
    // Its section not read: nothing known.
    expect(subjectNumbers([], 'gap:rot key')).toBeUndefined()
    expect(subjectNumbers([shown], 'question:how?')).toBeUndefined()
  })

  it('counts a page’s 👎 among every page read, with its views', () => {
    const rows = [
      { path: '/a', thumbsUp: 1, thumbsDown: 30, code: 0, total: 31 },
      { path: '/fixed', thumbsUp: 9, thumbsDown: 2, code: 0, total: 11 },
      { path: '/liked', thumbsUp: 4, thumbsDown: 0, code: 0, total: 4 }
    ]
    const feedback: SectionOutcome = {
      name: 'feedback',
      ok: true,
      thumbsDown: 32,
      thumbsUp: 14,
      code: 0,
      pages: 3,
      hasMore: false,
      top: rows.slice(0, 1),
      rows
    }
    const row = (path: string, total: number) => ({ path, human: total, ai: 0, total })
    const views: SectionOutcome = {
      name: 'views',
      ok: true,
      totals: { human: 9000, ai: 0, total: 9000 },
      rows: 40,
      top: [row('/a', 5000)],
      shown: [row('/fixed', 1000), row('/liked', 800)],
      maxRowsReached: false
    }
    expect(subjectNumbers([feedback, views], 'page:/fixed')).toEqual({ count: 2, of: 1000 })
    expect(subjectNumbers([feedback, views], 'page:/liked')).toEqual({ count: 0, of: 800 })
    expect(subjectNumbers([feedback, views], 'page:/gone')).toEqual({ below: 3 })
    // Its views not read: no rate.
    expect(subjectNumbers([feedback], 'page:/fixed')).toBeUndefined()
  })

  it('counts a question topic’s unanswered among every question read, answered now or not', () => {
    const assistant: SectionOutcome = {
      name: 'assistant',
      ok: true,
      callers: { web: 300, api: 0, other: 0, total: 300 },
      read: 300,
      conversations: 200,
      unanswered: 40,
      complete: true,
      top: [{ question: 'What is SSO?', count: 40 }],
      topics: [
        { topic: 'sso', asked: 50, unanswered: 40 },
        { topic: 'key rot', asked: 12, unanswered: 0 }
      ],
      answered: []
    }
    expect(subjectNumbers([assistant], 'question:How do I rotate a key?')).toEqual({
      count: 0,
      of: 300
    })
    expect(subjectNumbers([assistant], 'question:sso')).toEqual({ count: 40, of: 300 })
    expect(subjectNumbers([assistant], 'question:webhooks')).toEqual({ below: 300 })
  })

  it('says "not among the N rows read", never 0', () => {
    expect(shownRate('gap', { below: 100 })).toBe('not among the 100 rows read')
    expect(shownRate('gap', { below: 1200 })).toBe('not among the 1,200 rows read')
    expect(shownRate('gap', { count: 4, of: 2200 })).toBe('1.8')
  })

  it('records its numbers as text and reads back only what it wrote', () => {
    for (const n of [{ count: 40, of: 2000 }, { below: 10 }] as SubjectNumbers[])
      expect(decodeNumbers(encodeNumbers(n))).toEqual(n)
    expect(encodeNumbers({ count: 40, of: 2000 })).toBe('40 of 2000')
    for (const bad of ['40 of 20', '-1 of 2', '1e3 of 5000', 'below', '4 of 2000 ', ''])
      expect(decodeNumbers(bad)).toBeUndefined()
  })
})

describe('which fixes and periods are measured', () => {
  const recorded = new Map<string, SubjectNumbers>([
    [`${W1.dateFrom} gap:rotate key`, { count: 40, of: 2000 }],
    [`${W3.dateFrom} gap:rotate key`, { count: 4, of: 2200 }]
  ])
  const input = (o: Partial<EffectInput> = {}): EffectInput => ({
    range: W4,
    sections: [searches([['quickstart', 500, 0.4]], 1900)],
    fixes: new Map([
      ['gap:rotate key', { pr: 31, state: 'merged', mergedAt: Date.UTC(2026, 10, 12, 10) }]
    ]),
    reports: [
      { range: W3, suggestions: [] },
      { range: W2, suggestions: [] },
      { range: W1, suggestions: [{ id: 'gap:rotate key', subject: 'rotate key' }] }
    ],
    recorded: (range, id) => recorded.get(`${range.dateFrom} ${id}`),
    ...o
  })

  it('the period suggested, then each complete period since the merge; absent from every row read: no verdict for that period', () => {
    const [e] = fixEffects(input())
    expect(e?.suggested).toEqual({ range: W1, numbers: { count: 40, of: 2000 } })
    // Week 2 began before the merge: not a period of the fix's own.
    expect(e?.since).toEqual([
      { range: W3, numbers: { count: 4, of: 2200 } },
      { range: W4, numbers: { below: 1 } }
    ])
    // Week 3 was counted: its verdict stands.
    expect(e?.verdict).toBe('better')
    const md = effectBlock(e ? [e] : [], W4, NOW)
    expect(md).toContain(
      '| #31\u00a0·\u00a0Nov\u00a012 | Search gap “rotate key” | 20.0 → 1.8 → not among the 1 row read | 🟢 better |'
    )
    // The unit apart, said once under the table.
    expect(md).toContain('_Rates, by kind: Search gap: zero-click per 1,000 searches.')
    expect(md).toMatch(/^<details><summary>/)
  })

  it('a subject that left every row read keeps no "worse" from an earlier week', () => {
    const worse = new Map(recorded)
    worse.set(`${W3.dateFrom} gap:rotate key`, { count: 90, of: 2200 })
    const [e] = fixEffects(input({ recorded: (r, id) => worse.get(`${r.dateFrom} ${id}`) }))
    expect(e?.since.map(p => p.numbers)).toEqual([{ count: 90, of: 2200 }, { below: 1 }])
    expect(e?.verdict).toBeUndefined()
    // Still there this week, and worse: said.
    const still = fixEffects(
      input({
        recorded: (r, id) => worse.get(`${r.dateFrom} ${id}`),
        sections: [searches([['rotate key', 80, 0]], 1900)]
      })
    )[0]
    expect(still?.verdict).toBe('worse')
  })

  it('measured in the first complete period after the merge; folded, the verdict on its line', () => {
    const [e] = fixEffects(input({ range: W3, sections: [searches([['rotate key', 4, 0]], 2200)] }))
    expect(e?.since).toEqual([{ range: W3, numbers: { count: 4, of: 2200 } }])
    expect(effectBlock(e ? [e] : [], W3, NOW)).toMatch(
      /^<details><summary><b>What the fix did<\/b> · #31: 20\.0 → 1\.8 zero-click per 1,000 searches, 🟢 better<\/summary>/
    )
  })

  it('merged inside the week reported: said, with the report that first measures it', () => {
    // Merged Nov 12, inside week 2: week 3 is its first complete week.
    const [e] = fixEffects(input({ range: W2, reports: input().reports.slice(2) }))
    expect(e).toMatchObject({ pr: 31, since: [], firstMeasured: W3 })
    expect(e?.verdict).toBeUndefined()
    const md = effectBlock(e ? [e] : [], W2, NOW)
    expect(md).toContain(
      '<summary><b>What the fix did</b> · #31 merged Nov 12: first measured in the report for Nov 16–22</summary>'
    )
    expect(md).toContain('| 20.0 → first measured in the report for Nov 16–22 | – |')
    // Merged after week 3 ended (before its report ran): week 4 began before it, so week 5.
    const late = new Map([
      ['gap:rotate key', { pr: 31, state: 'merged' as const, mergedAt: Date.UTC(2026, 10, 23, 3) }]
    ])
    const [after] = fixEffects(input({ range: W3, fixes: late, reports: input().reports.slice(2) }))
    expect(after?.firstMeasured).toEqual(week('2026-11-30', '2026-12-07'))
  })

  it('gives each fix its own verdict on the folded line', () => {
    const fixes = new Map([
      ['gap:rotate key', { pr: 31, state: 'merged' as const, mergedAt: Date.UTC(2026, 10, 12) }],
      ['gap:sso', { pr: 33, state: 'merged' as const, mergedAt: Date.UTC(2026, 10, 25) }]
    ])
    const both = new Map(recorded)
    both.set(`${W1.dateFrom} gap:sso`, { count: 30, of: 2000 })
    const effects = fixEffects(
      input({
        fixes,
        recorded: (r, id) => both.get(`${r.dateFrom} ${id}`),
        reports: [
          ...input().reports.slice(0, 2),
          {
            range: W1,
            suggestions: [
              { id: 'gap:rotate key', subject: 'rotate key' },
              { id: 'gap:sso', subject: 'sso' }
            ]
          }
        ]
      })
    )
    expect(effects.map(e => [e.pr, e.verdict, e.firstMeasured])).toEqual([
      [33, undefined, week('2026-11-30', '2026-12-07')],
      [31, 'better', undefined]
    ])
    const md = effectBlock(effects, W4, NOW)
    expect(md).toContain(
      '<summary><b>What the fix did</b> · #33 measured from Nov 30 – Dec 6 · #31 🟢 better</summary>'
    )
    // One short row per fix.
    expect(md.split('\n').filter(l => l.startsWith('| #'))).toHaveLength(2)
  })

  it('the next period of a month is the next calendar month', () => {
    const october = week('2026-10-01', '2026-11-01')
    expect(firstPeriodAfter(october, Date.UTC(2026, 9, 15))).toEqual(
      week('2026-11-01', '2026-12-01')
    )
    expect(firstPeriodAfter(october, Date.UTC(2026, 10, 2))).toEqual(
      week('2026-12-01', '2027-01-01')
    )
    expect(firstPeriodAfter(W3, Date.UTC(2026, 10, 17))).toEqual(W4)
  })

  it('nothing for a fix merged more than 8 periods ago, not merged, or never suggested here', () => {
    const long = new Map([
      ['gap:rotate key', { pr: 31, state: 'merged' as const, mergedAt: Date.UTC(2026, 8, 20) }]
    ])
    expect(fixEffects(input({ fixes: long }))).toEqual([])
    const open = new Map([['gap:rotate key', { pr: 31, state: 'open' as const }]])
    expect(fixEffects(input({ fixes: open }))).toEqual([])
    expect(fixEffects(input({ reports: [] }))).toEqual([])
    expect(effectBlock([], W4, NOW)).toBe('')
  })
})

describe('a suggestion made again', () => {
  const records = (suggested: { range: typeof W1; ids: string[] }[]): ReportRecords => ({
    reports: suggested.map((r, i) => ({
      range: r.range,
      at: i,
      commentId: i,
      suggestions: r.ids.map((id, n) => ({ n: n + 1, id, subject: id, instruction: 'x' }))
    })),
    fixes: new Map(),
    totals: () => undefined,
    measured: () => undefined
  })

  it('counts the reports in a row that made it, this one included', () => {
    const r = records([
      { range: W3, ids: ['gap:a'] },
      { range: W2, ids: ['gap:a', 'gap:b'] },
      { range: W1, ids: ['gap:b'] }
    ])
    expect(timesSuggested(r, W4, 'gap:a')).toBe(3)
    expect(timesSuggested(r, W4, 'gap:b')).toBe(1)
    expect(timesSuggested(r, W3, 'gap:b')).toBe(3)
    // A week with no report breaks the row.
    expect(timesSuggested(records([{ range: W2, ids: ['gap:a'] }]), W4, 'gap:a')).toBe(1)
    expect(timesSuggested(undefined, W4, 'gap:a')).toBe(1)
  })
})

describe('taken from the last report', () => {
  const last = {
    range: W3,
    at: 0,
    commentId: 10,
    suggestions: ['gap:a', 'gap:b', 'page:/c'].map((id, i) => ({
      n: i + 1,
      id,
      subject: id.slice(id.indexOf(':') + 1),
      instruction: 'x'
    }))
  }
  const records = (fixes: [string, number, number][]): ReportRecords => ({
    reports: [last],
    fixes: new Map(fixes.map(([id, commentId, pr]) => [id, { id, at: 0, commentId, pr }])),
    totals: () => undefined,
    measured: () => undefined
  })
  const states = new Map<string, FixState>([
    ['gap:a', { pr: 31, state: 'open' }],
    ['page:/c', { pr: 31, state: 'open' }],
    ['gap:b', { pr: 30, state: 'merged', mergedAt: Date.UTC(2026, 10, 12) }]
  ])
  const line = (
    r: ReportRecords,
    held: Parameters<typeof earlierSuggestions>[3] = [],
    followed = new Set<number>()
  ) => suggestionsBlock([], earlierSuggestions(r, W4, states, held, followed), '/docs-agent', W4)

  it('lists only what a `fix N` asked for after that report, each pull request once', () => {
    // `fix 1 3` answered after the report (comment 11): one pull request for both. "gap:b" was
    // fixed from an older report (comment 5) and suggested again: nobody took it from this one.
    const r = records([
      ['gap:a', 11, 31],
      ['page:/c', 11, 31],
      ['gap:b', 5, 30]
    ])
    expect(line(r)).toBe(
      '_Taken from the last report:_ “a”, /c: #31 open · its other one not taken'
    )
    // Nobody asked after it: no line at all, whatever was asked before.
    expect(line(records([['gap:b', 5, 30]]))).toBe('')
    // The same week written again in a new comment after the fix (a re-run that hides the old
    // one): the fix was still asked for after that week was first posted.
    const again = records([['gap:a', 11, 31]])
    again.reports.unshift({ ...last, commentId: 20 })
    expect(line(again)).toBe('_Taken from the last report:_ “a”: #31 open · its other 2 not taken')
  })

  it('says a held fix once: not when its pull request is taken above, nor when what the fix did follows it', () => {
    const r = records([['gap:a', 11, 31]])
    const held = [
      {
        suggestion: {
          kind: 'gap' as const,
          id: 'gap:d',
          query: 'd',
          hits: 9,
          phrasings: ['d'],
          prefixes: []
        },
        fix: { pr: 31, state: 'open' as const }
      },
      {
        suggestion: {
          kind: 'gap' as const,
          id: 'gap:e',
          query: 'e',
          hits: 9,
          phrasings: ['e'],
          prefixes: []
        },
        fix: { pr: 33, state: 'merged' as const, mergedAt: Date.UTC(2026, 10, 25) }
      }
    ]
    expect(line(r, held)).toBe(
      '_Taken from the last report:_ “a”: #31 open · its other 2 not taken  \n' +
        '_Fixes asked for:_ “e”: #33 merged 2026-11-25'
    )
    expect(line(r, held, new Set([33]))).toBe(
      '_Taken from the last report:_ “a”: #31 open · its other 2 not taken'
    )
  })
})

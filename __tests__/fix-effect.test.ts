// Unit tier: what a fix did (analytics/fix-effect.ts, report/fix-effect.ts): the rate of a
// subject, the verdict by the rule that marks changes, a subject that left the rows read
// ("below the top N now", never 0), which periods count, the records of a subject's numbers,
// and how many reports in a row made a suggestion.
import { describe, it, expect } from '@jest/globals'
import {
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
import { timesSuggested } from '../src/commands/report-memory.js'

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

describe('a subject in the rows read', () => {
  it('counts a zero-click query among all searches, and one that left the rows as below the top N', () => {
    const read = [
      searches(
        [
          ['rotate key', 4, 0],
          ['quickstart', 500, 0.4],
          ['sso', 12, 0]
        ],
        2200
      )
    ]
    expect(subjectNumbers(read, 'gap:rotate key')).toEqual({ count: 4, of: 2200 })
    // Clicked now: the searches that found no click.
    expect(subjectNumbers(read, 'gap:quickstart')).toEqual({ count: 300, of: 2200 })
    expect(subjectNumbers(read, 'gap:webhooks')).toEqual({ below: 2 })
    // Its section not read: nothing known.
    expect(subjectNumbers([], 'gap:rotate key')).toBeUndefined()
    expect(subjectNumbers(read, 'question:how?')).toBeUndefined()
  })

  it('says "below the top N now", never 0', () => {
    expect(shownRate('gap', { below: 10 })).toBe('below the top 10 now')
    expect(shownRate('gap', { below: 0 })).toBe('not among the rows read now')
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

  it('the period suggested, then each complete period since the merge; gone from the rows: below', () => {
    const [e] = fixEffects(input())
    expect(e?.suggested).toEqual({ range: W1, numbers: { count: 40, of: 2000 } })
    // Week 2 began before the merge: not a period of the fix's own.
    expect(e?.since).toEqual([
      { range: W3, numbers: { count: 4, of: 2200 } },
      { range: W4, numbers: { below: 0 } }
    ])
    expect(e?.verdict).toBe('better')
    expect(e?.first).toBe(false)
    const md = effectBlock(e ? [e] : [], W4, NOW)
    expect(md).toContain('20.0 → 1.8 → not among the rows read now zero-click per 1,000 searches')
    expect(md).toMatch(/^<details><summary>/)
  })

  it('measured for the first time: the block opens', () => {
    const [e] = fixEffects(input({ range: W3, sections: [searches([['rotate key', 4, 0]], 2200)] }))
    expect(e?.first).toBe(true)
    expect(effectBlock(e ? [e] : [], W3, NOW)).toMatch(
      /^<details open><summary><b>What the fix did<\/b> · #31: 20\.0 → 1\.8 zero-click per 1,000 searches, 🟢 better/
    )
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

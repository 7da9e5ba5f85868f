// Scenario tier (__tests__/runner.ts): what a fix did, over four weeks in one issue. Week 1
// suggests a search gap (40 zero-click searches of 2,000); `/docs-agent fix 1` starts the agent;
// its pull request merges in week 2; weeks 3 and 4 show 4 of 2,200 and 2 of 1,900. The reports
// of weeks 3 and 4 show the rate before and after each week, and the verdict, from the rows they
// read and the numbers earlier reports recorded: no request more than the same weeks without a
// fix.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { gapId } from '../src/analytics/suggestions.js'
import { runScenario } from './runner.js'
import {
  errorsOf,
  expectNoStack,
  triggerComment,
  withGitHub,
  withService,
  type GitHub,
  type RunResult,
  type Service
} from './support.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report's JSON, which the assertions check
type Json = Record<string, any>

const ISSUE = 12
const WEEKS = [
  { 'date-from': '2026-11-02', 'date-to': '2026-11-09' },
  { 'date-from': '2026-11-09', 'date-to': '2026-11-16' },
  { 'date-from': '2026-11-16', 'date-to': '2026-11-23' },
  { 'date-from': '2026-11-23', 'date-to': '2026-11-30' }
]
const GAP = 'rotate api key'

/** A week's search log: the gap's zero-click searches among `total`, the rest clicked. */
function searchLog(gap: number, total: number) {
  const row = (searchQuery: string, hits: number, ctr: number) => ({
    searchQuery,
    hits,
    ctr,
    topClickedPage: ctr === 0 ? null : '/docs/quickstart',
    lastSearchedAt: '2026-11-03T10:00:00Z'
  })
  return [row('install cli', total - gap - 500, 61.5), row('quickstart', 500, 40), row(GAP, gap, 0)]
}

const SEARCHES_BY_DATE = {
  '2026-11-02': searchLog(40, 2_000),
  '2026-11-09': searchLog(30, 2_100),
  '2026-11-16': searchLog(4, 2_200),
  '2026-11-23': searchLog(2, 1_900)
}

const common = (sim: Service) => ({
  'api-key': SIM_API_KEY,
  'project-id': 'acme-docs',
  'base-url': sim.url
})

function report(sim: Service, gh: GitHub, week: Record<string, string>): Promise<RunResult> {
  return runScenario({
    inputs: {
      ...common(sim),
      command: 'report',
      compare: 'true',
      trend: '8',
      // One page at a time: read-ahead past the end would make the counts compared below race.
      concurrency: '1',
      'issue-number': String(ISSUE),
      ...week
    },
    env: { GITHUB_API_URL: gh.url }
  })
}

function trigger(sim: Service, gh: GitHub, body: string): Promise<RunResult> {
  return runScenario({
    inputs: { ...common(sim), command: 'message', 'poll-interval': '1', 'wait-timeout': '5m' },
    env: { GITHUB_API_URL: gh.url },
    ...triggerComment(
      gh,
      ISSUE,
      body,
      false,
      { login: 'octocat', type: 'User' },
      'Docs health (weekly)'
    )
  })
}

const jsonOf = (r: RunResult): Json => JSON.parse(r.outputs.report ?? '{}') as Json
const reports = (gh: GitHub): string[] =>
  (gh.comments.get(ISSUE) ?? [])
    .filter(c => c.user.type === 'Bot' && c.body.startsWith('## Docs health'))
    .map(c => c.body)

function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
  expectNoStack(r)
}

/** The four weekly reports in one issue; `between` runs after each week's report. */
async function fourWeeks(
  between: (week: number, sim: Service, gh: GitHub) => Promise<void>
): Promise<{ runs: RunResult[]; bodies: string[] }> {
  return withGitHub({ permissions: { octocat: 'write' } }, async gh =>
    withService(
      {
        searchesByDate: SEARCHES_BY_DATE,
        jobs: [],
        created: { activePolls: 1, prLink: 'https://github.com/octo/docs/pull/31' }
      },
      async sim => {
        const runs: RunResult[] = []
        for (const [i, week] of WEEKS.entries()) {
          const r = await report(sim, gh, week)
          expectSuccess(r)
          runs.push(r)
          await between(i + 1, sim, gh)
        }
        return { runs, bodies: reports(gh) }
      }
    )
  )
}

describe('what the fix did', () => {
  it('four weeks: 20.0 → 1.8 → 1.1 zero-click searches per 1,000, better, at no extra request', async () => {
    const fixed = await fourWeeks(async (week, sim, gh) => {
      if (week === 1) {
        // Suggestion 1 is the gap: one job, its pull request #31, merged in week 2.
        expectSuccess(await trigger(sim, gh, '/docs-agent fix 1'))
        gh.pulls.set(31, { state: 'closed', merged_at: '2026-11-12T10:00:00Z' })
      }
    })
    const first = jsonOf(fixed.runs[0]!).suggestions as Json[]
    expect(first[0]).toMatchObject({ n: 1, id: gapId(GAP) })

    // Week 2: merged during the week, so no week is measured yet.
    expect(jsonOf(fixed.runs[1]!).fixEffects).toEqual([])
    expect(fixed.bodies[1]).not.toContain('What the fix did')

    // Week 3: measured for the first time, so the block is open.
    const three = (jsonOf(fixed.runs[2]!).fixEffects as Json[])[0]!
    expect(three).toMatchObject({
      id: gapId(GAP),
      pr: 31,
      per: 1000,
      suggested: { count: 40, of: 2000, rate: 20 },
      since: [{ count: 4, of: 2200, rate: 1.8 }],
      verdict: 'better'
    })
    expect(fixed.bodies[2]).toContain('<details open><summary><b>What the fix did</b>')
    expect(fixed.bodies[2]).toContain('20.0 → 1.8 zero-click per 1,000 searches')

    // Week 4: every complete week since the merge, folded to one line (nothing new measured).
    const four = (jsonOf(fixed.runs[3]!).fixEffects as Json[])[0]!
    expect(four.since).toEqual([
      expect.objectContaining({ count: 4, of: 2200, rate: 1.8 }),
      expect.objectContaining({ count: 2, of: 1900, rate: 1.1 })
    ])
    expect(four.verdict).toBe('better')
    const body = fixed.bodies[3]!
    expect(body).toContain(
      '<details><summary><b>What the fix did</b> · #31: 20.0 → 1.1 zero-click per 1,000 searches, 🟢 better</summary>'
    )
    expect(body).toContain(
      '| #31 | Search gap “rotate api key” | Nov 12 | 20.0 → 1.8 → 1.1 zero-click per 1,000 searches'
    )
    expect(body).toContain('🟢 better |')

    // The same four weeks without a fix: each report costs the same requests.
    const plain = await fourWeeks(async () => {})
    expect(fixed.runs.map(r => r.outputs.requests)).toEqual(plain.runs.map(r => r.outputs.requests))
    expect(plain.bodies.some(b => b.includes('What the fix did'))).toBe(false)
    // Without the fix, the gap is suggested again each week while the data raises it.
    expect(plain.bodies[1]).toMatch(
      /\*\*Search gap\*\* \(again, 2nd week\) ↳ _30 searches in Nov 9–15, no click/
    )
  })
})

// Scenario tier (__tests__/runner.ts): the checks gate cannot be fooled (issue 49, items 1 and 2).
// 101 check runs on the agent's pull request, the 101st failing: every page is read, so
// `require` fails and `fix checks` sends that run's annotations; a listing GitHub counts more of
// than 10 pages hold is never green. A check that never ends, with slow annotations, under
// `wait-timeout: 10s`: the run ends near 10 s on the test clock and no read starts after it.
import { describe, it, expect } from '@jest/globals'
import { simClock } from '../sim/clock.js'
import { headSha, triggerComment } from '../sim/github.js'
import { botComments, errorsOf, expectNoStack, withAgentJob } from './support.js'

type Seed = {
  name: string
  states: { status: 'queued' | 'in_progress' | 'completed'; conclusion?: string }[]
  annotations?: { path: string; line?: number; level?: string; message: string }[]
}

const passing = (n: number): Seed[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `build (matrix ${i + 1})`,
    states: [{ status: 'completed', conclusion: 'success' }]
  }))
const LAST_FAILING: Seed = {
  name: 'Mintlify: broken links',
  states: [{ status: 'completed', conclusion: 'failure' }],
  annotations: [
    { path: 'api/limits.mdx', line: 12, message: 'Broken link: /api/rate-limits does not exist' },
    { path: 'api/limits.mdx', line: 30, level: 'warning', message: 'Heading level skipped' }
  ]
}

type Request = { method: string; path: string; query: Record<string, string>; at: number }
const reads = (gh: { requests: Request[] }, suffix: string) =>
  gh.requests.filter(q => q.method === 'GET' && q.path.endsWith(suffix))

describe('every check run read, or not green', () => {
  it('101 check runs, the 101st failing: `require` fails (checks=failure), and `fix checks` sends its failure, not its warning', async () => {
    const checkRuns = { [headSha(21)]: [...passing(100), LAST_FAILING] }
    const permissions = { octocat: 'write' as const }
    await withAgentJob(
      { checkRuns, permissions, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, sim, create }) => {
        const r = await create({ checks: 'require' })
        expectNoStack(r)
        expect(r.code).toBe(1)
        expect(r.outputs.checks).toBe('failure')
        // Both pages of the one read: 100, then the 101st.
        expect(reads(gh, '/check-runs').map(q => q.query.page)).toEqual(['1', '2'])
        expect(errorsOf(r)[0]).toContain('"Mintlify: broken links" (failure)')
        const [answer] = botComments(gh, 5)
        for (const text of [answer ?? '', r.summary]) {
          expect(text).toContain('❌ 1 failed · ✅ 100 passed')
          // The failing run is listed first, with its annotations; the passing ones counted.
          expect(text).toMatch(/:\*\* ❌ 1 failed · ✅ 100 passed\n- ❌ \[Mintlify: broken links\]/)
          expect(text).toContain('`api/limits.mdx:12` Broken link: /api/rate-limits does not exist')
          expect(text).toContain('`api/limits.mdx:30` (warning) Heading level skipped')
          expect(text).toContain('- and 81 more check runs')
          expect(text).toMatch(/### ❌ Opened \[#21\]\([^)]+\) · 1 check failed/)
        }

        const before = sim.requests.length
        const fix = await create(
          { command: 'message', prompt: '' },
          triggerComment(gh, 21, '/docs-agent fix checks')
        )
        expect(fix.code).toBe(0)
        const sent = sim.requests.slice(before).filter(q => q.kind === 'message')
        expect(sent).toHaveLength(1)
        const prompt = String((JSON.parse(sent[0]?.body ?? '{}') as { prompt?: string }).prompt)
        expect(prompt).toContain('Check run: "Mintlify: broken links" (failure)')
        expect(prompt).toContain(
          '- api/limits.mdx:12 "Broken link: /api/rate-limits does not exist"'
        )
        // A warning is no failure: not sent as one.
        expect(prompt).not.toContain('Heading level skipped')
      }
    )
  })

  it('1,001 check runs, all passing: 10 pages read, the one not read keeps `checks` from success, and `require` fails naming it', async () => {
    const checkRuns = { [headSha(21)]: passing(1001) }
    await withAgentJob(
      { checkRuns, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, create }) => {
        const show = await create({ checks: 'show' })
        expect(show.code).toBe(0)
        expect(show.outputs.checks).toBe('pending')
        expect(reads(gh, '/check-runs')).toHaveLength(10)
        expect(show.summary).toContain('✅ 1,000 passed · ❔ 1 not read')
        expect(show.summary).toContain(
          'GitHub lists 1,001 check runs; 1 was not read (at most 1,000 are read), and a check not read is not taken as passed.'
        )
        expect(show.summary).toMatch(/### ⚠️ Opened \[#21\]\([^)]+\) · 1 check not read/)

        const require = await create({ checks: 'require' })
        expect(require.code).toBe(1)
        expect(require.outputs.checks).toBe('pending')
        expect(errorsOf(require)[0]).toContain(
          '1 of the 1001 GitHub lists not read (at most 1,000 are read): a check not read is not taken as passed'
        )
      }
    )
  })
})

describe('no read after `wait-timeout`', () => {
  it('a check that never ends, slow annotations, `wait-timeout: 10s`: ends near 10 s, nothing read after it, the annotations said not read', async () => {
    const checkRuns = {
      [headSha(21)]: [
        { name: 'Mintlify: deployment', states: [{ status: 'in_progress' as const }] },
        LAST_FAILING
      ]
    }
    await withAgentJob(
      { checkRuns, annotationsDelayMs: 30_000, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, create }) => {
        const started = simClock.now()
        const r = await create({ checks: 'wait', 'wait-timeout': '10s' })
        expectNoStack(r)
        expect(r.code).toBe(0)
        expect(r.outputs.checks).toBe('failure')
        // Near 10 s on the test clock: the wait's 10 s after the service's answer, and no more.
        expect(r.durationMs).toBeGreaterThanOrEqual(10_000)
        expect(r.durationMs).toBeLessThan(12_000)
        const deadline = started + 10_000 + 1_500
        const late = gh.requests.filter(q => q.at > deadline)
        expect(late.map(q => `${q.method} ${q.path}`)).toEqual([])
        // The last read of the check runs started before the deadline; no annotation was asked.
        expect(reads(gh, '/annotations')).toEqual([])
        const [answer] = botComments(gh, 5)
        for (const text of [answer ?? '', r.summary]) {
          expect(text).toContain('❌ 1 failed · ⏳ 1 still running')
          expect(text).toContain('its 2 annotations not read: time ran out (`wait-timeout`)')
          expect(text).toContain('The wait (`wait-timeout`) ended before every check finished.')
        }
      }
    )
  })

  it('a check that completes near the end with annotations GitHub answers after 30 s: the read is cut at 10 s', async () => {
    const running = { status: 'in_progress' as const }
    const late: Seed = {
      ...LAST_FAILING,
      states: [running, running, running, ...LAST_FAILING.states]
    }
    await withAgentJob(
      {
        checkRuns: { [headSha(21)]: [late] },
        annotationsDelayMs: 30_000,
        pulls: { 5: { state: 'open' as const } }
      },
      async ({ gh, create }) => {
        const started = simClock.now()
        const r = await create({ checks: 'wait', 'wait-timeout': '10s' })
        expect(r.code).toBe(0)
        expect(r.outputs.checks).toBe('failure')
        expect(reads(gh, '/annotations')).toHaveLength(1)
        // Asked while time was left, and cut when it ran out (not given a few seconds more).
        expect(reads(gh, '/annotations')[0]!.at).toBeLessThan(started + 10_000)
        expect(r.durationMs).toBeLessThan(12_000)
        expect(gh.requests.filter(q => q.at > started + 11_500)).toEqual([])
        expect(r.summary).toContain('its 2 annotations not read: time ran out (`wait-timeout`)')
      }
    )
  })
})

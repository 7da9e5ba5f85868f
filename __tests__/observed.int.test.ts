// Scenario tier (__tests__/runner.ts). The service as it really answers (issue: "The service as it
// really answers, and a hard request budget"), against the simulators in their observed modes:
// `ctr` as a percentage, a 429 in plain text with no Retry-After, a feature that is off answering
// 200 with nothing, rows that are turns, deduplicated totals, 404 pointing at the project, and
// `max-requests` and `trend`.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario, type RunResult } from './runner.js'
import { annotationsOf, errorsOf, withService, type Service } from './support.js'

type Json = Record<string, unknown>
const RANGE = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }

async function report(sim: Service, extra: Record<string, string> = {}): Promise<RunResult> {
  return runScenario({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      ...RANGE,
      'wait-timeout': '20s',
      ...extra
    }
  })
}

const sectionOf = (r: RunResult, name: string): Json =>
  ((JSON.parse(r.outputs.report ?? '{}') as Json).sections as Json[]).find(x => x.name === name)!
const ofKind = (sim: Service, kind: string) => sim.requests.filter(q => q.kind === kind)
const percentages = (summary: string): number[] =>
  [...summary.matchAll(/\| ([\d.,]+)% \|/g)].map(m => Number(m[1]!.replace(/,/g, '')))

describe('what the service really sends', () => {
  it.each([['percent'], ['fraction']] as const)(
    '`ctr` served as a %s reads as a percentage from 0 to 100',
    async scale => {
      await withService({ rows: 10, ctrScale: scale }, async sim => {
        const r = await report(sim, { sections: 'searches' })
        expect(r.code).toBe(0)
        const top = sectionOf(r, 'searches').top as { ctr: number }[]
        expect(top.every(q => q.ctr >= 0 && q.ctr <= 1)).toBe(true)
        const shown = percentages(r.summary)
        expect(shown.length).toBeGreaterThan(5)
        expect(Math.max(...shown)).toBeLessThanOrEqual(100)
        expect(shown.some(p => p > 1)).toBe(true)
      })
    }
  )

  it('a feature that is off answers 200 with nothing: "no data for this range", not an error', async () => {
    await withService({ rows: 10, off: ['assistant', 'searches'] }, async sim => {
      const r = await report(sim)
      expect(r.code).toBe(0)
      expect(errorsOf(r)).toEqual([])
      expect(r.summary).toContain('| Assistant | no data for this range |')
      expect(r.summary).toContain('| Searches | no data for this range |')
      expect(sectionOf(r, 'assistant').ok).toBe(true)
    })
  })

  it('a 404 points at `project-id`, a 403 at the cause its words name, each with the service’s words', async () => {
    await withService({ rows: 10, refuse: { searches: 404, feedback: 403 } }, async sim => {
      const r = await report(sim)
      expect(r.code).toBe(0)
      expect(sectionOf(r, 'searches').reason).toMatch(
        /^404 Not Found: Project not found; the project was not found: check `project-id`/
      )
      expect(sectionOf(r, 'feedback').reason).toMatch(
        /^403 Forbidden: Feedback analytics is not available on your plan; your plan does not include this/
      )
    })
  })

  it('assistant rows are turns: questions and conversations are counted apart', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await report(sim, { sections: 'assistant' })
      const assistant = sectionOf(r, 'assistant')
      expect(assistant.read).toBeGreaterThan(assistant.conversations as number)
      expect(r.summary).toMatch(
        /\*\*[\d,]+\*\* questions \(web [\d,]+, API [\d,]+, other [\d,]+\) in [\d,]+ conversations; \*\*[\d,]+\*\* of the [\d,]+ questions read went unanswered/
      )
    })
  })

  it('feedback says when it ranks only the first pages the service returned', async () => {
    await withService({ rows: 10, feedback: 150 }, async sim => {
      const r = await report(sim, { sections: 'feedback' })
      expect(r.summary).toContain('only the first 100 pages the service returned are ranked')
    })
  })

  it('a plain-text 429 without Retry-After ends the run at once when no retry fits, saying the hourly limit is spent', async () => {
    await withService({ rows: 10, analyticsQuota: 1, quotaAnswer: 'plain' }, async sim => {
      const r = await report(sim, { 'wait-timeout': '15s' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(
        /429 Too Many Requests: Too many requests, please try again later\. The service's hourly limit is spent.*Run it again within the hour/
      )
      // One request answered, one refused, and nothing after it.
      expect(sim.requests).toHaveLength(2)
      // The report says which limit, and when to run again (the service did not say when).
      expect(sectionOf(r, 'views').reason).toBe('not read: the hourly analytics limit was reached')
      expect(sectionOf(r, 'searches').reason).toMatch(/hourly analytics limit was reached/)
      // …at most an hour after the refusal: the banner names that time.
      expect(r.summary).toMatch(
        /Run the workflow again after \d\d:\d\d UTC, by when the limit has reset \(it resets within the hour\)\./
      )
    })
  })
})

describe('max-requests: a hard budget for one run', () => {
  it('visitors: no request past it; fails saying how far it got', async () => {
    await withService({ rows: 2000 }, async sim => {
      const r = await runScenario({
        inputs: {
          command: 'visitors',
          'api-key': SIM_API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          'page-size': '100',
          concurrency: '1',
          'max-requests': '3'
        }
      })
      expect(r.code).toBe(1)
      expect(sim.requests).toHaveLength(3)
      expect(r.outputs.requests).toBe('3')
      expect(errorsOf(r)[0]).toMatch(
        /^The visitors export stopped at `max-requests` \(3\): it read 300 rows \(3 pages of up to 100\) and there are more/
      )
    })
  })

  it('report: draws what it read and marks the rest not read; the step passes with a warning', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await report(sim, { 'max-requests': '3' })
      expect(r.code).toBe(0)
      expect(sim.requests).toHaveLength(3)
      expect(sectionOf(r, 'visitors').ok).toBe(true)
      expect(sectionOf(r, 'searches').reason).toMatch(/`max-requests` \(3\) was spent/)
      expect(annotationsOf(r, 'warning').join('\n')).toContain('stopped at `max-requests` (3)')
    })
  })

  it('is validated before any request, naming the input', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await report(sim, { 'max-requests': '-1' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(/^Input `max-requests`: /)
      expect(sim.requests).toHaveLength(0)
    })
  })
})

describe('trend: the periods before, one request each per section drawn', () => {
  it('report: a chart of visitors and views over 4 weeks, at 1 request a period and section', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await report(sim, { sections: 'visitors,views', trend: '3' })
      expect(r.code).toBe(0)
      const trendCalls = [...ofKind(sim, 'visitors'), ...ofKind(sim, 'views')].filter(
        q => q.query.dateFrom !== '2026-11-09'
      )
      expect(trendCalls).toHaveLength(6)
      expect(trendCalls.every(q => q.query.limit === '1')).toBe(true)
      expect(trendCalls.map(q => q.query.dateFrom)).toContain('2026-10-19')
      expect(r.summary).toContain('xychart-beta\n')
      // Views as bars, visitors as a line, each as a share of its own average.
      expect(r.summary).toMatch(/ {4}bar \[[\d., ]+\]\n {4}line \[[\d., ]+\]\n/)
      expect(r.summary).toContain(
        'title "The last 4 weeks: page views (bars), unique visitors (line)"'
      )
      expect(r.summary).toContain('It cost 6 requests.')
    })
  })

  it('needs a bounded range, and at most 26 periods', async () => {
    await withService({ rows: 10 }, async sim => {
      const unbounded = await report(sim, { 'date-from': '', 'date-to': '', trend: '4' })
      expect(errorsOf(unbounded)[0]).toMatch(/^Input `trend`: needs a bounded range/)
      const many = await report(sim, { trend: '27' })
      expect(errorsOf(many)[0]).toMatch(/^Input `trend`: /)
      expect(sim.requests).toHaveLength(0)
    })
  })
})

describe('top is capped', () => {
  it('top: 1000000 is refused naming `top`, before any request', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await report(sim, { top: '1000000' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(/^Input `top`: .*from 1 to 10000/)
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('a report with top: 10000 reads at most 500 queries: 5 searches requests', async () => {
    await withService({ rows: 10, searches: 5000 }, async sim => {
      const r = await report(sim, { sections: 'searches', top: '10000' })
      expect(r.code).toBe(0)
      expect(ofKind(sim, 'searches')).toHaveLength(5)
    })
  })
})

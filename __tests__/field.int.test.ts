// Scenario tier (__tests__/runner.ts). What others observed of the real service (shared field
// notes), served by the simulator and answered by the action: cursors as whole URLs, a 414 on a
// long cursor, 504s on large pages and long ranges, short and empty pages that still say more
// exist. Each gives the complete result, or one marked incomplete; never a silently short one.
// Every test counts the requests against a clean answer: the hourly quota is shared.
import fs from 'node:fs'
import { describe, it, expect, afterAll } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario, type RunResult } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  expectNoStack,
  withService,
  type Service,
  type ServiceOptions
} from './support.js'

type Json = Record<string, unknown>
const WEEK = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }
/** The gateway's wait before its 504: short, as the built action runs on the real clock too. */
const GATEWAY_MS = 200
const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

async function run(sim: Service, inputs: Record<string, string>): Promise<RunResult> {
  const r = await runScenario({
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      ...WEEK,
      ...inputs
    }
  })
  tempDirs.push(r.tempDir)
  expectNoStack(r)
  return r
}

const report = (sim: Service, inputs: Record<string, string>) =>
  run(sim, { command: 'report', ...inputs })
const sectionOf = (r: RunResult, name: string): Json =>
  ((JSON.parse(r.outputs.report ?? '{}') as Json).sections as Json[]).find(x => x.name === name)!
const ofKind = (sim: Service, kind: string) => sim.requests.filter(q => q.kind === kind)

/** The same report against a clean simulator and a faulty one: both results, both request logs. */
async function againstClean(
  fault: ServiceOptions,
  inputs: Record<string, string>,
  base: ServiceOptions = {}
): Promise<{ clean: RunResult; faulty: RunResult; cleanSim: Service; faultySim: Service }> {
  let clean: RunResult | undefined
  let cleanSim: Service | undefined
  await withService(base, async sim => {
    clean = await report(sim, inputs)
    cleanSim = sim
  })
  let faulty: RunResult | undefined
  let faultySim: Service | undefined
  await withService({ ...base, ...fault }, async sim => {
    faulty = await report(sim, inputs)
    faultySim = sim
  })
  return { clean: clean!, faulty: faulty!, cleanSim: cleanSim!, faultySim: faultySim! }
}

describe('cursors as the field reports them', () => {
  it.each([['url'], ['ulid']] as const)(
    'a %s nextCursor reads the same queries and questions for the same requests',
    async form => {
      const inputs = { sections: 'searches,assistant', top: '150' }
      const { clean, faulty, cleanSim, faultySim } = await againstClean(
        { cursorForm: form },
        inputs
      )
      expect(errorsOf(faulty)).toEqual([])
      for (const name of ['searches', 'assistant']) {
        expect(sectionOf(faulty, name)).toEqual(sectionOf(clean, name))
        expect(ofKind(faultySim, name)).toHaveLength(ofKind(cleanSim, name).length)
      }
      // Two pages of searches: the second asked by the cursor inside the URL, never the URL.
      const second = ofKind(faultySim, 'searches')[1]!
      expect(second.query.cursor).toBeDefined()
      expect(second.query.cursor).not.toMatch(/^https?:/)
      expect(faulty.summary).toBe(clean.summary)
    }
  )

  it('a 414 on a long cursor: the page again by its cursor and limit alone, rows kept, one request more', async () => {
    // Cursors of 950 characters: with the range they pass the server's 1,000, alone they do not.
    const inputs = { sections: 'searches', top: '300' }
    const { clean, faulty, cleanSim, faultySim } = await againstClean(
      { cursorChars: 950, maxUrlChars: 1000 },
      inputs
    )
    expect(errorsOf(faulty)).toEqual([])
    expect(sectionOf(faulty, 'searches')).toEqual(sectionOf(clean, 'searches'))
    expect(sectionOf(faulty, 'searches').read).toBe(240)
    const sent = ofKind(faultySim, 'searches')
    expect(sent).toHaveLength(ofKind(cleanSim, 'searches').length + 1)
    // The page that got the 414 went again bare, and so did the page after it.
    expect(sent.map(q => Object.keys(q.query).sort().join(','))).toEqual([
      'dateFrom,dateTo,limit',
      'cursor,dateFrom,dateTo,limit',
      'cursor,limit',
      'cursor,limit'
    ])
  })
})

describe('services whose pages never end', () => {
  it('`hasMore` for ever, the same rows again: the export stops at the first page of them, 2 requests past it at most, and fails saying why', async () => {
    await withService({ rows: 1000, repeatAfter: 1000 }, async sim => {
      const r = await run(sim, { command: 'visitors', 'output-file': 'v.ndjson' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(
        /^The visitors export is incomplete: Visitors: the service sent a page of rows it had sent before while saying more exist, so the reading stopped after 1000 rows/
      )
      expect(r.outputs.rows).toBe('1000')
      const sent = ofKind(sim, 'visitors')
      const firstRepeat = sent.find(q => (q.offset ?? 0) >= 1000)!
      const after = sim.requests.slice(firstRepeat.answeredAfter).filter(q => q.kind === 'visitors')
      expect(after.length).toBeLessThanOrEqual(2)
      expect(sent.length).toBeLessThanOrEqual(4 + 1 + 2)
    })
  })

  it('a new row a page for ever: 401 requests at most, the export fails saying why', async () => {
    await withService({ rows: Infinity, maxPageRows: 1 }, async sim => {
      const r = await run(sim, { command: 'visitors' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toContain(
        'Visitors: the service still said more rows exist after 400 pages (400 rows), the most a read asks for unless `max-rows` or `max-requests` allow more'
      )
      expect(ofKind(sim, 'visitors').length).toBeLessThanOrEqual(401)
      expect(r.outputs.requests).toBe(String(ofKind(sim, 'visitors').length))
    })
  })

  it('a new row a page for ever, in a report: the section is marked incomplete, the step passes', async () => {
    await withService({ rows: Infinity, maxPageRows: 1 }, async sim => {
      const r = await report(sim, { sections: 'visitors' })
      expect(errorsOf(r)).toEqual([])
      expect(sectionOf(r, 'visitors').incomplete).toMatch(/after 400 pages \(400 rows\)/)
      expect(r.summary).toMatch(/^## Docs health · Nov 9–15 · incomplete\n/)
      expect(ofKind(sim, 'visitors').length).toBeLessThanOrEqual(401)
    })
  })

  it('at most 100 rows a page of the 250 asked: every row of 1,000 once, 14 requests at most, the summary names the short pages', async () => {
    await withService({ rows: 1000, maxPageRows: 100 }, async sim => {
      const r = await run(sim, { command: 'visitors', 'output-file': 'v.ndjson' })
      expect(r.code).toBe(0)
      expect(errorsOf(r)).toEqual([])
      const lines = r.files('v.ndjson')!.trim().split('\n')
      expect(lines).toHaveLength(1000)
      expect(new Set(lines.map(line => (JSON.parse(line) as Json).path)).size).toBe(1000)
      expect(ofKind(sim, 'visitors').length).toBeLessThanOrEqual(14)
      expect(r.summary).toContain(
        '9 pages came short (fewer rows than the 250 asked for, while the service said more exist)'
      )
    })
  })
})

describe('a cursor too long for any URL', () => {
  it('a 9 KB cursor with a 414 on every long URL: the 100 queries read are shown, the section marked incomplete', async () => {
    // Every URL over 8,000 characters is refused, the bare re-ask (cursor and limit alone) too.
    await withService({ cursorChars: 9 * 1024, maxUrlChars: 8000 }, async sim => {
      const r = await report(sim, { sections: 'searches', top: '300' })
      expect(errorsOf(r)).toEqual([])
      const searches = sectionOf(r, 'searches')
      expect(searches).toMatchObject({ read: 100, complete: false })
      expect(searches.incomplete).toBe(
        'Searches: a later page failed (HTTP 414) after 100 queries were read; the report shows those, which are not all of them.'
      )
      expect(r.summary).toMatch(/^## Docs health · Nov 9–15 · incomplete\n/)
      expect((searches.top as unknown[]).length).toBeGreaterThan(0)
      // The first page, the second with its range, the second bare: then it stops.
      expect(ofKind(sim, 'searches').map(q => Object.keys(q.query).sort().join(','))).toEqual([
        'dateFrom,dateTo,limit',
        'cursor,dateFrom,dateTo,limit',
        'cursor,limit'
      ])
    })
  })
})

describe('a gateway that times out', () => {
  it('504 above 100 rows: a visitors export of 1,000 rows is complete, in pages of 63', async () => {
    await withService({ rows: 1000, timeoutAbove: 100, timeoutMs: GATEWAY_MS }, async sim => {
      const r = await run(sim, {
        command: 'visitors',
        'page-size': '250',
        concurrency: '1',
        'output-file': 'v.ndjson'
      })
      expect(errorsOf(r)).toEqual([])
      expect(r.outputs.rows).toBe('1000')
      expect(r.files('v.ndjson')!.trim().split('\n')).toHaveLength(1000)
      const limits = ofKind(sim, 'visitors').map(q => Number(q.query.limit))
      // 250 and 125 time out once each (never retried at that size), then 16 pieces of 63.
      expect(limits.filter(l => l > 100)).toEqual([250, 125])
      expect(limits.filter(l => l <= 100)).toHaveLength(Math.ceil(1000 / 63))
      // The log counts every piece: what the export spent.
      expect(r.stdout).toContain(`Exported 1000 rows in ${limits.length} requests`)
      expect(r.summary).toContain(
        'The service timed out (502/504) on pages of 250 rows, so they were read in pages of 63.'
      )
    })
  })

  it('504 above 250 rows: the assistant reads pages of 250 and says how much it covers', async () => {
    const inputs = { sections: 'assistant' }
    const { faulty, faultySim } = await againstClean(
      { timeoutAbove: 250, timeoutMs: GATEWAY_MS },
      inputs
    )
    expect(errorsOf(faulty)).toEqual([])
    const sent = ofKind(faultySim, 'assistant').map(q => Number(q.query.limit))
    expect(sent).toEqual([1000, 500, 250, 250, 250, 250])
    const assistant = sectionOf(faulty, 'assistant')
    expect(assistant).toMatchObject({ read: 1000, complete: false })
    expect(faulty.summary).toContain(
      'Assistant: The service timed out (502/504) on pages of 1000 questions, so they were read in pages of 250.'
    )
    expect(annotationsOf(faulty, 'warning').join('\n')).toMatch(/covers the 1000 read/)
  })

  it('a month that times out at every page size is read a week at a time, its counts added up', async () => {
    const month = { 'date-from': '2026-10-01', 'date-to': '2026-11-01' }
    const inputs = { sections: 'searches,assistant', ...month }
    const { clean, faulty, faultySim } = await againstClean(
      { timeoutDays: 7, timeoutMs: GATEWAY_MS },
      inputs
    )
    expect(errorsOf(faulty)).toEqual([])
    // The month at 100, 50 and 25 queries a page (25 cannot shrink, and the month can be split:
    // no retry at that size), then five weeks (the last of three days), newest first, each read
    // at full size.
    const searches = ofKind(faultySim, 'searches')
    expect(searches.map(q => q.query.dateFrom)).toEqual([
      '2026-10-01',
      '2026-10-01',
      '2026-10-01',
      '2026-10-29',
      '2026-10-22',
      '2026-10-15',
      '2026-10-08',
      '2026-10-01'
    ])
    expect(searches.map(q => q.query.limit)).toEqual([
      '100',
      '50',
      '25',
      ...Array<string>(5).fill('100')
    ])
    expect(searches.at(-1)?.query.dateTo).toBe('2026-10-08')
    // The assistant's month: 1000, 500, 250, 125, 63, 32 a page time out, then the weeks.
    const questions = ofKind(faultySim, 'assistant').map(q => q.query.limit)
    expect(questions.slice(0, 6)).toEqual(['1000', '500', '250', '125', '63', '32'])
    const before = sectionOf(clean, 'searches')
    const byWeeks = sectionOf(faulty, 'searches')
    expect(byWeeks.totalSearches).toBe(5 * (before.totalSearches as number))
    expect(faulty.summary).toContain('was read a week at a time (5 weeks)')
    expect(faulty.summary).toContain('Searches of the same query are added up over the weeks')
    // Questions are turns in time: the weeks' questions together, the cap shared.
    expect(sectionOf(faulty, 'assistant').read).toBe(3000)
  })
})

describe('short and empty pages that still say more exist', () => {
  it('a visitors export reads past a short page from where its rows end: every row once, the summary says so', async () => {
    const thinPages = [
      { kind: 'visitors', offset: 250, keep: 100 },
      { kind: 'visitors', offset: 600, keep: 0 }
    ]
    await withService({ rows: 1000, thinPages }, async sim => {
      const r = await run(sim, { command: 'visitors', 'output-file': 'v.ndjson' })
      expect(errorsOf(r)).toEqual([])
      // The page after the short one starts at 350 (250 + 100 rows received), not 500: no row
      // is lost. The empty page at 600 is read past by a page's worth of rows (they are lost,
      // and said: the export's summary names the pages that came short).
      expect(ofKind(sim, 'visitors').map(q => q.offset)).toContain(350)
      const lines = r.files('v.ndjson')!.trim().split('\n')
      expect(lines).toHaveLength(750)
      expect(new Set(lines.map(line => (JSON.parse(line) as Json).path)).size).toBe(750)
      expect(r.outputs.rows).toBe('750')
      expect(r.summary).toContain('2 pages came short (fewer rows than the 250 asked for')
      // Past the end and the page read ahead at 500, which the short page proved misplaced.
      expect(ofKind(sim, 'visitors').length).toBeLessThanOrEqual(5 + 1 + 1)
    })
  })

  it('3 empty pages in a row: the export is marked incomplete and the step fails', async () => {
    const thinPages = [250, 500, 750].map(offset => ({ kind: 'visitors', offset, keep: 0 }))
    await withService({ rows: 1250, thinPages }, async sim => {
      const r = await run(sim, { command: 'visitors', concurrency: '1' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)).toEqual([
        'The visitors export is incomplete: Visitors: the service sent 3 empty pages in a row ' +
          'while saying more rows exist, so the reading stopped after 250 rows, which are not ' +
          'all of them.'
      ])
      expect(r.outputs.rows).toBe('250')
      expect(r.summary).toContain('> ⚠️ **This export is incomplete.**')
      // The page after the empty ones was never asked for.
      expect(ofKind(sim, 'visitors').map(q => q.offset)).toEqual([0, 250, 500, 750])
    })
  })

  it('in a report, a section that ends short makes the report incomplete, and the step passes', async () => {
    const thinPages = [10, 20, 30].map(offset => ({ kind: 'views', offset, keep: 0 }))
    await withService({ rows: 50, thinPages }, async sim => {
      const r = await report(sim, { sections: 'visitors,views', 'page-size': '10' })
      expect(errorsOf(r)).toEqual([])
      expect(r.summary).toMatch(/^## Docs health · Nov 9–15 · incomplete\n/)
      expect(r.summary).toContain('Views: the service sent 3 empty pages in a row')
      expect((JSON.parse(r.outputs.report!) as Json).incomplete).toMatch(/^Views: /)
    })
  })

  it('searches read past an empty page that carries a cursor', async () => {
    await withService(
      { searches: 150, thinPages: [{ kind: 'searches', offset: 0, keep: 0 }] },
      async sim => {
        const r = await report(sim, { sections: 'searches' })
        expect(errorsOf(r)).toEqual([])
        // The first page (100 asked) came empty with a cursor; the second holds the other 50.
        expect(sectionOf(r, 'searches')).toMatchObject({ read: 50, complete: true })
        expect(ofKind(sim, 'searches')).toHaveLength(2)
      }
    )
  })
})

// Scenario tier (__tests__/runner.ts): `command: visitors` against the service simulator on
// loopback, in this process on the simulators' jumping clock, or (signals) as dist/index.js in a
// child process exactly as on a runner.
import fs from 'node:fs'
import path from 'node:path'
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals'
import { startService, generatedRow, generatedRows, SIM_API_KEY } from '../sim/service.js'
import { generatedTotals } from '../sim/analytics-data.js'
import { simClock } from '../sim/clock.js'
import { needsProcess, runScenario } from './runner.js'
import { formatChange, formatNumber } from '../src/report/numbers.js'
import { pageChange } from '../src/report/pages-table.js'
import { errorsOf, expectNoStack, withService } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type RunResult = Awaited<ReturnType<typeof runScenario>>
type Row = { path: string; human: number; ai: number; total: number }

const HOSTILE_MD =
  '| <img src=x onerror=alert(1)> @octocat \n [x](javascript:alert(1)) <!-- docs-agent -->'
const HOSTILE_CSV = '/docs/a,b "quoted" path\nsecond line\r\nthird, "end"'

const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

function inputs(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    command: 'visitors',
    'api-key': SIM_API_KEY,
    'project-id': 'proj-1',
    'base-url': url,
    ...extra
  }
}

/** Runs the action against `sim` with the visitors inputs plus `extra`. */
async function run(
  sim: Service,
  extra: Record<string, string> = {},
  timeoutMs = 60_000
): Promise<RunResult> {
  const r = await runScenario({ inputs: inputs(sim.url, extra), timeoutMs })
  tempDirs.push(r.tempDir)
  return r
}

const visitorRequests = (sim: Service) => sim.requests.filter(r => r.kind === 'visitors')

/** Exit 0 and no error annotation; prints the log on failure to help diagnose. */
function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`)
  expect(errorsOf(r)).toEqual([])
}

const generated = (n: number, from = 0): Row[] =>
  Array.from({ length: n }, (_, i) => generatedRow(from + i))

function readNdjson(text: string | undefined): Row[] {
  expect(text).toBeDefined()
  expect(text!.endsWith('\n')).toBe(true)
  return text!
    .slice(0, -1)
    .split('\n')
    .map(line => JSON.parse(line) as Row)
}

/** A strict RFC 4180 reader: CRLF between records, quoted fields may hold , " CR LF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  for (;;) {
    let field = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field')
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        field += text[i++]
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote at ${i}`)
        field += text[i++]
      }
    }
    record.push(field)
    if (text[i] === ',') {
      i++
      continue
    }
    records.push(record)
    record = []
    if (i >= text.length) return records
    if (text[i] !== '\r' || text[i + 1] !== '\n') throw new Error(`bare line break at ${i}`)
    i += 2
    if (i >= text.length) return records
  }
}

/** Rows around hostile paths, with distinct totals so the top-pages order is well defined. */
function explicitRows(n: number, hostile: Record<number, string>): Row[] {
  return Array.from({ length: n }, (_, i) => {
    const total = (i * 7919) % 1009
    return { path: hostile[i] ?? `/guide/p${i}`, human: total, ai: i % 13, total: total + 1 }
  })
}

describe('visitors: the full export', () => {
  it('survives a 429 with Retry-After, a 503 and a reset: every row once, in order', async () => {
    await withService(
      {
        rows: 2345,
        faults: [
          { kind: 'visitors', offset: 500, status: 429, headers: { 'Retry-After': '1' } },
          { kind: 'visitors', offset: 1000, status: 503 },
          { kind: 'visitors', offset: 1750, reset: 'after-read' }
        ]
      },
      async sim => {
        const r = await run(sim, { 'output-file': 'out/visitors.ndjson' })
        expectSuccess(r)
        expect(readNdjson(r.files('out/visitors.ndjson'))).toEqual(generated(2345))
        expect(r.outputs.rows).toBe('2345')

        const reqs = visitorRequests(sim)
        const byOffset = new Map<number, number>()
        for (const q of reqs) byOffset.set(q.offset ?? -1, (byOffset.get(q.offset ?? -1) ?? 0) + 1)
        for (let offset = 0; offset < 2345; offset += 250) {
          const expected = [500, 1000, 1750].includes(offset) ? 2 : 1
          expect([offset, byOffset.get(offset)]).toEqual([offset, expected])
        }
        const pastEnd = [...byOffset.keys()].filter(o => o >= 2345)
        expect(pastEnd.length).toBeLessThanOrEqual(3)
        for (const o of pastEnd) expect([o, byOffset.get(o)]).toEqual([o, 1])
        for (const o of byOffset.keys()) expect(o % 250).toBe(0)
        // The 429's Retry-After was honoured: its retry came at least a second later.
        const times = reqs.filter(q => q.offset === 500).map(q => q.time)
        expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950)
      }
    )
  })
})

describe('visitors: file formats', () => {
  const rows = explicitRows(600, {
    3: HOSTILE_CSV,
    100: '/docs/lone\nnewline',
    101: '/docs/lone\rreturn',
    260: 'ünïcode/页面/😀',
    599: '=cmd|"/c calc"'
  })
  const totals = { human: 4321, ai: 1234, total: 5000 }

  it('.json is one document with the range, the service totals and every row', async () => {
    await withService({ rows, totals }, async sim => {
      const file = 'reports/deep/nested/visitors.json'
      const r = await run(sim, {
        'output-file': file,
        'date-from': '2026-03-01',
        'date-to': '2026-03-08'
      })
      expectSuccess(r)
      const doc = JSON.parse(r.files(file)!) as Record<string, unknown>
      expect(Object.keys(doc)).toEqual(['range', 'totals', 'visitors'])
      expect(doc.range).toEqual({ dateFrom: '2026-03-01', dateTo: '2026-03-08' })
      expect(doc.totals).toEqual(totals)
      expect(doc.visitors).toEqual(rows)
      expect(path.resolve(r.workspace, r.outputs['visitors-file']!)).toBe(
        path.resolve(r.workspace, file)
      )
    })
  })

  it('.csv is RFC 4180 with the header path,human,ai,total; hostile paths round-trip, formulas as text', async () => {
    await withService({ rows, totals }, async sim => {
      const file = 'a/b/visitors.csv'
      const r = await run(sim, { 'output-file': file })
      expectSuccess(r)
      const text = r.files(file)!
      expect(text.startsWith('path,human,ai,total\r\n')).toBe(true)
      expect(text.endsWith('\r\n')).toBe(true)
      const records = parseCsv(text)
      expect(records[0]).toEqual(['path', 'human', 'ai', 'total'])
      const parsed = records.slice(1).map(([p, h, a, t]) => ({
        path: p!,
        human: Number(h),
        ai: Number(a),
        total: Number(t)
      }))
      // A path a spreadsheet would read as a formula is written behind a leading quote.
      const asWritten = (p: string) => (/^[=+\-@\t\r]/.test(p) ? `'${p}` : p)
      expect(parsed).toEqual(rows.map(x => ({ ...x, path: asWritten(x.path) })))
      expect(parsed[3]!.path).toBe(HOSTILE_CSV)
      expect(path.resolve(r.workspace, r.outputs['visitors-file']!)).toBe(
        path.resolve(r.workspace, file)
      )
    })
  })

  it('.ndjson has one row per line, in service order', async () => {
    await withService({ rows, totals }, async sim => {
      const file = 'x/y/z/visitors.ndjson'
      const r = await run(sim, { 'output-file': file })
      expectSuccess(r)
      const text = r.files(file)!
      expect(text.split('\n')).toHaveLength(rows.length + 1)
      expect(readNdjson(text)).toEqual(rows)
      expect(fs.existsSync(path.resolve(r.workspace, r.outputs['visitors-file']!))).toBe(true)
      expect(path.resolve(r.workspace, r.outputs['visitors-file']!)).toBe(
        path.resolve(r.workspace, file)
      )
    })
  })

  it('writes no file and sets no visitors-file without output-file', async () => {
    await withService({ rows: 30 }, async sim => {
      const r = await run(sim)
      expectSuccess(r)
      expect(r.outputs['visitors-file'] ?? '').toBe('')
      expect(fs.readdirSync(r.workspace)).toEqual([])
    })
  })
})

describe('visitors: outputs and requests', () => {
  it('outputs are the service totals (never a sum) and the requested range', async () => {
    const totals = { human: 900, ai: 300, total: 1000 }
    await withService({ rows: 700, totals }, async sim => {
      const r = await run(sim, {
        'date-from': '2026-02-01',
        'date-to': '2026-03-01'
      })
      expectSuccess(r)
      expect(r.outputs.human).toBe('900')
      expect(r.outputs.ai).toBe('300')
      expect(r.outputs.total).toBe('1000')
      expect(JSON.parse(r.outputs.totals!)).toEqual(totals)
      expect(r.outputs.rows).toBe('700')
      expect(r.outputs['date-from']).toBe('2026-02-01')
      expect(r.outputs['date-to']).toBe('2026-03-01')
      const reqs = visitorRequests(sim)
      expect(reqs.length).toBeGreaterThanOrEqual(3)
      for (const q of reqs) {
        expect(q.query.limit).toBe('250')
        expect(q.query.dateFrom).toBe('2026-02-01')
        expect(q.query.dateTo).toBe('2026-03-01')
      }
    })
  })

  it('an unbounded range gives empty date outputs and sends no dates', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await run(sim)
      expectSuccess(r)
      expect(r.outputs['date-from']).toBe('')
      expect(r.outputs['date-to']).toBe('')
      for (const q of visitorRequests(sim)) {
        expect(q.query.dateFrom).toBeUndefined()
        expect(q.query.dateTo).toBeUndefined()
      }
    })
  })

  it('sends limit = page-size on every request', async () => {
    await withService({ rows: 430 }, async sim => {
      const r = await run(sim, { 'page-size': '100', 'output-file': 'v.ndjson' })
      expectSuccess(r)
      expect(readNdjson(r.files('v.ndjson'))).toEqual(generated(430))
      const reqs = visitorRequests(sim)
      expect(reqs.length).toBeGreaterThanOrEqual(5)
      for (const q of reqs) expect(q.query.limit).toBe('100')
    })
  })

  it('max-rows 600 stops at 600 rows, with at most 3 requests, none past offset 500', async () => {
    await withService({ rows: 5000 }, async sim => {
      const r = await run(sim, { 'max-rows': '600', 'output-file': 'v.ndjson' })
      expectSuccess(r)
      expect(r.outputs.rows).toBe('600')
      expect(readNdjson(r.files('v.ndjson'))).toEqual(generated(600))
      // The report says its top pages are those of the exported rows only.
      expect(r.summary).toMatch(/^#### Top pages among the first 600 rows exported$/m)
      expect(r.summary).toContain('pages past those rows are not ranked here')
      const reqs = visitorRequests(sim)
      expect(reqs.length).toBeLessThanOrEqual(3)
      for (const q of reqs) {
        expect(q.offset ?? 0).toBeLessThanOrEqual(500)
        expect(q.query.limit).toBe('250')
      }
    })
  })

  it('10000 rows take 40 to 43 requests with concurrency 4', async () => {
    await withService({ rows: 10000 }, async sim => {
      const r = await run(sim)
      expectSuccess(r)
      expect(r.outputs.rows).toBe('10000')
      const n = visitorRequests(sim).length
      expect(n).toBeGreaterThanOrEqual(40)
      expect(n).toBeLessThanOrEqual(43)
    })
  })

  it('a 120-row site takes exactly 1 request', async () => {
    await withService({ rows: 120 }, async sim => {
      const r = await run(sim)
      expectSuccess(r)
      expect(r.outputs.rows).toBe('120')
      expect(visitorRequests(sim)).toHaveLength(1)
    })
  })
})

describe('visitors: dates', () => {
  it('period last-week sends YYYY-MM-DD dates 7 days apart, ending on the last Monday', async () => {
    await withService({ rows: 10 }, async sim => {
      // The action's today is on the run's clock (the jumping one, in process).
      const before = simClock.now()
      const r = await run(sim, { period: 'last-week' })
      expectSuccess(r)
      const [q] = visitorRequests(sim)
      expect(q).toBeDefined()
      const { dateFrom, dateTo } = q!.query
      expect(dateFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(dateTo).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      const from = Date.parse(`${dateFrom}T00:00:00Z`)
      const to = Date.parse(`${dateTo}T00:00:00Z`)
      expect(to - from).toBe(7 * 86_400_000)
      expect(new Date(to).getUTCDay()).toBe(1)
      // The most recent Monday at or before today (UTC).
      const today = Math.floor(before / 86_400_000) * 86_400_000
      expect(to).toBeLessThanOrEqual(today)
      expect(today - to).toBeLessThan(7 * 86_400_000)
      expect(r.outputs['date-from']).toBe(dateFrom)
      expect(r.outputs['date-to']).toBe(dateTo)
    })
  })

  it('date-from and date-to are sent exactly as given', async () => {
    await withService({ rows: 10 }, async sim => {
      const from = '2026-11-01T00:00:00+02:00'
      const to = '2026-11-08T12:30:00.250Z'
      const r = await run(sim, { 'date-from': from, 'date-to': to })
      expectSuccess(r)
      const reqs = visitorRequests(sim)
      expect(reqs).toHaveLength(1)
      expect(reqs[0]!.query.dateFrom).toBe(from)
      expect(reqs[0]!.query.dateTo).toBe(to)
      expect(r.outputs['date-from']).toBe(from)
      expect(r.outputs['date-to']).toBe(to)
    })
  })

  it('compare fetches the equal-length period before and shows a change column', async () => {
    await withService({ rows: 300 }, async sim => {
      const r = await run(sim, {
        'date-from': '2026-01-08',
        'date-to': '2026-01-15',
        compare: 'true'
      })
      expectSuccess(r)
      const ranges = new Set(visitorRequests(sim).map(q => `${q.query.dateFrom} ${q.query.dateTo}`))
      expect(ranges).toEqual(new Set(['2026-01-08 2026-01-15', '2026-01-01 2026-01-08']))
      // Outputs describe the requested range, not the comparison.
      expect(r.outputs['date-from']).toBe('2026-01-08')
      expect(r.outputs['date-to']).toBe('2026-01-15')
      expect(r.summary).toContain('compared with Jan 1–7')
      expect(r.summary).toMatch(/^\| Traffic \| Unique visitors \| Share of total \| Change \|$/m)
      expect(r.summary).toMatch(/^\| # \| Page \| Human \| AI \| Total \| Change \|$/m)
      // The changes are computed: at least one row shows a signed percentage.
      expect(r.summary).toMatch(/[+\u2212][\d,]+ \([+\u2212]\d+\.\d%\)/)
    })
  })
})

/** The data rows of the top-pages tables (the first ten, and those folded below them). */
function topTableRows(summary: string): string[] {
  const lines = summary.split('\n')
  const starts = lines.flatMap((l, i) => (/^\| # \| Page \|/.test(l) ? [i] : []))
  expect(starts.length).toBeGreaterThan(0)
  const rows: string[] = []
  for (const start of starts)
    for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!)
  return rows
}

/** `|` that are cell separators: not backslash-escaped. */
const unescapedPipes = (line: string): number => (line.match(/(?<!\\)\|/g) ?? []).length

describe('visitors: the job summary', () => {
  it('shows the range, the totals, the top pages most total first, no chart repeating them', async () => {
    const rows = explicitRows(400, { 5: HOSTILE_MD })
    rows[5]!.total = 5000 // the hostile page comes first
    const totals = { human: 12345, ai: 678, total: 12900 }
    await withService({ rows, totals }, async sim => {
      const r = await run(sim, {
        top: '7',
        'date-from': '2026-04-01',
        'date-to': '2026-05-01'
      })
      expectSuccess(r)
      const s = r.summary
      // The inclusive last day, not the exclusive end sent to the service.
      expect(s).toMatch(/^### 12,900 unique visitors · Apr 1–30(, 2026)?$/m)
      expect(s).toContain('### 12,900 unique visitors · Apr 1–30')
      expect(s).not.toContain('2026-05-01')
      // Exclusive parts that add up to the total; the service's own figures in the note.
      expect(s).toMatch(/^\| Human only \| 12,222 \|/m)
      expect(s).toMatch(/^\| AI only \| 555 \|/m)
      expect(s).toMatch(/^\| Both \| 123 \|/m)
      expect(s).toMatch(/^\| Total \| 12,900 \|/m)
      expect(s).toContain('12,345 human, 678 AI')

      const table = topTableRows(s)
      expect(table).toHaveLength(7)
      const expected = [...rows]
        .map((row, i) => ({ row, i }))
        .sort((a, b) => b.row.total - a.row.total || a.i - b.i)
        .slice(0, 7)
        .map(x => x.row)
      const totalsShown = table.map(line =>
        Number(line.split('|').at(-2)!.trim().replace(/,/g, ''))
      )
      expect(totalsShown).toEqual(expected.map(row => row.total))
      for (const [i, line] of table.entries()) {
        expect(line.startsWith(`| ${i + 1} | `)).toBe(true)
        expect(unescapedPipes(line)).toBe(6)
      }
      for (const row of expected.slice(1)) expect(table.join('\n')).toContain(row.path)

      // No chart of the top pages: it would only draw the table again.
      expect(s).not.toContain('```mermaid')
      // The hostile path stays inert: one table row, no HTML, no mention, no link.
      expect(s).not.toContain('<img')
      expect(s).not.toContain('<!--')
      expect(s).not.toContain('@octocat')
      expect(s).not.toMatch(/\]\(javascript:/i)
      // The hostile page comes first, inert, clipped at its start to keep the numbers in view.
      expect(table[0]).toMatch(/^\| 1 \| …\S.* \| 5,000 \|$/)
    })
  })

  it('top 10000 (the most) with 20000 rows keeps the summary under 1 MiB', async () => {
    await withService({ rows: 20000 }, async sim => {
      const r = await run(sim, { top: '10000' })
      expectSuccess(r)
      expect(r.outputs.rows).toBe('20000')
      expect(Buffer.byteLength(r.summary, 'utf8')).toBeLessThan(1024 * 1024)
      // Every one of the top 10,000 rows is shown or counted in the note that says so.
      const note = /_([\d,]+) more rows? not shown/.exec(r.summary)
      const omitted = note ? Number(note[1]!.replace(/,/g, '')) : 0
      const shown = topTableRows(r.summary).length
      expect(shown).toBeGreaterThan(100)
      expect(shown + omitted).toBe(10000)
    })
  })
})

describe('visitors: bad inputs fail before any request', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['page-size 0', { 'page-size': '0' }, 'page-size'],
    ['page-size 251', { 'page-size': '251' }, 'page-size'],
    ['page-size abc', { 'page-size': 'abc' }, 'page-size'],
    ['concurrency 0', { concurrency: '0' }, 'concurrency'],
    ['concurrency 17', { concurrency: '17' }, 'concurrency'],
    ['max-rows -1', { 'max-rows': '-1' }, 'max-rows'],
    ['top 0', { top: '0' }, 'top'],
    ['date-from 2026-02-30', { 'date-from': '2026-02-30' }, 'date-from'],
    ['date-to before date-from', { 'date-from': '2026-03-10', 'date-to': '2026-03-01' }, 'date-to'],
    [
      'date-to equal to date-from',
      { 'date-from': '2026-03-10', 'date-to': '2026-03-10' },
      'date-to'
    ],
    ['period 8w', { period: '8w' }, 'period'],
    ['period 0d', { period: '0d' }, 'period'],
    ['period 367d', { period: '367d' }, 'period'],
    ['period with date-from', { period: '7d', 'date-from': '2026-01-01' }, 'period'],
    ['output-file out.txt', { 'output-file': 'out.txt' }, 'output-file'],
    ['output-file without extension', { 'output-file': 'out' }, 'output-file'],
    ['compare without a range', { compare: 'true' }, 'compare'],
    ['compare with only date-from', { compare: 'true', 'date-from': '2026-01-01' }, 'compare']
  ]
  let sim: Service
  beforeAll(async () => {
    sim = await startService({ rows: 10 })
  })
  afterAll(async () => {
    await sim.close()
  })

  it.each(cases)('%s → exit 1, names the input, nothing sent', async (_name, extra, input) => {
    const before = sim.requests.length
    const r = await run(sim, extra)
    expect(r.code).toBe(1)
    const errors = errorsOf(r)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`\`${input}\``)
    expect(sim.requests.length).toBe(before)
    expectNoStack(r)
  })
})

describe('visitors: a page that keeps failing', () => {
  it('fails in bounded time, names the operation (the log the request), status and service text; removes the file', async () => {
    await withService(
      {
        rows: 2345,
        faults: [
          {
            kind: 'visitors',
            offset: 500,
            status: 500,
            body: { error: 'Analytics store unavailable' },
            times: Infinity
          }
        ]
      },
      async sim => {
        const r = await run(sim, { 'output-file': 'out/visitors.ndjson' }, 45_000)
        expect(r.timedOut).toBe(false)
        expect(r.code).toBe(1)
        expect(r.durationMs).toBeLessThan(30_000)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        // The annotation names the operation in words; the log names the request and its page.
        expect(errors[0]).toMatch(/^Reading the visitors analytics failed after \d+ attempts: 500/)
        expect(errors[0]).not.toContain('/v1/analytics')
        expect(r.stdout).toMatch(/GET \/v1\/analytics\/proj-1\/visitors\?\S*offset=500: Reading/)
        expect(errors[0]).toContain('500')
        expect(errors[0]).toContain('Analytics store unavailable')
        expectNoStack(r)
        // The file was opened with the first page, and removed after the failure.
        expect(visitorRequests(sim).filter(q => q.offset === 500).length).toBeGreaterThan(1)
        expect(r.files('out/visitors.ndjson')).toBeUndefined()
        expect(r.outputs['visitors-file'] ?? '').toBe('')
      }
    )
  }, 60_000)
})

/** Latency on every request, so that read-ahead shows in what the simulator counts. */
const LATENCY: [number, number] = [20, 60]

/** "This run spent N requests" from the log. */
function spentInLog(r: RunResult): number {
  const m = /This run spent (\d+) requests?/.exec(r.stdout)
  expect(m).not.toBeNull()
  return Number(m![1])
}

/** Each offset requested once, in steps of `limit`, from 0. */
function expectEachPageOnce(reqs: { offset?: number }[], limit = 250): void {
  const offsets = reqs.map(q => q.offset ?? 0).sort((a, b) => a - b)
  expect(offsets).toEqual(offsets.map((_, i) => i * limit))
}

describe('visitors: what an export costs, counted at the simulator', () => {
  // Read-ahead may guess one page past the end for exports of up to 5 pages, and at most
  // concurrency - 1 = 3 beyond.
  it.each([
    [1, 0],
    [2, 1],
    [5, 1],
    [6, 3],
    [40, 3]
  ])('%i pages cost the pages plus at most %i', async (pages, extra) => {
    const rows = pages * 250 - 100
    await withService({ rows, latencyMs: LATENCY }, async sim => {
      const r = await run(sim, { 'output-file': 'v.ndjson' })
      expectSuccess(r)
      expect(r.outputs.rows).toBe(String(rows))
      expect(readNdjson(r.files('v.ndjson'))).toEqual(generated(rows))
      const reqs = visitorRequests(sim)
      expectEachPageOnce(reqs)
      expect(reqs.length).toBeGreaterThanOrEqual(pages)
      expect(reqs.length - pages).toBeLessThanOrEqual(extra)
      // A 2-page export: page one alone, then pages two and three together.
      if (pages === 2) expect(reqs).toHaveLength(3)
      expect(spentInLog(r)).toBe(reqs.length)
    })
  })

  it('max-rows 600 asks for 3 pages and nothing beyond, even with read-ahead', async () => {
    await withService({ rows: 5000, latencyMs: LATENCY }, async sim => {
      const r = await run(sim, { 'max-rows': '600', concurrency: '16' })
      expectSuccess(r)
      expect(r.outputs.rows).toBe('600')
      expect(visitorRequests(sim).map(q => q.offset ?? 0)).toEqual([0, 250, 500])
    })
  })
})

describe('visitors: compare reads the previous period only as far as the shown pages need', () => {
  const CURRENT = { 'date-from': '2026-03-08', 'date-to': '2026-03-15' }
  const PREVIOUS_FROM = '2026-03-01'
  const rowsFor = (sim: Service, dateFrom: string) =>
    visitorRequests(sim).filter(q => q.query.dateFrom === dateFrom)

  /** The top-pages table: for each shown row, its total and the change shown. */
  function shownChanges(summary: string): { total: number; change: string }[] {
    return topTableRows(summary).map(line => {
      const cells = line.split('|').map(c => c.trim())
      return { total: Number(cells.at(-3)!.replace(/,/g, '')), change: cells.at(-2)! }
    })
  }

  /** The changes a correct comparison shows for `top`, looked up in every previous row. */
  function expectedChanges(top: Row[], previous: Row[]): { total: number; change: string }[] {
    const before = new Map<string, number>()
    for (const row of previous) if (!before.has(row.path)) before.set(row.path, row.total)
    return top.map(row => ({
      total: row.total,
      change: pageChange(row.total, before.get(row.path))
    }))
  }

  const topOf = (rows: Row[], n: number): Row[] =>
    [...rows].sort((a, b) => b.total - a.total).slice(0, n)

  it('sorted rows: the totals and all 20 shown pages in 1 request; varied, correct changes', async () => {
    const rows = 10_000
    await withService({ rows, latencyMs: LATENCY }, async sim => {
      const r = await run(sim, { ...CURRENT, compare: 'true' })
      expectSuccess(r)
      const current = rowsFor(sim, CURRENT['date-from'])
      expect(current.length).toBeLessThanOrEqual(40 + 3)
      expect(rowsFor(sim, PREVIOUS_FROM).map(q => q.offset ?? 0)).toEqual([0])
      expect(spentInLog(r)).toBe(current.length + 1)

      const shown = shownChanges(r.summary)
      const expected = expectedChanges(
        generatedRows(20, { dateFrom: CURRENT['date-from'] }),
        generatedRows(rows, { dateFrom: PREVIOUS_FROM })
      )
      expect(shown).toEqual(expected)
      expect(new Set(shown.map(x => x.change)).size).toBeGreaterThan(10)
      expect(shown.some(x => x.change.startsWith('+'))).toBe(true)
      expect(shown.some(x => x.change.startsWith('\u2212'))).toBe(true)
      // The totals' change uses the previous period's totals from that one request: the
      // service's deduplicated totals, below the sum of its rows.
      const before = generatedTotals(rows, PREVIOUS_FROM).total
      const sum = generatedRows(rows, { dateFrom: PREVIOUS_FROM }).reduce((t, x) => t + x.total, 0)
      expect(before).toBeLessThan(sum)
      expect(r.summary).toContain(formatChange(Number(r.outputs.total), before))
      expect(r.stdout).toMatch(/stopped once all 20 shown pages were found/)
    })
  })

  it('unsorted rows: reads the previous period to the end; the changes are still right', async () => {
    const rows = 2_400
    await withService({ rows, latencyMs: LATENCY, order: 'unsorted' }, async sim => {
      const r = await run(sim, { ...CURRENT, compare: 'true', top: '10' })
      expectSuccess(r)
      const previous = rowsFor(sim, PREVIOUS_FROM)
      expectEachPageOnce(previous)
      expect(previous.length).toBeGreaterThanOrEqual(10)
      expect(previous.length).toBeLessThanOrEqual(10 + 3)
      const cur = generatedRows(rows, { dateFrom: CURRENT['date-from'], order: 'unsorted' })
      const prev = generatedRows(rows, { dateFrom: PREVIOUS_FROM, order: 'unsorted' })
      expect(shownChanges(r.summary)).toEqual(expectedChanges(topOf(cur, 10), prev))
      expect(r.stdout).toMatch(/did not come sorted by total/)
    })
  })

  it('sorted rows with a shown page new this period: reads to the end and shows it as new', async () => {
    const rows = 1_200
    const current = generatedRows(rows, { dateFrom: CURRENT['date-from'] })
    current[2] = { ...current[2]!, path: '/blog/launch-week' }
    const previous = generatedRows(rows, { dateFrom: PREVIOUS_FROM })
    const data = ({ dateFrom }: { dateFrom?: string }) =>
      dateFrom === PREVIOUS_FROM ? previous : current
    await withService({ rows: data, latencyMs: LATENCY }, async sim => {
      const r = await run(sim, { ...CURRENT, compare: 'true', top: '5' })
      expectSuccess(r)
      const reqs = rowsFor(sim, PREVIOUS_FROM)
      expectEachPageOnce(reqs)
      expect(reqs.length).toBeGreaterThanOrEqual(5)
      const shown = shownChanges(r.summary)
      expect(shown).toEqual(expectedChanges(current.slice(0, 5), previous))
      expect(shown[2]!.change).toBe('new')
      expect(r.stdout).toContain('read to the end: 1 shown page is new')
      expect(topTableRows(r.summary)[2]).toContain('launch')
      expect(formatNumber(shown[2]!.total)).toBe(formatNumber(current[2]!.total))
    })
  })
})

describe('visitors: wait-timeout bounds an export', () => {
  it('an endless export (hasMore forever) stops at wait-timeout 5s, says how far it got, leaves no file', async () => {
    await withService(
      // Slow enough that wait-timeout, not the 400-page cap, ends it (4 in flight, 100 ms each).
      { rows: Infinity, latencyMs: 100, totals: { human: 5, ai: 5, total: 9 } },
      async sim => {
        const r = await run(sim, { 'wait-timeout': '5s', 'output-file': 'out/v.ndjson' }, 40_000)
        expect(r.timedOut).toBe(false)
        expect(r.code).toBe(1)
        expect(r.durationMs).toBeLessThan(20_000)
        expect(r.durationMs).toBeGreaterThan(4_000)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toContain('`wait-timeout`')
        const m = /after reading ([\d,]+) rows \((\d+) pages\)/.exec(errors[0]!)
        expect(m).not.toBeNull()
        const pages = Number(m![2])
        expect(Number(m![1]!.replace(/,/g, ''))).toBe(pages * 250)
        expect(pages).toBeGreaterThan(10)
        expectNoStack(r)
        expect(r.files('out/v.ndjson')).toBeUndefined()
        expect(r.outputs['visitors-file'] ?? '').toBe('')
        const reqs = visitorRequests(sim)
        // Bounded by time: at most 4 in flight at 100 ms each, over 5 s.
        expect(reqs.length).toBeLessThan(1_100)
        expect(reqs.length).toBeGreaterThanOrEqual(pages)
        // No request started after the deadline, counted from the run's start (before the first
        // request); the simulator logs a request when it gets to it, a little after it was sent.
        expect(reqs.at(-1)!.time - reqs[0]!.time).toBeLessThan(5_000 + 250)
      }
    )
  }, 60_000)
})

describe('visitors: wait-timeout bounds the comparison too', () => {
  it('a previous period still reading at wait-timeout fails saying so, with nothing read', async () => {
    await withService(
      {
        rows: 100,
        // The current period's only page answers; the previous period's first page hangs.
        faults: [{ kind: 'visitors', offset: 0, after: 1, delayMs: 30_000 }]
      },
      async sim => {
        const r = await run(sim, {
          'date-from': '2026-03-08',
          'date-to': '2026-03-15',
          compare: 'true',
          'wait-timeout': '3s'
        })
        expect(r.code).toBe(1)
        expect(r.durationMs).toBeLessThan(15_000)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        // This read's deadline or the client's own, whichever notices first, ends it: either way
        // the error names the request that had no answer, and `wait-timeout`.
        expect(errors[0]).toMatch(/Reading the visitors analytics failed: no answer in time/)
        expect(r.stdout).toMatch(/GET \/v1\/analytics\/proj-1\/visitors\?\S*offset=0: /)
        expect(errors[0]).toContain('`wait-timeout`')
        expectNoStack(r)
        // The current period's outputs were set before the comparison began.
        expect(r.outputs.rows).toBe('100')
        expect(visitorRequests(sim)).toHaveLength(2)
      }
    )
  })
})

describe('visitors: the time-up path under a slow machine', () => {
  /**
   * Another process on the machine: of every `periodMs` of real time, this one loses `busyMs`
   * (in process, the action and the simulators; as a child, the simulators). The jumping clock
   * counts that time too, as a runner's clock would.
   */
  function busyMachine(busyMs: number, periodMs: number): () => void {
    let timer: NodeJS.Timeout | undefined
    const spin = (): void => {
      const until = performance.now() + busyMs
      while (performance.now() < until) {
        // the other process's work
      }
      timer = setTimeout(spin, periodMs - busyMs)
    }
    timer = setTimeout(spin, 0)
    return () => clearTimeout(timer)
  }

  /** The action's own process as busy, when it runs as one (`--import` before the action). */
  const BUSY_ACTION = `data:text/javascript,${encodeURIComponent(
    'const spin = () => { const until = performance.now() + 40; ' +
      'while (performance.now() < until); setTimeout(spin, 10).unref() }; spin()'
  )}`

  /** The export's failure when its third page never answers: the first two come in time. */
  async function timeUpWords(
    latencyMs: number | [number, number],
    busy?: [number, number],
    nodeArgs?: string[]
  ) {
    return withService(
      {
        rows: 2_000,
        latencyMs,
        faults: [{ kind: 'visitors', offset: 500, hang: true, times: Infinity }]
      },
      async sim => {
        const stop = busy ? busyMachine(...busy) : () => undefined
        let r: RunResult
        try {
          r = await runScenario({
            inputs: inputs(sim.url, { 'wait-timeout': '3s' }),
            ...(nodeArgs ? { nodeArgs } : {})
          })
          tempDirs.push(r.tempDir)
        } finally {
          stop()
        }
        expect(r.code).toBe(1)
        expectNoStack(r)
        // Measured on the run's clock: the deadline, then the page's own failure within the grace.
        expect(r.durationMs).toBeGreaterThanOrEqual(3_000)
        expect(r.durationMs).toBeLessThan(3_000 + 1_500 + 2_000)
        // No request started after the deadline (the simulator logs one as it gets to it).
        expect(Math.max(...visitorRequests(sim).map(q => q.time))).toBeLessThan(3_000 + 250)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        return errors[0]!
      }
    )
  }

  it('says the same words idle, busy, and with slow answers: the time ran out, how far it got, why the page had not come', async () => {
    const said = [
      await timeUpWords(0),
      // 80 % of the machine taken by other work.
      await timeUpWords(0, [40, 50]),
      // Slow answers (0.1 to 0.9 s each), on a machine busy as well.
      await timeUpWords([100, 900], [40, 50]),
      // Where the action runs as a process of its own (ACTION_RUNNER=process), that one busy too.
      ...(needsProcess({}) ? [await timeUpWords(0, [40, 50], [`--import=${BUSY_ACTION}`])] : [])
    ]
    expect(said).toEqual(
      Array<string>(said.length).fill(
        'The visitors export did not finish within `wait-timeout`: stopped after reading 500 ' +
          'rows (2 pages); the next page failed: Reading the visitors analytics failed: no ' +
          'answer in time; gave up because the time allowed (`wait-timeout`) ran out.'
      )
    )
  }, 60_000)
})

describe('visitors: cancellation', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s mid-export: says how far it got, leaves no file (not even a temp file), ends at once',
    async signal => {
      await withService({ rows: Infinity, latencyMs: 50 }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url, { 'output-file': 'out/v.ndjson', 'wait-timeout': '60s' }),
          signal,
          // Mid-export: some pages written, more to come.
          signalWhen: () => visitorRequests(sim).length >= 5,
          timeoutMs: 30_000
        })
        tempDirs.push(r.tempDir)
        expect(r.timedOut).toBe(false)
        expect(r.code).toBe(1)
        // The handler ends the process, at the latest 5 s after the signal.
        expect(r.durationMs - (r.signalledAtMs ?? Infinity)).toBeLessThan(6_000)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(
          new RegExp(
            `^Cancelled \\(${signal}\\) after reading \\d+ rows: the export stopped, and no file was written to out/v.ndjson\\.$`
          )
        )
        expectNoStack(r)
        // Neither the file nor the temp file it was being written to is left behind.
        const outDir = path.join(r.workspace, 'out')
        expect(fs.existsSync(outDir) ? fs.readdirSync(outDir) : []).toEqual([])
        expect(r.outputs.requests).toBe(String(visitorRequests(sim).length))
      })
    },
    40_000
  )
})

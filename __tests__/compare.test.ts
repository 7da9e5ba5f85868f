// Unit tier: the previous period read for `compare`: it stops once every shown page is found, when
// the rows come sorted.
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { readPreviousValues } from '../src/analytics/compare.js'
import type { VisitorRow, VisitorsPage } from '../src/service/schema.js'
import { handClock } from './clock.js'

const TOTALS = { human: 900, ai: 200, total: 1000 }

const row = (path: string, total: number): VisitorRow => ({
  path,
  human: total - 1,
  ai: 1,
  total
})

/** Previous-period rows `/p0`, `/p1`… with totals most first. */
const sortedRows = (n: number): VisitorRow[] =>
  Array.from({ length: n }, (_, i) => row(`/p${i}`, 10 * (n - i)))

function reader(data: VisitorRow[], pageSize = 10) {
  const offsets: number[] = []
  const read = (shown: string[], concurrency = 4) =>
    readPreviousValues<VisitorsPage, VisitorRow>(shown, {
      fetchPage: async (offset, limit) => {
        offsets.push(offset)
        await new Promise(resolve => setImmediate(resolve))
        return {
          totals: TOTALS,
          visitors: data.slice(offset, offset + limit),
          hasMore: offset + limit < data.length
        }
      },
      rowsOf: page => page.visitors,
      pageSize,
      maxRows: 0,
      concurrency,
      deadline: handClock().deadline(60_000),
      onWarning: () => undefined
    })
  return { read, offsets }
}

/** What a full read would find: the first row of each shown path. */
function expectedValues(data: VisitorRow[], shown: string[]) {
  const found = new Map<string, { human: number; ai: number; total: number }>()
  for (const r of data)
    if (shown.includes(r.path) && !found.has(r.path))
      found.set(r.path, { human: r.human, ai: r.ai, total: r.total })
  return found
}

describe('readPreviousValues', () => {
  it('sorted rows: the totals and every shown page from one request when they are on page one', async () => {
    const data = sortedRows(500)
    const { read, offsets } = reader(data)
    const shown = ['/p3', '/p0', '/p7']
    const result = await read(shown)
    expect(offsets).toEqual([0])
    expect(result.read.first.totals).toEqual(TOTALS)
    expect(result.read.stopped).toBe(true)
    expect(result.sorted).toBe(true)
    expect(result.byPath).toEqual(expectedValues(data, shown))
  })

  it('sorted rows: reads on only until the last shown page is found', async () => {
    const data = sortedRows(500)
    const { read, offsets } = reader(data)
    const result = await read(['/p2', '/p95'])
    expect(result.byPath.get('/p95')).toEqual({ human: 4049, ai: 1, total: 4050 })
    // Page 9 (offset 90) holds /p95; read-ahead may go past it by the window (4 in flight, 4
    // answered waiting, less the page read), never further.
    expect(result.read.pages).toBe(10)
    expect(Math.max(...offsets)).toBeLessThanOrEqual(90 + 7 * 10)
    expect(offsets.length).toBeLessThanOrEqual(10 + 7)
  })

  it('sorted rows: a shown page missing from the previous period means reading to the end', async () => {
    const data = sortedRows(95)
    const { read, offsets } = reader(data)
    const result = await read(['/p1', '/brand-new'])
    expect(result.read.stopped).toBe(false)
    expect(result.read.pages).toBe(10)
    expect(result.byPath.has('/brand-new')).toBe(false)
    expect(result.byPath.get('/p1')?.total).toBe(940)
    expect(new Set(offsets).size).toBe(offsets.length)
  })

  it('unsorted rows: reads to the end even when every shown page was found early', async () => {
    const data = sortedRows(95)
    // One row out of order on the first page.
    ;[data[4], data[5]] = [data[5]!, data[4]!]
    const { read } = reader(data)
    const shown = ['/p0', '/p1']
    const result = await read(shown)
    expect(result.sorted).toBe(false)
    expect(result.read.stopped).toBe(false)
    expect(result.read.pages).toBe(10)
    expect(result.byPath).toEqual(expectedValues(data, shown))
  })

  it('an order broken after the shown pages were found still stops, but one broken before does not', async () => {
    const late = sortedRows(95)
    ;[late[60], late[61]] = [late[61]!, late[60]!]
    expect((await reader(late).read(['/p0'])).read.pages).toBe(1)

    const early = sortedRows(95)
    ;[early[0], early[1]] = [early[1]!, early[0]!]
    const result = await reader(early).read(['/p50'])
    expect(result.sorted).toBe(false)
    expect(result.read.pages).toBe(10)
    expect(result.byPath.get('/p50')?.total).toBe(450)
  })

  it('nothing shown: the totals alone, one request', async () => {
    const { read, offsets } = reader(sortedRows(500))
    const result = await read([])
    expect(offsets).toEqual([0])
    expect(result.byPath.size).toBe(0)
  })

  it('finds the same values as a full read, sorted or not (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 120 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 130 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        async (totals, sort, picks, concurrency) => {
          const data = totals.map((t, i) => row(`/p${i}`, t))
          if (sort) data.sort((a, b) => b.total - a.total)
          // Some shown paths exist, some (index >= length) are new.
          const shown = [...new Set(picks.map(i => `/p${i}`))]
          const { read, offsets } = reader(data, 7)
          const result = await read(shown, concurrency)
          expect(result.byPath).toEqual(expectedValues(data, shown))
          const pages = Math.max(1, Math.ceil(data.length / 7))
          if (!result.read.stopped) expect(result.read.pages).toBe(pages)
          if (result.read.stopped) expect(result.sorted).toBe(true)
          expect(new Set(offsets).size).toBe(offsets.length)
        }
      ),
      { numRuns: 150 }
    )
  })
})

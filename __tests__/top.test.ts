// Unit tier: the top pages kept while rows stream past.
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { eachPathOnce, TopPages } from '../src/analytics/top.js'
import type { VisitorRow } from '../src/service/schema.js'

describe('TopPages', () => {
  const expectedTop = (rows: VisitorRow[], n: number): VisitorRow[] =>
    // Array.prototype.sort is stable, so ties keep the order the rows came in.
    [...rows].sort((a, b) => b.total - a.total).slice(0, n)

  it('matches a stable sort (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 300 }),
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
        (totals, n, batchSizes) => {
          const rows = totals.map((total, i) => ({ path: `/${i}`, human: total, ai: 0, total }))
          const top = new TopPages(n)
          for (let i = 0, b = 0; i < rows.length; b++) {
            const size = batchSizes[b % batchSizes.length]!
            top.add(rows.slice(i, i + size))
            i += size
          }
          const list = top.list()
          expect(list).toEqual(expectedTop(rows, n))
          list.forEach((row, i) => expect(row).toBe(expectedTop(rows, n)[i]))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('handles 1,000,000 rows with n = 20 and 200,000 rows with n = 10,000', () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => ({
      path: `/${i}`,
      human: 0,
      ai: 0,
      total: (i * 7919) % 100_003
    }))
    const top = new TopPages(20)
    for (let i = 0; i < rows.length; i += 250) top.add(rows.slice(i, i + 250))
    expect(top.list()).toEqual(expectedTop(rows, 20))
    const big = new TopPages(10_000)
    big.add(rows.slice(0, 200_000))
    expect(big.list()).toEqual(expectedTop(rows.slice(0, 200_000), 10_000))
  })

  it('shows a path the service sent twice once, with its first row', () => {
    const top = new TopPages(3)
    top.add([
      { path: '/a', human: 1, ai: 0, total: 5 },
      { path: '/b', human: 1, ai: 0, total: 3 },
      { path: '/a', human: 1, ai: 0, total: 4 }
    ])
    expect(top.list().map(r => [r.path, r.total])).toEqual([
      ['/a', 5],
      ['/b', 3]
    ])
  })

  it('eachPathOnce keeps first rows and tells the first repeat once', () => {
    const told: string[] = []
    const rows = eachPathOnce(
      [{ path: '/x' }, { path: '/y' }, { path: '/x' }, { path: '/y' }],
      path => told.push(path)
    )
    expect(rows).toEqual([{ path: '/x' }, { path: '/y' }])
    expect(told).toEqual(['/x'])
  })

  it('refuses a negative size', () => {
    expect(() => new TopPages(-1)).toThrow(RangeError)
  })
})

import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { exportVisitors, TopPages, type ExportOptions } from '../src/analytics/export.js'
import type { VisitorCounts, VisitorRow, VisitorsPage } from '../src/service/schema.js'

const makeRows = (n: number, prefix = '/p'): VisitorRow[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `${prefix}${i}`,
    human: i % 7,
    ai: i % 3,
    total: (i % 7) + (i % 3)
  }))

const TOTALS: VisitorCounts = { human: 10, ai: 5, total: 12 }

const tick = (): Promise<void> => new Promise(resolve => setImmediate(resolve))

interface FakeOptions {
  /** setImmediate ticks before the answer, by call number (0 = answers within microtasks). */
  delay?: (call: number, offset: number) => number
  /** An error to reject with instead of answering. */
  fail?: (offset: number) => Error | undefined
  totals?: (offset: number) => VisitorCounts
  /** Overrides the page answered. */
  page?: (offset: number, limit: number) => VisitorsPage | undefined
}

/** An in-memory service that records what the export asks of it. */
function fakeService(data: VisitorRow[], opts: FakeOptions = {}) {
  const stats = {
    calls: [] as { offset: number; limit: number }[],
    inFlight: 0,
    maxInFlight: 0,
    endSeen: false,
    startedAfterEnd: 0,
    callsAtFailure: undefined as number | undefined,
    delivered: 0,
    // Requests started and not yet handed to onRows, at most.
    maxOutstanding: 0
  }
  const fetchPage = (offset: number, limit: number): Promise<VisitorsPage> => {
    if (stats.endSeen) stats.startedAfterEnd++
    const call = stats.calls.push({ offset, limit }) - 1
    stats.maxOutstanding = Math.max(stats.maxOutstanding, stats.calls.length - stats.delivered)
    const answer = answerPage(call, offset, limit)
    // The caller learns the outcome when the promise it holds settles: record it there.
    answer.then(
      page => {
        if (!page.hasMore) stats.endSeen = true
      },
      () => {
        stats.callsAtFailure ??= stats.calls.length
      }
    )
    return answer
  }
  const answerPage = async (call: number, offset: number, limit: number): Promise<VisitorsPage> => {
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    try {
      const ticks = opts.delay?.(call, offset) ?? 0
      for (let i = 0; i < ticks; i++) await tick()
      await Promise.resolve()
      const error = opts.fail?.(offset)
      if (error) throw error
      const page = opts.page?.(offset, limit) ?? {
        totals: opts.totals?.(offset) ?? TOTALS,
        visitors: data.slice(offset, offset + limit),
        hasMore: offset + limit < data.length
      }
      return page
    } finally {
      stats.inFlight--
    }
  }
  return { fetchPage, stats }
}

function run(
  fake: ReturnType<typeof fakeService>,
  options: Partial<ExportOptions> & { pageSize: number }
) {
  const delivered: VisitorRow[] = []
  const batches: VisitorRow[][] = []
  const warnings: string[] = []
  const promise = exportVisitors({
    fetchPage: fake.fetchPage,
    maxRows: 0,
    concurrency: 4,
    onRows: rows => {
      fake.stats.delivered++
      batches.push(rows)
      delivered.push(...rows)
    },
    onWarning: message => warnings.push(message),
    ...options
  })
  return { promise, delivered, batches, warnings }
}

/** Counts unhandled rejections while `body` runs and a few ticks after. */
async function countUnhandled(body: () => Promise<void>): Promise<number> {
  let count = 0
  const listener = (): void => {
    count++
  }
  process.on('unhandledRejection', listener)
  try {
    await body()
    for (let i = 0; i < 20; i++) await tick()
  } finally {
    process.off('unhandledRejection', listener)
  }
  return count
}

describe('exportVisitors', () => {
  it('reads the first page alone, so a one-page site costs one request', async () => {
    const fake = fakeService(makeRows(120))
    const r = run(fake, { pageSize: 250, concurrency: 16 })
    const result = await r.promise
    expect(fake.stats.calls).toEqual([{ offset: 0, limit: 250 }])
    expect(result).toMatchObject({ rows: 120, requests: 1, pagesPastEnd: 0 })
  })

  it('reads ahead with `concurrency` requests once the first page says more exist', async () => {
    const fake = fakeService(makeRows(2000))
    const r = run(fake, { pageSize: 100, concurrency: 4 })
    await r.promise
    expect(fake.stats.maxInFlight).toBe(4)
    expect(r.delivered).toHaveLength(2000)
  })

  it('delivers every row once, in order, within the request bounds (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 250 }),
        fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2500 })),
        fc.integer({ min: 1, max: 16 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 }),
        async (n, pageSize, maxRows, concurrency, delays) => {
          const data = makeRows(n)
          const fake = fakeService(data, { delay: call => delays[call % delays.length]! })
          const totalsSeen: VisitorCounts[] = []
          const { promise, delivered, warnings } = run(fake, {
            pageSize,
            maxRows,
            concurrency,
            onRows: (rows, totals) => {
              fake.stats.delivered++
              totalsSeen.push(totals)
              delivered.push(...rows)
            }
          })
          const result = await promise

          const expected = maxRows > 0 ? Math.min(maxRows, n) : n
          // Same objects, same order: nothing lost, repeated or moved.
          expect(delivered.length).toBe(expected)
          delivered.forEach((row, i) => expect(row).toBe(data[i]))
          expect(result.rows).toBe(expected)
          expect(result.totals).toEqual(TOTALS)
          expect(totalsSeen.every(t => t === totalsSeen[0])).toBe(true)
          expect(result.maxRowsReached).toBe(maxRows > 0 && n > maxRows)
          expect(warnings).toEqual([])

          const { calls } = fake.stats
          expect(result.requests).toBe(calls.length)
          expect(calls.every(c => c.limit === pageSize)).toBe(true)
          expect(calls.map(c => c.offset)).toEqual(calls.map((_, i) => i * pageSize))
          const dataPages = Math.max(1, Math.ceil(n / pageSize))
          const needed =
            maxRows > 0 ? Math.min(Math.ceil(maxRows / pageSize), dataPages) : dataPages
          expect(calls.length).toBeGreaterThanOrEqual(needed)
          expect(calls.length).toBeLessThanOrEqual(needed + concurrency - 1)
          if (maxRows > 0) expect(calls.length).toBeLessThanOrEqual(Math.ceil(maxRows / pageSize))
          if (concurrency === 1) expect(calls.length).toBe(needed)
          expect(result.pagesPastEnd).toBe(calls.length - needed)
          expect(fake.stats.maxInFlight).toBeLessThanOrEqual(concurrency)
          expect(fake.stats.maxOutstanding).toBeLessThanOrEqual(concurrency)
          expect(fake.stats.startedAfterEnd).toBe(0)
          // One onRows call per page that lies within the data.
          expect(fake.stats.delivered).toBe(needed)
        }
      ),
      { numRuns: 150 }
    )
  })

  it('uses the concurrency it is given', async () => {
    const fake = fakeService(makeRows(5000), { delay: () => 2 })
    const { promise } = run(fake, { pageSize: 100, concurrency: 8 })
    await promise
    expect(fake.stats.maxInFlight).toBe(8)
  })

  it('waits for onRows before delivering the next page', async () => {
    const fake = fakeService(makeRows(1000))
    let writing = false
    let overlapped = false
    const { promise } = run(fake, {
      pageSize: 50,
      concurrency: 6,
      onRows: async () => {
        if (writing) overlapped = true
        writing = true
        for (let i = 0; i < 3; i++) await tick()
        writing = false
      }
    })
    const result = await promise
    expect(overlapped).toBe(false)
    expect(result.rows).toBe(1000)
  })

  it('calls onRows once for an empty export', async () => {
    const fake = fakeService([])
    const { promise, batches } = run(fake, { pageSize: 10, concurrency: 5 })
    const result = await promise
    expect(batches).toEqual([[]])
    expect(result).toMatchObject({ rows: 0, maxRowsReached: false })
    expect(result.requests).toBe(result.pagesPastEnd + 1)
  })

  it('reports maxRowsReached when the cut falls on a page boundary and more rows exist', async () => {
    const fake = fakeService(makeRows(30))
    const { promise, delivered } = run(fake, { pageSize: 10, maxRows: 20, concurrency: 4 })
    const result = await promise
    expect(delivered.length).toBe(20)
    expect(result).toMatchObject({ rows: 20, requests: 2, maxRowsReached: true, pagesPastEnd: 0 })
  })

  it('does not report maxRowsReached when exactly maxRows rows exist', async () => {
    const fake = fakeService(makeRows(20))
    const { promise } = run(fake, { pageSize: 10, maxRows: 20, concurrency: 4 })
    expect(await promise).toMatchObject({ rows: 20, maxRowsReached: false })
  })

  it('treats a short page as the last one and warns when it claims more', async () => {
    const data = makeRows(100)
    const fake = fakeService(data, {
      page: offset =>
        offset === 20 ? { totals: TOTALS, visitors: data.slice(20, 25), hasMore: true } : undefined,
      delay: (_, offset) => (offset === 20 ? 3 : 0)
    })
    const { promise, delivered, warnings } = run(fake, { pageSize: 10, concurrency: 3 })
    const result = await promise
    expect(delivered).toEqual(data.slice(0, 25))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('offset 20')
    expect(result.requests).toBeLessThanOrEqual(3 + 2)
  })

  it('rejects with the error of a failed page, without waiting for later pages', async () => {
    const error = new Error('HTTP 500 after retries')
    let release = (): void => undefined
    const never = new Promise<void>(resolve => (release = resolve))
    const data = makeRows(1000)
    const fake = fakeService(data, { fail: offset => (offset === 0 ? error : undefined) })
    const fetchPage = async (offset: number, limit: number): Promise<VisitorsPage> => {
      if (offset > 0) {
        await never
        throw new Error(`late failure at ${offset}`)
      }
      return fake.fetchPage(offset, limit)
    }
    const unhandled = await countUnhandled(async () => {
      const { promise } = run(fake, { fetchPage, pageSize: 10, concurrency: 4 })
      await expect(promise).rejects.toBe(error)
      // The pages still in flight now fail too; nobody may be left with an unhandled rejection.
      release()
    })
    expect(unhandled).toBe(0)
  })

  it('rejects when any page within the data fails, and starts nothing afterwards (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 16 }),
        fc.nat(),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 20 }),
        async (n, pageSize, concurrency, seed, delays) => {
          const pages = Math.ceil(n / pageSize)
          const failAt = (seed % pages) * pageSize
          const error = new Error(`failed at ${failAt}`)
          const fake = fakeService(makeRows(n), {
            delay: call => delays[call % delays.length]!,
            fail: offset => (offset === failAt ? error : undefined)
          })
          const unhandled = await countUnhandled(async () => {
            const { promise, delivered } = run(fake, { pageSize, concurrency })
            await expect(promise).rejects.toBe(error)
            // Every row before the failed page was delivered, none after it.
            expect(delivered.length).toBe(failAt)
          })
          expect(unhandled).toBe(0)
          expect(fake.stats.calls.length).toBe(fake.stats.callsAtFailure)
        }
      ),
      { numRuns: 100 }
    )
  })

  it('ignores a failure of a page that turns out to lie past the end', async () => {
    const data = makeRows(25)
    const fake = fakeService(data, {
      // The service refuses offsets beyond the data, and does so faster than it answers.
      fail: offset => (offset >= 30 ? new Error('offset out of range') : undefined),
      delay: (_, offset) => (offset >= 30 ? 0 : 3)
    })
    const { promise, delivered } = run(fake, { pageSize: 10, concurrency: 6 })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result.pagesPastEnd).toBe(result.requests - 3)
    expect(result.pagesPastEnd).toBeGreaterThan(0)
  })

  it('rejects when fetchPage throws synchronously', async () => {
    const error = new Error('bad URL')
    const { promise } = run(fakeService([]), {
      pageSize: 10,
      fetchPage: () => {
        throw error
      }
    })
    await expect(promise).rejects.toBe(error)
  })

  it('rejects when onRows fails, leaving no unhandled rejection', async () => {
    const error = new Error('disk full')
    const fake = fakeService(makeRows(500), {
      delay: () => 1,
      fail: offset => (offset >= 100 ? new Error('later') : undefined)
    })
    const unhandled = await countUnhandled(async () => {
      const { promise } = run(fake, {
        pageSize: 10,
        concurrency: 8,
        onRows: () => Promise.reject(error)
      })
      await expect(promise).rejects.toBe(error)
    })
    expect(unhandled).toBe(0)
  })

  it('warns once when the totals change between pages, and keeps the first totals', async () => {
    const fake = fakeService(makeRows(100), {
      totals: offset => (offset < 30 ? TOTALS : { ...TOTALS, total: TOTALS.total + offset })
    })
    const { promise, warnings } = run(fake, { pageSize: 10 })
    const result = await promise
    expect(result.totals).toEqual(TOTALS)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/totals changed/)
  })

  it('warns once when a path appears twice across pages', async () => {
    const data = makeRows(100)
    data[57] = { ...data[57]!, path: data[3]!.path }
    data[80] = { ...data[80]!, path: data[4]!.path }
    const fake = fakeService(data)
    const { promise, delivered, warnings } = run(fake, { pageSize: 10 })
    await promise
    expect(delivered).toEqual(data)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(JSON.stringify(data[3]!.path))
  })

  it('does not warn about 300,000 distinct paths', async () => {
    const fake = fakeService(makeRows(300_000, '/docs/page-'))
    const { promise, warnings } = run(fake, { pageSize: 250, concurrency: 16 })
    const result = await promise
    expect(result.rows).toBe(300_000)
    expect(warnings).toEqual([])
  })

  it('refuses out-of-range options', async () => {
    const fake = fakeService([])
    await expect(run(fake, { pageSize: 0 }).promise).rejects.toThrow(RangeError)
    await expect(run(fake, { pageSize: 251 }).promise).rejects.toThrow(RangeError)
    await expect(run(fake, { pageSize: 10, concurrency: 17 }).promise).rejects.toThrow(RangeError)
    await expect(run(fake, { pageSize: 10, maxRows: -1 }).promise).rejects.toThrow(RangeError)
    expect(fake.stats.calls).toEqual([])
  })
})

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

  it('handles 1,000,000 rows with n = 20 and 200,000 rows with n = 10,000 quickly', () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => ({
      path: `/${i}`,
      human: 0,
      ai: 0,
      total: (i * 7919) % 100_003
    }))
    const started = Date.now()
    const top = new TopPages(20)
    for (let i = 0; i < rows.length; i += 250) top.add(rows.slice(i, i + 250))
    expect(top.list()).toEqual(expectedTop(rows, 20))
    const big = new TopPages(10_000)
    big.add(rows.slice(0, 200_000))
    expect(big.list()).toEqual(expectedTop(rows.slice(0, 200_000), 10_000))
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('refuses a negative size', () => {
    expect(() => new TopPages(-1)).toThrow(RangeError)
  })
})

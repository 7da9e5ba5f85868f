// Unit tier: offset pages: order, read-ahead bounds, the deadline, abandoned pages.
import { TimeUpError } from '../src/errors.js'
import { Deadline, type Clock } from '../src/deadline.js'
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { readOffsetPages, STOP, type OffsetPagesOptions } from '../src/service/pages.js'
import { SHORT_EXPORT_PAGES } from '../src/service/page-window.js'
import type { VisitorCounts, VisitorRow, VisitorsPage } from '../src/service/schema.js'
import { requestFailure, RequestCancelledError, ServiceError } from '../src/service/errors.js'
import { handClock, type HandClock } from './clock.js'

const makeRows = (n: number, prefix = '/p'): VisitorRow[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `${prefix}${i}`,
    human: i % 7,
    ai: i % 3,
    total: (i % 7) + (i % 3)
  }))

const TOTALS: VisitorCounts = { human: 10, ai: 5, total: 12 }

const tick = (): Promise<void> => new Promise(resolve => setImmediate(resolve))
/** Far enough that no read here meets it, unless a test sets its own. */
const farDeadline = (): Deadline => handClock().deadline(3_600_000)

interface FakeOptions {
  /** setImmediate ticks before the answer, by call number (0 = answers within microtasks). */
  delay?: (call: number, offset: number) => number
  /** An error to reject with instead of answering. */
  fail?: (offset: number, limit: number) => Error | undefined
  totals?: (offset: number) => VisitorCounts
  /** Overrides the page answered. */
  page?: (offset: number, limit: number) => VisitorsPage | undefined
  /** Pages beyond the data still say more exist: an endless export. */
  endless?: boolean
  /** The clock the calls are timed on, and how long each answer takes on it. */
  clock?: HandClock
  takesMs?: number
}

interface Call {
  offset: number
  limit: number
  signal: AbortSignal
  at: number
}

/** An in-memory service that records what the reader asks of it. */
function fakeService(data: VisitorRow[], opts: FakeOptions = {}) {
  const stats = {
    calls: [] as Call[],
    inFlight: 0,
    maxInFlight: 0,
    endSeen: false,
    startedAfterEnd: 0,
    callsAtFailure: undefined as number | undefined,
    delivered: 0,
    // Requests started and not yet handed to onPage, at most.
    maxOutstanding: 0
  }
  const fetchPage = (offset: number, limit: number, signal: AbortSignal): Promise<VisitorsPage> => {
    if (stats.endSeen) stats.startedAfterEnd++
    const call = stats.calls.push({ offset, limit, signal, at: opts.clock?.now() ?? 0 }) - 1
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
      opts.clock?.advance(opts.takesMs ?? 0)
      const error = opts.fail?.(offset, limit)
      if (error) throw error
      const page = opts.page?.(offset, limit) ?? {
        totals: opts.totals?.(offset) ?? TOTALS,
        visitors: opts.endless
          ? makeRows(limit, `/o${offset}-`)
          : data.slice(offset, offset + limit),
        hasMore: opts.endless || offset + limit < data.length
      }
      return page
    } finally {
      stats.inFlight--
    }
  }
  return { fetchPage, stats }
}

type Options = OffsetPagesOptions<VisitorsPage, VisitorRow>

function run(
  fake: ReturnType<typeof fakeService>,
  options: Partial<Options> & { pageSize: number }
) {
  const delivered: VisitorRow[] = []
  const batches: VisitorRow[][] = []
  const warnings: string[] = []
  const promise = readOffsetPages<VisitorsPage, VisitorRow>({
    fetchPage: fake.fetchPage,
    rowsOf: page => page.visitors,
    maxRows: 0,
    concurrency: 4,
    deadline: farDeadline(),
    onPage: rows => {
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

/**
 * A latency model without clocks: every request in flight is answered at once, one "round trip"
 * after another. Returns how many requests each round held, and what the read cost.
 */
async function lockstep(rows: number, pageSize: number, concurrency: number) {
  const data = makeRows(rows)
  const queue: (() => void)[] = []
  const offsets: number[] = []
  const promise = readOffsetPages<VisitorsPage, VisitorRow>({
    fetchPage: (offset, limit) => {
      offsets.push(offset)
      return new Promise(resolve =>
        queue.push(() =>
          resolve({
            totals: TOTALS,
            visitors: data.slice(offset, offset + limit),
            hasMore: offset + limit < data.length
          })
        )
      )
    },
    rowsOf: page => page.visitors,
    pageSize,
    maxRows: 0,
    concurrency,
    deadline: farDeadline(),
    onPage: () => undefined,
    onWarning: () => undefined
  })
  let finished = false
  void promise.finally(() => (finished = true))
  const rounds: number[] = []
  for (;;) {
    for (let i = 0; i < 5; i++) await tick()
    if (finished) break
    const batch = queue.splice(0)
    if (batch.length === 0) throw new Error('the reader is stuck')
    rounds.push(batch.length)
    for (const answer of batch) answer()
  }
  return { rounds, offsets, result: await promise }
}

describe('readOffsetPages: what read-ahead costs', () => {
  it('reads the first page alone, so a one-page site costs one request', async () => {
    const fake = fakeService(makeRows(120))
    const r = run(fake, { pageSize: 250, concurrency: 16 })
    const result = await r.promise
    expect(fake.stats.calls.map(c => c.offset)).toEqual([0])
    expect(result).toMatchObject({ rows: 120, pages: 1, requests: 1, abandoned: 0 })
    expect(result.first.visitors).toHaveLength(120)
  })

  it.each([
    // pages of data, requests: read-ahead guesses one page at a time up to 5 pages
    [1, 1],
    [2, 3],
    [3, 4],
    [5, 6],
    [6, 9]
  ])(
    '%i pages at concurrency 4 cost %i requests when all answers come together',
    async (pages, cost) => {
      const { result, offsets } = await lockstep(pages * 100 - 30, 100, 4)
      expect(result.pages).toBe(pages)
      expect(result.requests).toBe(cost)
      expect(offsets).toEqual(Array.from({ length: cost }, (_, i) => i * 100))
      expect(result.abandoned).toBe(cost - pages)
    }
  )

  it('ramps the window 1, 2, 2, then concurrency; 40 pages take at most 0.4 of the serial round trips', async () => {
    const parallel = await lockstep(10_000, 250, 4)
    expect(parallel.rounds.slice(0, 4)).toEqual([1, 2, 2, 4])
    expect(Math.max(...parallel.rounds)).toBe(4)
    const serial = await lockstep(10_000, 250, 1)
    expect(serial.rounds).toEqual(Array.from({ length: 40 }, () => 1))
    expect(serial.result.requests).toBe(40)
    expect(parallel.result.requests).toBeGreaterThanOrEqual(40)
    expect(parallel.result.requests).toBeLessThanOrEqual(43)
    expect(parallel.rounds.length / serial.rounds.length).toBeLessThanOrEqual(0.4)
    const sixteen = await lockstep(10_000, 250, 16)
    expect(Math.max(...sixteen.rounds)).toBe(16)
    expect(sixteen.result.requests).toBeLessThanOrEqual(40 + 15)
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
          const { promise, delivered, warnings } = run(fake, {
            pageSize,
            maxRows,
            concurrency,
            maxPages: 10_000
          })
          const result = await promise

          const expected = maxRows > 0 ? Math.min(maxRows, n) : n
          // Same objects, same order: nothing lost, repeated or moved.
          expect(delivered.length).toBe(expected)
          expect(delivered.findIndex((row, i) => row !== data[i])).toBe(-1)
          expect(result.rows).toBe(expected)
          expect(result.first.totals).toEqual(TOTALS)
          expect(result.maxRowsReached).toBe(maxRows > 0 && n > maxRows)
          expect(result.stopped).toBe(false)
          expect(warnings).toEqual([])

          const { calls } = fake.stats
          expect(result.requests).toBe(calls.length)
          expect(calls.every(c => c.limit === pageSize)).toBe(true)
          expect(calls.map(c => c.offset)).toEqual(calls.map((_, i) => i * pageSize))
          const dataPages = Math.max(1, Math.ceil(n / pageSize))
          const cut = maxRows > 0 && Math.ceil(maxRows / pageSize) < dataPages
          const needed = cut ? Math.ceil(maxRows / pageSize) : dataPages
          // Past the end: at most 1 for up to 5 pages, at most concurrency - 1 beyond; none
          // past max-rows, which is known in advance.
          const allowed = cut
            ? 0
            : Math.min(concurrency - 1, dataPages <= SHORT_EXPORT_PAGES ? 1 : concurrency - 1)
          expect(calls.length).toBeGreaterThanOrEqual(needed)
          expect(calls.length - needed).toBeLessThanOrEqual(allowed)
          expect(result.pages).toBe(needed)
          expect(result.abandoned).toBe(calls.length - needed)
          // The pages not needed were abandoned; the ones delivered were not.
          expect(calls.findIndex((c, i) => c.signal.aborted !== i >= needed)).toBe(-1)
          expect(fake.stats.maxInFlight).toBeLessThanOrEqual(concurrency)
          // Answered pages wait for their turn beside those in flight, never more than as many.
          expect(fake.stats.maxOutstanding).toBeLessThanOrEqual(2 * concurrency)
          expect(fake.stats.startedAfterEnd).toBe(0)
          expect(fake.stats.delivered).toBe(needed)
        }
      ),
      { numRuns: 150 }
    )
  })

  it('uses the concurrency it is given once the export proves long', async () => {
    const fake = fakeService(makeRows(5000), { delay: () => 2 })
    const { promise } = run(fake, { pageSize: 100, concurrency: 8 })
    await promise
    expect(fake.stats.maxInFlight).toBe(8)
  })

  it('never requests past max-rows', async () => {
    const fake = fakeService(makeRows(30))
    const { promise, delivered } = run(fake, { pageSize: 10, maxRows: 20, concurrency: 4 })
    const result = await promise
    expect(delivered.length).toBe(20)
    expect(result).toMatchObject({ rows: 20, requests: 2, maxRowsReached: true, abandoned: 0 })
  })

  it('does not report maxRowsReached when exactly maxRows rows exist', async () => {
    const fake = fakeService(makeRows(20))
    const { promise } = run(fake, { pageSize: 10, maxRows: 20, concurrency: 4 })
    expect(await promise).toMatchObject({ rows: 20, maxRowsReached: false })
  })
})

describe('readOffsetPages: order and hand-over', () => {
  it('waits for onPage before delivering the next page', async () => {
    const fake = fakeService(makeRows(1000))
    let writing = false
    let overlapped = false
    const { promise } = run(fake, {
      pageSize: 50,
      concurrency: 6,
      onPage: async () => {
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

  it('calls onPage once for an empty export', async () => {
    const fake = fakeService([])
    const { promise, batches } = run(fake, { pageSize: 10, concurrency: 5 })
    const result = await promise
    expect(batches).toEqual([[]])
    expect(result).toMatchObject({ rows: 0, pages: 1, requests: 1, maxRowsReached: false })
  })

  it('after a short page, the next starts at its offset plus the rows received: every row, in order', async () => {
    const data = makeRows(100)
    // The page at offset 20 holds 5 rows of 10; the next page is asked at 25, not 30.
    const fake = fakeService(data, {
      page: offset =>
        offset === 20 ? { totals: TOTALS, visitors: data.slice(20, 25), hasMore: true } : undefined,
      delay: (_, offset) => (offset === 20 ? 3 : 0)
    })
    const { promise, delivered, warnings } = run(fake, { pageSize: 10, concurrency: 3 })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result).toMatchObject({ endedShort: false, shortPages: 1, pages: 11, dropped: 0 })
    expect(warnings).toEqual([])
    expect(fake.stats.calls.map(c => c.offset)).toContain(25)
    // The pages read ahead past it (those waiting for their turn beside those in flight, at most
    // 2 · concurrency - 1) were abandoned when the short one came; after it, the window regrew.
    expect(result.invalidated).toBeGreaterThan(0)
    expect(result.invalidated).toBeLessThanOrEqual(2 * 3 - 1)
    expect(result.requests - result.pages - result.invalidated).toBeLessThanOrEqual(2)
  })

  it('a service that serves at most 100 rows a page of 250: every row once, 9 short pages, few requests', async () => {
    const data = makeRows(1000)
    const fake = fakeService(data, {
      page: offset => ({
        totals: TOTALS,
        visitors: data.slice(offset, offset + 100),
        hasMore: offset + 100 < data.length
      })
    })
    const { promise, delivered } = run(fake, { pageSize: 250, concurrency: 4 })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result).toMatchObject({ rows: 1000, pages: 10, shortPages: 9, invalidated: 0 })
    expect(fake.stats.calls.length).toBeLessThanOrEqual(14)
  })

  it('every row once, in order, whatever number of rows each page holds (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 }),
        async (n, pageSize, caps, concurrency, delays) => {
          const data = makeRows(n)
          let answered = 0
          // Each answer holds at most the next cap of the list (a service that filters or caps).
          const fake = fakeService(data, {
            delay: call => delays[call % delays.length]!,
            page: (offset, limit) => {
              const keep = Math.min(limit, caps[answered++ % caps.length]!)
              const rows = data.slice(offset, offset + keep)
              return { totals: TOTALS, visitors: rows, hasMore: offset + rows.length < n }
            }
          })
          const { promise, delivered } = run(fake, { pageSize, concurrency, maxPages: 1000 })
          const result = await promise
          expect(delivered).toEqual(data)
          expect(result.dropped).toBe(0)
          expect(fake.stats.maxInFlight).toBeLessThanOrEqual(concurrency)
          // What was asked and not used: past the end, or at offsets a short page proved wrong.
          expect(result.requests).toBe(result.pages + result.abandoned + result.invalidated)
          expect(result.abandoned).toBeLessThanOrEqual(Math.max(1, concurrency - 1))
        }
      ),
      { numRuns: 150 }
    )
  })

  it('stops after 3 empty pages in a row that say more exist, and says it ended short', async () => {
    const data = makeRows(100)
    const empty = (from: number, to: number) => (offset: number) =>
      offset >= from && offset < to ? { totals: TOTALS, visitors: [], hasMore: true } : undefined
    // Two empty pages in a row are read past...
    const two = await run(fakeService(data, { page: empty(20, 40) }), { pageSize: 10 }).promise
    expect(two).toMatchObject({ rows: 80, endedShort: false, shortPages: 2 })
    // ...the third ends the read: what was read is not the whole export.
    const fake = fakeService(data, { page: empty(20, 50) })
    const { promise, delivered } = run(fake, { pageSize: 10, concurrency: 4 })
    const three = await promise
    expect(delivered).toEqual(data.slice(0, 20))
    expect(three).toMatchObject({ endedShort: true, pages: 5 })
    // Beyond the 5 pages, at most the read-ahead window (in flight and waiting), abandoned.
    expect(three.requests).toBeLessThanOrEqual(5 + 2 * 4)
    expect(three.abandoned).toBe(three.requests - 5)
  })

  it('STOP ends the read at once and abandons the pages read ahead', async () => {
    const fake = fakeService(makeRows(5000), { delay: () => 2 })
    let pagesSeen = 0
    const { promise } = run(fake, {
      pageSize: 100,
      concurrency: 4,
      onPage: () => (++pagesSeen === 9 ? STOP : undefined)
    })
    const result = await promise
    expect(result).toMatchObject({ pages: 9, rows: 900, stopped: true })
    expect(result.abandoned).toBe(result.requests - 9)
    expect(result.abandoned).toBeGreaterThan(0)
    // At most the window: 4 in flight and 4 answered waiting, less the page that said STOP.
    expect(result.abandoned).toBeLessThanOrEqual(2 * 4 - 1)
    fake.stats.calls.forEach((c, i) => expect([i, c.signal.aborted]).toEqual([i, i >= 9]))
    // Nothing is requested after the stop.
    const calls = fake.stats.calls.length
    for (let i = 0; i < 10; i++) await tick()
    expect(fake.stats.calls.length).toBe(calls)
  })

  it('STOP from the first page costs one request', async () => {
    const fake = fakeService(makeRows(5000))
    const { promise } = run(fake, { pageSize: 100, onPage: () => STOP })
    expect(await promise).toMatchObject({ pages: 1, requests: 1, stopped: true, abandoned: 0 })
  })
})

describe('readOffsetPages: a gateway that times out on large pages', () => {
  const timeout = () => new ServiceError('GET /v failed: 504 Gateway Timeout', 504)
  const joinPages = (parts: VisitorsPage[]): VisitorsPage => ({
    totals: parts[0]!.totals,
    visitors: parts.flatMap(p => p.visitors),
    hasMore: parts[parts.length - 1]!.hasMore
  })

  it('reads a page it timed out on in halves, and later pages in pieces that get through', async () => {
    const data = makeRows(500)
    const halvable: boolean[] = []
    const fake = fakeService(data, {
      fail: (_offset, limit) => (limit > 50 ? timeout() : undefined)
    })
    const fetchPage: Options['fetchPage'] = (offset, limit, signal, canHalve) => {
      halvable.push(canHalve)
      return fake.fetchPage(offset, limit, signal)
    }
    const { promise, delivered } = run(fake, {
      pageSize: 200,
      concurrency: 1,
      joinPages,
      fetchPage
    })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result.narrowed).toEqual({ from: 200, to: 50 })
    expect(result.requests).toBe(fake.stats.calls.length)
    // 200 and 100 timed out once each; then 10 pieces of 50: no retry at a size that failed.
    expect(fake.stats.calls.map(c => c.limit)).toEqual([200, 100, ...Array<number>(10).fill(50)])
    expect(halvable.every(Boolean)).toBe(true)
  })

  it('gives up at 25 rows a request: that one may be retried by the client, then the read fails', async () => {
    const fake = fakeService(makeRows(100), { fail: () => timeout() })
    const halvable: boolean[] = []
    const fetchPage: Options['fetchPage'] = (offset, limit, signal, canHalve) => {
      halvable.push(canHalve)
      return fake.fetchPage(offset, limit, signal)
    }
    const { promise } = run(fake, { pageSize: 100, concurrency: 1, joinPages, fetchPage })
    await expect(promise).rejects.toThrow(/504/)
    expect(fake.stats.calls.map(c => c.limit)).toEqual([100, 50, 25])
    expect(halvable).toEqual([true, true, false])
  })

  it('without joinPages a timeout fails the read like any error', async () => {
    const fake = fakeService(makeRows(100), { fail: () => timeout() })
    await expect(run(fake, { pageSize: 100 }).promise).rejects.toThrow(/504/)
    expect(fake.stats.calls).toHaveLength(1)
  })
})

describe('readOffsetPages: failures', () => {
  it('rejects with the error of a failed page, without waiting for later pages', async () => {
    const error = new Error('HTTP 500 after retries')
    let release = (): void => undefined
    const never = new Promise<void>(resolve => (release = resolve))
    const data = makeRows(1000)
    const fake = fakeService(data, { fail: offset => (offset === 20 ? error : undefined) })
    const fetchPage = async (offset: number, limit: number, signal: AbortSignal) => {
      if (offset > 20) {
        await never
        throw new Error(`late failure at ${offset}`)
      }
      return fake.fetchPage(offset, limit, signal)
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
          // Within the 400-page cap, which ends a longer read before its failing page.
          fc.pre(pages <= 400)
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
          // The pages after the failed one are abandoned.
          for (const c of fake.stats.calls)
            if (c.offset > failAt) expect(c.signal.aborted).toBe(true)
        }
      ),
      { numRuns: 100 }
    )
  })

  it('ignores a failure of a page that turns out to lie past the end', async () => {
    const data = makeRows(75)
    const fake = fakeService(data, {
      // The service refuses offsets beyond the data, and does so faster than it answers.
      fail: offset => (offset >= 80 ? new Error('offset out of range') : undefined),
      delay: (_, offset) => (offset >= 80 ? 0 : 3)
    })
    const { promise, delivered } = run(fake, { pageSize: 10, concurrency: 6 })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result.abandoned).toBe(result.requests - 8)
    expect(result.abandoned).toBeGreaterThan(0)
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

  it('rejects when onPage fails, leaving no unhandled rejection', async () => {
    const error = new Error('disk full')
    const fake = fakeService(makeRows(500), {
      delay: () => 1,
      fail: offset => (offset >= 100 ? new Error('later') : undefined)
    })
    const unhandled = await countUnhandled(async () => {
      const { promise } = run(fake, {
        pageSize: 10,
        concurrency: 8,
        onPage: () => Promise.reject(error)
      })
      await expect(promise).rejects.toBe(error)
    })
    expect(unhandled).toBe(0)
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

describe("readOffsetPages: the deadline (on the run's clock)", () => {
  /** The client's words when the time left no room for another attempt at the page. */
  const gaveUpForTime = (): ServiceError =>
    requestFailure(
      'GET /v?offset=10',
      { outcome: { kind: 'network', code: 'timeout' }, why: 'no answer in time' },
      1,
      'GET',
      { time: true },
      { operation: 'reading the visitors analytics' }
    )

  it('an endless export stops at the deadline, says how far it got, and abandons what is in flight', async () => {
    const clock = handClock()
    // Each answer takes 10 ms of the clock, each write 1 ms.
    const fake = fakeService([], { endless: true, delay: () => 1, clock, takesMs: 10 })
    const deadline = clock.deadline(150)
    const endsAt = clock.now() + 150
    let rowsSeen = 0
    const { promise } = run(fake, {
      pageSize: 10,
      concurrency: 4,
      deadline,
      onPage: async rows => {
        rowsSeen += rows.length
        await tick()
        clock.advance(1)
      }
    })
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(TimeUpError)
    const timeUp = error as TimeUpError
    expect(timeUp.read?.rows).toBe(rowsSeen)
    expect((timeUp.read?.pages ?? 0) * 10).toBe(rowsSeen)
    expect(timeUp.message).toContain(`after reading ${rowsSeen} rows (${timeUp.read?.pages} pages)`)
    expect(fake.stats.calls.length).toBeGreaterThan(4)
    // No request started after the deadline, and none is left wanted.
    for (const c of fake.stats.calls) expect(c.at).toBeLessThan(endsAt)
    const undelivered = fake.stats.calls.slice(timeUp.read?.pages)
    expect(undelivered.length).toBeGreaterThan(0)
    for (const c of undelivered) expect(c.signal.aborted).toBe(true)
    const calls = fake.stats.calls.length
    for (let i = 0; i < 20; i++) await tick()
    expect(fake.stats.calls.length).toBe(calls)
  })

  it('does not wait for a page that never answers once the deadline and the grace have passed', async () => {
    const clock = handClock()
    const hung: AbortSignal[] = []
    let settled = false
    const { promise } = run(fakeService([]), {
      pageSize: 10,
      deadline: clock.deadline(50),
      graceMs: 20,
      fetchPage: (_offset, _limit, signal) => {
        hung.push(signal)
        return new Promise<VisitorsPage>(() => undefined)
      }
    })
    void promise.catch(() => undefined).finally(() => (settled = true))
    clock.advance(50)
    for (let i = 0; i < 5; i++) await tick()
    // The deadline has passed; the page may still say why it had not come, for the grace.
    expect(settled).toBe(false)
    clock.advance(20)
    await expect(promise).rejects.toMatchObject({
      read: { rows: 0, pages: 0 },
      waitingFor: 'the next page (offset 0)'
    })
    expect(hung).toHaveLength(1)
    expect(hung[0]!.aborted).toBe(true)
  })

  it('a read that has every page is not failed by a write that ends after the deadline', async () => {
    const clock = handClock()
    const fake = fakeService(makeRows(15))
    const { promise } = run(fake, {
      pageSize: 10,
      deadline: clock.deadline(30),
      onPage: async rows => {
        await tick()
        if (rows.length < 10) clock.advance(80)
      }
    })
    expect(await promise).toMatchObject({ rows: 15, pages: 2 })
  })

  it('a write that ends after the deadline stops a read that still has pages to go', async () => {
    const clock = handClock()
    const fake = fakeService(makeRows(100))
    const { promise } = run(fake, {
      pageSize: 10,
      deadline: clock.deadline(30),
      onPage: async () => {
        await tick()
        clock.advance(80)
      }
    })
    await expect(promise).rejects.toMatchObject({ read: { rows: 10, pages: 1 } })
  })

  it("reports the awaited page's own failure when it comes within the grace, without waiting the grace out", async () => {
    const clock = handClock()
    const started = clock.now()
    const cause = new Error('GET /x failed: 429 Too Many Requests')
    const { promise } = run(fakeService([]), {
      pageSize: 10,
      deadline: clock.deadline(40),
      graceMs: 30_000,
      // The page fails 80 ms on: 40 ms after the deadline.
      fetchPage: async () => {
        await tick()
        clock.advance(80)
        throw cause
      }
    })
    await expect(promise).rejects.toMatchObject({ read: { rows: 0, pages: 0 }, cause })
    expect(clock.now() - started).toBe(80)
  })

  it("a page the client gave up on for want of time is the read's time-up, its words the cause", async () => {
    const clock = handClock()
    const data = makeRows(30)
    const gaveUp = gaveUpForTime()
    expect(gaveUp.timeUp).toBe(true)
    const fake = fakeService(data, { fail: offset => (offset === 10 ? gaveUp : undefined) })
    const { promise } = run(fake, { pageSize: 10, deadline: clock.deadline(60_000) })
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(TimeUpError)
    expect(error).toMatchObject({ read: { rows: 10, pages: 1 }, cause: gaveUp })
    expect((error as Error).message).toBe(
      'The time allowed (`wait-timeout`) ran out after reading 10 rows (1 pages) while waiting for ' +
        'the next page (offset 10); it had failed: Reading the visitors analytics failed: no ' +
        'answer in time; gave up because the time allowed (`wait-timeout`) ran out.'
    )
    // The client's own time-up (a request it did not send) adds nothing to say: no cause.
    const notSent = clock
      .deadline(60_000)
      .error('reading the visitors analytics to start: it was not sent')
    const second = fakeService(data, { fail: offset => (offset === 10 ? notSent : undefined) })
    await expect(run(second, { pageSize: 10 }).promise).rejects.toMatchObject({
      read: { rows: 10, pages: 1 },
      waitingFor: 'the next page (offset 10)',
      cause: undefined
    })
  })

  it("the same words whichever notices first: the read's guard at the deadline, or the client", async () => {
    const gaveUp = gaveUpForTime()
    /** The page at offset 10 fails with the client's words `failsAt` ms after the start. */
    const words = async (failsAt: number): Promise<string> => {
      const clock = handClock()
      const fake = fakeService(makeRows(30))
      const { promise } = run(fake, {
        pageSize: 10,
        deadline: clock.deadline(100),
        fetchPage: async (offset, limit, signal) => {
          if (offset !== 10) return fake.fetchPage(offset, limit, signal)
          await tick()
          clock.advance(failsAt)
          throw gaveUp
        }
      })
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(TimeUpError)
      return (error as Error).message
    }
    // Before the deadline (the client noticed first), at it, and after it (the guard did).
    const said = await Promise.all([words(60), words(100), words(140)])
    expect(new Set(said).size).toBe(1)
  })

  it('sends nothing when the deadline has already passed', async () => {
    const fake = fakeService(makeRows(10))
    const { promise } = run(fake, { pageSize: 10, deadline: handClock().deadline(0) })
    await expect(promise).rejects.toBeInstanceOf(TimeUpError)
    expect(fake.stats.calls).toEqual([])
  })

  it('a read that finishes before the deadline succeeds and leaves no alarm behind', async () => {
    const clock = handClock()
    const fake = fakeService(makeRows(95))
    const { promise } = run(fake, { pageSize: 10, deadline: clock.deadline(60_000) })
    expect(await promise).toMatchObject({ rows: 95, pages: 10 })
    expect(clock.alarms).toBe(0)
  })
})

describe('readOffsetPages: a service that says `hasMore` for ever', () => {
  it('the same rows again: the read stops at the first page of rows read before, 2 requests past it at most', async () => {
    const data = makeRows(40)
    // Offsets past 40 serve the rows from the start again, for ever.
    const fake = fakeService(data, {
      page: (offset, limit) => {
        const rows = Array.from({ length: limit }, (_, i) => data[(offset + i) % 40]!)
        return { totals: TOTALS, visitors: rows, hasMore: true }
      }
    })
    const { promise, delivered } = run(fake, { pageSize: 10, concurrency: 4 })
    const result = await promise
    expect(delivered).toEqual(data)
    expect(result).toMatchObject({ repeated: true, capped: false, pages: 5, rows: 40 })
    // The first page that repeats is the 5th: what was asked after it was read ahead, abandoned.
    expect(fake.stats.calls.length - 5).toBeLessThanOrEqual(2)
  })

  it('a new row a page for ever: 400 pages at most, then the read stops, capped', async () => {
    const fake = fakeService([], {
      page: offset => ({ totals: TOTALS, visitors: makeRows(1, `/n${offset}-`), hasMore: true })
    })
    const { promise } = run(fake, { pageSize: 250, concurrency: 4 })
    const result = await promise
    expect(result).toMatchObject({ capped: true, repeated: false, pages: 400, rows: 400 })
    expect(fake.stats.calls.length).toBeLessThanOrEqual(401)
    // The next page starts after the one row received: offsets 0, 1, 2…
    expect(fake.stats.calls.slice(0, 5).map(c => c.offset)).toEqual([0, 1, 2, 3, 4])
  })

  it('reads more pages when the caller allows more (`max-rows`, `max-requests`)', async () => {
    const fake = fakeService([], {
      page: offset => ({ totals: TOTALS, visitors: makeRows(1, `/n${offset}-`), hasMore: true })
    })
    const result = await run(fake, { pageSize: 250, maxPages: 450 }).promise
    expect(result).toMatchObject({ capped: true, pages: 450 })
  })
})

describe('readOffsetPages: data that moves during the read', () => {
  it('warns once when the totals change between pages', async () => {
    const fake = fakeService(makeRows(100), {
      totals: offset => (offset < 30 ? TOTALS : { ...TOTALS, total: TOTALS.total + offset })
    })
    const { promise, warnings } = run(fake, { pageSize: 10 })
    const result = await promise
    expect(result.first.totals).toEqual(TOTALS)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/totals changed/)
  })

  it('keeps each path once, and warns once when one comes again', async () => {
    const data = makeRows(100)
    data[57] = { ...data[57]!, path: data[3]!.path }
    data[80] = { ...data[80]!, path: data[4]!.path }
    const fake = fakeService(data)
    const { promise, delivered, warnings } = run(fake, { pageSize: 10 })
    const result = await promise
    expect(delivered).toEqual(data.filter((_, i) => i !== 57 && i !== 80))
    expect(result).toMatchObject({ rows: 98, dropped: 2 })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(JSON.stringify(data[3]!.path))
  })

  it('does not warn about 300,000 distinct paths', async () => {
    const fake = fakeService(makeRows(300_000, '/docs/page-'))
    const { promise, warnings } = run(fake, { pageSize: 250, concurrency: 16, maxPages: 1200 })
    const result = await promise
    expect(result.rows).toBe(300_000)
    expect(warnings).toEqual([])
  })
})

describe('an abandoned page, through the service client', () => {
  it('is not retried once its signal fires', async () => {
    const { ServiceClient } = await import('../src/service/client.js')
    const { AnalyticsApi } = await import('../src/service/analytics.js')
    const { startService, SIM_API_KEY } = await import('../sim/service.js')
    const sim = await startService({
      rows: 100,
      faults: [{ kind: 'visitors', status: 503, times: Infinity }]
    })
    // A backoff that lasts until the page is abandoned: a retry could only follow the abandon.
    const clock: Clock = {
      ...handClock(),
      sleep: (_ms, signal) =>
        new Promise<void>(resolve => signal?.addEventListener('abort', () => resolve()))
    }
    const client = new ServiceClient({
      baseUrl: sim.url,
      apiKey: SIM_API_KEY,
      userAgent: 'test',
      deadline: Deadline.after(60_000, clock)
    })
    try {
      const controller = new AbortController()
      const page = new AnalyticsApi(client, 'p').visitors({}, 10, 0, { signal: controller.signal })
      const outcome = page.then(
        () => undefined,
        (e: unknown) => e
      )
      while (sim.requests.length === 0) await tick()
      controller.abort()
      expect(await outcome).toBeInstanceOf(RequestCancelledError)
      for (let i = 0; i < 20; i++) await tick()
      expect(sim.requests).toHaveLength(1)
      expect(client.requests).toBe(1)
    } finally {
      client.dispose()
      await sim.close()
    }
  })
})

// Unit tier: cursor pagination: every request is part of an hourly quota, so each test counts them;
// the field's answers (414, gateway timeouts, empty pages, URL cursors) and the weeks of a range.
import { describe, it, expect } from '@jest/globals'
import { TimeUpError } from '../src/errors.js'
import { Deadline } from '../src/deadline.js'
import { handClock } from './clock.js'
import { readCursorPages, type CursorPage } from '../src/service/cursor.js'
import { BudgetError, requestFailure, ServiceError } from '../src/service/errors.js'
import { readCursor } from '../src/service/analytics-answers.js'
import { weeklyChunks } from '../src/service/timeouts.js'

/** A service of `total` numbered items behind numeric cursors; records each call. */
function service(total: number, calls: { limit: number; cursor?: string }[]) {
  return async (limit: number, cursor: string | undefined): Promise<CursorPage<number>> => {
    calls.push({ limit, ...(cursor !== undefined ? { cursor } : {}) })
    const from = cursor === undefined ? 0 : Number(cursor)
    const end = Math.min(from + limit, total)
    const items = Array.from({ length: end - from }, (_, i) => from + i)
    return Promise.resolve({ items, nextCursor: end < total ? String(end) : null })
  }
}

const far = Deadline.after(60_000, handClock())

describe('readCursorPages', () => {
  it('follows nextCursor until null and says the read is complete', async () => {
    const calls: { limit: number; cursor?: string }[] = []
    const r = await readCursorPages({
      fetchPage: service(250, calls),
      limit: 100,
      enough: 1000,
      deadline: far
    })
    expect(r.items).toEqual(Array.from({ length: 250 }, (_, i) => i))
    expect(r).toMatchObject({ complete: true })
    expect(calls).toEqual([
      { limit: 100 },
      { limit: 100, cursor: '100' },
      { limit: 100, cursor: '200' }
    ])
  })

  it('asks for no more than it needs and stops once it has enough', async () => {
    const calls: { limit: number; cursor?: string }[] = []
    const r = await readCursorPages({
      fetchPage: service(10_000, calls),
      limit: 100,
      enough: 150,
      deadline: far
    })
    expect(calls.map(c => c.limit)).toEqual([100, 50])
    expect(r).toMatchObject({ complete: false })
    expect(r.items).toHaveLength(150)
  })

  it('starts no request after the deadline', async () => {
    const calls: { limit: number; cursor?: string }[] = []
    const clock = handClock(0)
    const fetchPage = service(1000, calls)
    const r = await readCursorPages({
      fetchPage: async (limit, cursor) => {
        clock.t += 600 // each page takes 600 ms
        return fetchPage(limit, cursor)
      },
      limit: 100,
      enough: 1000,
      deadline: clock.deadline(1000)
    })
    expect(calls).toHaveLength(2)
    expect(r).toMatchObject({ complete: false })
    await expect(
      readCursorPages({ fetchPage, limit: 1, enough: 1, deadline: clock.deadline(0) })
    ).rejects.toBeInstanceOf(TimeUpError)
    expect(calls).toHaveLength(2)
  })

  it("a page the client gave up on for want of time is the run's time-up, as if the reading had noticed first", async () => {
    const gaveUp = requestFailure(
      'GET /s',
      { outcome: { kind: 'answer', status: 503 }, why: '503 Service Unavailable' },
      2,
      'GET',
      { time: true },
      { operation: 'reading the searches' }
    )
    const failsFrom = (from: number) => {
      const fetchPage = service(1000, [])
      let pages = 0
      return (limit: number, cursor: string | undefined) =>
        pages++ >= from ? Promise.reject(gaveUp) : fetchPage(limit, cursor)
    }
    // The first page: the reading fails with the one TimeUpError, the client's words its cause.
    const first = readCursorPages({
      fetchPage: failsFrom(0),
      limit: 10,
      enough: 100,
      deadline: far
    })
    await expect(first).rejects.toBeInstanceOf(TimeUpError)
    await expect(first).rejects.toMatchObject({ waitingFor: 'the first page', cause: gaveUp })
    // A later page: the reading stops there, with what it read, as at the deadline (no failure).
    const later = await readCursorPages({
      fetchPage: failsFrom(2),
      limit: 10,
      enough: 100,
      deadline: far
    })
    expect(later).toEqual({
      items: Array.from({ length: 20 }, (_, i) => i),
      complete: false,
      short: false,
      endedShort: false
    })
  })

  it('stops when the service hands back a cursor it gave before', async () => {
    let calls = 0
    const r = await readCursorPages({
      fetchPage: () => {
        calls++
        return Promise.resolve({ items: [calls], nextCursor: 'same' })
      },
      limit: 1,
      enough: 100,
      deadline: far
    })
    expect(calls).toBe(2)
    expect(r.complete).toBe(false)
  })
})

describe('readCursorPages: the service as the field reports it', () => {
  const timeout = () => new ServiceError('GET /x failed: 504 Gateway Timeout', 504)

  it('a 414: the same page again by its cursor and limit alone, rows kept, later pages bare too', async () => {
    const calls: { limit: number; cursor?: string; bare: boolean }[] = []
    const fetchPage = service(300, [])
    const r = await readCursorPages({
      fetchPage: (limit, cursor, ask) => {
        calls.push({ limit, ...(cursor !== undefined ? { cursor } : {}), bare: ask.bare })
        if (cursor !== undefined && !ask.bare)
          return Promise.reject(new ServiceError('GET /x failed: 414', 414))
        return fetchPage(limit, cursor)
      },
      limit: 100,
      enough: 1000,
      deadline: far
    })
    expect(r.items).toHaveLength(300)
    expect(r.complete).toBe(true)
    expect(calls.map(c => c.bare)).toEqual([false, false, true, true])
  })

  it('a 414 without a cursor, or with one already bare, fails the read', async () => {
    await expect(
      readCursorPages({
        fetchPage: () => Promise.reject(new ServiceError('414', 414)),
        limit: 10,
        enough: 10,
        deadline: far
      })
    ).rejects.toThrow('414')
  })

  it('a 414 whose bare re-ask fails too: the rows read are kept, the reading marked failed', async () => {
    const fetchPage = service(300, [])
    const asks: boolean[] = []
    const r = await readCursorPages({
      fetchPage: (limit, cursor, ask) => {
        asks.push(ask.bare)
        if (cursor !== undefined) return Promise.reject(new ServiceError('GET /x failed: 414', 414))
        return fetchPage(limit, cursor)
      },
      limit: 100,
      enough: 1000,
      deadline: far
    })
    expect(r.items).toHaveLength(100)
    expect(r.complete).toBe(false)
    expect((r.failure as ServiceError).status).toBe(414)
    expect(asks).toEqual([false, false, true])
  })

  it.each([
    ['a 500 past the first page', new ServiceError('GET /x failed: 500', 500), 'kept'],
    ['a network error past the first page', new Error('socket hang up'), 'kept'],
    ['the quota spent past the first page', new ServiceError('429', 429), 'thrown'],
    ['`max-requests` spent past the first page', new BudgetError(3, 'GET /x'), 'thrown']
  ])('%s: the rows read are %s', async (_name, error, expected) => {
    const fetchPage = service(300, [])
    const read = readCursorPages({
      fetchPage: (limit, cursor) =>
        cursor !== undefined ? Promise.reject(error) : fetchPage(limit, cursor),
      limit: 100,
      enough: 1000,
      deadline: far
    })
    if (expected === 'thrown') return void (await expect(read).rejects.toBe(error))
    const r = await read
    expect(r.items).toHaveLength(100)
    expect(r.failure).toBe(error)
  })

  it('a failure of the first page fails the reading: there is nothing to keep', async () => {
    const error = new ServiceError('GET /x failed: 500', 500)
    await expect(
      readCursorPages({
        fetchPage: () => Promise.reject(error),
        limit: 100,
        enough: 100,
        deadline: far
      })
    ).rejects.toBe(error)
  })

  it('a gateway timeout asks for half the rows, not below 25, and keeps the size that got through', async () => {
    const limits: number[] = []
    const halvable: boolean[] = []
    const fetchPage = service(2000, [])
    const r = await readCursorPages({
      fetchPage: (limit, cursor, ask) => {
        limits.push(limit)
        halvable.push(ask.halvable)
        return limit > 250 ? Promise.reject(timeout()) : fetchPage(limit, cursor)
      },
      limit: 1000,
      enough: 3000,
      deadline: far
    })
    expect(limits).toEqual([1000, 500, 250, 250, 250, 250])
    expect(halvable.every(Boolean)).toBe(true)
    // The page bound of a clean read (3 pages + 1): fewer rows, never more requests.
    expect(r).toMatchObject({ short: true, narrowed: { from: 1000, to: 250 } })
    expect(r.items).toHaveLength(1000)
    // At 25 it cannot shrink: the client may retry it; then the read fails.
    const small: boolean[] = []
    await expect(
      readCursorPages({
        fetchPage: (_limit, _cursor, ask) => {
          small.push(ask.halvable)
          return Promise.reject(timeout())
        },
        limit: 50,
        enough: 50,
        deadline: far
      })
    ).rejects.toThrow('504')
    expect(small).toEqual([true, false])
  })

  it('reads past empty pages that carry a cursor; 3 in a row end it, marked', async () => {
    const pages = (empties: number) => {
      let n = 0
      return (): Promise<CursorPage<number>> => {
        n++
        const items = n > 1 && n <= 1 + empties ? [] : [n]
        return Promise.resolve({ items, nextCursor: n < 6 ? `c${n}` : null })
      }
    }
    const two = await readCursorPages({ fetchPage: pages(2), limit: 1, enough: 3, deadline: far })
    expect(two).toMatchObject({ items: [1, 4, 5], endedShort: false })
    const three = await readCursorPages({ fetchPage: pages(3), limit: 1, enough: 3, deadline: far })
    expect(three).toMatchObject({ items: [1], endedShort: true, complete: false })
  })
})

describe('readCursor: the cursor to send back', () => {
  it('takes the `cursor` parameter of a URL, tells ULIDs from opaque cursors, refuses a URL without one', () => {
    expect(
      readCursor('https://api.mintlify.com/v1/analytics/p/searches?limit=10&cursor=abc%3D')
    ).toEqual({ cursor: 'abc=', form: 'url' })
    expect(readCursor('01JC0000000000000000000001')).toEqual({
      cursor: '01JC0000000000000000000001',
      form: 'ulid'
    })
    expect(readCursor('eyJvZmZzZXQiOjEwfQ')).toEqual({
      cursor: 'eyJvZmZzZXQiOjEwfQ',
      form: 'opaque'
    })
    expect(readCursor(null)).toEqual({ cursor: null })
    expect(() => readCursor('https://evil.example/next')).toThrow(/URL without a `cursor`/)
    expect(() => readCursor('')).toThrow(/non-empty string/)
  })
})

describe('weeklyChunks', () => {
  it('splits a range longer than a week into weeks, newest first, keeping the forms given', () => {
    expect(weeklyChunks({ dateFrom: '2026-10-01', dateTo: '2026-10-20' })).toEqual([
      { dateFrom: '2026-10-15', dateTo: '2026-10-20' },
      { dateFrom: '2026-10-08', dateTo: '2026-10-15' },
      { dateFrom: '2026-10-01', dateTo: '2026-10-08' }
    ])
    expect(weeklyChunks({ dateFrom: '2026-10-01', dateTo: '2026-10-08' })).toBeUndefined()
    expect(weeklyChunks({ dateFrom: '2026-10-01' })).toBeUndefined()
    expect(
      weeklyChunks({ dateFrom: '2026-10-01T12:00:00Z', dateTo: '2026-10-09T12:00:00Z' })
    ).toEqual([
      { dateFrom: '2026-10-08T12:00:00.000Z', dateTo: '2026-10-09T12:00:00Z' },
      { dateFrom: '2026-10-01T12:00:00Z', dateTo: '2026-10-08T12:00:00.000Z' }
    ])
  })
})

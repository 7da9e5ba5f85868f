// Unit tier: cursor pagination: every request is part of an hourly quota, so each test counts them.
import { describe, it, expect } from '@jest/globals'
import { TimeUpError } from '../src/errors.js'
import { Deadline } from '../src/deadline.js'
import { handClock } from './clock.js'
import { readCursorPages, type CursorPage } from '../src/service/cursor.js'

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

const far = Deadline.after(60_000)

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

// Unit tier: the simulator's analytics operations keep the service's limits, pagination and quota,
// so the report's request counts measured against it mean something.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { withService, type Service } from './support.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers the tests look into
type Body = any

async function get(
  sim: Service,
  path: string
): Promise<{ status: number; retryAfter: string | null; body: Body }> {
  const res = await fetch(`${sim.url}/v1/analytics/p/${path}`, {
    headers: { authorization: `Bearer ${SIM_API_KEY}` }
  })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }
}

describe('sim analytics', () => {
  it('keeps each operation to its limit range', async () => {
    await withService({}, async sim => {
      expect((await get(sim, 'searches?limit=101')).status).toBe(400)
      expect((await get(sim, 'searches?limit=100')).status).toBe(200)
      expect((await get(sim, 'feedback/by-page?limit=0')).status).toBe(400)
      expect((await get(sim, 'assistant?limit=1001')).status).toBe(400)
      expect((await get(sim, 'assistant?limit=1000')).status).toBe(200)
      expect((await get(sim, 'views?limit=251')).status).toBe(400)
      expect((await get(sim, 'searches?cursor=bogus')).status).toBe(400)
    })
  })

  it('pages searches and conversations by cursor until null, every item once', async () => {
    await withService({ searches: 250, conversations: 2500 }, async sim => {
      const read = async (op: string, key: string, limit: number) => {
        const seen: string[] = []
        let cursor: string | null = null
        do {
          const page = await get(sim, `${op}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
          seen.push(
            ...(page.body[key] as { id?: string; searchQuery?: string }[]).map(
              x => x.id ?? x.searchQuery ?? ''
            )
          )
          cursor = page.body.nextCursor as string | null
        } while (cursor)
        return seen
      }
      const queries = await read('searches', 'searches', 100)
      expect(queries).toHaveLength(250)
      expect(new Set(queries).size).toBe(250)
      // Rows are turns: every turn once, several turns of one conversation sharing its id.
      const conversations = await read('assistant', 'conversations', 1000)
      expect(conversations).toHaveLength(2500)
      expect(new Set(conversations).size).toBe(1000)
      const hits = (await get(sim, 'searches?limit=100')).body.searches.map(
        (s: { hits: number }) => s.hits
      )
      expect(hits).toEqual([...hits].sort((a: number, b: number) => b - a))
    })
  })

  it('feedback has hasMore but no cursor; caller stats add up', async () => {
    await withService({ feedback: 150 }, async sim => {
      const page = await get(sim, 'feedback/by-page?limit=100')
      expect(page.body.feedback).toHaveLength(100)
      expect(page.body.hasMore).toBe(true)
      expect(page.body).not.toHaveProperty('nextCursor')
      const stats = (await get(sim, 'assistant/caller-stats')).body
      expect(stats.web + stats.api + stats.other).toBe(stats.total)
    })
  })

  it('shares one hourly quota across every analytics operation, then 429 with Retry-After (an option)', async () => {
    await withService({ analyticsQuota: 3, quotaAnswer: 'retry-after' }, async sim => {
      expect((await get(sim, 'searches')).status).toBe(200)
      expect((await get(sim, 'views')).status).toBe(200)
      const visitors = await fetch(`${sim.url}/v1/analytics/p/visitors`, {
        headers: { authorization: `Bearer ${SIM_API_KEY}` }
      })
      expect(visitors.status).toBe(200)
      const refused = await get(sim, 'assistant/caller-stats')
      expect(refused.status).toBe(429)
      expect(Number(refused.retryAfter)).toBeGreaterThan(3000)
      expect(refused.body.error).toMatch(/3 analytics requests per hour/)
    })
  })

  it('by default answers past the quota as observed: plain text, no Retry-After', async () => {
    await withService({ analyticsQuota: 1 }, async sim => {
      expect((await get(sim, 'views')).status).toBe(200)
      const res = await fetch(`${sim.url}/v1/analytics/p/views`, {
        headers: { authorization: `Bearer ${SIM_API_KEY}` }
      })
      expect(res.status).toBe(429)
      expect(res.headers.get('retry-after')).toBeNull()
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await res.text()).toBe('Too many requests, please try again later.')
    })
  })

  it('refuses a section the plan lacks (403), or a project not found (404)', async () => {
    await withService({ refuse: { assistant: 404, searches: 403 } }, async sim => {
      const callers = await get(sim, 'assistant/caller-stats')
      expect(callers.status).toBe(404)
      expect(callers.body.error).toBe('Project not found')
      expect((await get(sim, 'assistant')).status).toBe(404)
      const searches = await get(sim, 'searches')
      expect(searches.status).toBe(403)
      expect(searches.body.error).toMatch(/not available on your plan/)
      expect((await get(sim, 'feedback/by-page')).status).toBe(200)
    })
  })
})

describe('sim analytics: the service as the field reports it (faults)', () => {
  const auth = { authorization: `Bearer ${SIM_API_KEY}` }

  it('serves cursors as a whole URL whose `cursor` parameter is the cursor; the URL itself is refused', async () => {
    await withService({ searches: 30, cursorForm: 'url' }, async sim => {
      const first = await get(sim, 'searches?limit=10')
      const url = new URL(first.body.nextCursor as string)
      expect(url.pathname).toBe('/v1/analytics/p/searches')
      const inner = url.searchParams.get('cursor')!
      expect((await get(sim, `searches?limit=10&cursor=${inner}`)).body.searches).toHaveLength(10)
      const sentWhole = `searches?limit=10&cursor=${encodeURIComponent(first.body.nextCursor)}`
      expect((await get(sim, sentWhole)).status).toBe(400)
    })
  })

  it('serves ULID cursors', async () => {
    await withService({ conversations: 30, cursorForm: 'ulid' }, async sim => {
      const first = await get(sim, 'assistant?limit=10')
      expect(first.body.nextCursor).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      const next = await get(sim, `assistant?limit=10&cursor=${first.body.nextCursor}`)
      expect(next.body.conversations).toHaveLength(10)
    })
  })

  it('answers 414 to a long URL; the cursor and limit alone read the same window', async () => {
    await withService({ cursorChars: 950, maxUrlChars: 1000 }, async sim => {
      const range = 'dateFrom=2026-11-09&dateTo=2026-11-16'
      const first = await get(sim, `searches?${range}&limit=10`)
      const cursor = first.body.nextCursor as string
      expect(cursor.length).toBeGreaterThanOrEqual(950)
      const long = await get(sim, `searches?${range}&limit=10&cursor=${cursor}`)
      expect(long.status).toBe(414)
      expect(long.body.error).toBe('Pagination URL exceeded server limit')
      const bare = await get(sim, `searches?limit=10&cursor=${cursor}`)
      expect(bare.status).toBe(200)
      expect(bare.body.searches[0].lastSearchedAt.slice(0, 10) >= '2026-11-09').toBe(true)
    })
  })

  it('answers 504 above a page size, and to a range longer than some days', async () => {
    await withService({ timeoutAbove: 250, timeoutDays: 7, timeoutMs: 0 }, async sim => {
      const week = 'dateFrom=2026-11-09&dateTo=2026-11-16'
      const res = await fetch(`${sim.url}/v1/analytics/p/assistant?${week}&limit=251`, {
        headers: auth
      })
      expect(res.status).toBe(504)
      expect((await get(sim, `assistant?${week}&limit=250`)).status).toBe(200)
      const month = 'dateFrom=2026-10-01&dateTo=2026-11-01'
      expect(
        (await fetch(`${sim.url}/v1/analytics/p/views?${month}`, { headers: auth })).status
      ).toBe(504)
    })
  })

  it('serves short and empty pages that still say more exist', async () => {
    const thinPages = [
      { kind: 'visitors', offset: 10, keep: 3 },
      { kind: 'visitors', offset: 20, keep: 0 },
      { kind: 'searches', offset: 10, keep: 0 }
    ]
    await withService({ rows: 40, searches: 30, thinPages }, async sim => {
      const short = await get(sim, 'visitors?limit=10&offset=10')
      expect(short.body.visitors).toHaveLength(3)
      expect(short.body.hasMore).toBe(true)
      expect((await get(sim, 'visitors?limit=10&offset=20')).body).toMatchObject({
        visitors: [],
        hasMore: true
      })
      const first = await get(sim, 'searches?limit=10')
      const empty = await get(sim, `searches?limit=10&cursor=${first.body.nextCursor}`)
      expect(empty.body.searches).toEqual([])
      expect(empty.body.nextCursor).not.toBeNull()
    })
  })

  it('sends rate-limit headers only when asked to (no source shows the real service sending any)', async () => {
    await withService({ analyticsQuota: 50 }, async sim => {
      const res = await fetch(`${sim.url}/v1/analytics/p/views`, { headers: auth })
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull()
    })
    await withService({ analyticsQuota: 50, rateLimitHeaders: true }, async sim => {
      const res = await fetch(`${sim.url}/v1/analytics/p/views`, { headers: auth })
      expect(res.headers.get('x-ratelimit-limit')).toBe('50')
      expect(res.headers.get('x-ratelimit-remaining')).toBe('49')
    })
  })

  it('accepts a range whose end is not after its start (no undocumented 400)', async () => {
    await withService({}, async sim => {
      expect((await get(sim, 'views?dateFrom=2026-11-16&dateTo=2026-11-09')).status).toBe(200)
      const res = await fetch(
        `${sim.url}/v1/analytics/p/visitors?dateFrom=2026-11-16&dateTo=2026-11-16`,
        { headers: auth }
      )
      expect(res.status).toBe(200)
    })
  })
})

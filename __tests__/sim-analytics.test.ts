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

  it('shares one hourly quota across every analytics operation, then 429 with Retry-After', async () => {
    await withService({ analyticsQuota: 3 }, async sim => {
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

  it('refuses a section that is not enabled, caller stats with the assistant', async () => {
    await withService({ refuse: { assistant: 404, searches: 403 } }, async sim => {
      expect((await get(sim, 'assistant/caller-stats')).status).toBe(404)
      expect((await get(sim, 'assistant')).status).toBe(404)
      const searches = await get(sim, 'searches')
      expect(searches.status).toBe(403)
      expect(searches.body.error).toMatch(/not available on your plan/)
      expect((await get(sim, 'feedback/by-page')).status).toBe(200)
    })
  })
})

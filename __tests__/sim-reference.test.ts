// Unit tier: the simulators answer as the published API reference says, for every operation the
// action uses, so what the tests measure against them holds against the service. The fields below
// are written from the reference's facts (Mintlify's API reference: the agent job of the v2
// agent API, the analytics export operations), not copied from it: each operation's required
// fields, their types (`|null` where the reference allows null) and the values an enumeration
// allows. A field the action does not read counts as much as one it does.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { withService, type Service } from './support.js'

/** A field's type (`ulid`: a string in that format); an object or a one-element array is a nested shape. */
type Field = string | readonly string[] | Shape | readonly [Shape]
interface Shape {
  readonly [name: string]: Field
}

const COUNT = 'number'
const PAGE_ROW: Shape = { path: 'string', human: COUNT, ai: COUNT, total: COUNT }
const TOTALS: Shape = { human: COUNT, ai: COUNT, total: COUNT }
const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const
const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const
const FEEDBACK_BASE: Shape = {
  id: 'string',
  path: 'string',
  comment: 'string|null',
  createdAt: 'string|null',
  source: FEEDBACK_SOURCES,
  status: FEEDBACK_STATUSES
}

/** The agent job (v2): every documented field; `source.ref`, `prLink`, `archivedAt` nullable. */
const JOB: Shape = {
  id: 'string',
  status: ['active', 'completed', 'archived', 'failed'],
  source: { repository: 'string', ref: 'string|null' },
  model: 'string',
  prLink: 'string|null',
  createdAt: 'string',
  archivedAt: 'string|null'
}

const ANALYTICS: Record<string, Shape> = {
  visitors: { totals: TOTALS, visitors: [PAGE_ROW], hasMore: 'boolean' },
  views: { totals: TOTALS, views: [PAGE_ROW], hasMore: 'boolean' },
  searches: {
    searches: [
      {
        searchQuery: 'string',
        hits: COUNT,
        ctr: 'number',
        topClickedPage: 'string|null',
        lastSearchedAt: 'string'
      }
    ],
    totalSearches: 'integer',
    nextCursor: 'string|null'
  },
  'feedback/by-page': {
    feedback: [{ path: 'string', thumbsUp: COUNT, thumbsDown: COUNT, code: COUNT, total: COUNT }],
    hasMore: 'boolean'
  },
  assistant: {
    conversations: [
      {
        id: 'ulid',
        timestamp: 'string',
        query: 'string',
        response: 'string',
        sources: [{ title: 'string', url: 'string' }],
        resolutionStatus: ['answered', 'unanswered'],
        queryCategory: 'string|null',
        pageUrl: 'string|null'
      }
    ],
    nextCursor: 'string|null',
    hasMore: 'boolean'
  },
  'assistant/caller-stats': { web: COUNT, api: COUNT, other: COUNT, total: COUNT }
}

/** The raw feedback rows: which fields besides the common ones, by the row's source. */
const FEEDBACK_BY_SOURCE: Record<string, Shape> = {
  contextual: { ...FEEDBACK_BASE, helpful: 'boolean', contact: 'string|null' },
  code_snippet: { ...FEEDBACK_BASE, code: 'string', filename: 'string|null', lang: 'string|null' }
}

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

/** A ULID (the reference's `format: ulid`): 26 characters of Crockford's base32. */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

/** What in `value` the shape does not find: missing fields, wrong types, values not allowed. */
function problems(value: unknown, field: Field, where: string): string[] {
  if (field === 'ulid')
    return typeof value === 'string' && ULID.test(value)
      ? []
      : [`${where}: ${JSON.stringify(value)}, not a ULID`]
  if (typeof field === 'string') {
    const allowed = field.split('|')
    const t = typeOf(value)
    const ok = allowed.includes(t) || (t === 'integer' && allowed.includes('number'))
    return ok ? [] : [`${where}: ${t}, not ${field}`]
  }
  if (Array.isArray(field) && typeof field[0] === 'string')
    return (field as readonly string[]).includes(value as string)
      ? []
      : [`${where}: ${JSON.stringify(value)}, not one of ${field.join(', ')}`]
  if (Array.isArray(field)) {
    if (!Array.isArray(value)) return [`${where}: not an array`]
    return value.flatMap((item, i) => problems(item, field[0] as Shape, `${where}[${i}]`))
  }
  if (typeOf(value) !== 'object') return [`${where}: not an object`]
  const o = value as Record<string, unknown>
  return Object.entries(field as Shape).flatMap(([name, inner]) =>
    name in o ? problems(o[name], inner, `${where}.${name}`) : [`${where}.${name}: missing`]
  )
}

/** The raw feedback answer: its page fields, and each row by its source. */
function feedbackProblems(body: Record<string, unknown>): string[] {
  const page = problems(body, { nextCursor: 'string|null', hasMore: 'boolean' }, 'feedback')
  const rows = Array.isArray(body.feedback) ? (body.feedback as Record<string, unknown>[]) : []
  return [
    ...page,
    ...(Array.isArray(body.feedback) ? [] : ['feedback.feedback: not an array']),
    ...rows.flatMap((row, i) =>
      problems(row, FEEDBACK_BY_SOURCE[String(row.source)] ?? FEEDBACK_BASE, `feedback[${i}]`)
    )
  ]
}

const auth = { authorization: `Bearer ${SIM_API_KEY}` }
const WEEK = 'dateFrom=2026-11-09&dateTo=2026-11-16'

async function answer(
  sim: Service,
  path: string,
  init: RequestInit = {}
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sim.url}${path}`, { ...init, headers: { ...auth, ...init.headers } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('the simulators answer with every field the reference requires', () => {
  it.each(Object.keys(ANALYTICS))('analytics `%s`', async operation => {
    await withService({ varyByDate: true }, async sim => {
      const { status, body } = await answer(sim, `/v1/analytics/p/${operation}?${WEEK}&limit=50`)
      expect(status).toBe(200)
      expect(problems(body, ANALYTICS[operation]!, operation)).toEqual([])
    })
  })

  it('analytics `feedback` (the raw rows): status and contact, code snippets’ fields, each source and status filter honoured', async () => {
    await withService({ comments: 60 }, async sim => {
      const all = await answer(sim, `/v1/analytics/p/feedback?${WEEK}&limit=100`)
      expect(all.status).toBe(200)
      expect(feedbackProblems(all.body)).toEqual([])
      const rows = all.body.feedback as Array<{ source: string; status: string }>
      // The data exercise what the filters choose between.
      expect(new Set(rows.map(r => r.source))).toEqual(new Set(['contextual', 'code_snippet']))
      expect(new Set(rows.map(r => r.status))).toEqual(new Set(FEEDBACK_STATUSES))
      for (const source of ['contextual', 'code_snippet'])
        for (const statuses of ['pending', 'pending,in_progress', 'resolved,dismissed']) {
          const q = `source=${source}&status=${encodeURIComponent(statuses)}`
          const page = await answer(sim, `/v1/analytics/p/feedback?${WEEK}&limit=100&${q}`)
          expect(feedbackProblems(page.body)).toEqual([])
          const got = page.body.feedback as Array<{ source: string; status: string }>
          const expected = rows.filter(
            r => r.source === source && statuses.split(',').includes(r.status)
          )
          expect(got).toEqual(expected)
        }
      expect((await answer(sim, '/v1/analytics/p/feedback?status=open')).status).toBe(400)
      expect((await answer(sim, '/v1/analytics/p/feedback?source=email')).status).toBe(400)
    })
  })

  it('feedback by page honours `source` and `status`: each count is the sum of its parts', async () => {
    await withService({}, async sim => {
      type Row = { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }
      const byPage = async (q = ''): Promise<Map<string, Row>> => {
        const page = await answer(sim, `/v1/analytics/p/feedback/by-page?${WEEK}&limit=100${q}`)
        expect(page.status).toBe(200)
        expect(problems(page.body, ANALYTICS['feedback/by-page']!, 'by-page')).toEqual([])
        const rows = page.body.feedback as Row[]
        for (const r of rows) expect(r.total).toBe(r.thumbsUp + r.thumbsDown + r.code)
        return new Map(rows.map(r => [r.path, r]))
      }
      const all = await byPage()
      /** Each page's counts summed over the filtered answers (a page missing: nothing). */
      const sum = (parts: Map<string, Row>[]) =>
        [...all.keys()].map(path =>
          (['thumbsUp', 'thumbsDown', 'code'] as const).map(k =>
            parts.reduce((n, part) => n + (part.get(path)?.[k] ?? 0), 0)
          )
        )
      const whole = [...all.values()].map(r => [r.thumbsUp, r.thumbsDown, r.code])
      const sources = await Promise.all(FEEDBACK_SOURCES.map(x => byPage(`&source=${x}`)))
      expect(sum(sources)).toEqual(whole)
      const statuses = await Promise.all(FEEDBACK_STATUSES.map(x => byPage(`&status=${x}`)))
      expect(sum(statuses)).toEqual(whole)
      // The filters narrow: snippet reports only, no votes; a list of statuses adds up.
      const code = await byPage('&source=code_snippet')
      for (const r of code.values()) expect([r.thumbsUp, r.thumbsDown]).toEqual([0, 0])
      expect(code.size).toBeLessThan(all.size)
      const open = await byPage(`&status=${encodeURIComponent('pending,in_progress')}`)
      expect(sum([open])).toEqual(sum([statuses[0]!, statuses[1]!]))
      for (const q of ['source=email', 'status=open'])
        expect((await answer(sim, `/v1/analytics/p/feedback/by-page?${q}`)).status).toBe(400)
    })
  })

  it('the raw feedback pages by cursor, the cursor keeping the range and the filters', async () => {
    await withService({ comments: 60 }, async sim => {
      const q = `source=contextual&status=${encodeURIComponent('pending,resolved')}`
      const whole = await answer(sim, `/v1/analytics/p/feedback?${WEEK}&limit=100&${q}`)
      const expected = whole.body.feedback as { id: string }[]
      expect(expected.length).toBeGreaterThan(14)
      const read: { id: string }[] = []
      let page = await answer(sim, `/v1/analytics/p/feedback?${WEEK}&limit=7&${q}`)
      for (let pages = 1; ; pages++) {
        expect(feedbackProblems(page.body)).toEqual([])
        read.push(...(page.body.feedback as { id: string }[]))
        const next = page.body.nextCursor as string | null
        expect(page.body.hasMore).toBe(next !== null)
        if (next === null) break
        expect(pages).toBeLessThan(20)
        // Later pages with the cursor and `limit` alone, as fetchers ask them.
        const cursor = encodeURIComponent(next)
        page = await answer(sim, `/v1/analytics/p/feedback?limit=7&cursor=${cursor}`)
      }
      expect(read.map(r => r.id)).toEqual(expected.map(r => r.id))
      expect((await answer(sim, '/v1/analytics/p/feedback?cursor=nonsense')).status).toBe(400)
    })
  })

  it('conversation ids are ULIDs, shared by the turns of one conversation', async () => {
    await withService({}, async sim => {
      const page = await answer(sim, `/v1/analytics/p/assistant?${WEEK}&limit=50`)
      const ids = (page.body.conversations as { id: string }[]).map(c => c.id)
      for (const id of ids) expect(id).toMatch(ULID)
      expect(new Set(ids).size).toBeLessThan(ids.length)
      expect(new Set(ids).size).toBeGreaterThan(ids.length / 4)
    })
  })

  it('the assistant’s cursor is a ULID by default (the reference’s `format: ulid`); searches’ opaque', async () => {
    await withService({}, async sim => {
      const assistant = await answer(sim, `/v1/analytics/p/assistant?${WEEK}&limit=10`)
      expect(assistant.body.nextCursor).toMatch(ULID)
      const next = await answer(
        sim,
        `/v1/analytics/p/assistant?${WEEK}&limit=10&cursor=${String(assistant.body.nextCursor)}`
      )
      expect(problems(next.body, ANALYTICS.assistant!, 'assistant')).toEqual([])
      const searches = await answer(sim, `/v1/analytics/p/searches?${WEEK}&limit=10`)
      expect(searches.body.nextCursor).not.toMatch(ULID)
    })
  })

  it('the agent API: a created job, a follow-up’s answer, the job polled while active and when done', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const post = (path: string, prompt: string) =>
        answer(sim, path, {
          method: 'POST',
          body: JSON.stringify({ prompt }),
          headers: { 'content-type': 'application/json' }
        })
      const created = await post('/v2/agent/p/job', 'Document the SDK')
      expect(created.status).toBe(201)
      expect(problems(created.body, JOB, 'created')).toEqual([])
      const followed = await post('/v2/agent/p/job/job-1/message', 'And the CLI')
      expect(followed.status).toBe(200)
      expect(problems(followed.body, JOB, 'message')).toEqual([])
      const seen: string[] = []
      for (let i = 0; i < 3; i++) {
        const polled = await answer(sim, '/v2/agent/p/job/job-1')
        expect(problems(polled.body, JOB, `poll ${i}`)).toEqual([])
        seen.push(String(polled.body.status))
      }
      expect(seen).toEqual(['active', 'completed', 'completed'])
    })
  })

  it('the check itself can fail: a row without `status` or `contact`, a null where none is allowed, an id that is no ULID', () => {
    const old = { id: 'fb_1', path: '/a', comment: 'x', createdAt: null, source: 'contextual' }
    expect(feedbackProblems({ feedback: [old], nextCursor: null, hasMore: false })).toEqual([
      'feedback[0].status: missing',
      'feedback[0].helpful: missing',
      'feedback[0].contact: missing'
    ])
    expect(
      problems({ web: 1, api: null, other: 0 }, ANALYTICS['assistant/caller-stats']!, 'x')
    ).toEqual(['x.api: null, not number', 'x.total: missing'])
    expect(problems('conv-1', 'ulid', 'id')).toEqual(['id: "conv-1", not a ULID'])
  })
})

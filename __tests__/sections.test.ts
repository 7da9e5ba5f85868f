// Unit tier: report sections against a fake service: what each reads (paths, limits), what it
// keeps, and the shape checks of the answers.
import { ServiceError } from '../src/service/errors.js'
import { addUpByQuery } from '../src/analytics/sections/searches.js'
import { describe, it, expect } from '@jest/globals'
import { AnalyticsApi, type JsonGetter } from '../src/service/analytics.js'
import { Deadline } from '../src/deadline.js'
import { groupQuestions, readAssistant } from '../src/analytics/sections/assistant.js'
import { readFeedback } from '../src/analytics/sections/feedback.js'
import { readFeedbackRows } from '../src/analytics/sections/feedback-rows.js'
import { readSearches } from '../src/analytics/sections/searches.js'
import { readViews, readVisitors } from '../src/analytics/sections/visitors.js'
import type { SectionInput } from '../src/analytics/sections/section.js'
import { reportJson } from '../src/report/health-json.js'
import type { HealthReport } from '../src/report/health.js'

/** Answers each path with `answer(path)`, run through the operation's own shape check. */
function fakeService(answer: (path: URL) => unknown): JsonGetter & { paths: string[] } {
  const paths: string[] = []
  return {
    paths,
    getJson<T>(path: string, check: (json: unknown) => T): Promise<T> {
      paths.push(path)
      return Promise.resolve(check(answer(new URL(path, 'http://x'))))
    }
  }
}

function input(service: JsonGetter, extra: Partial<SectionInput> = {}): SectionInput {
  return {
    api: new AnalyticsApi(service, 'my project'),
    range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
    top: 5,
    pageSize: 250,
    maxRows: 0,
    concurrency: 1,
    deadline: Deadline.after(60_000),
    onWarning: () => undefined,
    ...extra
  }
}

const search = (i: number, ctr: number) => ({
  searchQuery: `query ${i}`,
  hits: 100 - i,
  ctr,
  topClickedPage: ctr === 0 ? null : `/p${i}`,
  lastSearchedAt: '2026-11-10T00:00:00Z',
  extraField: 'kept out'
})

describe('searches', () => {
  it('reads 100 queries in one request whatever the top (same cost, more to find gaps among)', async () => {
    const service = fakeService(url => ({
      totalSearches: 1234,
      searches: Array.from({ length: Number(url.searchParams.get('limit')) }, (_, i) =>
        search(i, i % 2 === 0 ? 0 : 0.5)
      ),
      nextCursor: 'next'
    }))
    const s = await readSearches(input(service))
    expect(service.paths).toEqual([
      '/v1/analytics/my%20project/searches?dateFrom=2026-11-09&dateTo=2026-11-16&limit=100'
    ])
    expect(s.totalSearches).toBe(1234)
    expect(s.top.map(q => q.searchQuery)).toEqual([
      'query 0',
      'query 1',
      'query 2',
      'query 3',
      'query 4'
    ])
    expect(s.gaps.map(q => q.searchQuery)).toEqual([
      'query 0',
      'query 2',
      'query 4',
      'query 6',
      'query 8'
    ])
    expect([s.read, s.folded, s.complete]).toEqual([100, 0, false])
    expect(s.top[0]).not.toHaveProperty('extraField')
    // Every query read is kept for what a fix did, beyond the top shown.
    expect(s.queries).toHaveLength(100)
    expect(s.queries?.at(-1)?.searchQuery).toBe('query 99')
  })

  it('folds the typing prefixes of a query into it: a half-typed query is no content gap', async () => {
    const row = (searchQuery: string, hits: number, ctr: number) => ({
      ...search(0, ctr),
      searchQuery,
      hits
    })
    const service = fakeService(() => ({
      totalSearches: 500,
      searches: [
        row('webhook signature', 90, 0),
        row('pagination', 80, 0.4),
        row('webhook sig', 40, 0),
        row('pagin', 30, 0),
        row('api', 20, 0.3),
        row('api key', 10, 0.2)
      ],
      nextCursor: null
    }))
    const s = await readSearches(input(service))
    // Their searches added: no search is lost.
    expect(s.top.map(q => [q.searchQuery, q.hits, q.prefixes ?? []])).toEqual([
      ['webhook signature', 130, ['webhook sig']],
      ['pagination', 110, ['pagin']],
      // A whole word on its own is a query of its own, not "api key" half typed.
      ['api', 20, []],
      ['api key', 10, []]
    ])
    expect(s.gaps.map(q => q.searchQuery)).toEqual(['webhook signature'])
    expect([s.read, s.folded]).toEqual([6, 2])
  })

  it('with compare, reads the previous total with limit 1', async () => {
    const service = fakeService(url => ({
      totalSearches: url.searchParams.get('dateFrom') === '2026-11-02' ? 1000 : 1234,
      searches: [search(0, 0.3)],
      nextCursor: null
    }))
    const s = await readSearches(
      input(service, { previous: { dateFrom: '2026-11-02', dateTo: '2026-11-09' } })
    )
    expect(s.previous).toBe(1000)
    expect(service.paths[1]).toMatch(/dateFrom=2026-11-02&dateTo=2026-11-09&limit=1$/)
  })

  it('refuses an answer of the wrong shape, naming the field', async () => {
    const service = fakeService(() => ({
      totalSearches: 1,
      searches: [{ hits: 1 }],
      nextCursor: null
    }))
    await expect(readSearches(input(service))).rejects.toThrow(
      'searches[0].searchQuery is not a string'
    )
  })
})

describe('feedback', () => {
  it('reads one page of 100 and sorts the pages by thumbs-down', async () => {
    const row = (path: string, down: number, up: number, code = 0) => ({
      path,
      thumbsUp: up,
      thumbsDown: down,
      code,
      total: up + down + code
    })
    const service = fakeService(url =>
      url.pathname.endsWith('/by-page')
        ? {
            feedback: [row('/a', 1, 50), row('/b', 9, 1), row('/c', 0, 7), row('/d', 0, 0, 3)],
            hasMore: true
          }
        : {
            feedback: [
              { id: '1', path: '/b', comment: 'No example.', helpful: false },
              { id: '2', path: '/b', comment: 'Great!', helpful: true },
              { id: '3', path: '/a', comment: null, helpful: false },
              { id: '4', path: '/a', comment: 'What is a scope?' },
              // Resolved or dismissed by the team: a service that ignored the filter sent them.
              { id: '5', path: '/b', comment: 'Fixed.', helpful: false, status: 'resolved' },
              { id: '6', path: '/b', comment: 'Spam.', helpful: false, status: 'dismissed' },
              { id: '7', path: '/b', comment: 'Typo.', helpful: false, status: 'in_progress' }
            ],
            nextCursor: 'x',
            hasMore: true
          }
    )
    const f = await readFeedback(input(service))
    // The pages, then one request of 100 for what readers wrote (a page has 👎).
    expect(service.paths).toHaveLength(2)
    expect(service.paths[0]).toMatch(/feedback\/by-page\?.*limit=100$/)
    // Only what the team has not resolved or dismissed: one parameter, no request more.
    expect(service.paths[1]).toMatch(
      /\/feedback\?.*source=contextual&status=pending%2Cin_progress&limit=100$/
    )
    expect(f.top.map(p => p.path)).toEqual(['/b', '/a', '/d'])
    expect([f.thumbsDown, f.thumbsUp, f.code, f.pages, f.hasMore]).toEqual([10, 58, 3, 4, true])
    // With a 👎 or no rating, and a comment: no praise, no empty rows.
    expect(f.comments).toEqual([
      { path: '/b', comment: 'No example.', helpful: false },
      { path: '/a', comment: 'What is a scope?' },
      { path: '/b', comment: 'Typo.', helpful: false, status: 'in_progress' }
    ])
  })

  it('reads no comments without a 👎, and a refused comments request costs only the quotes', async () => {
    const row = { path: '/a', thumbsUp: 3, thumbsDown: 0, code: 1, total: 4 }
    const none = fakeService(() => ({ feedback: [row], hasMore: false }))
    expect((await readFeedback(input(none))).comments).toBeUndefined()
    expect(none.paths).toHaveLength(1)
    const refused: JsonGetter = {
      getJson<T>(path: string, check: (json: unknown) => T): Promise<T> {
        if (!path.includes('/by-page'))
          return Promise.reject(new ServiceError('403 Forbidden', 403, '403 Forbidden'))
        return Promise.resolve(check({ feedback: [{ ...row, thumbsDown: 4 }], hasMore: false }))
      }
    }
    const f = await readFeedback(input(refused))
    expect(f.comments).toBeUndefined()
    expect(f.top).toHaveLength(1)
    expect(f.notes).toEqual(['Written comments not read (status 403).'])
  })

  it('keeps every page it read for what a fix did, from the same request (and not the period before’s)', async () => {
    const row = (path: string, down: number) => ({
      path,
      thumbsUp: 2,
      thumbsDown: down,
      code: 0,
      total: down + 2
    })
    const service = fakeService(url =>
      url.pathname.endsWith('/by-page')
        ? {
            feedback:
              url.searchParams.get('dateFrom') === '2026-11-02'
                ? [row('/before', 40)]
                : [row('/a', 9), row('/b', 7), row('/c', 0), row('/a', 9)],
            hasMore: false
          }
        : { feedback: [], hasMore: false }
    )
    const previous = { dateFrom: '2026-11-02', dateTo: '2026-11-09' }
    const f = await readFeedbackRows(input(service, { top: 1, previous }))
    expect(f.top.map(p => p.path)).toEqual(['/a'])
    expect(f.rows?.map(p => [p.path, p.thumbsDown])).toEqual([
      ['/a', 9],
      ['/b', 7],
      ['/c', 0]
    ])
    expect(f.previous).toBe(40)
    // No request more than the section itself: the pages, the comments, the period before.
    const plain = fakeService(url =>
      url.pathname.endsWith('/by-page')
        ? { feedback: [row('/a', 9)], hasMore: false }
        : { feedback: [], hasMore: false }
    )
    await readFeedback(input(plain, { top: 1, previous }))
    expect(service.paths).toHaveLength(plain.paths.length)
  })

  it('counts and shows a page the service sent twice once, and warns', async () => {
    const row = (path: string, down: number) => ({
      path,
      thumbsUp: 1,
      thumbsDown: down,
      code: 0,
      total: down + 1
    })
    const service = fakeService(() => ({
      feedback: [row('/a', 5), row('/b', 3), row('/a', 5), row('/b', 2)],
      hasMore: false
    }))
    const warnings: string[] = []
    const f = await readFeedback(input(service, { onWarning: line => warnings.push(line) }))
    expect(f.top.map(p => p.path)).toEqual(['/a', '/b'])
    expect([f.thumbsDown, f.pages]).toEqual([8, 2])
    expect(warnings).toEqual([
      'Feedback: the service sent the page "/a" more than once; each page is counted and shown once.'
    ])
  })
})

describe('assistant', () => {
  const conversation = (i: number, query: string, status: string) => ({
    id: i,
    timestamp: `2026-11-1${i % 10}T00:00:00Z`,
    query,
    response: 'irrelevant',
    resolutionStatus: status,
    pageUrl: null
  })

  it('groups unanswered questions by text trimmed and case-folded, showing the usual spelling', () => {
    const groups = groupQuestions(
      ['How do I X?', '  how do i   x? ', 'How do I X?', 'Where is Y', 'where is y', 'Z'].map(
        (q, i) => ({ id: String(i), query: q, resolutionStatus: 'unanswered' })
      )
    )
    expect(groups.map(g => [g.question, g.count])).toEqual([
      ['How do I X?', 3],
      ['Where is Y', 2],
      ['Z', 1]
    ])
  })

  it('reads caller-stats and the conversations by cursor, up to 3,000', async () => {
    const service = fakeService(url => {
      if (url.pathname.endsWith('/caller-stats')) return { web: 5, api: 3, other: 2, total: 10 }
      const from = Number(url.searchParams.get('cursor') ?? 0)
      return {
        conversations: Array.from({ length: 1000 }, (_, i) =>
          conversation(
            from + i,
            i % 4 === 0 ? 'Why?' : 'Fine',
            i % 4 === 0 ? 'unanswered' : 'answered'
          )
        ),
        nextCursor: String(from + 1000),
        hasMore: true
      }
    })
    const a = await readAssistant(input(service))
    expect(service.paths[0]).toMatch(
      /assistant\/caller-stats\?dateFrom=2026-11-09&dateTo=2026-11-16$/
    )
    expect(
      service.paths.slice(1).map(p => new URL(p, 'http://x').searchParams.get('cursor'))
    ).toEqual([null, '1000', '2000'])
    expect([a.callers.total, a.read, a.unanswered, a.complete]).toEqual([10, 3000, 750, false])
    // What the assistant answered comes with the rows read: the evidence, at no request.
    expect(a.top).toEqual([
      { question: 'Why?', count: 750, lastAskedAt: '2026-11-18T00:00:00Z', answer: 'irrelevant' }
    ])
    // Every topic read, answered too, for what a fix did.
    expect(a.topics).toEqual([
      { topic: 'fin', asked: 2250, unanswered: 0 },
      { topic: 'why?', asked: 750, unanswered: 750 }
    ])
  })
})

describe('reportJson', () => {
  it('halves the lists until the document fits, and says it did', () => {
    const top = Array.from({ length: 5000 }, (_, i) => ({
      path: `/page/${i}`,
      human: i,
      ai: 0,
      total: i
    }))
    const report: HealthReport = {
      projectId: 'p',
      range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
      sections: [
        {
          name: 'visitors',
          ok: true,
          totals: { human: 1, ai: 1, total: 1 },
          rows: 5000,
          top,
          maxRowsReached: false
        },
        { name: 'searches', ok: false, status: 403, refused: true, reason: 'no' }
      ],
      requests: 3,
      generatedAt: Date.UTC(2026, 10, 22)
    }
    const full = JSON.parse(reportJson(report)) as {
      truncated?: boolean
      sections: { top?: unknown[] }[]
    }
    expect(full.truncated).toBeUndefined()
    expect(full.sections[0]!.top).toHaveLength(5000)
    const json = reportJson(report, 50_000)
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(50_000)
    const cut = JSON.parse(json) as typeof full
    expect(cut.truncated).toBe(true)
    expect(cut.sections[0]!.top!.length).toBeGreaterThan(100)
    expect(cut.sections[1]).toEqual(report.sections[1])
  })

  it('stays within its budget whatever a failed section reason or the side lists hold', () => {
    const rows = (n: number, pad: string) =>
      Array.from({ length: n }, (_, i) => ({ path: `/p/${i}/${pad}`, human: i, ai: 0, total: i }))
    const report: HealthReport = {
      projectId: 'p',
      range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
      sections: [
        {
          name: 'views',
          ok: true,
          totals: { human: 1, ai: 1, total: 1 },
          rows: 10_000,
          top: rows(10_000, 'x'.repeat(40)),
          shown: rows(10_000, 'y'.repeat(40)),
          previousRows: rows(10_000, 'z'.repeat(40)),
          maxRowsReached: false
        },
        // A cursor that doubled on every page, quoted in the reason.
        { name: 'searches', ok: false, status: 500, refused: false, reason: 'c'.repeat(8_000_000) }
      ],
      requests: 3,
      generatedAt: Date.UTC(2026, 10, 22)
    }
    const json = reportJson(report, 100_000)
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(100_000)
    const doc = JSON.parse(json) as { sections: { reason?: string; shown?: unknown[] }[] }
    expect(doc.sections[1]!.reason!.length).toBeLessThanOrEqual(2000)
    expect(doc.sections[0]!.shown!.length).toBeLessThan(10_000)
  })
})

describe("visitors and views: each page once, and the views of the visitors' pages", () => {
  const pagesService = (rows: { path: string; total: number }[]) =>
    fakeService(url => {
      const r = rows.map(x => ({ path: x.path, human: x.total, ai: 0, total: x.total }))
      const totals = { human: 99, ai: 0, total: 99 }
      return url.pathname.endsWith('/views')
        ? { totals, views: r, hasMore: false }
        : { totals, visitors: r, hasMore: false }
    })

  it('a path sent twice is shown once in the top pages, and the reader warns', async () => {
    const warnings: string[] = []
    const v = await readVisitors(
      input(
        pagesService([
          { path: '/a', total: 9 },
          { path: '/b', total: 5 },
          { path: '/a', total: 7 }
        ]),
        { onWarning: line => warnings.push(line) }
      )
    )
    expect(v.top.map(x => [x.path, x.total])).toEqual([
      ['/a', 9],
      ['/b', 5]
    ])
    expect(warnings.join('\n')).toMatch(/"\/a" came more than once/)
    expect(v.notes).toEqual(['1 row was dropped: each path is counted once.'])
  })

  it('views keeps the rows of the pages the visitors section shows, beyond its own top', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ path: `/p${i}`, total: 100 - i }))
    const v = await readViews(
      input(pagesService(rows), { top: 2, shownPaths: ['/p0', '/p6', '/nowhere'] })
    )
    expect(v.top.map(x => x.path)).toEqual(['/p0', '/p1'])
    expect(v.shown?.map(x => x.path)).toEqual(['/p6'])
  })
})

describe('visitors and views: read-ahead can be cancelled', () => {
  it.each(['visitors', 'views'] as const)(
    '%s hands each page request the signal that cancels it when abandoned',
    async name => {
      const signals: (AbortSignal | undefined)[] = []
      const service: JsonGetter = {
        getJson<T>(path: string, check: (json: unknown) => T, o?: { signal?: AbortSignal }) {
          signals.push(o?.signal)
          const offset = Number(new URL(path, 'http://x').searchParams.get('offset'))
          const rows = Array.from({ length: 2 }, (_, i) => ({
            path: `/p${offset + i}`,
            human: 1,
            ai: 1,
            total: 1
          }))
          const totals = { human: 9, ai: 9, total: 9 }
          const more = offset < 6
          const body =
            name === 'visitors'
              ? { totals, visitors: rows, hasMore: more }
              : { totals, views: rows, hasMore: more }
          return Promise.resolve(check(body))
        }
      }
      const read = name === 'visitors' ? readVisitors : readViews
      await read(input(service, { pageSize: 2, concurrency: 4 }))
      expect(signals.length).toBeGreaterThan(1)
      for (const signal of signals) expect(signal).toBeInstanceOf(AbortSignal)
    }
  )
})

describe('searches read by weeks', () => {
  it('adds up a query over the weeks: hits summed, click-through weighted by hits', () => {
    const row = (q: string, hits: number, ctr: number, page: string | null, at: string) => ({
      searchQuery: q,
      hits,
      ctr,
      topClickedPage: page,
      lastSearchedAt: at
    })
    expect(
      addUpByQuery([
        row('api key', 30, 0.5, '/a', '2026-11-20'),
        row('sso', 5, 0, null, '2026-11-19'),
        row('api key', 10, 0.1, '/b', '2026-11-10')
      ])
    ).toEqual([row('api key', 40, 0.4, '/a', '2026-11-20'), row('sso', 5, 0, null, '2026-11-19')])
  })
})

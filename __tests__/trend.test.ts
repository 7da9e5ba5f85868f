// Unit tier: the trend: read newest first, each period once, known periods at no request, the
// first failure ending the reading; and drawn without inventing a point, with labels that name
// each period and never crowd the axis.
import { describe, it, expect } from '@jest/globals'
import { AnalyticsApi, type JsonGetter } from '../src/service/analytics.js'
import { RateLimitError, ServiceError } from '../src/service/errors.js'
import { readTrend, type Trend } from '../src/analytics/trend.js'
import { drawnPoints, MAX_LABELS, periodLabels, trendBlock } from '../src/report/chart.js'

const week = (i: number) => ({
  dateFrom: new Date(Date.UTC(2026, 10, 9 - 7 * i)).toISOString().slice(0, 10),
  dateTo: new Date(Date.UTC(2026, 10, 16 - 7 * i)).toISOString().slice(0, 10)
})
/** The 8 weeks before the week of Nov 16 (week(0) is Nov 9–15), oldest first. */
const RANGES = Array.from({ length: 8 }, (_, i) => week(7 - i))
const counts = (total: number) => ({ human: total, ai: 0, total })

/** A service whose answer to each request is `answer(url, attempts)`; it records every call. */
function service(fail?: (url: URL) => Error | undefined) {
  const calls: { path: string; attempts?: number }[] = []
  const getter: JsonGetter = {
    getJson<T>(path: string, check: (json: unknown) => T, o?: { maxAttempts?: number }) {
      const attempts = o?.maxAttempts
      calls.push({ path, ...(attempts !== undefined ? { attempts } : {}) })
      const url = new URL(path, 'http://x')
      const error = fail?.(url)
      if (error) return Promise.reject(error)
      const total = Number(url.searchParams.get('dateFrom')?.slice(8, 10))
      return Promise.resolve(
        check({ totals: counts(total), visitors: [], views: [], hasMore: false })
      )
    }
  }
  return { api: new AnalyticsApi(getter, 'p'), calls }
}

const from = (path: string) => new URL(path, 'http://x').searchParams.get('dateFrom')

describe('readTrend', () => {
  it('reads newest first, once each (no retry), and takes what is known at no request', async () => {
    const { api, calls } = service()
    const trend = await readTrend(api, {
      ranges: RANGES,
      series: ['visitors', 'views'],
      known: r =>
        r.dateFrom === '2026-11-09' ? { visitors: counts(1), views: counts(2) } : undefined
    })
    const days = ['11-02', '10-26', '10-19', '10-12', '10-05', '09-28', '09-21']
    expect(calls.map(c => from(c.path))).toEqual(days.flatMap(d => [`2026-${d}`, `2026-${d}`]))
    expect(calls.every(c => c.attempts === 1)).toBe(true)
    expect([trend.requests, trend.known, trend.stop]).toEqual([14, 1, undefined])
    expect(trend.points.map(p => p.visitors?.total)).toEqual([21, 28, 5, 12, 19, 26, 2, 1])
  })

  it('stops at the first period that fails: it and every older one stay unknown', async () => {
    const { api, calls } = service(url =>
      from(url.href) === '2026-10-19' && url.pathname.endsWith('/views')
        ? new ServiceError('500 Internal Server Error', 500)
        : undefined
    )
    const trend = await readTrend(api, {
      ranges: RANGES,
      series: ['visitors', 'views'],
      known: () => undefined
    })
    const days = ['11-09', '11-02', '10-26', '10-19']
    expect(calls.map(c => from(c.path))).toEqual(days.flatMap(d => [`2026-${d}`, `2026-${d}`]))
    expect(trend.stop).toMatchObject({ at: week(3), missing: 5, limit: 'failure' })
    // The period cut short keeps its one series, but is not drawn: half a point is no point.
    expect(trend.points[4]?.visitors?.total).toBe(19)
    expect(drawnPoints(trend, ['visitors', 'views']).map(p => p.range.dateFrom)).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09'
    ])
  })

  it('says which limit stopped it; a run already stopped reads nothing', async () => {
    const quota = service(() => new RateLimitError('429', new Date()))
    const stopped = await readTrend(quota.api, {
      ranges: RANGES,
      series: ['visitors'],
      known: () => undefined
    })
    expect(stopped.stop).toMatchObject({ limit: 'quota', missing: 8 })
    expect(stopped.stop?.error).toBeInstanceOf(RateLimitError)
    const { api, calls } = service()
    const none = await readTrend(api, {
      ranges: RANGES,
      series: ['visitors'],
      known: r => (r.dateFrom === '2026-11-09' ? { visitors: counts(1) } : undefined),
      stopped: { limit: 'max-requests', reason: 'spent' }
    })
    expect(calls).toEqual([])
    expect(none.stop).toMatchObject({ limit: 'max-requests', at: week(1), missing: 7 })
  })
})

describe('the trend drawn', () => {
  const trendOf = (n: number, known = n): Trend => ({
    points: Array.from({ length: n }, (_, i) => ({
      range: week(n - i),
      ...(i >= n - known ? { visitors: counts(1000 + i * 10), views: counts(4000 - i * 10) } : {})
    })),
    requests: 2 * known,
    known: 0,
    ...(known < n
      ? {
          stop: { at: week(known + 1), missing: n - known, limit: 'quota' as const, reason: '429' }
        }
      : {})
  })
  const current = { range: week(0), visitors: counts(1100), views: counts(3900) }
  const labelsOf = (md: string) =>
    [...(/x-axis \[([^\]]*)\]/.exec(md)?.[1] ?? '').matchAll(/"([^"]*)"/g)].map(m => m[1] ?? '')

  it('names each period by its start, months by month and year, the year added where two would read the same', () => {
    expect(periodLabels([week(1), week(0)])).toEqual(['Nov 2', 'Nov 9'])
    const months = [
      { dateFrom: '2025-10-01', dateTo: '2025-11-01' },
      { dateFrom: '2026-10-01', dateTo: '2026-11-01' }
    ]
    expect(periodLabels(months)).toEqual(['Oct 2025', 'Oct 2026'])
    const years = [
      { dateFrom: '2025-11-09', dateTo: '2025-11-16' },
      { dateFrom: '2026-11-09', dateTo: '2026-11-16' }
    ]
    expect(periodLabels(years)).toEqual(['Nov 9 2025', 'Nov 9 2026'])
  })

  it('draws views as bars and visitors as a line, each a share of its own average, the legend in words', () => {
    const md = trendBlock({ trend: trendOf(8), series: ['visitors', 'views'], current })
    expect(md).toContain('title "The last 9 weeks: page views (bars), unique visitors (line)"')
    expect(md).toMatch(/\n {4}bar \[[\d., ]+\]\n {4}line \[[\d., ]+\]\n/)
    expect(md).toContain('y-axis "% of the average"')
    expect(md).toContain('_Bars: views; line: visitors; each as a % of its 9-week average')
    expect(md).not.toMatch(/blue|orange/)
    expect(labelsOf(md)).toHaveLength(9)
    expect(new Set(labelsOf(md)).size).toBe(9)
  })

  it('draws nothing for a period not read: only the newest run of periods read, and says what is missing', () => {
    const md = trendBlock({ trend: trendOf(8, 3), series: ['visitors', 'views'], current })
    expect(labelsOf(md)).toEqual(['Oct 19', 'Oct 26', 'Nov 2', 'Nov 9'])
    expect(/ {4}bar \[([^\]]*)\]/.exec(md)?.[1]?.split(', ')).toHaveLength(4)
    expect(md).toContain(
      'Not drawn: the 5 weeks from Sep 14 to Oct 12, not read: the hourly analytics limit was reached.'
    )
    const none = trendBlock({ trend: trendOf(8, 0), series: ['visitors', 'views'], current })
    expect(none).not.toContain('```mermaid')
    expect(none).toContain('Trend: nothing to draw before this week.')
  })

  it(`shows at most ${MAX_LABELS} labels, fewer where they would not fit side by side, this period always`, () => {
    const md = trendBlock({ trend: trendOf(26), series: ['visitors', 'views'], current })
    const labels = labelsOf(md)
    expect(labels).toHaveLength(27)
    // Unique (Mermaid merges equal labels), most of them invisible.
    expect(new Set(labels).size).toBe(27)
    const shown = labels.filter(l => l.trim().replace(/\u200b/g, '') !== '')
    expect(shown.length).toBeLessThanOrEqual(MAX_LABELS)
    expect(shown.length).toBeGreaterThanOrEqual(5)
    expect(labels.at(-1)).toBe('Nov 9')
  })
})

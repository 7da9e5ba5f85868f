// The docs-health renderer: headlines, failures in place, folded tables, escaping, size limits.
import { describe, it, expect } from '@jest/globals'
import { pageUrl, renderHealthReport, type HealthReport } from '../src/report/health.js'
import type { SectionOutcome } from '../src/analytics/sections/section.js'

const HOSTILE = '<img src=x onerror=alert(1)> @octocat [x](javascript:alert(1)) #12 |'

function report(sections: SectionOutcome[], extra: Partial<HealthReport> = {}): HealthReport {
  return {
    projectId: 'docs',
    range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
    sections,
    requests: 7,
    madeAt: '2026-11-22T00:40:12.345Z',
    runUrl: 'https://github.com/octo/docs/actions/runs/1',
    ...extra
  }
}

const pages = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: `/p/${i}`, human: n - i, ai: 0, total: n - i }))

const visitors = (n: number): SectionOutcome => ({
  name: 'visitors',
  ok: true,
  totals: { human: 900, ai: 200, total: 1000 },
  rows: n,
  top: pages(n),
  maxRowsReached: false
})

const searches: SectionOutcome = {
  name: 'searches',
  ok: true,
  totalSearches: 4321,
  top: [
    { searchQuery: HOSTILE, hits: 50, ctr: 0, topClickedPage: null },
    { searchQuery: 'rate limit', hits: 40, ctr: 0.25, topClickedPage: '/api/limits' }
  ],
  gaps: [{ searchQuery: HOSTILE, hits: 50, ctr: 0, topClickedPage: null }],
  read: 2,
  complete: true
}

describe('renderHealthReport', () => {
  it('draws a headline per section and a refused section in its place with the reason', () => {
    const md = renderHealthReport(
      report([
        visitors(3),
        {
          name: 'feedback',
          ok: false,
          status: 403,
          refused: true,
          reason: `403 Forbidden: ${HOSTILE}`
        },
        searches
      ]),
      100_000
    )
    expect(md).toContain('| Visitors | 1,000 unique visitors |')
    expect(md).toContain('| Feedback | ⚠️ not available (HTTP 403) |')
    expect(md).toContain('| Searches | 4,321 searches · 1 content gap in the top 2 |')
    const order = ['### Visitors', '### Feedback', '### Searches'].map(h => md.indexOf(h))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(md).toMatch(
      /### Feedback\n\n> ⚠️ \*\*Not available\.\*\* The service refused this section \(HTTP 403\)/
    )
    expect(md).toContain('Made 2026-11-22 00:40 UTC · 7 requests to the service')
    expect(md).toContain('[workflow run](https://github.com/octo/docs/actions/runs/1)')
  })

  it('escapes queries and service text: no HTML, link, mention or reference survives', () => {
    const md = renderHealthReport(
      report([
        searches,
        { name: 'views', ok: false, status: 500, refused: false, reason: HOSTILE }
      ]),
      100_000
    )
    expect(md).not.toContain('<img')
    expect(md).not.toContain('](javascript')
    expect(md).not.toMatch(/@octocat/)
    expect(md).not.toMatch(/(^|\s)#12/m)
    expect(md).toContain('&lt;img src=x onerror=alert&#40;1&#41;&gt;')
    // Every table row keeps its cell count: a | in a query cannot open a cell.
    for (const line of md.split('\n').filter(l => l.startsWith('| 1 |')))
      expect(line.split(' | ').length).toBeLessThanOrEqual(5)
  })

  it('shows 10 rows and folds the rest into <details>, with the blank lines GitHub needs', () => {
    const md = renderHealthReport(report([visitors(25)]), 100_000)
    expect(md).toContain('| 10 | /p/9 |')
    expect(md).toMatch(
      /\| 10 \| \/p\/9 \|[^\n]*\n\n<details><summary>15 more pages<\/summary>\n\n\| # \| Page/
    )
    expect(md).toMatch(/\| 25 \| \/p\/24 \|[^\n]*\n\n<\/details>/)
  })

  it('links pages into site-url, percent-encoded, and only plain site paths', () => {
    const md = renderHealthReport(
      report([visitors(1)], { siteUrl: 'https://docs.example.com' }),
      100_000
    )
    expect(md).toContain('[/p/0](https://docs.example.com/p/0)')
    expect(pageUrl('https://d.example', '/a b/(x)')).toBe('https://d.example/a%20b/%28x%29')
    expect(pageUrl('https://d.example', '/ü')).toBe('https://d.example/%C3%BC')
    expect(pageUrl('https://d.example', '//evil.example/x')).toBeUndefined()
    expect(pageUrl('https://d.example', '/a/../b')).toBeUndefined()
    expect(pageUrl('https://d.example', 'relative')).toBeUndefined()
  })

  it('with compare, shows the change of each headline number', () => {
    const v = { ...visitors(1), previous: { human: 800, ai: 200, total: 800 } } as SectionOutcome
    const md = renderHealthReport(
      report([v, { ...searches, previous: 4321 }], {
        previous: { dateFrom: '2026-11-02', dateTo: '2026-11-09' }
      }),
      100_000
    )
    expect(md).toContain('| Section | Headline | Change |')
    expect(md).toContain('| Visitors | 1,000 unique visitors | +200 (+25.0%) |')
    expect(md).toMatch(/\| Searches \| [^|]+ \| 0 \|/)
    expect(md).toContain('**Compared with:** 2026-11-02 → 2026-11-09')
  })

  it('stays within the byte budget by cutting table rows, and says so', () => {
    const big = renderHealthReport(report([visitors(2000)]), 1_000_000)
    const md = renderHealthReport(report([visitors(2000)]), 20_000)
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(20_000)
    expect(Buffer.byteLength(big)).toBeGreaterThan(20_000)
    expect(md).toMatch(/Tables are cut to \d+ rows to fit/)
    expect(md).toContain('</details>')
    expect(md).toContain('requests to the service')
  })
})

// Unit tier: the visitors report: headline, tables, chart, size limits.
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import type { VisitorCounts, VisitorRow } from '../src/service/schema.js'
import {
  commentFullData,
  renderVisitorsReport,
  type VisitorsRenderOptions,
  type VisitorsReport
} from '../src/report/visitors.js'
import { exactRange, previousLabel, shortRange } from '../src/report/range.js'
import { displayWidth } from '../src/report/markdown.js'
import { bytes, chars, COMMENT_MAX_CHARS } from '../src/report/fit.js'
import { previousOf, VISITORS_STATES, visitorRows, visitorsReport } from './report-scenarios.js'

const opts = { room: chars(COMMENT_MAX_CHARS), fullData: '`out/visitors.csv`' }
const render = (r: VisitorsReport, o: VisitorsRenderOptions = opts) => renderVisitorsReport(r, o)
const counts = (human: number, ai: number, total: number): VisitorCounts => ({ human, ai, total })
const row = (path: string, human: number, ai: number, total: number): VisitorRow => ({
  path,
  human,
  ai,
  total
})
const headline = (markdown: string) => markdown.split('\n')[0] ?? ''
const pipes = (line: string) => line.split('|').length - 1
const NOW = Date.UTC(2026, 10, 23, 9, 0)

function lineStarting(markdown: string, prefix: string): string {
  const line = markdown.split('\n').find(l => l.startsWith(prefix))
  if (line === undefined) throw new Error(`no line starts with ${prefix}`)
  return line
}

/** Every row of every top-pages table (the visible one and the folded one). */
function pageRows(markdown: string): string[] {
  return markdown.split('\n').filter(l => /^\| \d+ \| /.test(l))
}

function chartOf(markdown: string): string {
  const start = markdown.indexOf('```mermaid')
  expect(start).toBeGreaterThanOrEqual(0)
  return markdown.slice(start, markdown.indexOf('\n```', start + 3) + 4)
}

describe('ranges', () => {
  it('shows whole days with the inclusive last day', () => {
    expect(shortRange({ dateFrom: '2026-11-16', dateTo: '2026-11-23' }, NOW)).toBe('Nov 16–22')
    expect(shortRange({ dateFrom: '2026-10-28', dateTo: '2026-11-04' }, NOW)).toBe('Oct 28 – Nov 3')
    expect(shortRange({ dateFrom: '2025-12-28', dateTo: '2026-01-04' }, NOW)).toBe(
      'Dec 28, 2025 – Jan 3, 2026'
    )
    expect(shortRange({ dateFrom: '2026-11-22', dateTo: '2026-11-23' }, NOW)).toBe('Nov 22')
    expect(shortRange({ dateFrom: '2025-03-01', dateTo: '2025-04-01' }, NOW)).toBe('Mar 1–31, 2025')
    expect(exactRange({ dateFrom: '2026-11-16', dateTo: '2026-11-23' })).toBe(
      '2026-11-16 to 2026-11-22'
    )
  })

  it('shows other bounds as given, escaped', () => {
    const range = { dateFrom: '2026-11-01T00:00:00+02:00', dateTo: '2026-11-08T12:30:00Z' }
    expect(shortRange(range, NOW)).toBe(
      '2026-11-01T00&#58;00&#58;00+02&#58;00 to 2026-11-08T12&#58;30&#58;00Z (end exclusive)'.replace(
        /&#58;/g,
        ':'
      )
    )
    expect(exactRange({})).toBe('all time')
    expect(exactRange({ dateFrom: '2026-01-01' })).toBe('since 2026-01-01')
    expect(exactRange({ dateTo: '<b>' })).toBe('before &lt;b&gt;')
  })

  it('names the period compared with', () => {
    const week = { dateFrom: '2026-11-16', dateTo: '2026-11-23' }
    expect(previousLabel(week)).toBe('the previous 7 days')
    expect(previousLabel(week, { kind: 'days', days: 7 })).toBe('the previous 7 days')
    expect(previousLabel(week, { kind: 'last-week' })).toBe('the week before')
    expect(previousLabel(week, { kind: 'last-month' })).toBe('the month before')
    expect(previousLabel({ dateFrom: '2026-11-22', dateTo: '2026-11-23' })).toBe('the day before')
    expect(previousLabel({ dateFrom: '2026-11-22T00:00Z', dateTo: '2026-11-23T00:00Z' })).toBe(
      'the period before'
    )
  })
})

describe('renderVisitorsReport: head', () => {
  it('leads with the total, its change and the days', () => {
    const out = render(VISITORS_STATES['compare with the week before']!())
    expect(headline(out)).toBe('### 12,000 unique visitors, +20.0% vs the week before · Nov 16–22')
    const days = render(
      visitorsReport({
        period: { kind: 'days', days: 7 },
        previous: { ...VISITORS_STATES['compare with the week before']!().previous! }
      })
    )
    expect(headline(days)).toBe(
      '### 12,000 unique visitors, +20.0% vs the previous 7 days · Nov 16–22'
    )
    expect(headline(render(visitorsReport()))).toBe('### 12,000 unique visitors · Nov 16–22')
  })

  it('says when, where and at what cost the report was made', () => {
    const out = render(visitorsReport())
    expect(out.split('\n')[2]).toBe(
      'Docs visitors of project acme-docs · made 2026-11-23 09:00 UTC · ' +
        '[workflow run](https://github.com/acme/docs/actions/runs/123456789) · 5 analytics requests'
    )
    expect(render(visitorsReport({ requests: undefined, runUrl: undefined }))).not.toMatch(
      /requests|workflow run/
    )
  })

  it('shows the traffic as exclusive parts that add up to the total and to 100 %', () => {
    const out = render(visitorsReport({ totals: counts(10_412, 2_496, 12_000) }))
    expect(out).toContain('| Traffic | Unique visitors | Share of total |\n|---|---:|---:|')
    expect(out).toContain('| Human only | 9,504 | 79.2% |')
    expect(out).toContain('| AI only | 1,588 | 13.2% |')
    expect(out).toContain('| Both | 908 | 7.6% |')
    expect(out).toContain('| Total | 12,000 | 100.0% |')
    expect(9_504 + 1_588 + 908).toBe(12_000)
    // The service's own figures are still said, as the outputs give them.
    expect(out).toContain('10,412 human, 2,496 AI')
  })

  it('without overlap, no "both" row', () => {
    const out = render(visitorsReport({ totals: counts(9_000, 3_000, 12_000) }))
    expect(out).not.toContain('| Both')
    expect(out).toContain('human + AI = total')
  })

  it('when human + AI falls short of the total, shares are of their sum, said so', () => {
    const out = render(visitorsReport({ totals: counts(7_000, 3_000, 12_000) }))
    expect(out).toContain('| Traffic | Unique visitors | Share of human + AI |')
    expect(out).toContain('| Human | 7,000 | 70.0% |')
    expect(out).toContain('| AI | 3,000 | 30.0% |')
    expect(out).toContain('| Total | 12,000 |  |')
    expect(out).toContain('_Shares are of human + AI.')
  })

  it('compares every total, the overlap included', () => {
    const previous = {
      range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
      totals: counts(60, 50, 100),
      byPath: new Map()
    }
    const out = render(visitorsReport({ totals: counts(70, 50, 110), previous }))
    expect(out).toContain('compared with Nov 9–15')
    expect(out).toContain('| Human only | 60 | 54.5% | +10 (+20.0%) |')
    expect(out).toContain('| AI only | 40 | 36.4% | 0 |')
    expect(out).toContain('| Both | 10 | 9.1% | 0 |')
    expect(out).toContain('| Total | 110 | 100.0% | +10 (+10.0%) |')
  })

  it('says the previous period had no visitors instead of an infinite change', () => {
    const previous = { range: {}, totals: counts(0, 0, 0), byPath: new Map() }
    expect(headline(render(visitorsReport({ previous, period: undefined })))).toBe(
      '### 12,000 unique visitors, none in the previous 7 days · Nov 16–22'
    )
  })
})

describe('renderVisitorsReport: top pages', () => {
  it('draws no chart of the top pages: it would only repeat the table beside it', () => {
    for (const n of [3, 4, 50])
      expect(render(visitorsReport({ top: visitorRows(n) }))).not.toContain('```mermaid')
  })

  it('draws the trend, the one chart that tells what no table here does', () => {
    const out = render(VISITORS_STATES['trend: 8 weeks, compare']!())
    const chart = chartOf(out)
    expect(chart).toContain('title "The last 9 weeks: unique visitors"')
    expect(chart).toMatch(/\n {4}line \[[\d., ]+\]\n/)
    expect(chart).not.toContain('bar [')
  })

  it('keeps one unit per column: whole numbers, never "10.4k" beside "2,327"', () => {
    const out = render(
      visitorsReport({
        previous: { ...previousOf(visitorsReport().top) },
        totals: { human: 91_000, ai: 30_000, total: 120_000 }
      })
    )
    expect(out).not.toMatch(/\d(\.\d)?[kM]\b/)
    expect(lineStarting(out, '| Total |')).toMatch(/\| \+110,000 \(\+1100\.0%\) \|$/)
  })

  it('keeps each page row on one line at 760 px: paths clipped by display width, a change in %', () => {
    const wide = '/zh/文档/' + '接口参考'.repeat(10)
    const out = render(
      visitorsReport({
        previous: previousOf(visitorsReport().top),
        top: [row(wide, 5, 1, 5), ...visitorRows(3)]
      })
    )
    const cell = lineStarting(out, '| 1 |').split(' | ')[1] ?? ''
    expect(displayWidth(cell)).toBeLessThanOrEqual(44)
    expect(cell).toContain('…')
    expect(lineStarting(out, '| 2 |')).toMatch(/\| [+\u2212][\d.]+% \|$/)
  })

  it('shows ten rows and folds the rest, with the numbers of each row intact', () => {
    const out = render(visitorsReport({ top: visitorRows(50) }))
    const [visiblePart, folded] = out.split('<details>')
    expect(pageRows(visiblePart ?? '')).toHaveLength(10)
    expect(folded).toMatch(/^<summary>Pages 11–50<\/summary>/)
    expect(pageRows(folded ?? '')).toHaveLength(40)
    expect(pageRows(out).map(l => Number(l.split('|')[1]))).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1)
    )
  })

  it('clips long paths at their start so the number columns stay in view', () => {
    const long = '/api-reference/v2/organizations/{organizationId}/projects/{projectId}/logs'
    const out = render(visitorsReport({ top: [row(long, 3, 2, 4)] }))
    const line = lineStarting(out, '| 1 |')
    const page = line.split(' | ')[1] ?? ''
    expect(page.replace(/&#\d+;|\u2060/g, 'x').length).toBeLessThanOrEqual(40)
    // The end names the page; whole segments from the first slash after the "…".
    expect(page.startsWith('…/')).toBe(true)
    expect(page.endsWith('/projects/{projectId}/logs')).toBe(true)
    expect(line.endsWith('| 3 | 2 | 4 |')).toBe(true)
  })

  it('links paths to the docs site, safely', () => {
    const out = render(
      visitorsReport({
        siteUrl: 'https://docs.acme.dev',
        top: [row('/guides/webhooks', 1, 1, 1), row('/a)b [c]', 1, 1, 1), row('', 1, 1, 1)]
      })
    )
    expect(lineStarting(out, '| 1 |')).toContain(
      '| [/guides/webhooks](https://docs.acme.dev/guides/webhooks) |'
    )
    const second = lineStarting(out, '| 2 |')
    expect(second).toContain('](https://docs.acme.dev/a%29b%20%5Bc%5D) |')
    expect(pipes(second)).toBe(6)
    expect(lineStarting(out, '| 3 |')).toContain('| _(empty path)_ |')
    expect(render(visitorsReport())).not.toContain('](https://docs.acme.dev')
  })

  it('compares each top page with its own previous count', () => {
    const out = render(VISITORS_STATES['compare with the week before']!())
    const changes = pageRows(out).map(l => l.split(' | ').at(-1)?.replace(/ \|$/, ''))
    expect(new Set(changes).size).toBeGreaterThan(5)
    expect(changes).toContain('new')
    expect(out).toMatch(/^\| # \| Page \| Human \| AI \| Total \| Change \|$/m)
  })

  it('states the max-rows caveat', () => {
    const out = render(visitorsReport({ rows: 500, maxRowsReached: true }))
    expect(out).toContain('#### Top pages among the first 500 rows exported')
    expect(out).toContain('pages past those rows are not ranked here')
    expect(out).toContain('500 rows exported to reports/visitors.csv, stopped at `max-rows`')
  })

  it('lists hostile paths inert, one row each', () => {
    const hostile = '/x|y\n<!-- docs-agent -->`@user`[a](b)#1'
    const out = render(visitorsReport({ top: [row(hostile, 1, 2, 3), row('/docs/b', 1, 1, 1)] }))
    const first = lineStarting(out, '| 1 |')
    expect(pipes(first)).toBe(6)
    expect(first).toContain('| 1 | 2 | 3 |')
    expect(out).not.toContain('<!--')
    expect(out).not.toMatch(/@\w/)
  })

  it('skips the chart and the table when there are no rows', () => {
    const out = render(VISITORS_STATES['all time, no rows']!())
    expect(out).not.toContain('mermaid')
    expect(out).not.toContain('Top pages')
    expect(headline(out)).toBe('### 0 unique visitors · all time')
  })
})

describe('where every row is', () => {
  const RUN = 'https://github.com/octo/docs/actions/runs/1'
  it('names the job summary only when it holds every row, else the output file, else nothing', () => {
    expect(commentFullData(true, 'out/v.csv', RUN)).toBe(
      `the job summary of the [workflow run](${RUN})`
    )
    expect(commentFullData(false, 'out/v.csv', RUN)).toBe(
      `out/v.csv, which the [workflow run](${RUN}) wrote (upload it with \`actions/upload-artifact\` to keep it)`
    )
    expect(commentFullData(false, undefined, RUN)).toBeUndefined()
  })
})

describe('renderVisitorsReport: size', () => {
  it.each([1_000_000, 65_536, 5_000])('stays within %i characters with 100,000 rows', max => {
    const top = visitorRows(100_000)
    const out = render(visitorsReport({ top, rows: 100_000 }), { ...opts, room: chars(max) })
    expect(out.length).toBeLessThanOrEqual(max)
    expect(out).toMatch(/_[\d,]+ more rows not shown; every row is in `out\/visitors.csv`\._/)
    expect(out).toContain('| 1 | /quickstart |')
    expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0)
  })

  it('counts multi-byte paths against the budget in bytes', () => {
    const top = Array.from({ length: 50_000 }, (_, i) => row(`/文档/页面-${i}`, 1, 1, 1))
    const out = render(visitorsReport({ top }), { room: bytes(65_536) })
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(65_536)
    // Nothing holds every row: the note says how to keep them, not a place that lacks them.
    expect(out).toMatch(
      /more rows not shown: set `output-file` \(and upload it as an artifact\) to keep every row\._/
    )
  })

  it('counts a comment in characters: multi-byte paths fill it, not a third of it', () => {
    const top = Array.from({ length: 50_000 }, (_, i) => row(`/文档/页面-${i}`, 1, 1, 1))
    const inChars = render(visitorsReport({ top }), { room: chars(65_536) })
    const inBytes = render(visitorsReport({ top }), { room: bytes(65_536) })
    expect(inChars.length).toBeLessThanOrEqual(65_536)
    expect(inChars.length).toBeGreaterThan(60_000)
    // More than its bytes would allow: the limit was counted in characters.
    expect(Buffer.byteLength(inChars, 'utf8')).toBeGreaterThan(65_536)
    expect(inChars.length).toBeGreaterThan(inBytes.length)
  })

  it('stays within a small budget counted in bytes (a case the property once found)', () => {
    const out = render(visitorsReport({ top: [row('', 1, 1, 1)] }), { room: bytes(345) })
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(345)
  })

  it('stays within any budget (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 200, max: 20_000 }),
        fc.string({ maxLength: 400 }),
        (rowCount, maxChars, path) => {
          const top = [row(path, 1, 1, 1), ...visitorRows(rowCount)]
          const out = render(visitorsReport({ top }), { room: bytes(maxChars) })
          expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(maxChars)
        }
      ),
      { numRuns: 50 }
    )
  })

  it('shows every row when they fit', () => {
    const out = render(visitorsReport({ top: visitorRows(30) }))
    expect(pageRows(out)).toHaveLength(30)
    expect(out).not.toContain('not shown')
  })
})

// Unit tier: the docs-health renderer: a title with the range, headlines that lead with the answer,
// the provenance line, failures in place, folded and clipped tables, escaping, size limits.
import { describe, it, expect } from '@jest/globals'
import { renderHealthReport, type HealthReport } from '../src/report/health.js'
import { bytes } from '../src/report/fit.js'
import type { SectionOutcome } from '../src/analytics/sections/outcome.js'
import { HEALTH_STATES, healthReport } from './report-scenarios.js'
import { overviewCells } from './support.js'

const HOSTILE = '<img src=x onerror=alert(1)> @octocat [x](javascript:alert(1)) #12 |'
const LONG_PATH = '/api-reference/v2/organizations/{organizationId}/projects/{projectId}/logs'

function report(sections: SectionOutcome[], extra: Partial<HealthReport> = {}): HealthReport {
  return {
    projectId: 'docs',
    range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
    sections,
    requests: 7,
    generatedAt: Date.UTC(2026, 10, 22, 0, 40, 12),
    runUrl: 'https://github.com/octo/docs/actions/runs/1',
    ...extra
  }
}

const pages = (n: number, first = '/p/0') =>
  Array.from({ length: n }, (_, i) => ({
    path: i === 0 ? first : `/p/${i}`,
    human: n - i,
    ai: 0,
    total: n - i
  }))

const visitors = (n: number, extra: object = {}): SectionOutcome => ({
  name: 'visitors',
  ok: true,
  totals: { human: 900, ai: 200, total: 1000 },
  rows: n,
  top: pages(n),
  maxRowsReached: false,
  ...extra
})

const searches = (extra: object = {}): SectionOutcome => ({
  name: 'searches',
  ok: true,
  totalSearches: 4321,
  top: [
    { searchQuery: HOSTILE, hits: 50, ctr: 0, topClickedPage: null },
    { searchQuery: 'rate limit', hits: 40, ctr: 0.25, topClickedPage: '/api/limits' }
  ],
  gaps: [{ searchQuery: HOSTILE, hits: 50, ctr: 0, topClickedPage: null }],
  read: 2,
  folded: 0,
  complete: true,
  ...extra
})

const assistant = (extra: object = {}): SectionOutcome => ({
  name: 'assistant',
  ok: true,
  callers: { web: 300, api: 100, other: 20, total: 420 },
  read: 400,
  conversations: 160,
  unanswered: 48,
  complete: true,
  top: [{ question: 'How do I rotate a key?', count: 3, lastAskedAt: '2026-11-12T08:03:09Z' }],
  answered: [],
  ...extra
})

const refused: SectionOutcome = {
  name: 'feedback',
  ok: false,
  status: 403,
  refused: true,
  reason: `403 Forbidden: ${HOSTILE}; this analytics feature may not be enabled on your plan`
}

/** Table rows a reader sees without unfolding anything: no header, no delimiter row. */
function visibleTableRows(md: string): number {
  const lines = md.replace(/<details>[\s\S]*?<\/details>/g, '').split('\n')
  const isDelimiter = (l: string | undefined) => l !== undefined && /^\|(:?-+:?\|)+$/.test(l)
  return lines.filter((l, i) => l.startsWith('| ') && !isDelimiter(l) && !isDelimiter(lines[i + 1]))
    .length
}

describe('renderHealthReport: title, provenance, overview', () => {
  it('says the range once, in the title as people read it, and where it came from at the end', () => {
    const md = renderHealthReport(report([visitors(3)]), bytes(100_000))
    expect(md.startsWith('## Docs health · Nov 9–15\n\nProject docs\n')).toBe(true)
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      '_made 2026-11-22 00:40 UTC · ' +
        '[workflow run](https://github.com/octo/docs/actions/runs/1) · 7 analytics requests_'
    )
    expect(md).not.toContain('2026-11-09 to 2026-11-15')
    expect(md).not.toContain('(end exclusive)')
  })

  it('leads each overview row with the answer', () => {
    const md = renderHealthReport(report([visitors(3), searches(), assistant()]), bytes(100_000))
    expect(overviewCells(md, 'Visitors')).toEqual(['**1,000** unique visitors'])
    expect(overviewCells(md, 'Searches')).toEqual(['**4,321** searches · 1 content gap'])
    expect(overviewCells(md, 'Assistant')).toEqual(['**420** questions · **12.0%** unanswered'])
    // Without compare there is no change column and no mark.
    expect(md).not.toMatch(/ vs the |🟢|🔴/)
  })

  it('with compare, marks each change better or worse for the docs, in its own column', () => {
    const sections = [
      visitors(1, { previous: { human: 800, ai: 200, total: 800 } }),
      searches({ previous: 4000 }),
      {
        name: 'feedback',
        ok: true,
        thumbsDown: 1007,
        thumbsUp: 300,
        code: 0,
        previous: 953,
        pages: 3,
        hasMore: false,
        top: []
      } as SectionOutcome,
      assistant({ previous: 400, previousShare: { unanswered: 20, read: 400 } })
    ]
    const previous = { dateFrom: '2026-11-02', dateTo: '2026-11-09' }
    const week = renderHealthReport(
      report(sections, { previous, period: { kind: 'last-week' } }),
      bytes(100_000)
    )
    expect(week).toContain('| Section | Nov 9–15 | vs the week before |')
    expect(overviewCells(week, 'Visitors')).toEqual(['**1,000** unique visitors', '+25.0% 🟢'])
    // More searches are neither good nor bad: no mark.
    expect(overviewCells(week, 'Searches')[1]).toBe('+8.0%')
    // More thumbs-down is worse, though the number went up.
    expect(overviewCells(week, 'Feedback')[1]).toBe('👎 +5.7% 🔴')
    // The assistant: the unanswered share's change in percentage points (12.0% against 5.0%).
    // In the headline's order: the questions, then the share unanswered (12.0% against 5.0%).
    expect(overviewCells(week, 'Assistant')[1]).toBe('+5.0% · +7.0 pp 🔴')
    expect(week).toContain('Project docs · vs Nov 2–8 · 🟢 better · 🔴 worse for the docs\n')
    // Dates without a period: the comparison is named by its length.
    const dates = renderHealthReport(report(sections, { previous }), bytes(100_000))
    expect(dates).toContain('| vs the previous 7 days |')
  })

  it('never says ±0%, and a fall in thumbs-down or the unanswered share is better', () => {
    const md = renderHealthReport(
      report(
        [
          visitors(1, { previous: { human: 900, ai: 200, total: 1000 } }),
          {
            name: 'feedback',
            ok: true,
            thumbsDown: 10,
            thumbsUp: 3,
            code: 0,
            previous: 20,
            pages: 1,
            hasMore: false,
            top: []
          },
          assistant({ previous: 420, previousShare: { unanswered: 80, read: 400 } })
        ],
        { previous: { dateFrom: '2026-11-02', dateTo: '2026-11-09' } }
      ),
      bytes(100_000)
    )
    expect(overviewCells(md, 'Visitors')[1]).toBe('no change')
    // 20 down to 10 is half, but 10 thumbs-down are noise: no mark below 20.
    expect(overviewCells(md, 'Feedback')[1]).toBe('👎 −50.0%')
    expect(overviewCells(md, 'Assistant')[1]).toBe('no change · −8.0 pp 🟢')
    expect(md).not.toMatch(/[±]0/)
  })

  it('marks only changes that matter: 5% and 20 or more, 1 point or more of a share', () => {
    const md = (sections: SectionOutcome[]) =>
      renderHealthReport(
        report(sections, { previous: { dateFrom: '2026-11-02', dateTo: '2026-11-09' } }),
        bytes(100_000)
      )
    const cell = (sections: SectionOutcome[], title: string) =>
      overviewCells(md(sections), title)[1]
    // +4.9%: no mark, however many visitors that is.
    expect(cell([visitors(1, { previous: { human: 0, ai: 0, total: 953 } })], 'Visitors')).toBe(
      '+4.9%'
    )
    // +50%, but 10 visitors: no mark.
    const few = visitors(1, {
      totals: { human: 30, ai: 0, total: 30 },
      previous: { human: 20, ai: 0, total: 20 }
    })
    expect(cell([few], 'Visitors')).toBe('+50.0%')
    // +5.3% and 50: marked.
    expect(cell([visitors(1, { previous: { human: 0, ai: 0, total: 950 } })], 'Visitors')).toBe(
      '+5.3% 🟢'
    )
    // A share moving by less than a point is noise: said, not marked.
    const share = (unanswered: number) =>
      cell([assistant({ previous: 420, previousShare: { unanswered, read: 400 } })], 'Assistant')
    expect(share(47)).toBe('no change · +0.3 pp')
    expect(share(49)).toBe('no change · −0.3 pp')
    expect(share(44)).toBe('no change · +1.0 pp 🔴')
  })

  it('the full weekly report with compare shows at most 45 table rows before anything is unfolded', () => {
    const md = renderHealthReport(
      HEALTH_STATES['compare and trend: 8 (the weekly recipe)']!(),
      bytes(65_000)
    )
    expect(visibleTableRows(md)).toBeLessThanOrEqual(45)
    // One pages table, visitors and views side by side, the change beside the visitors.
    expect(md).toContain('| # | Page | Visitors | Change | Views |')
    expect(md).not.toContain('### Visitors')
    expect(md).not.toContain('### Views')
    // Content gaps are marks in the searches table, not a second table; no clock times in rows.
    expect(md).not.toContain('Content gaps')
    expect(md).toMatch(/\| 0% ⚠️ \| – \|/)
    expect(md).not.toMatch(/\| [^|]*\d\d:\d\d UTC \|/)
    // The feedback table, narrow enough not to wrap: each page's views beside its feedback.
    expect(md).toContain('| # | Page | 👎 | 👍 | Code | Views |')
  })

  it('names the trend in the periods a reader counts in: weeks, days, months, else periods', () => {
    const weekly = HEALTH_STATES['compare and trend: 8 (the weekly recipe)']!()
    expect(renderHealthReport(weekly, bytes(65_000))).toContain(
      'title "The last 9 weeks: page views (bars), unique visitors (line)"'
    )
    const withRanges = (ranges: [string, string][]): HealthReport => ({
      ...weekly,
      range: { dateFrom: ranges.at(-1)![1], dateTo: '2026-12-01' },
      trend: {
        requests: 2,
        known: 0,
        points: ranges.map(([dateFrom, dateTo]) => ({
          range: { dateFrom, dateTo },
          visitors: { human: 5, ai: 0, total: 5 },
          views: { human: 9, ai: 0, total: 9 }
        }))
      }
    })
    const title = (r: HealthReport) =>
      /title "([^":]+):/.exec(renderHealthReport(r, bytes(65_000)))?.[1]
    expect(
      title(
        withRanges([
          ['2026-11-20', '2026-11-21'],
          ['2026-11-21', '2026-11-22']
        ])
      )
    ).toBe('The last 3 days')
    expect(
      title(
        withRanges([
          ['2026-09-01', '2026-10-01'],
          ['2026-10-01', '2026-11-01']
        ])
      )
    ).toBe('The last 3 months')
    expect(
      title(
        withRanges([
          ['2026-10-02', '2026-10-16'],
          ['2026-10-16', '2026-10-30']
        ])
      )
    ).toBe('The last 3 periods')
  })
})

describe('renderHealthReport: sections not read', () => {
  it('explains a refused section once, with the service words, escaped, and no key advice', () => {
    const md = renderHealthReport(report([visitors(3), refused, searches()]), bytes(100_000))
    expect(overviewCells(md, 'Feedback')).toEqual(['⚠️ refused by the service (HTTP 403)'])
    expect(md).toContain('> ⚠️ **Feedback** refused: 403 Forbidden: ')
    expect(md).toContain('this analytics feature may not be enabled on your plan')
    expect(md).toContain('&lt;img src=x onerror=alert&#40;1&#41;&gt;')
    expect(md).not.toMatch(/allowlist|api-key/)
    expect(md).not.toContain('### Feedback')
  })

  it('sections that failed the same way are said once', () => {
    const same = (name: 'views' | 'searches' | 'assistant'): SectionOutcome => ({
      ...refused,
      name
    })
    const md = renderHealthReport(
      report([same('views'), same('searches'), same('assistant')]),
      bytes(100_000)
    )
    expect(md.match(/may not be enabled on your plan/g)).toHaveLength(1)
    expect(md).toContain('> ⚠️ **Views, Searches, Assistant** refused: 403 Forbidden')
  })

  it('one overview row for the sections the quota stopped at once, naming them', () => {
    const stopped = (name: 'searches' | 'feedback' | 'assistant'): SectionOutcome => ({
      name,
      ok: false,
      refused: false,
      skipped: true,
      limit: 'quota',
      reason: 'not read: the hourly analytics limit was reached'
    })
    const md = renderHealthReport(
      report([visitors(1), stopped('searches'), stopped('feedback'), stopped('assistant')]),
      bytes(100_000)
    )
    expect(md.match(/⚠️ not read: the hourly analytics limit was reached/g)).toHaveLength(1)
    expect(overviewCells(md, 'Searches, Feedback, Assistant')).toEqual([
      '⚠️ not read: the hourly analytics limit was reached'
    ])
  })

  it("a refusal whose advice names the words' cause says it once, its code as code", () => {
    const plan: SectionOutcome = {
      name: 'views',
      ok: false,
      status: 403,
      refused: true,
      reason: '403 Forbidden: Not available on your plan; your plan does not include this',
      advice: {
        hint: "your plan does not include this: check the plan on the dashboard's billing page"
      }
    }
    const project: SectionOutcome = {
      name: 'searches',
      ok: false,
      status: 404,
      refused: true,
      reason: '404 Not Found: Project not found; the project was not found: check `project-id`',
      advice: { hint: 'the project was not found: check `project-id`' }
    }
    const unknown: SectionOutcome = {
      name: 'assistant',
      ok: false,
      status: 403,
      refused: true,
      reason: '403 Forbidden: Nope; the service refused this key here',
      advice: { hint: 'the service refused this key here', said: '403 Forbidden: Nope' }
    }
    const md = renderHealthReport(report([project, plan, unknown]), bytes(100_000))
    expect(md).toContain(
      '> ⚠️ **Searches** refused (HTTP 404): The project was not found: check `project-id`'
    )
    expect(md).toContain(
      "> ⚠️ **Views** refused (HTTP 403): Your plan does not include this: check the plan on the dashboard's billing page"
    )
    expect(md).toContain(
      '> ⚠️ **Assistant** refused: 403 Forbidden: Nope. The service refused this key here'
    )
    expect(md.match(/not found/gi)).toHaveLength(1)
    expect(md.match(/plan/g)).toHaveLength(2) // "your plan … the plan": one sentence
    expect(md).not.toContain('\\`')
  })

  it('says which limit kept a section from being read, in the overview, as Markdown', () => {
    const md = renderHealthReport(
      report(
        [
          visitors(1),
          {
            name: 'searches',
            ok: false,
            refused: false,
            skipped: true,
            limit: 'quota',
            reason: 'not read: the hourly analytics limit was reached'
          }
        ],
        {
          incomplete:
            'The hourly limit was reached: searches not read. Run it again within the hour.'
        }
      ),
      bytes(100_000)
    )
    expect(overviewCells(md, 'Searches')).toEqual([
      '⚠️ not read: the hourly analytics limit was reached'
    ])
    expect(md).not.toContain('HTTP 429')
    expect(md.startsWith('## Docs health · Nov 9–15 · incomplete\n')).toBe(true)
    expect(md).toContain('> ⚠️ **This report is incomplete.** The hourly limit was reached')
  })

  it('a failure that is not a refusal says it failed, with its status', () => {
    const md = renderHealthReport(
      report([{ name: 'views', ok: false, status: 500, refused: false, reason: 'boom' }]),
      bytes(100_000)
    )
    expect(overviewCells(md, 'Views')).toEqual(['⚠️ failed (HTTP 500)'])
    expect(md).toContain('> ⚠️ **Views** failed (HTTP 500): boom')
  })
})

describe('renderHealthReport: tables', () => {
  it('escapes queries, paths and service text: no HTML, link, mention or reference survives', () => {
    const md = renderHealthReport(
      report([
        searches(),
        visitors(2, { top: pages(2, `/x|y${HOSTILE}`) }),
        { name: 'views', ok: false, status: 500, refused: false, reason: HOSTILE }
      ]),
      bytes(100_000)
    )
    expect(md).not.toContain('<img')
    expect(md).not.toContain('](javascript')
    expect(md).not.toMatch(/@octocat/)
    expect(md).not.toMatch(/(^|\s)#12/m)
    // Every table row keeps its cell count: a | in a query or path cannot open a cell.
    for (const table of md.split('\n\n').filter(b => b.startsWith('| '))) {
      const [head, ...rows] = table.split('\n')
      const cells = (line: string) => line.split(' | ').length
      for (const row of rows.slice(1).filter(Boolean))
        expect([row, cells(row)]).toEqual([row, cells(head!)])
    }
  })

  it('shows 10 rows and folds the rest into <details>, with the blank lines GitHub needs', () => {
    const md = renderHealthReport(report([visitors(25)]), bytes(100_000))
    expect(md).toContain('| 10 | /p/9 |')
    expect(md).toMatch(
      /\| 10 \| \/p\/9 \|[^\n]*\n\n<details><summary>Pages 11–25<\/summary>\n\n\| # \| Page/
    )
    expect(md).toMatch(/\| 25 \| \/p\/24 \|[^\n]*\n\n<\/details>/)
  })

  it('clips long paths at their start so the number columns stay in view', () => {
    const md = renderHealthReport(
      report([visitors(2, { top: pages(2, LONG_PATH) })]),
      bytes(100_000)
    )
    const row = md.split('\n').find(l => l.startsWith('| 1 |'))!
    const shown = row.split(' | ')[1]!
    expect(shown.startsWith('…/')).toBe(true)
    expect(shown.endsWith('/{projectId}/logs')).toBe(true)
    expect(Array.from(shown.replace(/&#\d+;\u2060?/g, 'x')).length).toBeLessThanOrEqual(44)
  })

  it('clips a long query, its clicked page and a question so each row stays on one line at 760 px', () => {
    const long = 'x'.repeat(400)
    const md = renderHealthReport(
      report([
        searches({ top: [{ searchQuery: long, hits: 9, ctr: 0.5, topClickedPage: LONG_PATH }] }),
        assistant({ top: [{ question: `why ${'word '.repeat(80)}`, count: 2 }] })
      ]),
      bytes(100_000)
    )
    const query = /\| 1 \| (x+…) \| 9 \| 50% \| ([^|]+) \|/.exec(md)
    expect(query?.[1]).toHaveLength(25)
    // The page clicked sits in the same row: clipped at its start to 22, at a slash.
    expect(query?.[2]).toBe('…/{projectId}/logs')
    const question = /\| 1 \| (why [^|]+) \| 2 \|/.exec(md)
    expect(question?.[1]).toHaveLength(64)
  })

  it('an assistant with no data (a feature that is off answers nothing) says so, not "0 of 0"', () => {
    const none = assistant({
      read: 0,
      unanswered: 0,
      top: [],
      callers: { web: 0, api: 0, other: 0, total: 0 }
    })
    const md = renderHealthReport(report([none]), bytes(100_000))
    expect(overviewCells(md, 'Assistant')).toEqual(['no data for this range'])
    expect(md).not.toContain('### Assistant')
    expect(md).not.toContain('of 0')
  })

  it('questions asked but none read: the count, and no conversation to read', () => {
    const md = renderHealthReport(
      report([assistant({ read: 0, unanswered: 0, top: [] })]),
      bytes(100_000)
    )
    expect(overviewCells(md, 'Assistant')).toEqual(['**420** questions'])
    expect(md).toContain('No question to read.')
  })

  it('links pages into site-url, percent-encoded, never off the site', () => {
    const md = renderHealthReport(
      report([visitors(2, { top: pages(2, '/a b/(x)') })], { siteUrl: 'https://docs.example.com' }),
      bytes(100_000)
    )
    expect(md).toContain('](https://docs.example.com/a%20b/%28x%29)')
    expect(md).toContain('[/p/1](https://docs.example.com/p/1)')
    const hostile = renderHealthReport(
      report([visitors(2, { top: pages(2, '//evil.example/../x') })], {
        siteUrl: 'https://docs.example.com'
      }),
      bytes(100_000)
    )
    for (const m of hostile.matchAll(/\]\(([^)]*)\)/g))
      expect(m[1]).toMatch(/^https:\/\/(docs\.example\.com\/|github\.com\/octo\/)/)
  })

  it('stays within the byte budget by cutting table rows, and says so', () => {
    const big = renderHealthReport(report([visitors(2000)]), bytes(1_000_000))
    const md = renderHealthReport(report([visitors(2000)]), bytes(20_000))
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(20_000)
    expect(Buffer.byteLength(big)).toBeGreaterThan(20_000)
    expect(md).toMatch(/Tables are cut to \d+ rows to fit/)
    expect(md).toContain('</details>')
    expect(md).toContain('analytics requests')
  })
})

describe('the preview scenarios of the report', () => {
  it('each renders within a comment and has an overview row for every section, in order', () => {
    for (const [name, make] of Object.entries(HEALTH_STATES)) {
      const r = make()
      const md = renderHealthReport(r, bytes(65_000))
      expect({ name, fits: md.length <= 65_000 }).toEqual({ name, fits: true })
      // Sections not read for one reason share a row: each section is named once.
      const rows = md.split('\n').flatMap(l => {
        const cell = /^\| ((?:Visitors|Views|Searches|Feedback|Assistant)(?:, \w+)*) \| /.exec(l)
        return cell?.[1] ? cell[1].toLowerCase().split(', ') : []
      })
      expect([...rows].sort()).toEqual(r.sections.map(x => x.name).sort())
    }
    expect(healthReport().sections).toHaveLength(5)
  })
})

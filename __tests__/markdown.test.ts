import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import type { AgentJob, VisitorCounts, VisitorRow } from '../src/service/schema.js'
import {
  escapeText,
  fitComment,
  formatChange,
  formatDuration,
  formatNumber,
  formatShare,
  quoteBlock,
  renderJobReport,
  renderVisitorsReport,
  type JobReport,
  type VisitorsReport
} from '../src/report/markdown.js'

const JOINER = '\u2060'

const HOSTILE = [
  'a|b',
  'line1\nline2\r\nline3\rline4',
  '<script>alert(1)</script>',
  '<!-- docs-agent:x -->',
  '@octocat and @org/team',
  '`code` and ```fence```',
  '[x](javascript:alert(1))',
  '![img](https://evil.example/x.png)',
  'fixes #1 and org/repo#2',
  'see https://evil.example and www.evil.example',
  '**bold** _em_ ~~strike~~ $x$',
  '- list item',
  '1. numbered',
  '# heading',
  '> quote',
  '\\| escaped pipe'
]

/** What GitHub sees as text after Markdown has decoded the entities. */
function decode(markdown: string): string {
  return markdown
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
}

/** Markdown with its entities removed: whatever is left is read as syntax. */
function withoutEntities(markdown: string): string {
  return markdown.replace(/&(#\d+|amp|lt|gt|nbsp);/g, '')
}

const pipes = (line: string) => line.split('|').length - 1

function lineStarting(markdown: string, prefix: string): string {
  const line = markdown.split('\n').find(l => l.startsWith(prefix))
  if (line === undefined) throw new Error(`no line starts with ${prefix}`)
  return line
}

describe('escapeText', () => {
  it.each(HOSTILE)('leaves no Markdown or HTML syntax in %j', input => {
    const out = escapeText(input)
    expect(out).not.toMatch(/[\r\n]/)
    expect(withoutEntities(out)).not.toMatch(/[|<>`*_[\]()!~$#@\\]/)
    expect(out).not.toContain('<!--')
  })

  it.each(HOSTILE)('leaves no mention, reference or autolink in the rendered text of %j', input => {
    const text = decode(escapeText(input))
    expect(text).not.toMatch(/@\w/)
    expect(text).not.toMatch(/#\d/)
    expect(text).not.toContain('://')
    expect(text).not.toMatch(/www\./i)
  })

  it('keeps the text readable once rendered', () => {
    expect(escapeText('Getting started guide')).toBe('Getting started guide')
    expect(escapeText('/docs/getting-started')).toBe('/docs/getting-started')
    expect(decode(escapeText('a|b <c> @d #1')).replaceAll(JOINER, '')).toBe('a|b <c> @d #1')
    expect(escapeText('one\ntwo')).toBe('one two')
  })

  it('renders any string as the same text on one line (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), s => {
        const out = escapeText(s)
        expect(withoutEntities(out)).not.toMatch(/[\r\n|<>`*_[\]()!~$#@\\]/)
        // eslint-disable-next-line no-control-regex -- the expected result of removing them
        const expected = s.replace(/\r\n/g, ' ').replace(/[\u0000-\u001f\u007f]/g, ' ')
        expect(decode(out).replaceAll(JOINER, '')).toBe(expected)
      })
    )
  })

  it('keeps a table row to its cells', () => {
    for (const input of HOSTILE) {
      const row = `| ${escapeText(input)} | ${escapeText(input)} |`
      expect(row.split('\n')).toHaveLength(1)
      expect(pipes(row)).toBe(3)
    }
  })
})

describe('quoteBlock', () => {
  it('quotes every line and escapes it', () => {
    const out = quoteBlock('first <b>\n    indented\n\n- item @me', 100)
    const lines = out.split('\n')
    expect(lines.every(l => l.startsWith('>'))).toBe(true)
    expect(lines).toEqual([
      '> first &lt;b&gt;\\',
      '> &nbsp;&nbsp;&nbsp;&nbsp;indented',
      '>',
      `> &#45; item &#64;${JOINER}me`
    ])
  })

  it('cuts long text with a visible note', () => {
    const out = quoteBlock('x'.repeat(2500), 2000)
    expect(out).toContain('x'.repeat(2000))
    expect(out).not.toContain('x'.repeat(2001))
    expect(out).toContain('… (500 more characters)')
  })

  it('does not split an emoji when cutting', () => {
    const out = quoteBlock('😀😀😀', 3)
    expect(out).toContain('> 😀\n')
    expect(out).toContain('(2 more characters)')
  })
})

describe('numbers', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(45_000)).toBe('45s')
    expect(formatDuration(125_000)).toBe('2m 05s')
    expect(formatDuration(3_720_000)).toBe('1h 02m')
    expect(formatDuration(-5)).toBe('0s')
  })

  it('formats counts, shares and changes', () => {
    expect(formatNumber(12345)).toBe('12,345')
    expect(formatShare(421, 1000)).toBe('42.1%')
    expect(formatShare(1, 0)).toBe('–')
    expect(formatChange(312, 300)).toBe('+12 (+4.0%)')
    expect(formatChange(247, 250)).toBe('−3 (−1.2%)')
    expect(formatChange(5, 5)).toBe('0')
    expect(formatChange(5, 0)).toBe('new')
    expect(formatChange(5, undefined)).toBe('new')
  })
})

const job = (overrides: Partial<AgentJob> = {}): AgentJob => ({
  id: 'job-1',
  status: 'completed',
  source: { repository: 'acme/docs', ref: 'main' },
  model: 'model-x',
  prLink: 'https://github.com/acme/docs/pull/12',
  ...overrides
})

const report = (overrides: Partial<JobReport> = {}): JobReport => ({
  projectId: 'proj-1',
  jobId: 'job-1',
  phase: 'done',
  job: job(),
  status: 'completed',
  prompt: 'Please fix the typo',
  elapsedMs: 125_000,
  waited: true,
  ...overrides
})

describe('renderJobReport', () => {
  it('shows a completed job with its pull request', () => {
    const out = renderJobReport(report({ runUrl: 'https://github.com/acme/app/actions/runs/7' }))
    expect(out).toMatch(/^### ✅ Docs agent follow-up/)
    expect(out).toContain('> Please fix the typo')
    expect(out).toContain(
      '| Pull request | [github.com/acme/docs/pull/12](https://github.com/acme/docs/pull/12) |'
    )
    expect(out).toContain('| Job id | job-1 |')
    expect(out).toContain('| Project | proj-1 |')
    expect(out).toContain('| Status | completed |')
    expect(out).toContain('| Elapsed | 2m 05s |')
    expect(out).toContain('| Repository | acme/docs |')
    expect(out).toContain('| Ref | main |')
    expect(out).toContain('| Model | model-x |')
    expect(out).toContain('[View workflow run](https://github.com/acme/app/actions/runs/7)')
    expect(out).not.toContain('Not waited')
    expect(out).not.toContain('Reviewers can reply')
  })

  it('says no file changed for a completed job without a pull request', () => {
    const out = renderJobReport(report({ job: job({ prLink: null }) }))
    expect(out).toContain('| Pull request | no file changed |')
  })

  it('shows the error of a failed job', () => {
    const out = renderJobReport(
      report({ status: 'failed', job: job({ status: 'failed', prLink: null }), error: 'boom <b>' })
    )
    expect(out).toMatch(/^### ❌/)
    expect(out).toContain('**The job failed.** boom &lt;b&gt;')
    expect(out).toContain('| Pull request | – |')
  })

  it('shows an error of the action itself', () => {
    const out = renderJobReport(report({ phase: 'error', status: undefined, error: 'HTTP 500' }))
    expect(out).toMatch(/^### ⚠️/)
    expect(out).toContain('**Error:** HTTP 500')
  })

  it('shows a job still working, and one not waited for', () => {
    const working = report({ phase: 'working', status: 'active', job: job({ status: 'active' }) })
    const out = renderJobReport({ ...working, job: { ...working.job!, prLink: null } })
    expect(out).toMatch(/^### ⏳/)
    expect(out).toContain('| Pull request | – |')
    expect(renderJobReport({ ...working, waited: false })).toContain('Not waited for (wait: false)')
  })

  it('shows archived and cancelled jobs', () => {
    expect(renderJobReport(report({ status: 'archived' }))).toMatch(/^### 📦/)
    expect(renderJobReport(report({ phase: 'cancelled' }))).toMatch(/^### 🚫/)
  })

  it('tells reviewers how to reply only when follow-ups are routed here', () => {
    const hint = 'Reviewers can reply **/docs &lt;instruction&gt;** on this pull request'
    expect(renderJobReport(report({ routedHere: true, trigger: '/docs' }))).toContain(hint)
    expect(renderJobReport(report({ routedHere: false, trigger: '/docs' }))).not.toContain(
      'Reviewers can reply'
    )
  })

  it('links a pull request only when it is an https URL', () => {
    for (const prLink of ['javascript:alert(1)', 'http://github.com/a/b/pull/1', 'not a url']) {
      const row = lineStarting(renderJobReport(report({ job: job({ prLink }) })), '| Pull request')
      expect(row).not.toContain('](')
      expect(pipes(row)).toBe(3)
    }
    const tricky = 'https://github.com/a/b/pull/1?x=)|[y](z)'
    const row = lineStarting(renderJobReport(report({ job: job({ prLink: tricky }) })), '| Pull')
    expect(pipes(row)).toBe(3)
    expect(row).toContain('](https://github.com/a/b/pull/1?x=%29%7C%5By%5D%28z%29)')
  })

  it('escapes every service-provided string', () => {
    const hostile = '<!-- docs-agent --> @octocat | `x` #1'
    const out = renderJobReport(
      report({
        jobId: hostile,
        projectId: hostile,
        prompt: hostile,
        error: hostile,
        status: 'failed',
        job: job({ model: hostile, source: { repository: hostile, ref: hostile } })
      })
    )
    expect(out).not.toContain('<')
    expect(out).not.toContain('`')
    expect(out).not.toMatch(/@\w/)
    for (const name of ['Job id', 'Project', 'Model', 'Repository', 'Ref']) {
      expect(pipes(lineStarting(out, `| ${name} |`))).toBe(3)
    }
  })

  it('cuts a long prompt', () => {
    const out = renderJobReport(report({ prompt: 'p'.repeat(5000) }))
    expect(out).toContain('… (3,000 more characters)')
  })
})

const counts = (human: number, ai: number, total: number): VisitorCounts => ({ human, ai, total })
const row = (path: string, human: number, ai: number, total: number): VisitorRow => ({
  path,
  human,
  ai,
  total
})

const visitors = (overrides: Partial<VisitorsReport> = {}): VisitorsReport => ({
  projectId: 'proj-1',
  range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
  totals: counts(70, 50, 100),
  rows: 2,
  top: [row('/docs/a', 40, 30, 60), row('/docs/b', 30, 20, 40)],
  ...overrides
})

const manyRows = (n: number): VisitorRow[] =>
  Array.from({ length: n }, (_, i) => row(`/docs/page-${i}`, n - i, 1, n - i + 1))

describe('renderVisitorsReport', () => {
  const opts = { maxChars: 65536, fullDataHint: '`out/visitors.csv`' }

  it('shows the totals as given, with shares of the total', () => {
    const out = renderVisitorsReport(visitors(), opts)
    expect(out).toMatch(/^### Docs visitors/)
    expect(out).toContain('2026-11-09 → 2026-11-16 (end exclusive)')
    expect(out).toContain('| Human | 70 | 70.0% |')
    expect(out).toContain('| AI | 50 | 50.0% |')
    expect(out).toContain('| Total | 100 |')
    expect(out).not.toContain('120')
    expect(out).toContain('2 rows exported')
  })

  it('says all time for an unbounded range', () => {
    expect(renderVisitorsReport(visitors({ range: {} }), opts)).toContain('**Range:** all time')
  })

  it('lists the top pages and escapes hostile paths', () => {
    const hostile = '/x|y\n<!-- docs-agent -->`@user`[a](b)#1'
    const out = renderVisitorsReport(
      visitors({ top: [row(hostile, 1, 2, 3), row('/docs/b', 1, 1, 1)] }),
      opts
    )
    const first = lineStarting(out, '| 1 |')
    expect(pipes(first)).toBe(6)
    expect(first).toContain('| 1 | 2 | 3 |')
    expect(pipes(lineStarting(out, '| 2 |'))).toBe(6)
    expect(out).not.toContain('<!--')
    expect(out).not.toMatch(/@\w/)
  })

  it('compares with the previous period', () => {
    const out = renderVisitorsReport(
      visitors({
        previous: {
          range: { dateFrom: '2026-11-02', dateTo: '2026-11-09' },
          totals: counts(60, 50, 110),
          byPath: new Map([['/docs/a', counts(1, 1, 50)]])
        }
      }),
      opts
    )
    expect(out).toContain('**Compared with:** 2026-11-02 → 2026-11-09 (end exclusive)')
    expect(out).toContain('| Human | 70 | 70.0% | +10 (+16.7%) |')
    expect(out).toContain('| AI | 50 | 50.0% | 0 |')
    expect(out).toContain('| Total | 100 | | −10 (−9.1%) |')
    expect(out).toContain('| 1 | /docs/a | 40 | 30 | 60 | +10 (+20.0%) |')
    expect(out).toContain('| 2 | /docs/b | 30 | 20 | 40 | new |')
  })

  it('draws a chart of at most 15 bars with sanitized labels', () => {
    const top = [row('/a b"c<d>]', 5, 5, 9), row('/' + 'long'.repeat(10), 1, 1, 2), ...manyRows(20)]
    const out = renderVisitorsReport(visitors({ top }), opts)
    const chart = out.slice(out.indexOf('```mermaid'))
    expect(chart).toContain('xychart-beta')
    expect(chart).toContain('y-axis "Visitors"')
    // 23 characters of the path and "…": 24 in all.
    expect(chart).toContain('x-axis ["/a_b_c_d__", "/longlonglonglonglonglo…", ')
    const bars = /bar \[([^\]]*)\]/.exec(chart)?.[1]?.split(', ')
    expect(bars).toHaveLength(15)
    expect(bars?.[0]).toBe('9')
    expect(chart.trimEnd().endsWith('```')).toBe(true)
  })

  it('skips the chart when there are no rows', () => {
    const out = renderVisitorsReport(visitors({ top: [], rows: 0 }), opts)
    expect(out).not.toContain('mermaid')
    expect(out).not.toContain('Top pages')
  })

  it.each([1_000_000, 65_536, 5_000])('stays within %i characters with 100,000 rows', max => {
    const top = manyRows(100_000)
    const out = renderVisitorsReport(visitors({ top, rows: 100_000 }), { ...opts, maxChars: max })
    expect(out.length).toBeLessThanOrEqual(max)
    expect(out).toMatch(/_[\d,]+ more rows not shown; the full data is in `out\/visitors.csv`\._/)
    expect(out).toContain('| 1 | /docs/page-0 |')
    expect(out).toContain('```mermaid')
  })

  it('counts multi-byte paths against the budget in bytes', () => {
    const top = Array.from({ length: 50_000 }, (_, i) => row(`/文档/页面-${i}`, 1, 1, 1))
    const out = renderVisitorsReport(visitors({ top }), { maxChars: 65_536 })
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(65_536)
    expect(out).toMatch(/more rows not shown\._/)
  })

  it('stays within any budget (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 200, max: 20_000 }),
        fc.string({ maxLength: 400 }),
        (rowCount, maxChars, path) => {
          const top = [row(path, 1, 1, 1), ...manyRows(rowCount)]
          const out = renderVisitorsReport(visitors({ top }), { maxChars })
          expect(out.length).toBeLessThanOrEqual(maxChars)
        }
      ),
      { numRuns: 50 }
    )
  })

  it('shows every row when they fit', () => {
    const out = renderVisitorsReport(visitors({ top: manyRows(30) }), opts)
    expect(out).toContain('| 30 | /docs/page-29 |')
    expect(out).not.toContain('not shown')
  })
})

describe('fitComment', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n')

  it('leaves a short body alone', () => {
    expect(fitComment('hello', 10)).toBe('hello')
  })

  it('cuts at a line boundary with a visible note', () => {
    const body = lines(20_000)
    const out = fitComment(body, 1000, '`report.md`')
    expect(out.length).toBeLessThanOrEqual(1000)
    expect(out).toMatch(/_… cut to fit a GitHub comment; the full report is in `report.md`\._\n$/)
    const kept = out.slice(0, out.indexOf('\n\n_…'))
    expect(body.startsWith(kept + '\n')).toBe(true)
    expect(fitComment(body)).toContain('the full report is in the job summary')
    expect(fitComment(body).length).toBeLessThanOrEqual(65536)
  })

  it('closes a code fence left open by the cut', () => {
    const body = `intro\n\n\`\`\`mermaid\n${lines(5000)}\n\`\`\`\n`
    const out = fitComment(body, 2000)
    expect(out.length).toBeLessThanOrEqual(2000)
    const fences = out.split('\n').filter(l => l.startsWith('```'))
    expect(fences).toEqual(['```mermaid', '```'])
    expect(out).toMatch(/\n```\n\n_… cut/)
  })

  it('does not close a fence that was closed before the cut', () => {
    const body = `\`\`\`\ncode\n\`\`\`\n${lines(5000)}`
    const fences = fitComment(body, 2000)
      .split('\n')
      .filter(l => l.startsWith('```'))
    expect(fences).toHaveLength(2)
  })

  it('never splits a multi-byte character', () => {
    const out = fitComment('😀'.repeat(5000), 1001)
    expect(out.length).toBeLessThanOrEqual(1001)
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
    expect(out.startsWith('😀😀')).toBe(true)
  })
})

// Unit tier: the roll-up's parts. The report's file as the roll-up reads it back (the one reader,
// against the one writer's output), the table (order, total, what adding cannot say, hostile
// text), and `report-files` (paths and globs kept inside the workspace).
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { reportJson } from '../src/report/health-json.js'
import { readReportDocument, type ReportDocument } from '../src/analytics/report-document.js'
import { renderRollup, rollupOrder, spanOf, sumTotals } from '../src/report/rollup.js'
import { chars } from '../src/report/fit.js'
import { readFileList } from '../src/workspace/globs.js'
import { readSettings } from '../src/settings/settings.js'
import { getter } from './settings-inputs.js'
import { HEALTH_STATES, fiveProjects, projectDocument, rollupOf } from './report-scenarios.js'
import { tempDir } from './temp-dirs.js'

const ROOM = chars(65_000)

function read(text: string): ReportDocument {
  const r = readReportDocument(text)
  if (!r.ok) throw new Error(r.why)
  return r.doc
}

describe("the report's file, read back", () => {
  it('reads what the report writes: project, range, totals, suggestions, comment URL', () => {
    const report = HEALTH_STATES['compare and trend: 8 (the weekly recipe)']!()
    const url = 'https://github.com/acme/docs/issues/12#issuecomment-7'
    const doc = read(reportJson(report, undefined, url))
    expect(doc).toMatchObject({
      project: 'acme-docs',
      range: report.range,
      previous: report.previous,
      generatedAt: report.generatedAt,
      incomplete: false,
      commentUrl: url
    })
    const visitors = report.sections.find(x => x.ok && x.name === 'visitors')
    expect(visitors?.ok && visitors.name === 'visitors' && visitors.totals).toEqual(
      doc.totals.visitors
    )
    expect(doc.totalsBefore?.visitors?.total).toEqual(expect.any(Number))
    expect(doc.totals.contentGaps).toEqual(expect.any(Number))
    expect(doc.suggestions.map(s => s.n)).toEqual(report.suggestions!.map(s => s.n))
    expect(doc.suggestions.every(s => s.subject !== '')).toBe(true)
    // Without a comment, none is said.
    expect(read(reportJson(report)).commentUrl).toBeUndefined()
  })

  it('names what is no report of this version, and why, in its own words', () => {
    const valid = JSON.parse(reportJson(HEALTH_STATES['all sections, last week']!())) as Record<
      string,
      unknown
    >
    const why = (doc: unknown) => {
      const r = readReportDocument(typeof doc === 'string' ? doc : JSON.stringify(doc))
      return r.ok ? 'ok' : r.why
    }
    expect(why(valid)).toBe('ok')
    expect(why('not json')).toBe('not JSON')
    expect(why([1])).toBe('not a report of this action')
    expect(why({ ...valid, format: 'other' })).toBe('not a report of this action')
    expect(why({ ...valid, version: 2 })).toBe(
      'a report of an unknown format version 2 (this action reads version 1)'
    )
    // The file's own text is never said back.
    expect(why({ ...valid, version: '<img src=x>' })).toBe(
      'a report of an unknown format version (this action reads version 1)'
    )
    expect(why({ ...valid, project: '' })).toMatch(/`project` is empty/)
    expect(why({ ...valid, range: { dateFrom: 'soon' } })).toMatch(/`range.dateFrom` is not a date/)
    expect(why({ ...valid, totals: { visitors: { human: 1, ai: 1, total: -1 } } })).toMatch(
      /`totals.visitors.total` is not a count/
    )
    expect(why({ ...valid, totals: { answers: { unanswered: 5, read: 2 } } })).toMatch(/adds up/)
    expect(why({ ...valid, suggestions: [{ n: 1, kind: 'rm -rf', subject: 'x' }] })).toMatch(
      /`suggestions\[0\].kind`/
    )
  })
})

/** The project names of the table's rows, in order. */
const rows = (md: string): string[] =>
  md
    .split('\n')
    .filter(l => /^\| (\*\*|\[\*\*)/.test(l))
    .map(l => /\*\*([^*]+)\*\*/.exec(l)?.[1] ?? '')

describe('the roll-up table', () => {
  it('lists the projects most visitors first, then a total that adds them', () => {
    const projects = fiveProjects()
    const md = renderRollup(rollupOf(projects), ROOM)
    expect(rows(md)).toEqual([
      'docs-main',
      'docs-api',
      'developer-portal',
      'docs-sdk',
      'help-center',
      'Total'
    ])
    const total = projects.reduce((n, p) => n + p.totals.visitors!.total, 0)
    expect(md).toContain(`| **Total** · 5 projects | **${total.toLocaleString('en-US')}**`)
    // help-center compared with nothing: the total shows no change, and says why.
    expect(md).toContain('No change of the total: help-center compared with no period before.')
    // Each project links its report's comment, and shows its top suggestion.
    expect(md).toContain(
      '[**docs-main**](https://github.com/acme/docs/issues/12#issuecomment-157320)'
    )
    expect(md).toContain('↳ Search gap<br>“rotate api key”')
    expect(md).toContain('↳ _no suggestion_')
    expect(md).toContain('· ⚠️')
    expect(md).toContain('5 report files read, no request to the service')
  })

  it('adds what adds, and says what does not', () => {
    const a = projectDocument('a', 1000)
    const b = projectDocument('b', 3000, { totals: { visitors: { human: 2, ai: 1, total: 3000 } } })
    const sum = sumTotals([a.totals, b.totals])
    expect(sum.visitors!.total).toBe(4000)
    // The share of all questions read, not the mean of two shares.
    expect(sum.answers).toEqual(a.totals.answers)
    expect(sum.searches).toBe(a.totals.searches)
    const md = renderRollup(rollupOf([a, b]), ROOM)
    // Named once, with every figure it lacks: not once per column, and no "the the".
    expect(md).toContain(
      'b is left out of the views, searches, 👎 and assistant totals (not read there)'
    )
    expect(md.match(/\bb is left out/g)).toHaveLength(1)
    expect(md).not.toMatch(/\bthe the\b/)
    expect(md).toMatch(/a reader of two sites counts on each/)
  })

  it('says each range when they differ, and spans them in the title', () => {
    const a = projectDocument('a', 1000)
    const b = projectDocument('b', 500, { range: { dateFrom: '2026-11-09', dateTo: '2026-11-16' } })
    expect(spanOf([a.range, b.range])).toEqual({ dateFrom: '2026-11-09', dateTo: '2026-11-23' })
    expect(spanOf([a.range, {}])).toEqual({})
    const md = renderRollup(rollupOf([a, b]), ROOM)
    expect(md).toMatch(/^## Docs health · 2 projects · Nov 9–22/)
    expect(md).toContain('ranges differ: each under its project')
    expect(md).toContain(
      '**a**](https://github.com/acme/docs/issues/12#issuecomment-1000)<br>Nov 16–22'
    )
  })

  it('keeps text from a file inert: project ids, subjects, paths', () => {
    const evil = projectDocument('@team <b>x</b> [y](https://e.vil)', 10, {
      suggestions: [{ n: 1, kind: 'gap', subject: '#1 ![i](https://e.vil/x.png)' }]
    })
    const md = renderRollup(
      rollupOf([evil], { skipped: [{ path: '<script>.json', why: 'not JSON' }] }),
      ROOM
    )
    expect(md).not.toMatch(/<b>|<script>|\]\(https:\/\/e\.vil|@team/)
    expect(md).toContain('&lt;script&gt;')
  })

  it('leaves rows out to fit its room, and says so', () => {
    const many = Array.from({ length: 300 }, (_, i) => projectDocument(`project-${i}`, 1000 + i))
    const md = renderRollup(rollupOf(many), chars(20_000))
    expect(md.length).toBeLessThanOrEqual(20_000)
    expect(md).toMatch(/_\d+ more projects left out to fit; the job summary has them\._/)
    expect(rows(md)[0]).toBe('project-299')
    expect(rollupOrder(many)[0]!.project).toBe('project-299')
  })
})

describe('report-files: paths and globs inside the workspace', () => {
  function workspace(): string {
    const ws = tempDir('docs-agent-files-')
    for (const file of ['r/a.json', 'r/b.json', 'r/sub/c.json', 'r/.hidden.json', 'r/x.txt'])
      fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true })
    for (const file of ['r/a.json', 'r/b.json', 'r/sub/c.json', 'r/.hidden.json', 'r/x.txt'])
      fs.writeFileSync(path.join(ws, file), '{}')
    return ws
  }
  const paths = (ws: string, text: string) =>
    readFileList('report-files', text, ws).files.map(f => f.path)

  it('expands `*`, `?` and `**`, each file once, in the list’s order', () => {
    const ws = workspace()
    expect(paths(ws, 'r/*.json')).toEqual(['r/a.json', 'r/b.json'])
    expect(paths(ws, 'r/?.json')).toEqual(['r/a.json', 'r/b.json'])
    expect(paths(ws, 'r/**/*.json')).toEqual(['r/a.json', 'r/b.json', 'r/sub/c.json'])
    expect(paths(ws, 'r/**')).toEqual(['r/a.json', 'r/b.json', 'r/sub/c.json', 'r/x.txt'])
    expect(paths(ws, 'r/.*.json')).toEqual(['r/.hidden.json'])
    expect(paths(ws, 'r/b.json, r/*.json\nr/sub/c.json')).toEqual([
      'r/b.json',
      'r/a.json',
      'r/sub/c.json'
    ])
    expect(paths(ws, `${ws}/r/*.json`)).toEqual(['r/a.json', 'r/b.json'])
    expect(readFileList('report-files', 'r/none/*.json, r/a.json', ws).unmatched).toEqual([
      'r/none/*.json'
    ])
  })

  it('refuses what leads out, naming the input', () => {
    const ws = workspace()
    const outside = tempDir('docs-agent-out-')
    fs.writeFileSync(path.join(outside, 'o.json'), '{}')
    fs.symlinkSync(path.join(outside, 'o.json'), path.join(ws, 'r', 'link.json'))
    fs.symlinkSync(outside, path.join(ws, 'away'))
    for (const text of [
      '../*.json',
      'r/**/../../*.json',
      `${outside}/*.json`,
      'r/*.json',
      'away/*.json'
    ])
      expect(() => paths(ws, text)).toThrow(
        expect.objectContaining({
          input: 'report-files',
          message: expect.stringMatching(/leads outside the workspace/)
        })
      )
    // A symlinked folder met by a wildcard is not entered.
    fs.rmSync(path.join(ws, 'r', 'link.json'))
    fs.symlinkSync(outside, path.join(ws, 'r', 'elsewhere'))
    expect(paths(ws, 'r/**/*.json')).toEqual(['r/a.json', 'r/b.json', 'r/sub/c.json'])
  })
})

describe('the settings of a roll-up', () => {
  const ctx = (workspace: string) => ({ now: new Date(), workspace, commentEvent: false })

  it('need no key and no project; a key given is read (it signs the records), a project not', () => {
    const ws = tempDir('docs-agent-settings-')
    fs.writeFileSync(path.join(ws, 'a.json'), '{}')
    const s = readSettings(getter({ command: 'rollup', 'report-files': 'a.json' }), ctx(ws))
    expect(s).toMatchObject({ command: 'rollup', apiKey: '', projectId: '', warnings: [] })
    expect(s.command === 'rollup' && s.reportFiles.files.map(f => f.path)).toEqual(['a.json'])
    const given = { command: 'rollup', 'report-files': 'a.json', 'api-key': 'mint_x' }
    expect(readSettings(getter(given), ctx(ws))).toMatchObject({ apiKey: 'mint_x', warnings: [] })
    const project = { ...given, 'project-id': 'acme' }
    expect(readSettings(getter(project), ctx(ws)).warnings).toEqual([
      'Input `project-id` does not apply to `command: rollup` and is ignored.'
    ])
    // A key given is checked as every key is: the name of a secret is refused.
    expect(() => readSettings(getter({ ...given, 'api-key': 'DOCS_API_KEY' }), ctx(ws))).toThrow(
      /name of a secret/
    )
    // Every other command still needs both.
    expect(() => readSettings(getter({ command: 'report' }), ctx(ws))).toThrow(/`api-key`/)
  })
})

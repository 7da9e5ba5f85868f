// Scenario tier (__tests__/runner.ts): `command: report` against the service simulator on loopback,
// in this process on the simulators' jumping clock (.ci/run: through dist/index.js). Each test
// counts the requests every section spends: the analytics quota (~100 an hour) is shared by them
// all.
import fs from 'node:fs'
import path from 'node:path'
import { describe, it, expect, afterAll } from '@jest/globals'
import { generatedRows, SIM_API_KEY } from '../sim/service.js'
import { generatedConversation, generatedSearch, HOSTILE_PATH } from '../sim/analytics.js'
import { startGitHub } from '../sim/github.js'
import { runInProcess as runAction } from './inprocess.js'
import {
  annotationsOf,
  errorsOf,
  expectNoStack,
  overviewCells,
  withService,
  type RunResult,
  type Service
} from './support.js'

const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

async function run(
  sim: Service,
  extra: Record<string, string> = {},
  env: Record<string, string> = {}
): Promise<RunResult> {
  const r = await runAction({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      'date-from': '2026-11-09',
      'date-to': '2026-11-16',
      ...extra
    },
    env: { GITHUB_REPOSITORY: 'octo/docs', GITHUB_RUN_ID: '99', ...env },
    timeoutMs: 60_000
  })
  tempDirs.push(r.tempDir)
  return r
}

function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`)
  expect(errorsOf(r)).toEqual([])
  expectNoStack(r)
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report's JSON, which the assertions check
type Json = Record<string, any>
const reportOf = (r: RunResult): Json => JSON.parse(r.outputs.report!) as Json
const sectionOf = (r: RunResult, name: string): Json =>
  (reportOf(r).sections as Json[]).find(x => x.name === name)!
const kinds = (sim: Service): string[] => sim.requests.map(q => q.kind)
const ofKind = (sim: Service, kind: string) => sim.requests.filter(q => q.kind === kind)

/** The Markdown between a section's heading and the next one. */
/** The line that says why a section was not read (one line per reason, naming its sections). */
function notReadLine(summary: string, title: string): string {
  const line = summary.split('\n').find(l => l.startsWith('> ⚠️ **') && l.includes(title))
  expect(line).toBeDefined()
  return line!
}

function sectionText(summary: string, title: string): string {
  const start = summary.indexOf(`<summary><b>${title}</b>`)
  expect(start).toBeGreaterThanOrEqual(0)
  const next = summary.indexOf('\n<details><summary><b>', start + 1)
  return summary.slice(start, next < 0 ? undefined : next)
}

describe('report: every section', () => {
  it('reads each section with the fewest requests and reports what it shows', async () => {
    await withService({ rows: 600 }, async sim => {
      const r = await run(sim, { 'page-size': '250', concurrency: '1' })
      expectSuccess(r)

      // One page at a time: feedback first (its pages' views are kept as the views are read) and
      // one page of 100 written comments, 3 offset pages each, 1 searches, caller-stats and 3
      // conversation pages of 1000.
      expect(kinds(sim)).toEqual([
        'feedback',
        'feedback-comments',
        ...Array<string>(3).fill('visitors'),
        ...Array<string>(3).fill('views'),
        'searches',
        'caller-stats',
        'assistant',
        'assistant',
        'assistant'
      ])
      expect(r.outputs.requests).toBe(String(sim.requests.length))
      expect(r.summary).toContain(`${sim.requests.length} analytics requests`)

      const report = reportOf(r)
      expect(report.range).toEqual({ dateFrom: '2026-11-09', dateTo: '2026-11-16' })
      expect((report.sections as Json[]).map(x => [x.name as string, x.ok as boolean])).toEqual([
        ['visitors', true],
        ['views', true],
        ['searches', true],
        ['feedback', true],
        ['assistant', true]
      ])

      // visitors: the service's totals (also as outputs) and the 20 pages with most visitors.
      // The simulator's rows differ by period: these are the report's week.
      const rows = generatedRows(600, { dateFrom: '2026-11-09' })
      const sum = (key: 'human' | 'ai' | 'total') => rows.reduce((n, x) => n + x[key], 0)
      const visitors = sectionOf(r, 'visitors')
      // The service's deduplicated totals, as they came: never a sum of the rows (it is below).
      expect(visitors.totals.total).toBeLessThan(sum('total'))
      expect(visitors.totals.human).toBeLessThan(sum('human'))
      expect(r.outputs.total).toBe(String(visitors.totals.total))
      expect(JSON.parse(r.outputs.totals!)).toEqual(visitors.totals)
      const byTotal = [...rows].sort((a, b) => b.total - a.total)
      expect(visitors.top).toHaveLength(20)
      expect(visitors.top.map((x: Json) => x.total as number)).toEqual(
        byTotal.slice(0, 20).map(x => x.total)
      )
      expect(visitors.rows).toBe(600)

      // views: the same pages read from the views operation, under their own totals.
      const views = sectionOf(r, 'views')
      expect(views.rows).toBe(600)
      expect(views.totals.total).toBeGreaterThan(visitors.totals.total)

      // searches: one request of 100 (what one request holds, whatever `top`); the top queries
      // as the service ordered them, the typing prefixes of a query folded into it, their
      // searches added to it (its click-through weighted by them).
      expect(ofKind(sim, 'searches')[0]!.query.limit).toBe('100')
      const searches = sectionOf(r, 'searches')
      // The service's ctr is a percentage (0-100); the section gives the report a fraction.
      const range = { dateFrom: '2026-11-09', dateTo: '2026-11-16' }
      const prefixes = ['webhook sig', 'webhook signa', 'pagin', 'paginat']
      const generated = Array.from({ length: 30 }, (_, i) => {
        const q = generatedSearch(i, 'percent', range)
        return { ...q, ctr: q.ctr / 100 }
      })
      const hitsOf = (query: string) => generated.find(q => q.searchQuery === query)?.hits ?? 0
      const withFolded = (q: (typeof generated)[number], folded: string[]) => {
        const hits = folded.reduce((n, p) => n + hitsOf(p), q.hits)
        return { ...q, hits, ctr: (q.ctr * q.hits) / hits }
      }
      const expected = generated
        .filter(q => !prefixes.includes(q.searchQuery))
        .map(q =>
          q.searchQuery === 'webhook signature'
            ? withFolded(q, ['webhook sig', 'webhook signa'])
            : q.searchQuery === 'pagination'
              ? withFolded(q, ['pagin', 'paginat'])
              : q
        )
        .sort((a, b) => b.hits - a.hits)
        .slice(0, 20)
      for (const q of expected) expect(q.lastSearchedAt >= '2026-11-09').toBe(true)
      const plain = (q: Json) => ({ ...q, prefixes: undefined })
      expect(searches.top.map(plain)).toEqual(expected.map(plain))
      expect(searches.top[1]).toMatchObject({ searchQuery: 'webhook signature', hits: 3300 })
      expect(searches.top[1].prefixes).toEqual(['webhook sig', 'webhook signa'])
      expect(searches.top[2].prefixes).toEqual(['pagin', 'paginat'])
      expect([searches.read, searches.folded]).toEqual([100, 4])
      const gaps = (searches.gaps as Json[]).map(q => q.searchQuery as string)
      expect(gaps).toContain('webhook signature')
      for (const p of prefixes) expect(gaps).not.toContain(p)
      expect(searches.complete).toBe(false)
      expect(sectionText(r.summary, 'Searches')).toContain('among the top 100 queries read')
      // The zero-click query the assistant answered is kept apart: marked 💬, no gap.
      expect(sectionText(r.summary, 'Searches')).toMatch(
        /\| How do I add a redirect… \| 666 \| 0% 💬 \|/
      )

      // feedback: one request at the most the operation allows.
      expect(ofKind(sim, 'feedback')[0]!.query.limit).toBe('100')
      const feedback = sectionOf(r, 'feedback')
      const downs = (feedback.top as Json[]).map(x => x.thumbsDown as number)
      expect(downs).toEqual([...downs].sort((a, b) => b - a))
      expect(feedback.pages).toBe(48)
      expect(annotationsOf(r, 'warning').filter(w => /more than once/.test(w))).toEqual([])

      // assistant: caller-stats, then the conversations by cursor until nextCursor is null.
      const pages = ofKind(sim, 'assistant')
      expect(pages.map(q => q.query.limit)).toEqual(['1000', '1000', '1000'])
      expect(pages[0]!.query.cursor).toBeUndefined()
      expect(pages[1]!.query.cursor).toBeTruthy()
      const assistant = sectionOf(r, 'assistant')
      const conversations = Array.from({ length: 2600 }, (_, i) => generatedConversation(i))
      const unanswered = conversations.filter(c => c.resolutionStatus === 'unanswered')
      expect(assistant.callers.total).toBe(2600)
      expect(assistant.read).toBe(2600)
      expect(assistant.complete).toBe(true)
      expect(assistant.unanswered).toBe(unanswered.length)
      // Grouped by text trimmed and case-folded: counts add up, the biggest group first.
      const key = (q: string) => q.trim().toLowerCase()
      const biggest = Math.max(
        ...[...new Set(unanswered.map(c => key(c.query)))].map(
          k => unanswered.filter(c => key(c.query) === k).length
        )
      )
      expect(assistant.top[0].count).toBe(biggest)
      expect(sectionText(r.summary, 'Assistant')).not.toContain('Only the first')

      // The summary: an overview row per section, in order, one table per question, and the
      // run it came from.
      const overview = r.summary
        .split('\n')
        .map(l => /^\| (\w+) \| \*\*/.exec(l)?.[1])
        .filter(Boolean)
      expect(overview).toEqual(['Visitors', 'Views', 'Searches', 'Feedback', 'Assistant'])
      // The tables sit folded below, one line each: the title and what it holds.
      const titles = [...r.summary.matchAll(/^<details><summary><b>(.+?)<\/b> · /gm)].map(m => m[1])
      expect(titles).toEqual(['Top pages', 'Searches', 'Feedback', 'Assistant'])
      expect(r.summary).toContain('| # | Page | Visitors | Views |')
      // The summary is on the run's page: it does not link to the page it is on.
      expect(r.summary).not.toContain('workflow run')
      expect(r.summary).not.toContain('/actions/runs/99')
    })
  })

  it('pages searches by cursor past 100, and stops the conversations at 3,000', async () => {
    await withService({ rows: 10, conversations: 4500 }, async sim => {
      const r = await run(sim, { sections: 'searches,assistant', top: '150' })
      expectSuccess(r)
      const searches = ofKind(sim, 'searches')
      expect(searches.map(q => q.query.limit)).toEqual(['100', '50'])
      expect(searches[1]!.query.cursor).toBeTruthy()
      // 150 queries read, 4 of them typing prefixes folded into the query they lead to.
      expect(sectionOf(r, 'searches').top).toHaveLength(146)
      expect(sectionOf(r, 'searches').read).toBe(150)

      expect(ofKind(sim, 'assistant')).toHaveLength(3)
      const assistant = sectionOf(r, 'assistant')
      expect([assistant.read, assistant.complete]).toEqual([3000, false])
      expect(sectionText(r.summary, 'Assistant')).toContain(
        'Only the first 3,000 questions were read'
      )
      expect(kinds(sim)).not.toContain('visitors')
    })
  })
})

describe('report: refused sections', () => {
  it('shows a refused section in its place with the reason and a warning; the step passes', async () => {
    await withService({ rows: 10, refuse: { searches: 403 } }, async sim => {
      const r = await run(sim)
      expectSuccess(r)
      const warnings = annotationsOf(r, 'warning')
      expect(warnings.some(w => /searches/.test(w) && /403/.test(w))).toBe(true)
      const searches = sectionOf(r, 'searches')
      expect(searches).toMatchObject({ ok: false, status: 403, refused: true })
      expect(searches.reason).toContain('not available on your plan')
      // The service's words, and the cause they name: the plan.
      expect(searches.reason).toContain('your plan does not include this')
      expect(searches.reason).not.toMatch(/read-only key|GET \//)
      const text = notReadLine(r.summary, 'Searches')
      expect(overviewCells(r.summary, 'Searches')).toEqual(['⚠️ refused by the service (HTTP 403)'])
      // The advice names the cause the service's words name: said once, as Markdown we wrote.
      expect(text).toContain(
        'refused (HTTP 403): Your plan does not include this: check the plan on the billing page of [the dashboard](https://app.mintlify.com)'
      )
      expect(text).not.toContain('not available on your plan')
      // The other sections ran, and only one request went to the refused one.
      expect(ofKind(sim, 'searches')).toHaveLength(1)
      expect(sectionOf(r, 'feedback').ok).toBe(true)
      expect(sectionOf(r, 'assistant').ok).toBe(true)
    })
  })

  it('fails the step when every section failed, after trying each once', async () => {
    await withService({ refuse: { feedback: 404, assistant: 403 } }, async sim => {
      const r = await run(sim, { sections: 'feedback,assistant' })
      expect(r.code).toBe(1)
      expectNoStack(r)
      const [error] = errorsOf(r)
      expect(error).toMatch(/Every section of the report failed/)
      expect(error).toMatch(/feedback: .*404/)
      expect(error).toMatch(/assistant: .*403/)
      expect(kinds(sim)).toEqual(['feedback', 'caller-stats'])
      expect(notReadLine(r.summary, 'Feedback')).toContain('404')
      expect(notReadLine(r.summary, 'Assistant')).toContain('403')
    })
  })

  it('a 500 that retries cannot cure fails only its section', async () => {
    await withService(
      { rows: 10, faults: [{ kind: 'feedback', status: 500, times: Infinity }] },
      async sim => {
        const r = await run(sim, { sections: 'feedback,searches' })
        expectSuccess(r)
        expect(sectionOf(r, 'feedback')).toMatchObject({ ok: false, status: 500, refused: false })
        expect(notReadLine(r.summary, 'Feedback')).toContain('failed (HTTP 500)')
        expect(ofKind(sim, 'feedback').length).toBeGreaterThan(1)
        expect(sectionOf(r, 'searches').ok).toBe(true)
      }
    )
  })
})

describe('report: inputs', () => {
  it('refuses an unknown section before any request', async () => {
    await withService({}, async sim => {
      const r = await run(sim, { sections: 'visitors, clicks' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(/Input `sections`: "clicks" is not a section/)
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('refuses an output file that is not .json before any request', async () => {
    await withService({}, async sim => {
      const r = await run(sim, { 'output-file': 'out/report.csv' })
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toMatch(/Input `output-file`.*\.json/)
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('writes the JSON document to output-file, the same as the report output', async () => {
    await withService({ rows: 30 }, async sim => {
      const file = 'reports/weekly/health.json'
      const r = await run(sim, { 'output-file': file, sections: 'visitors,feedback' })
      expectSuccess(r)
      expect(path.resolve(r.workspace, r.outputs['report-file']!)).toBe(
        path.resolve(r.workspace, file)
      )
      const doc = JSON.parse(r.files(file)!) as Json
      expect(doc).toEqual(reportOf(r))
      expect(doc.range).toEqual({ dateFrom: '2026-11-09', dateTo: '2026-11-16' })
      expect((doc.sections as Json[]).map(x => x.name as string)).toEqual(['visitors', 'feedback'])
    })
  })
})

describe('report: untrusted text', () => {
  it('escapes hostile queries, paths and questions: no HTML, links or mentions', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await run(sim, {
        sections: 'searches,feedback,assistant',
        'site-url': 'https://docs.example.com'
      })
      expectSuccess(r)
      // A suggestion's data lines are code, where nothing is alive: shown exactly as sent.
      const dataLine = /^ {3}(`+)\w+: (".*"|\[".*"\])\1( {2})?$/gm
      expect(r.summary.match(dataLine)?.length).toBeGreaterThan(0)
      const md = r.summary.replace(dataLine, '')
      // The simulator's data holds <img onerror>, <script>, [x](javascript:…), @mentions, #1.
      expect(sectionOf(r, 'searches').top.map((q: Json) => q.searchQuery as string)).toContain(
        '<img src=x onerror=alert(1)> @octocat'
      )
      expect(JSON.stringify(reportOf(r))).toContain(JSON.stringify(HOSTILE_PATH).slice(1, -1))
      // Only the report's own tags are HTML.
      expect(md.match(/<(?!\/?(details|summary|sub|b)>)/g) ?? []).toEqual([])
      expect(md).not.toMatch(/\]\(javascript/i)
      expect(md).not.toMatch(/@(octocat|team|admin)/)
      expect(md).not.toMatch(/(^|[^/])https:\/\/evil/m)
      expect(md).not.toMatch(/(^|\s)#1\b/)
      // A hostile path becomes a link only into the docs site, percent-encoded.
      for (const m of md.matchAll(/\]\(([^)]*)\)/g)) {
        expect(m[1]).toMatch(/^https:\/\/(docs\.example\.com\/|github\.com\/octo\/docs\/)/)
        expect(m[1]).not.toMatch(/[<>\s"'()[\]]/)
      }
    })
  })
})

describe('report: compare', () => {
  it('reads each headline number of the previous period with one request; the shown pages and the unanswered share with what they need', async () => {
    await withService({ rows: 600, varyByDate: true }, async sim => {
      const r = await run(sim, { compare: 'true', concurrency: '1' })
      expectSuccess(r)
      const previous = sim.requests.filter(q => q.query.dateFrom === '2026-11-02')
      expect(previous.map(q => [q.kind, q.query.limit ?? '', q.query.offset ?? ''])).toEqual([
        ['feedback', '100', ''],
        // The totals and the shown pages' previous values: the read stops once all were found.
        ['visitors', '250', '0'],
        ['views', '1', '0'],
        ['searches', '1', ''],
        ['caller-stats', '', ''],
        // The unanswered share of the period before: its questions, as for this period.
        ['assistant', '1000', ''],
        ['assistant', '1000', ''],
        ['assistant', '1000', '']
      ])
      expect(sectionOf(r, 'visitors').previousRows.length).toBe(20)
      expect(sectionOf(r, 'assistant').previousShare.read).toBeGreaterThan(0)
      expect(previous.every(q => q.query.dateTo === '2026-11-09')).toBe(true)
      const report = reportOf(r)
      expect(report.previous).toEqual({ dateFrom: '2026-11-02', dateTo: '2026-11-09' })
      const visitors = sectionOf(r, 'visitors')
      expect(visitors.previous).toBeDefined()
      expect(visitors.previous).not.toEqual(visitors.totals)
      expect(typeof sectionOf(r, 'searches').previous).toBe('number')
      expect(typeof sectionOf(r, 'assistant').previous).toBe('number')
      expect(r.summary).toContain('| Section | Nov 9–15 | vs the previous 7 days |')
      expect(overviewCells(r.summary, 'Visitors')[1]).toMatch(/^[+\u2212][\d.]+% (🟢|🔴)$/)
      expect(overviewCells(r.summary, 'Assistant')[1]).toMatch(
        /^[+\u2212][\d.]+% · ([+\u2212][\d.]+ pp|share unchanged)/
      )
      expect(r.summary).toContain('Project proj-1 · vs Nov 2–8')
      expect(r.summary).toContain('| # | Page | Visitors | Change | Views |')
    })
  })
})

describe('report: the analytics quota and the deadline', () => {
  it('ends at once when the quota runs out mid-report: nothing is sent after the 429', async () => {
    await withService({ rows: 10, analyticsQuota: 3, quotaAnswer: 'retry-after' }, async sim => {
      const r = await run(sim, { 'wait-timeout': '10m' })
      expect(r.code).toBe(1)
      expectNoStack(r)
      expect(r.durationMs).toBeLessThan(20_000)
      // feedback (with its comments) and visitors spend the quota; views gets the 429 and the
      // report stops there.
      expect(kinds(sim)).toEqual(['feedback', 'feedback-comments', 'visitors', 'views'])
      expect(errorsOf(r)[0]).toMatch(/429/)
      // What was read is reported; the sections after the 429 say why they are missing.
      expect(sectionOf(r, 'visitors').ok).toBe(true)
      expect(sectionOf(r, 'views')).toMatchObject({ ok: false, skipped: true, limit: 'quota' })
      expect(sectionOf(r, 'assistant').reason).toMatch(/hourly analytics limit was reached/)
      expect(r.outputs.requests).toBe('4')
      // The overview says which limit, not an HTTP status; the report is headed incomplete.
      // One row for the sections the quota stopped at once, naming them.
      expect(overviewCells(r.summary, 'Views, Searches, Assistant')).toEqual([
        '⚠️ not read: the hourly analytics limit was reached'
      ])
      expect(r.summary).not.toContain('HTTP 429')
      expect(r.summary).toMatch(/^## Docs health · Nov 9–15 · incomplete\n/)
      expect(r.summary).toContain('views, searches, assistant not read')
    })
  })

  it('sends no request after wait-timeout: later sections say they were not read', async () => {
    await withService({ rows: 10, latencyMs: 3000 }, async sim => {
      // Feedback and its comments take 6 s, the visitors 3 more: the visitors' page is still
      // awaited when the time runs out (the run's time-up, whether the read or the client
      // noticed first), and the views are never started.
      const r = await run(sim, { 'wait-timeout': '7s' })
      expectSuccess(r)
      expect(kinds(sim)).toContain('visitors')
      expect(kinds(sim)).not.toContain('views')
      expect(kinds(sim)).not.toContain('searches')
      expect(kinds(sim)).not.toContain('caller-stats')
      expect(sectionOf(r, 'feedback').ok).toBe(true)
      for (const name of ['visitors', 'views', 'searches', 'assistant'])
        expect(sectionOf(r, name)).toMatchObject({
          skipped: true,
          limit: 'time',
          reason: 'not read: the time allowed (`wait-timeout`) ran out'
        })
      expect(overviewCells(r.summary, 'Visitors, Views, Searches, Assistant')).toEqual([
        '⚠️ not read: the time allowed (`wait-timeout`) ran out'
      ])
      expect(r.summary).toContain('**This report is incomplete.** The time allowed')
    })
  })
})

describe('report: the comment', () => {
  it('keeps one comment per range on the issue: a re-run edits it, a new range adds one', async () => {
    const gh = await startGitHub({})
    try {
      await withService({ rows: 10 }, async sim => {
        const env = { GITHUB_API_URL: gh.url }
        const week = { 'issue-number': '12', sections: 'searches' }
        const first = await run(sim, week, env)
        const again = await run(sim, week, env)
        expectSuccess(first)
        expectSuccess(again)
        expect(gh.comments.get(12)).toHaveLength(1)
        expect(again.outputs['comment-url']).toBe(first.outputs['comment-url'])
        const next = await run(
          sim,
          { ...week, 'date-from': '2026-11-16', 'date-to': '2026-11-23' },
          env
        )
        expectSuccess(next)
        const bodies = (gh.comments.get(12) ?? []).map(c => c.body)
        expect(bodies).toHaveLength(2)
        expect(bodies[0]).toContain('## Docs health · Nov 9–15')
        expect(bodies[1]).toContain('## Docs health · Nov 16–22')
        expect(bodies[1]).toContain('<summary><b>Searches</b> · top queries')
      })
    } finally {
      await gh.close()
    }
  })

  it('a week stopped by the quota posts its comment headed incomplete, and never replaces a complete one', async () => {
    const gh = await startGitHub({})
    try {
      const env = { GITHUB_API_URL: gh.url }
      const week = { 'issue-number': '12', 'wait-timeout': '10m' }
      const bodies = () => (gh.comments.get(12) ?? []).map(c => c.body)
      // No report of this range yet: the partial one is posted, saying what is missing and when
      // to run again; the step fails (the quota ran out).
      await withService({ rows: 10, analyticsQuota: 3, quotaAnswer: 'retry-after' }, async sim => {
        const r = await run(sim, week, env)
        expect(r.code).toBe(1)
        expect(bodies()).toHaveLength(1)
        expect(bodies()[0]).toMatch(/^## Docs health · Nov 9–15 · incomplete\n/)
        expect(bodies()[0]).toContain('views, searches, assistant not read. Run the workflow again')
      })
      // A complete run replaces the incomplete one in place.
      await withService({ rows: 10 }, async sim => {
        expectSuccess(await run(sim, week, env))
        expect(bodies()).toHaveLength(1)
        expect(bodies()[0]).toMatch(/^## Docs health · Nov 9–15\n/)
      })
      const complete = bodies()[0]
      // A later partial run leaves the complete report as it is, and says so.
      await withService({ rows: 10, analyticsQuota: 1, quotaAnswer: 'retry-after' }, async sim => {
        const r = await run(sim, week, env)
        expect(r.code).toBe(1)
        expect(bodies()).toEqual([complete])
        expect(annotationsOf(r, 'notice').join('\n')).toMatch(/incomplete, so it was not posted/)
      })
    } finally {
      await gh.close()
    }
  })
})

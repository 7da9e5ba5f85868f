// Scenario tier (__tests__/runner.ts): `command: rollup` over the JSON files real `report` runs
// wrote with `output-file` (matrix legs, one workspace as the artifacts would be downloaded into),
// against the service simulator and the fake GitHub, in this process on the simulators' jumping
// clock (.ci/run and ACTION_RUNNER=process: through dist/index.js). The roll-up sends nothing to
// the service and is given no key; a stranger's JSON is named and skipped; a project found twice
// keeps its newest range; a path outside the workspace is refused, naming `report-files`.
import fs from 'node:fs'
import path from 'node:path'
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { tempDir } from './temp-dirs.js'
import {
  annotationsOf,
  errorsOf,
  expectNoStack,
  pullRequestEvent,
  withGitHub,
  withService,
  type GitHub,
  type RunResult,
  type Service
} from './support.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report's file, which the assertions check
type Json = Record<string, any>

const REPORTS_ISSUE = 12
const ROLLUP_ISSUE = 13
const WEEK = { 'date-from': '2026-11-16', 'date-to': '2026-11-23' }
const WEEK_BEFORE = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }

/** A workspace shared by the legs and the roll-up, as downloaded artifacts share one. */
const workspace = (): string => tempDir('docs-agent-rollup-')

/** One matrix leg: `command: report` for a project, its file written with `output-file`. */
async function leg(
  sim: Service,
  gh: GitHub,
  ws: string,
  project: string,
  file: string,
  extra: Record<string, string> = {}
): Promise<RunResult> {
  const r = await runScenario({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': project,
      'base-url': sim.url,
      ...WEEK,
      sections: 'visitors,views,searches,feedback,assistant',
      'issue-number': String(REPORTS_ISSUE),
      'output-file': file,
      ...extra
    },
    env: { GITHUB_WORKSPACE: ws, GITHUB_API_URL: gh.url }
  })
  expectSuccess(r)
  return r
}

/** The roll-up job: no `api-key`, no `project-id`; the service's address given, so a stray
 * request would be seen. */
function rollup(
  sim: Service,
  gh: GitHub | undefined,
  ws: string,
  files: string,
  extra: Record<string, string> = {},
  event: { event?: object; eventName?: string } = {}
): Promise<RunResult> {
  return runScenario({
    inputs: {
      command: 'rollup',
      'base-url': sim.url,
      'report-files': files,
      ...(gh ? { 'issue-number': String(ROLLUP_ISSUE) } : { comment: 'false' }),
      ...extra
    },
    env: { GITHUB_WORKSPACE: ws, ...(gh ? { GITHUB_API_URL: gh.url } : {}) },
    ...event
  })
}

function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`)
  expect(errorsOf(r)).toEqual([])
  expectNoStack(r)
}

const botComments = (gh: GitHub, issue: number) =>
  (gh.comments.get(issue) ?? []).filter(c => c.user.type === 'Bot')
/** The project names of the roll-up table's rows, in order, and its total row. */
const rowsOf = (md: string): string[] =>
  md
    .split('\n')
    .filter(l => /^\| (\*\*|\[\*\*)/.test(l))
    .map(l => /\*\*([^*]+)\*\*/.exec(l)?.[1] ?? '')
const fileOf = (ws: string, file: string): Json =>
  JSON.parse(fs.readFileSync(path.join(ws, file), 'utf8')) as Json

describe('rollup: one report of many projects', () => {
  it('rolls two legs up into one comment, most visitors first, with a total; no request, no key; a stranger named and skipped', async () => {
    await withGitHub({}, gh =>
      withService({ rows: 600, varyByDate: true }, big =>
        withService({ rows: 150, varyByDate: true }, async small => {
          const ws = workspace()
          // The smaller project first: the order of the table is by visitors, not by file.
          const a = await leg(small, gh, ws, 'docs-sdk', 'reports/docs-sdk.json')
          const b = await leg(big, gh, ws, 'docs-main', 'reports/docs-main.json', {
            compare: 'true'
          })
          fs.writeFileSync(path.join(ws, 'reports', 'stranger.json'), '{"name":"not a report"}')
          const sent = big.requests.length + small.requests.length

          const r = await rollup(big, gh, ws, 'reports/*.json')
          expect(r.code).toBe(0)
          expectNoStack(r)
          // Nothing was sent to either service, and no key was given or needed.
          expect(big.requests.length + small.requests.length).toBe(sent)
          expect(r.outputs.requests).toBe('0')
          // One comment on the issue, the roll-up, and it is the summary's table.
          const comments = botComments(gh, ROLLUP_ISSUE)
          expect(comments).toHaveLength(1)
          expect(r.outputs['comment-url']).toBe(comments[0]!.html_url)
          const body = comments[0]!.body
          expect(body).toMatch(/^## Docs health · 2 projects · Nov 16–22/)
          expect(rowsOf(body)).toEqual(['docs-main', 'docs-sdk', 'Total'])
          expect(rowsOf(r.summary)).toEqual(['docs-main', 'docs-sdk', 'Total'])
          // Each project links its own report's comment.
          expect(body).toContain(`[**docs-main**](${b.outputs['comment-url']})`)
          expect(body).toContain(`[**docs-sdk**](${a.outputs['comment-url']})`)
          // The total adds the visitors of both.
          const total = Number(a.outputs.total) + Number(b.outputs.total)
          const totalRow = body.split('\n').find(l => l.startsWith('| **Total**'))!
          expect(totalRow).toContain(`**${total.toLocaleString('en-US')}**`)
          // The stranger is named and skipped: a warning, and a line in the summary.
          expect(annotationsOf(r, 'warning').join('\n')).toMatch(
            /`report-files`: skipped reports\/stranger\.json: not a report of this action/
          )
          expect(r.summary).toMatch(
            /⚠️ Skipped reports\/stranger\.json: not a report of this action/
          )
          expect(r.summary).toContain('2 report files read, no request to the service')

          // A re-run edits the same comment.
          const again = await rollup(big, gh, ws, 'reports/*.json')
          expect(again.code).toBe(0)
          expect(botComments(gh, ROLLUP_ISSUE)).toHaveLength(1)
          expect(again.outputs['comment-url']).toBe(comments[0]!.html_url)
        })
      )
    )
  })

  it("writes the report's file with its format version, project, range, totals, suggestions and comment URL", async () => {
    await withGitHub({}, gh =>
      withService({ rows: 600, varyByDate: true }, async sim => {
        const ws = workspace()
        const r = await leg(sim, gh, ws, 'docs-main', 'docs-main.json', { compare: 'true' })
        const doc = fileOf(ws, 'docs-main.json')
        expect(doc).toMatchObject({
          format: 'docs-agent-action/report',
          version: 1,
          project: 'docs-main',
          range: { dateFrom: '2026-11-16', dateTo: '2026-11-23' },
          previous: { dateFrom: '2026-11-09', dateTo: '2026-11-16' },
          commentUrl: r.outputs['comment-url']
        })
        expect(doc.commentUrl).toMatch(/#issuecomment-\d+$/)
        expect(doc.totals.visitors.total).toBe(Number(r.outputs.total))
        expect(doc.totals.searches).toEqual(expect.any(Number))
        expect(doc.totals.answers).toEqual({
          unanswered: expect.any(Number),
          read: expect.any(Number)
        })
        expect(doc.totalsBefore.visitors.total).toEqual(expect.any(Number))
        expect(doc.suggestions.length).toBeGreaterThan(0)
        for (const s of doc.suggestions as Json[])
          expect(s).toMatchObject({
            n: expect.any(Number),
            kind: expect.any(String),
            subject: expect.any(String)
          })
        // The `report` output is the same document, made before the comment existed.
        const output = JSON.parse(r.outputs.report!) as Json
        expect(output).toMatchObject({ format: 'docs-agent-action/report', version: 1 })
        expect(output.commentUrl).toBeUndefined()

        // Without a comment, the file says none.
        const quiet = await runScenario({
          inputs: {
            command: 'report',
            'api-key': SIM_API_KEY,
            'project-id': 'docs-main',
            'base-url': sim.url,
            ...WEEK,
            comment: 'false',
            'output-file': 'quiet.json'
          },
          env: { GITHUB_WORKSPACE: ws }
        })
        expectSuccess(quiet)
        expect(fileOf(ws, 'quiet.json').commentUrl).toBeUndefined()
      })
    )
  })

  it('keeps a project found twice at its newest range, and says so', async () => {
    await withGitHub({}, gh =>
      withService({ rows: 300, varyByDate: true }, async sim => {
        const ws = workspace()
        // The newer week is listed first: the range decides, not the order.
        await leg(sim, gh, ws, 'docs-main', 'out/new.json')
        await leg(sim, gh, ws, 'docs-main', 'out/old.json', WEEK_BEFORE)
        await leg(sim, gh, ws, 'docs-api', 'out/api.json')
        const r = await rollup(sim, gh, ws, 'out/new.json, out/old.json, out/api.json')
        expectSuccess(r)
        const body = botComments(gh, ROLLUP_ISSUE)[0]!.body
        expect(rowsOf(body).filter(x => x === 'docs-main')).toHaveLength(1)
        expect(body).toMatch(/^## Docs health · 2 projects · Nov 16–22/)
        expect(body).toContain(
          'docs-main was found twice: its newest range is shown; out/old.json (Nov 9–15) is left out.'
        )
        const main = new RegExp(
          `\\[\\*\\*docs-main\\*\\*\\]\\(${escapeRe(fileOf(ws, 'out/new.json').commentUrl)}\\)`
        )
        expect(body).toMatch(main)
      })
    )
  })

  it('refuses a path or glob outside the workspace, naming `report-files`, before anything', async () => {
    await withService({}, async sim => {
      const ws = workspace()
      const outside = tempDir('docs-agent-outside-')
      fs.writeFileSync(path.join(outside, 'r.json'), '{}')
      fs.mkdirSync(path.join(ws, 'reports'))
      fs.symlinkSync(path.join(outside, 'r.json'), path.join(ws, 'reports', 'link.json'))
      const cases = [
        '../elsewhere/*.json',
        path.join(outside, 'r.json'),
        'reports/../../x.json',
        'reports/*.json'
      ]
      for (const files of cases) {
        const r = await rollup(sim, undefined, ws, files)
        expect(r.code).toBe(1)
        expect(errorsOf(r).join('\n')).toMatch(/`report-files`: .*leads outside the workspace/)
        expectNoStack(r)
      }
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('fails when no file is a report, listing each in the summary; needs `report-files`', async () => {
    await withService({}, async sim => {
      const ws = workspace()
      fs.writeFileSync(path.join(ws, 'a.json'), '{"format":"docs-agent-action/report","version":2}')
      fs.writeFileSync(path.join(ws, 'b.json'), 'not json')
      const r = await rollup(sim, undefined, ws, 'a.json, b.json, missing.json, none/*.json')
      expect(r.code).toBe(1)
      expect(errorsOf(r).join('\n')).toMatch(/None of the files `report-files` names is a report/)
      expect(r.summary).toContain(
        'Skipped a.json: a report of an unknown format version 2 (this action reads version 1)'
      )
      expect(r.summary).toContain('Skipped b.json: not JSON')
      expect(r.summary).toContain('Skipped missing.json: no such file')
      expect(r.summary).toContain('Skipped none/&#42;.json: matches no file')
      const bare = await rollup(sim, undefined, ws, '')
      expect(bare.code).toBe(1)
      expect(errorsOf(bare).join('\n')).toMatch(/`report-files`: is required for `command: rollup`/)
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('runs where GitHub gives no secrets (a fork’s pull request): it needs no key', async () => {
    await withGitHub({}, gh =>
      withService({ rows: 100 }, async sim => {
        const ws = workspace()
        await leg(sim, gh, ws, 'docs-main', 'r.json')
        const fork = pullRequestEvent(7, 'opened', {
          head: { sha: 'abc', repo: { full_name: 'stranger/docs', fork: true } }
        })
        const r = await rollup(sim, undefined, ws, 'r.json', {}, fork)
        expectSuccess(r)
        expect(r.outputs.skipped).toBe('false')
        expect(rowsOf(r.summary)).toEqual(['docs-main'])
      })
    )
  })
})

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// Scenario tier (__tests__/runner.ts): busy pages gone stale. The weekly report maps the pages it
// shows to files under the docs root (where docs.json is), asks GitHub's history when each last
// changed (one request per page, none for a page without a file), and suggests a busy page whose
// file has not changed for longer than `stale-after`. The checkout is shallow and its files are
// new: their dates are never used.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it, expect, afterAll } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { simClock } from '../sim/clock.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  withGitHub,
  withService,
  type GitHub,
  type Service
} from './support.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report's JSON, which the assertions check
type Json = Record<string, any>
const DAY_MS = 86_400_000
const ISSUE = 7

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** A shallow checkout of the docs repository: docs/docs.json and a file per page given. */
function checkout(pages: readonly string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-stale-'))
  dirs.push(root)
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  write('docs/docs.json', '{"name":"Acme"}')
  // A shallow clone: one commit, every file dated now by the checkout.
  write('.git/shallow', 'c0ffee0000000000000000000000000000000000\n')
  for (const page of pages) write(`docs${page}.mdx`, `# ${page}\n`)
  return root
}

function report(sim: Service, gh: GitHub, workspace: string, extra: Record<string, string> = {}) {
  return runScenario({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': 'acme-docs',
      'base-url': sim.url,
      'date-from': '2026-11-09',
      'date-to': '2026-11-16',
      'issue-number': String(ISSUE),
      ...extra
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_WORKSPACE: workspace }
  })
}

const commitsAsked = (gh: GitHub) =>
  gh.requests.filter(q => q.method === 'GET' && q.path.endsWith('/commits'))

describe('busy pages gone stale', () => {
  it('a top page unchanged for 200 days is suggested as stale with its date; one changed last week is not; a shallow checkout is not used', async () => {
    const now = simClock.now()
    const old = new Date(now - 200 * DAY_MS).toISOString()
    const recent = new Date(now - 6 * DAY_MS).toISOString()
    await withService({ rows: 60 }, async sim => {
      // Which pages the report shows: the most viewed, as the service ranks them.
      const probe = await withGitHub({}, gh => report(sim, gh, checkout([])))
      const views = (JSON.parse(probe.outputs.report!) as Json).sections.find(
        (x: Json) => x.name === 'views'
      ) as Json
      const [top, second] = (views.top as Json[]).map(r => r.path as string)
      const workspace = checkout([top!, second!])
      const fileChanges = { [`docs${top}.mdx`]: old, [`docs${second}.mdx`]: recent }
      await withGitHub({ fileChanges }, async gh => {
        const r = await report(sim, gh, workspace)
        expect(r.code).toBe(0)
        expect(errorsOf(r)).toEqual([])
        const doc = JSON.parse(r.outputs.report!) as Json
        const stale = (doc.suggestions as Json[]).filter(s => s.kind === 'stale')
        // The date is GitHub's, 200 days back, not the checkout's (today).
        expect(stale.map(s => [s.id as string, s.lastChanged as string])).toEqual([
          [`page:${top}`, old]
        ])
        expect(doc.pagesWithoutFile).toBeGreaterThan(0)
        const day = old.slice(0, 10)
        const body = gh.comments.get(ISSUE)![0]!.body
        // Its views as the views table shows them.
        const views0 = (views.top as Json[])[0]!.total as number
        // Its first line names the page, its views and the day its file last changed; the
        // instruction, folded, says the same.
        expect(body).toMatch(
          new RegExp(
            `\\*\\*Stale\\*\\* ${top} · ${views0.toLocaleString('en-US')} views.*, unchanged since ${day}\n`
          )
        )
        expect(body).toMatch(
          new RegExp(
            `\\d\\. _${views0.toLocaleString('en-US')} views.* in Nov 9–15; its file last changed ${day}: update it\\._`
          )
        )
        expect(body).toContain(`\`path: ${JSON.stringify(top)}\``)
        // One request per page with a file, with its path; none for the pages without one, which
        // the report counts instead.
        expect(commitsAsked(gh).map(q => q.query.path)).toEqual([
          `docs${top}.mdx`,
          `docs${second}.mdx`
        ])
        expect(body).toMatch(
          /_\d+ pages shown have no file under `docs-root`: not checked for age\._/
        )
        // `stale-after: 0`: never stale, and nothing asked.
        const before = commitsAsked(gh).length
        const never = await report(sim, gh, workspace, { 'stale-after': '0' })
        expect(JSON.stringify(JSON.parse(never.outputs.report!))).not.toContain('"stale"')
        expect(commitsAsked(gh)).toHaveLength(before)
        // 250 days: the page changed 200 days ago is not stale yet.
        const longer = await report(sim, gh, workspace, { 'stale-after': '250d' })
        const kinds = (JSON.parse(longer.outputs.report!) as Json).suggestions.map(
          (s: Json) => s.kind as string
        )
        expect(kinds).not.toContain('stale')
      })
    })
  })
})

describe('the stale-page check under the deadline', () => {
  it('a slow GitHub history (2 s a request) with `wait-timeout: 5s`: no request starts after it, the run ends in seconds and says how many pages it could not date', async () => {
    await withService({ rows: 60 }, async sim => {
      // Every page the report shows has a file: each would cost a history request.
      const probe = await withGitHub({}, gh => report(sim, gh, checkout([])))
      const doc = JSON.parse(probe.outputs.report!) as Json
      const top = (name: string) =>
        ((doc.sections as Json[]).find(x => x.name === name)!.top as Json[]).slice(0, 10)
      const shown = [
        ...new Set([
          ...top('views').map(r => r.path as string),
          ...top('feedback')
            .filter(r => (r.thumbsDown as number) > 0)
            .map(r => r.path as string)
        ])
      ]
      expect(shown.length).toBeGreaterThan(8)
      const workspace = checkout(shown)
      await withGitHub({ historyDelayMs: 2_000 }, async gh => {
        const r = await report(sim, gh, workspace, { 'wait-timeout': '5s' })
        expect({ code: r.code, errors: errorsOf(r) }).toEqual({ code: 0, errors: [] })
        // On the run's clock: 5 s, and the request under way then (at most 2 s more here).
        expect(r.durationMs).toBeLessThan(5_000 + 2_000 + 2_000)
        const asked = commitsAsked(gh).length
        expect(asked).toBeGreaterThanOrEqual(2)
        expect(asked).toBeLessThanOrEqual(3)
        const undated = shown.length - asked
        const out = JSON.parse(r.outputs.report!) as Json
        expect(out.pagesUndated).toBe(undated)
        const note = `ran out while pages were checked for age: ${undated} pages shown were not dated, and may be stale.`
        expect(annotationsOf(r, 'warning').join('\n')).toContain(note)
        expect(gh.comments.get(ISSUE)![0]!.body).toContain(note)
      })
    })
  })
})

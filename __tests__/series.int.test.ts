// Scenario tier (__tests__/runner.ts): series (contract: "Series"). The weekly report, the monthly
// report and the roll-up of one project on one issue are three series: `comment-mode: minimize`
// hides only an earlier comment of the run's own series, written by the action's login, whose
// text is the action's, and whose range ends no later than the run's. Re-running an older week
// hides nothing newer and says so, and `fix N` reads the report a reader sees. A roll-up's
// records are signed with the API key when it has one, and a roll-up edits or hides only a
// comment whose text is a roll-up: never another workflow's comment (the same
// `github-actions[bot]`) that ends in a copied roll-up marker.
import { describe, it, expect } from '@jest/globals'
import { parseRecord, recordKey } from '../src/records/kinds.js'
import { makeMarker, verifiedMarkers } from '../src/records/signature.js'
import { SIM_API_KEY } from '../sim/service.js'
import { triggerComment } from '../sim/github.js'
import { runScenario } from './runner.js'
import { tempDir } from './temp-dirs.js'
import {
  annotationsOf,
  errorsOf,
  withGitHub,
  withService,
  type GitHub,
  type RunResult,
  type Service
} from './support.js'

const ISSUE = 12
const WEEK_ONE = { 'date-from': '2026-11-02', 'date-to': '2026-11-09' }
const WEEK_TWO = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }
const OCTOBER = { 'date-from': '2026-10-01', 'date-to': '2026-11-01' }
const BOT = { login: 'github-actions[bot]', type: 'Bot' }

function expectOk(r: RunResult): RunResult {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
  return r
}

/** A `report` of `project` on the issue, with `comment-mode: minimize` unless `extra` says. */
const report = (
  sim: Service,
  gh: GitHub,
  ws: string,
  range: Record<string, string>,
  extra: Record<string, string> = {}
) =>
  runScenario({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': 'acme-docs',
      'base-url': sim.url,
      'issue-number': String(ISSUE),
      'comment-mode': 'minimize',
      ...range,
      ...extra
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_WORKSPACE: ws }
  }).then(expectOk)

/** `command: rollup` of `files` on `issue`, given the API key (as rollup-report.yml does). */
const rollup = (gh: GitHub, ws: string, files: string, extra: Record<string, string> = {}) =>
  runScenario({
    inputs: {
      command: 'rollup',
      'api-key': SIM_API_KEY,
      'report-files': files,
      'issue-number': String(ISSUE),
      ...extra
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_WORKSPACE: ws }
  }).then(expectOk)

const comments = (gh: GitHub) => gh.comments.get(ISSUE) ?? []
const bodyOf = (gh: GitHub, id: number | undefined) => comments(gh).find(c => c.id === id)?.body
const hiddenIds = (gh: GitHub) => gh.minimized.map(m => m.id)
const idOf = (r: RunResult) =>
  Number(/issuecomment-(\d+)$/.exec(r.outputs['comment-url'] ?? '')?.[1])
const markerLines = (body: string) =>
  body
    .split('\n')
    .filter(l => l.startsWith('<!-- docs-agent:'))
    .join('\n')

describe('series: the weekly, the monthly and the roll-up of one project on one issue', () => {
  it('weekly, monthly, weekly again with `minimize`: the first weekly is hidden, the monthly and the roll-up stay shown', async () => {
    await withService({ projects: ['acme-docs', 'acme-api'], varyByDate: true }, sim =>
      withGitHub({}, async gh => {
        const ws = tempDir('docs-agent-series-')
        const weekOne = idOf(await report(sim, gh, ws, WEEK_ONE))
        const october = idOf(await report(sim, gh, ws, OCTOBER))
        // The monthly is a series of its own: it hides no weekly.
        expect(hiddenIds(gh)).toEqual([])
        const legs = { 'output-file': 'reports/acme-docs.json' }
        const weekTwo = idOf(await report(sim, gh, ws, WEEK_TWO, legs))
        // The weekly hides last week's, never the monthly.
        expect(hiddenIds(gh)).toEqual([weekOne])
        // Another project's leg on the same issue: its own series, hides nothing.
        const api = { 'project-id': 'acme-api', 'output-file': 'reports/acme-api.json' }
        await report(sim, gh, ws, WEEK_TWO, api)
        expect(hiddenIds(gh)).toEqual([weekOne])
        // The roll-up of both, with `minimize` too: a series of its own, it hides no report.
        const first = await rollup(gh, ws, 'reports/*.json', { 'comment-mode': 'minimize' })
        expect(hiddenIds(gh)).toEqual([weekOne])
        expect(bodyOf(gh, idOf(first))).toMatch(/^## Docs health · 2 projects · Nov 9–15/)
        // The next roll-up of that range hides the roll-up before it, and nothing else.
        const second = await rollup(gh, ws, 'reports/*.json', { 'comment-mode': 'minimize' })
        expect(hiddenIds(gh)).toEqual([weekOne, idOf(first)])
        expect(idOf(second)).not.toBe(idOf(first))
        // Shown on the issue: the monthly, this week's two reports and the newest roll-up.
        const shown = comments(gh).filter(c => !hiddenIds(gh).includes(c.id))
        expect(shown.map(c => c.body.split('\n')[0])).toEqual([
          '## Docs health · Oct 1–31',
          '## Docs health · Nov 9–15',
          '## Docs health · Nov 9–15',
          '## Docs health · 2 projects · Nov 9–15'
        ])
        expect(shown.map(c => c.id)).toContain(october)
        expect(shown.map(c => c.id)).toContain(weekTwo)
      })
    )
  })

  it('an older week re-run hides nothing newer, says the newer report stays in view, and `fix 1` reads the newer', async () => {
    await withService({ varyByDate: true, jobs: [] }, sim =>
      withGitHub({ permissions: { octocat: 'write' } }, async gh => {
        const ws = tempDir('docs-agent-series-')
        const weekOne = idOf(await report(sim, gh, ws, WEEK_ONE))
        const weekTwo = idOf(await report(sim, gh, ws, WEEK_TWO))
        expect(hiddenIds(gh)).toEqual([weekOne])
        const again = await report(sim, gh, ws, WEEK_ONE)
        // Week two stays in view; week one's first comment was hidden already.
        expect(hiddenIds(gh)).toEqual([weekOne])
        const notice = annotationsOf(again, 'notice').join('\n')
        expect(notice).toContain(
          `A newer comment of this series stays in view (${comments(gh).find(c => c.id === weekTwo)?.html_url})`
        )
        // `fix 1` sends week two's suggestion 1: the report a reader sees last on the issue.
        const trigger = triggerComment(gh, ISSUE, '/docs-agent fix 1', false, {
          login: 'octocat',
          type: 'User'
        })
        expectOk(
          await runScenario({
            inputs: {
              command: 'message',
              'api-key': SIM_API_KEY,
              'project-id': 'acme-docs',
              'base-url': sim.url,
              'poll-interval': '0.2',
              'wait-timeout': '20s'
            },
            env: { GITHUB_API_URL: gh.url },
            ...trigger
          })
        )
        const sent = [...sim.jobs.values()].flatMap(j => (j.createdWith ? [j.createdWith] : []))
        expect(sent).toEqual([firstSuggestion(bodyOf(gh, weekTwo) ?? '', WEEK_TWO['date-from'])])
      })
    )
  })

  it('`upsert`: an older week re-run edits its own comment, nothing newer, and says the newer stays in view', async () => {
    await withService({}, sim =>
      withGitHub({}, async gh => {
        const ws = tempDir('docs-agent-series-')
        const upsert = { 'comment-mode': 'upsert' }
        const weekOne = idOf(await report(sim, gh, ws, WEEK_ONE, upsert))
        const weekTwo = idOf(await report(sim, gh, ws, WEEK_TWO, upsert))
        const before = bodyOf(gh, weekTwo)
        const again = await report(sim, gh, ws, WEEK_ONE, upsert)
        expect(idOf(again)).toBe(weekOne)
        expect(bodyOf(gh, weekTwo)).toBe(before)
        expect(annotationsOf(again, 'notice').join('\n')).toContain(
          `A newer comment of this series stays in view (${comments(gh).find(c => c.id === weekTwo)?.html_url})`
        )
      })
    )
  })

  it('`upsert` edits the report of its range only where the comment is a report: a copied marker under another text is left alone', async () => {
    await withService({}, sim =>
      withGitHub({}, async gh => {
        const ws = tempDir('docs-agent-series-')
        const upsert = { 'comment-mode': 'upsert' }
        const first = idOf(await report(sim, gh, ws, WEEK_ONE, upsert))
        const markers = markerLines(bodyOf(gh, first) ?? '')
        // Another workflow (the same bot) quotes the report's markers under its own text; then
        // the report's comment is deleted.
        const other = gh.addComment(ISSUE, `Deploy preview ready ✅\n\n${markers}`, BOT)
        gh.deleteComment(first)
        const again = idOf(await report(sim, gh, ws, WEEK_ONE, upsert))
        expect(again).not.toBe(other.id)
        expect(bodyOf(gh, other.id)).toBe(`Deploy preview ready ✅\n\n${markers}`)
      })
    )
  })
})

describe('a roll-up’s comment is its own', () => {
  it('another workflow’s bot comment ending in a copied roll-up marker is neither edited (`upsert`) nor hidden (`minimize`)', async () => {
    await withService({ varyByDate: true }, sim =>
      withGitHub({}, async gh => {
        const ws = tempDir('docs-agent-series-')
        const leg = (range: Record<string, string>, file: string) =>
          report(sim, gh, ws, range, { 'comment-mode': 'upsert', 'output-file': file })
        await leg(WEEK_ONE, 'one/acme-docs.json')
        const first = idOf(await rollup(gh, ws, 'one/*.json'))
        const copied = `Preview deployed: https://preview.example.com\n\n${markerLines(bodyOf(gh, first) ?? '')}`
        const other = gh.addComment(ISSUE, copied, BOT)
        gh.deleteComment(first)
        // `upsert`: the roll-up of that range posts anew; the other workflow's comment is as it was.
        const again = idOf(await rollup(gh, ws, 'one/*.json'))
        expect(again).not.toBe(other.id)
        expect(bodyOf(gh, other.id)).toBe(copied)
        // `minimize`, a week later: the roll-up before is hidden, the other comment is not.
        await leg(WEEK_TWO, 'two/acme-docs.json')
        await rollup(gh, ws, 'two/*.json', { 'comment-mode': 'minimize' })
        expect(hiddenIds(gh)).toEqual([again])
        expect(bodyOf(gh, other.id)).toBe(copied)
      })
    )
  })

  it('its records are signed with the API key it is given: a marker made with the public key counts for nothing', async () => {
    await withService({}, sim =>
      withGitHub({}, async gh => {
        const ws = tempDir('docs-agent-series-')
        await report(sim, gh, ws, WEEK_ONE, { 'output-file': 'one/acme-docs.json' })
        const dry = await rollup(gh, ws, 'one/*.json', { comment: 'false' })
        // A whole roll-up's text, with a marker anyone can make (the key without an API key).
        const key = recordKey('rollup', { project: '*', from: '2026-11-02', to: '2026-11-09' })
        const place = { owner: 'octo', repo: 'docs', issueNumber: ISSUE }
        const forged = makeMarker(key, 'docs-agent-action rollup', place, BOT.login, Date.now())
        const text = `${dry.summary.trim()}\n\n${forged}`
        const other = gh.addComment(ISSUE, text, BOT)
        const posted = idOf(await rollup(gh, ws, 'one/*.json'))
        expect(posted).not.toBe(other.id)
        expect(bodyOf(gh, other.id)).toBe(text)
        // The roll-up's own record is signed with the API key, not with the public one.
        const by = { author: BOT.login, own: false }
        const keysWith = (secret: string) =>
          verifiedMarkers(bodyOf(gh, posted) ?? '', secret, place, by).map(m => m.key)
        expect(keysWith(SIM_API_KEY)).toEqual([key])
        expect(keysWith('docs-agent-action rollup')).toEqual([])
      })
    )
  })
})

/** The instruction of suggestion 1 of the report of the week from `from`, as its record holds it. */
function firstSuggestion(body: string, from: string): string | undefined {
  for (const m of body.matchAll(/docs-agent:(\S+) v=2 /g)) {
    const s = parseRecord('suggestion', decodeURIComponent(m[1] ?? ''))
    if (s?.from === from && s.n === '1') return s.instruction
  }
  return undefined
}

// Scenario tier: records are signed for the author GitHub's answer to the write names, never for
// what GraphQL's `viewer` says (a hint). A GitHub whose `viewer` names another login than its
// writes show (here: the reader's own) still gets reports that verify for `fix 1`, and a reader's
// copy of their markers counts for nothing. Where the login cannot be learned at all (`viewer`
// failing), only comments written by bots may claim to be the action's records: a reader's
// look-alike marker never turns an ordinary `fix 2 typos` into a refusal. Runs in this process by
// default, or through dist/index.js (`ACTION_RUNNER=process`).
import { describe, it, expect } from '@jest/globals'
import { parseRecord, recordKey } from '../src/records/kinds.js'
import { makeMarker, verifiedMarkers } from '../src/records/signature.js'
import { startGitHub, triggerComment } from '../sim/github.js'
import { API_KEY, TOKEN, attackInputs } from './leaks.js'
import { runScenario, type RunResult } from './runner.js'
import { errorsOf, withGitHub, withService, type GitHub, type Service } from './support.js'

const BOT = { login: 'github-actions[bot]', type: 'Bot' }
const MALLORY = { login: 'mallory', type: 'User' }
const WRITER = { login: 'octocat', type: 'User' }
const PLACE = { owner: 'octo', repo: 'docs', issueNumber: 12 }
const WEEK_ONE = { 'date-from': '2026-11-02', 'date-to': '2026-11-09' }
const WEEK_TWO = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }

const withSims = (
  github: Omit<NonNullable<Parameters<typeof startGitHub>[0]>, 'token'>,
  body: (sim: Service, gh: GitHub) => Promise<void>
): Promise<void> =>
  withGitHub({ token: TOKEN, permissions: { octocat: 'write', mallory: 'read' }, ...github }, gh =>
    withService({ apiKey: API_KEY, varyByDate: true, jobs: [] }, sim => body(sim, gh))
  )

const run = (gh: GitHub, o: Parameters<typeof runScenario>[0] & object) =>
  runScenario({ githubToken: TOKEN, ...o, env: { GITHUB_API_URL: gh.url } })

const report = (sim: Service, gh: GitHub, week: Record<string, string>) =>
  run(gh, {
    inputs: { ...attackInputs(sim.url), command: 'report', 'issue-number': '12', ...week }
  })

/** `/docs-agent …` by a writer on issue 12 (`command: message`, no `job-id`). */
const reply = (sim: Service, gh: GitHub, body: string, extra: Record<string, string> = {}) =>
  run(gh, {
    inputs: { ...attackInputs(sim.url), command: 'message', ...extra },
    ...triggerComment(gh, 12, body, false, WRITER)
  })

const comments = (gh: GitHub) => gh.comments.get(12) ?? []
const markerLines = (body: string): string =>
  body
    .split('\n')
    .filter(l => l.startsWith('<!-- docs-agent:'))
    .join('\n')
const createdWith = (sim: Service): string[] =>
  [...sim.jobs.values()].flatMap(j => (j.createdWith !== undefined ? [j.createdWith] : []))

/** The instruction of suggestion 1 of the report in `body` (of the range starting `from`). */
function firstSuggestion(body: string, from: string): string | undefined {
  for (const m of body.matchAll(/docs-agent:(\S+) v=2 /g)) {
    const s = parseRecord('suggestion', decodeURIComponent(m[1] ?? ''))
    if (s?.from === from && s.n === '1') return s.instruction
  }
  return undefined
}

/** The keys in `body` that verify for the comment's author `author`. */
const verifiedFor = (body: string, author: string): string[] =>
  verifiedMarkers(body, API_KEY, PLACE, { author, own: false }).map(m => m.key)

function expectOk(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
}

describe('GraphQL `viewer` names the reader, while the writes show github-actions[bot]', () => {
  it('each report is signed again for the author GitHub showed; `fix 1` takes the newest report’s suggestion, and her copy of an older one counts for nothing', async () => {
    await withSims({ viewerLogin: 'mallory' }, async (sim, gh) => {
      const hers = gh.addComment(12, 'First!', MALLORY)
      const writes = gh.requests.length
      expectOk(await report(sim, gh, WEEK_ONE))
      const weekOne = comments(gh).find(c => c.user.login === BOT.login)!
      // Created signed for the login `viewer` named, then signed again in one edit of it.
      const wrote = gh.requests
        .slice(writes)
        .filter(q => q.method !== 'GET' && q.path !== '/graphql')
        .map(q => `${q.method} ${q.path}`)
      expect(wrote).toEqual([
        'POST /repos/octo/docs/issues/12/comments',
        `PATCH /repos/octo/docs/issues/comments/${weekOne.id}`
      ])
      expect(verifiedFor(weekOne.body, BOT.login)).toContain(
        recordKey('report', { project: 'proj-1', from: '2026-11-02', to: '2026-11-09' })
      )
      // She pastes week one's markers into her comment: signed for the bot, they are not hers.
      gh.editComment(hers.id, `I agree!\n\n${markerLines(weekOne.body)}`)
      expect(verifiedFor(comments(gh)[0]!.body, MALLORY.login)).toEqual([])
      expectOk(await report(sim, gh, WEEK_TWO))
      const weekTwo = comments(gh).filter(c => c.user.login === BOT.login)[1]!
      const wanted = firstSuggestion(weekTwo.body, '2026-11-09')
      expect(wanted).toBeDefined()
      expect(wanted).not.toBe(firstSuggestion(weekOne.body, '2026-11-02'))
      // `fix 1` reads the action's own week two, never her week one.
      expectOk(await reply(sim, gh, '/docs-agent fix 1'))
      expect(createdWith(sim)).toEqual([wanted])
    })
  })
})

describe('GraphQL `viewer` failing: only bots may claim to be the action’s records', () => {
  /** A look-alike `report` record of proj-1 (its signature made with another key). */
  const fakeReport = (issueNumber: number) =>
    makeMarker(
      recordKey('report', { project: 'proj-1', from: '2026-11-02', to: '2026-11-09' }),
      'mint_not_the_key',
      { ...PLACE, issueNumber },
      BOT.login,
      1_800_000_000_000
    )

  it('a reader’s fake marker: `fix 2 typos` is an ordinary instruction, not a refusal', async () => {
    await withSims({ viewerFails: true }, async (sim, gh) => {
      gh.addComment(12, `Nice report\n\n${fakeReport(12)}`, MALLORY)
      const r = await reply(sim, gh, '/docs-agent fix 2 typos', { 'when-no-job': 'create' })
      expectOk(r)
      expect(r.outputs.skipped).toBe('false')
      expect(createdWith(sim)).toEqual(['fix 2 typos'])
      expect(
        comments(gh)
          .map(c => c.body)
          .join('\n')
      ).not.toMatch(/cannot be read with this key/)
    })
  })

  it('the same claim in a bot’s comment (a report signed with the key before): nothing sent, the reply says why', async () => {
    await withSims({ viewerFails: true }, async (sim, gh) => {
      gh.addComment(12, `## Docs health\n\n${fakeReport(12)}`, BOT)
      const r = await reply(sim, gh, '/docs-agent fix 2 typos', { 'when-no-job': 'create' })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(sim.requests).toEqual([])
      expect(comments(gh).at(-1)?.body).toMatch(/cannot be read with this key, so nothing was sent/)
    })
  })
})

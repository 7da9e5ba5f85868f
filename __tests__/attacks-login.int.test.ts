// Scenario tier: a record counts only in a comment written by the login that signed it, and the
// action learns its own login from GitHub, never from the comments. A reader (read permission)
// who commented on a thread before the action did, and later edits her comment to hold genuine
// records of that thread (copied from the action's comment), changes nothing in what a later run
// does; nor does her copy once the action's own comment is deleted. For GITHUB_TOKEN, an app's
// token and a personal token alike. Also: a rotated key, the newest report by range, and a job
// naming a pull request older than itself. Runs in this process by default, or through
// dist/index.js (`ACTION_RUNNER=process`).
import { describe, it, expect } from '@jest/globals'
import { parseRecord, recordKey } from '../src/records/kinds.js'
import { makeMarker } from '../src/records/signature.js'
import { startService } from '../sim/service.js'
import { pullRequestEvent, startGitHub, triggerComment } from '../sim/github.js'
import { API_KEY, TOKEN, attackInputs } from './leaks.js'
import { runScenario, type RunResult } from './runner.js'
import { annotationsOf, errorsOf } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type GitHub = Awaited<ReturnType<typeof startGitHub>>
type Comment = NonNullable<ReturnType<GitHub['comments']['get']>>[number]

const PR = (n: number) => `https://github.com/octo/docs/pull/${n}`
const MALLORY = { login: 'mallory', type: 'User' }
const WRITER = { login: 'octocat', type: 'User' }
const WEEK_ONE = { 'date-from': '2026-11-02', 'date-to': '2026-11-09' }
const WEEK_TWO = { 'date-from': '2026-11-09', 'date-to': '2026-11-16' }

/** The logins a token writes as: GITHUB_TOKEN, a GitHub App's installation token, a personal token. */
const LOGINS = ['github-actions[bot]', 'my-app[bot]', 'docs-maintainer']

const base = attackInputs

async function withSims(
  login: string,
  service: NonNullable<Parameters<typeof startService>[0]>,
  github: Omit<NonNullable<Parameters<typeof startGitHub>[0]>, 'token' | 'actorLogin'>,
  body: (sim: Service, gh: GitHub) => Promise<void>
): Promise<void> {
  const sim = await startService({ apiKey: API_KEY, ...service })
  const gh = await startGitHub({
    token: TOKEN,
    actorLogin: login,
    permissions: { octocat: 'write', mallory: 'read' },
    ...github
  })
  try {
    await body(sim, gh)
  } finally {
    await sim.close()
    await gh.close()
  }
}

const run = (gh: GitHub, o: Parameters<typeof runScenario>[0] & object, env = {}) =>
  runScenario({ githubToken: TOKEN, ...o, env: { GITHUB_API_URL: gh.url, ...env } })
const comments = (gh: GitHub, n: number): Comment[] => gh.comments.get(n) ?? []
const actions = (gh: GitHub, n: number, login: string): Comment[] =>
  comments(gh, n).filter(c => c.user.login === login)
/** The marker lines that end a body: what a reader copies from the action's comment. */
const markerLines = (body: string): string =>
  body
    .split('\n')
    .filter(l => l.startsWith('<!-- docs-agent:'))
    .join('\n')
const creates = (sim: Service) => sim.requests.filter(q => q.kind === 'create').length
const createdWith = (sim: Service): string[] =>
  [...sim.jobs.values()].flatMap(j => (j.createdWith !== undefined ? [j.createdWith] : []))

/** The weekly report on issue `n`. */
const report = (sim: Service, gh: GitHub, n: number, week: Record<string, string>) =>
  run(gh, {
    inputs: {
      ...base(sim.url),
      command: 'report',
      compare: 'true',
      trend: '4',
      // One page at a time: no read-ahead, so what a report costs does not depend on timing.
      concurrency: '1',
      'issue-number': String(n),
      ...week
    }
  })

/** A writer's `/docs-agent …` on issue or pull request `n` (`command: message`, no `job-id`). */
const reply = (sim: Service, gh: GitHub, n: number, body: string, extra = {}) =>
  run(gh, {
    inputs: { ...base(sim.url), command: 'message', ...extra },
    ...triggerComment(gh, n, body, n !== 12, WRITER)
  })

/** Her comment, written before the action's first one, edited to hold `body`. */
function herEdit(gh: GitHub, hers: Comment, body: string): string {
  const text = `I agree!\n\n${body}`
  gh.editComment(hers.id, text)
  return text
}

/** The instruction of suggestion 1 of week two's report, as its signed record holds it. */
function firstSuggestion(body: string): string | undefined {
  for (const m of body.matchAll(/docs-agent:(\S+) v=2 /g)) {
    const s = parseRecord('suggestion', decodeURIComponent(m[1] ?? ''))
    if (s?.from === '2026-11-09' && s.n === '1') return s.instruction
  }
  return undefined
}

function expectOk(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
}

describe.each(LOGINS)(
  'a reader’s comment edited to hold genuine records (the token writes as %s)',
  login => {
    it('`fix 1` takes the newest report’s suggestion; the next week’s report costs what it costs without her; a re-run of the report edits the action’s comment, never hers', async () => {
      await withSims(login, { varyByDate: true, jobs: [] }, {}, async (sim, gh) => {
        const hers = gh.addComment(12, 'First!', MALLORY)
        // Week one, on issue 12 (hers) and on issue 13 (the same without her).
        expectOk(await report(sim, gh, 12, WEEK_ONE))
        expectOk(await report(sim, gh, 13, WEEK_ONE))
        const weekOne = actions(gh, 12, login)[0]!
        const copy = herEdit(gh, hers, markerLines(weekOne.body))
        expect(copy).toMatch(/docs-agent:suggestion%2F.* v=2 /)
        expect(copy).toMatch(/docs-agent:totals%2F/)
        // Week two costs the same in both issues: her copy neither replaces nor hides the memory.
        let before = sim.requests.length
        expectOk(await report(sim, gh, 12, WEEK_TWO))
        const withHer = sim.requests.length - before
        before = sim.requests.length
        expectOk(await report(sim, gh, 13, WEEK_TWO))
        expect(withHer).toBe(sim.requests.length - before)
        const weekTwo = actions(gh, 12, login).at(-1)!
        // `fix 1` sends week two's suggestion 1, as the report at the bottom shows it.
        const fix = await reply(sim, gh, 12, '/docs-agent fix 1')
        expectOk(fix)
        const sent = createdWith(sim)
        expect(sent).toHaveLength(1)
        const instruction = firstSuggestion(weekTwo.body)
        expect(instruction).toBeDefined()
        expect(sent[0]).toBe(instruction)
        // Re-run week two after she pasted its records too: the action edits its own comment.
        const pasted = herEdit(gh, hers, markerLines(weekTwo.body))
        const patches = () =>
          gh.requests.filter(q => q.method === 'PATCH').map(q => q.path.split('/').at(-1))
        const edits = patches().length
        expectOk(await report(sim, gh, 12, WEEK_TWO))
        expect(patches().slice(edits)).toEqual([String(weekTwo.id)])
        expect(comments(gh, 12).find(c => c.id === hers.id)?.body).toBe(pasted)
      })
    })

    it('a reply goes to the job the action routed last, not to the one her copy names', async () => {
      const jobs = [
        { id: 'job-old', activePolls: 1, prLink: PR(7) },
        { id: 'job-new', activePolls: 1, prLink: PR(7) }
      ]
      await withSims(login, { jobs }, {}, async (sim, gh) => {
        const hers = gh.addComment(7, 'Looks good', MALLORY)
        const follow = (jobId: string) =>
          run(gh, {
            inputs: { ...base(sim.url), command: 'message', 'job-id': jobId, prompt: 'Fix it' },
            ...pullRequestEvent(7)
          })
        expectOk(await follow('job-old'))
        herEdit(gh, hers, markerLines(actions(gh, 7, login)[0]!.body))
        expectOk(await follow('job-new'))
        const r = await reply(sim, gh, 7, '/docs-agent Add an example')
        expectOk(r)
        expect(sim.jobs.get('job-new')?.messages).toEqual(['Fix it', 'Add an example'])
        expect(sim.jobs.get('job-old')?.messages).toEqual(['Fix it'])
      })
    })

    it('a re-run of a failed job’s step sends again: her copy of the delivery blocks nothing', async () => {
      const service = { jobs: [], created: { finalStatus: 'failed' as const, prLink: null } }
      await withSims(login, service, {}, async (sim, gh) => {
        const hers = gh.addComment(5, 'Please document this', MALLORY)
        const attempt = (n: number) =>
          run(
            gh,
            {
              inputs: { ...base(sim.url), command: 'create', prompt: 'Document the API' },
              ...pullRequestEvent(5)
            },
            { GITHUB_RUN_ID: '777', GITHUB_RUN_ATTEMPT: String(n), GITHUB_JOB: 'docs' }
          )
        expect((await attempt(1)).code).toBe(1)
        // The first write (working…) recorded the delivery: she pastes it.
        const working = gh.requests.find(q => q.method === 'POST' && q.path.endsWith('/5/comments'))
        herEdit(gh, hers, markerLines(String((working?.body as { body?: string }).body)))
        const again = await attempt(2)
        expect(again.stdout).not.toMatch(/earlier attempt already delivered/)
        expect(creates(sim)).toBe(2)
      })
    })

    it("the merge of the agent's pull request is skipped as its own; her comment above the record changes nothing", async () => {
      const created = { activePolls: 1, prLink: PR(21) }
      await withSims(login, { jobs: [], created }, {}, async (sim, gh) => {
        const hers = gh.addComment(21, 'Early review', MALLORY)
        const create = (n: number) =>
          run(gh, {
            inputs: { ...base(sim.url), command: 'create', prompt: 'Document the change' },
            ...pullRequestEvent(n, 'closed')
          })
        expectOk(await create(5))
        const record = actions(gh, 21, login)[0]!
        expect(record.body).toMatch(/docs-agent:opened%2Fproj-1%2Fcreated-1 v=2 /)
        // She pastes the record's route (not its `opened` line).
        herEdit(
          gh,
          hers,
          markerLines(record.body)
            .split('\n')
            .filter(l => l.includes('route%2F'))
            .join('\n')
        )
        const merge = await create(21)
        expectOk(merge)
        expect(merge.outputs.skipped).toBe('true')
        expect(annotationsOf(merge, 'notice').join('\n')).toMatch(/the docs agent's own work/)
        expect(creates(sim)).toBe(1)
      })
    })
  }
)

describe.each(LOGINS)(
  'the action’s comment deleted, her copy left (the token writes as %s)',
  login => {
    it('`fix 1` sends none of her suggestions, and the next report reads everything again', async () => {
      await withSims(login, { varyByDate: true, jobs: [] }, {}, async (sim, gh) => {
        const hers = gh.addComment(12, 'First!', MALLORY)
        expectOk(await report(sim, gh, 12, WEEK_ONE))
        const weekOne = actions(gh, 12, login)[0]!
        herEdit(gh, hers, markerLines(weekOne.body))
        gh.deleteComment(weekOne.id)
        const fix = await reply(sim, gh, 12, '/docs-agent fix 1')
        expect(createdWith(sim)).toEqual([])
        expect(fix.code).toBe(1)
        expect(errorsOf(fix).join('\n')).toMatch(/records no agent job/)
        // Week two in issue 12 costs what it costs in an issue that never had a report.
        let before = sim.requests.length
        expectOk(await report(sim, gh, 12, WEEK_TWO))
        const withHer = sim.requests.length - before
        before = sim.requests.length
        expectOk(await report(sim, gh, 14, WEEK_TWO))
        expect(withHer).toBe(sim.requests.length - before)
        expect(comments(gh, 12).find(c => c.id === hers.id)?.body).toContain('I agree!')
      })
    })

    it('her copy of a route routes nothing; of a delivery blocks no re-run; of `opened` makes no merge the agent’s own', async () => {
      const jobs = [{ id: 'job-old', activePolls: 1, prLink: PR(7) }]
      const created = { activePolls: 1, prLink: PR(21) }
      await withSims(login, { jobs, created }, {}, async (sim, gh) => {
        // A route.
        const onSeven = gh.addComment(7, 'Looks good', MALLORY)
        expectOk(
          await run(gh, {
            inputs: { ...base(sim.url), command: 'message', 'job-id': 'job-old', prompt: 'Fix it' },
            ...pullRequestEvent(7)
          })
        )
        const routed = actions(gh, 7, login)[0]!
        herEdit(gh, onSeven, markerLines(routed.body))
        gh.deleteComment(routed.id)
        const r = await reply(sim, gh, 7, '/docs-agent Add an example')
        expect(errorsOf(r).join('\n')).toMatch(/records no agent job/)
        expect(sim.jobs.get('job-old')?.messages).toEqual(['Fix it'])
        // `opened`, on the pull request the agent opened.
        const onTwentyOne = gh.addComment(21, 'Early review', MALLORY)
        const create = (n: number, env = {}) =>
          run(
            gh,
            {
              inputs: { ...base(sim.url), command: 'create', prompt: 'Document the change' },
              ...pullRequestEvent(n, 'closed')
            },
            env
          )
        expectOk(await create(5))
        const record = actions(gh, 21, login)[0]!
        herEdit(gh, onTwentyOne, markerLines(record.body))
        gh.deleteComment(record.id)
        const merge = await create(21)
        expectOk(merge)
        expect(merge.outputs.skipped).toBe('false')
        expect(creates(sim)).toBe(2)
      })
    })
  }
)

describe('what the records say', () => {
  it('records signed with an older key: `fix 1` sends nothing (not even "fix 1" with `when-no-job: create`) and the reply says why', async () => {
    await withSims('github-actions[bot]', { jobs: [] }, {}, async (sim, gh) => {
      const place = { owner: 'octo', repo: 'docs', issueNumber: 12 }
      const range = { project: 'proj-1', from: '2026-11-09', to: '2026-11-16' }
      const keys = [
        recordKey('report', range),
        recordKey('suggestion', {
          ...range,
          n: '1',
          id: 'gap:x',
          subject: 'x',
          instruction: 'Add x.'
        })
      ]
      const at = Date.now()
      const lines = keys.map(k =>
        makeMarker(k, 'mint_the_old_key', place, 'github-actions[bot]', at)
      )
      gh.addComment(12, `## Docs health\n\n${lines.join('\n')}`, {
        login: 'github-actions[bot]',
        type: 'Bot'
      })
      const r = await reply(sim, gh, 12, '/docs-agent fix 1', { 'when-no-job': 'create' })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(sim.requests).toEqual([])
      const answer = comments(gh, 12).at(-1)?.body ?? ''
      expect(answer).toMatch(/cannot be read with this key, so nothing was sent/)
      expect(answer).toMatch(/Run the report workflow again/)
    })
  })

  it('two reports in one issue, the older range re-run afterwards: `fix 1` takes the newer range’s suggestion', async () => {
    await withSims('github-actions[bot]', { varyByDate: true, jobs: [] }, {}, async (sim, gh) => {
      expectOk(await report(sim, gh, 12, WEEK_TWO))
      const weekTwo = comments(gh, 12)[0]!
      expectOk(await report(sim, gh, 12, WEEK_ONE))
      expect(comments(gh, 12)).toHaveLength(2)
      expectOk(await reply(sim, gh, 12, '/docs-agent fix 1'))
      const instruction = firstSuggestion(weekTwo.body)
      expect(instruction).toBeDefined()
      expect(createdWith(sim)).toEqual([instruction])
    })
  })

  it('a job whose pull request GitHub shows created before the job: no `opened` record, no "opened" words, its merge starts a job', async () => {
    const created = { activePolls: 1, prLink: PR(8) }
    // Pull request 8 was there before the job (seeded: created when GitHub started).
    await withSims(
      'github-actions[bot]',
      { jobs: [], created },
      { pulls: { 8: { state: 'open' } } },
      async (sim, gh) => {
        const r = await run(gh, {
          inputs: { ...base(sim.url), command: 'create', prompt: 'Document the change' },
          ...pullRequestEvent(5, 'closed')
        })
        expectOk(r)
        const onEight = comments(gh, 8)
          .map(c => c.body)
          .join('\n')
        expect(onEight).not.toMatch(/opened%2F/)
        expect(onEight).not.toMatch(/opened this pull request/i)
        expect(r.summary ?? '').not.toMatch(/opened/i)
        const merge = await run(gh, {
          inputs: { ...base(sim.url), command: 'create', prompt: 'Document the change' },
          ...pullRequestEvent(8, 'closed')
        })
        expectOk(merge)
        expect(merge.outputs.skipped).toBe('false')
        expect(creates(sim)).toBe(2)
      }
    )
  })
})

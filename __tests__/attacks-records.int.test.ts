// Scenario tier: the attacks on the action's signed records (beside attacks.int.test.ts): re-runs
// recorded per step, the record that a job opened a pull request (the only thing that makes a
// merge "the agent's own"), and markers that count only in the comments the action's own login
// wrote, outside any code block. Each runs the action against the simulators (in this process by
// default; `.ci/run` runs them through the built dist/index.js).
import { describe, it, expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { recordKey } from '../src/records/kinds.js'
import { makeMarker } from '../src/records/signature.js'
import { startService } from '../sim/service.js'
import { pullRequestEvent, startGitHub, triggerComment } from '../sim/github.js'
import { API_KEY, leaks, TOKEN, attackInputs } from './leaks.js'
import { runScenario, type RunResult } from './runner.js'
import { annotationsOf, errorsOf } from './support.js'
import { jobConditions, runsOn } from './workflow-if.js'

type Service = Awaited<ReturnType<typeof startService>>
type GitHub = Awaited<ReturnType<typeof startGitHub>>

const PR = (n: number) => `https://github.com/octo/docs/pull/${n}`
const BOT = { login: 'github-actions[bot]', type: 'Bot' }
/** The author of the agent's pull requests: the service opens them as its bot. */
const AGENT = { login: 'mintlify[bot]', type: 'Bot' }

const inputs = attackInputs

/** Attempt `n` of workflow run 777, workflow job `docs`, step `step`. */
const attempt = (gh: GitHub, n: number, step = 'docs-agent') => ({
  GITHUB_API_URL: gh.url,
  GITHUB_RUN_ID: '777',
  GITHUB_RUN_ATTEMPT: String(n),
  GITHUB_JOB: 'docs',
  GITHUB_ACTION: step
})

async function withSims(
  service: NonNullable<Parameters<typeof startService>[0]>,
  github: Omit<NonNullable<Parameters<typeof startGitHub>[0]>, 'token'>,
  body: (sim: Service, gh: GitHub) => Promise<void>
): Promise<void> {
  const sim = await startService({ apiKey: API_KEY, ...service })
  const gh = await startGitHub({ token: TOKEN, ...github })
  try {
    await body(sim, gh)
  } finally {
    await sim.close()
    await gh.close()
  }
}

const creates = (sim: Service) => sim.requests.filter(q => q.kind === 'create').length
const botBodies = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)
/** The marker keys at the end of a body, decoded. */
const keysOf = (body: string) =>
  [...body.matchAll(/<!-- docs-agent:(\S+) v=2 t=/g)].map(m => decodeURIComponent(m[1] ?? ''))

/** `create` on the merge of pull request `n` (`pull`: its fields), attempt 1 of its own run. */
const mergeOf = (
  sim: Service,
  gh: GitHub,
  n: number,
  extra: Record<string, string> = {},
  pull: Record<string, unknown> = {}
) =>
  runScenario({
    githubToken: TOKEN,
    inputs: inputs(sim.url, { command: 'create', prompt: 'Document the change', ...extra }),
    env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ID: String(900 + n) },
    ...pullRequestEvent(n, 'closed', pull)
  })

function expectSkippedAsOwn(r: RunResult): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.outputs.skipped).toBe('true')
  expect(annotationsOf(r, 'notice').join('\n')).toMatch(/the docs agent's own work/)
}

describe('a re-run is recorded per step', () => {
  it('two steps follow up one job on one pull request: the re-run of the step whose POST was refused sends; the other sends nothing', async () => {
    const faults = [{ kind: 'message', status: 400, after: 1 }]
    await withSims({ jobs: [{ id: 'job-1', activePolls: 1 }], faults }, {}, async (sim, gh) => {
      const step = (n: number, name: string, prompt: string) =>
        runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'message', 'job-id': 'job-1', prompt }),
          env: attempt(gh, n, name),
          ...pullRequestEvent(7)
        })
      expect((await step(1, 'fix-typo', 'Fix the typo')).code).toBe(0)
      expect((await step(1, 'add-faq', 'Add a FAQ')).code).toBe(1)
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Fix the typo'])
      // The one comment of job-1 kept the first step's record when the second wrote it.
      const first = await step(2, 'fix-typo', 'Fix the typo')
      expect(first.code).toBe(0)
      expect(annotationsOf(first, 'notice').join('\n')).toMatch(/earlier attempt already delivered/)
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Fix the typo'])
      const again = await step(2, 'add-faq', 'Add a FAQ')
      expect(errorsOf(again)).toEqual([])
      expect(again.stdout).not.toMatch(/earlier attempt already delivered/)
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Fix the typo', 'Add a FAQ'])
    })
  })

  it('two matrix legs (one step, a job-id each): the failed leg re-runs to its own job-id, never the other leg’s', async () => {
    const faults = [{ kind: 'message', status: 400, after: 1 }]
    const jobs = [
      { id: 'job-1', activePolls: 1 },
      { id: 'job-2', activePolls: 1 }
    ]
    await withSims({ jobs, faults }, {}, async (sim, gh) => {
      const leg = (n: number, jobId: string) =>
        runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'message', 'job-id': jobId, prompt: 'Fix the typo' }),
          env: attempt(gh, n),
          ...pullRequestEvent(7)
        })
      expect((await leg(1, 'job-1')).code).toBe(0)
      expect((await leg(1, 'job-2')).code).toBe(1)
      const again = await leg(2, 'job-2')
      expect(errorsOf(again)).toEqual([])
      expect(again.outputs['job-id']).toBe('job-2')
      expect(sim.jobs.get('job-2')?.messages).toEqual(['Fix the typo'])
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Fix the typo'])
    })
  })

  it('a failed job’s delivery is dropped by a newer record; a copy of the old one by another user blocks no retry', async () => {
    const service = { jobs: [], created: { finalStatus: 'failed' as const, prLink: null } }
    await withSims(service, {}, async (sim, gh) => {
      const run = (n: number) =>
        runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'create', prompt: 'Document the API' }),
          env: attempt(gh, n),
          ...pullRequestEvent(5)
        })
      expect((await run(1)).code).toBe(1)
      // The first write (working…) recorded the delivery; the ending a newer record dropping it.
      const writes = gh.requests.filter(q => q.method !== 'GET' && q.path.includes('/comments'))
      const working = String((writes[0]?.body as { body?: string }).body)
      const delivered = keysOf(working).find(k => k.startsWith('run/'))
      expect(delivered).toMatch(/^run\/proj-1\/777\/docs\/docs-agent\/.+\/created-1$/)
      const ending = botBodies(gh, 5).at(-1) ?? ''
      expect(keysOf(ending)).toContain(delivered?.replace(/created-1$/, ''))
      // Anyone can read a comment's edit history and post the old body again.
      gh.addComment(5, working, { login: 'mallory', type: 'User' })
      const again = await run(2)
      expect(creates(sim)).toBe(2)
      expect(again.stdout).not.toMatch(/earlier attempt already delivered/)
    })
  })
})

describe("only a record that the job opened it makes a merge the agent's own", () => {
  it('a human pull request that got one `/docs-agent` reply (`when-no-job: create`): the answer never says the agent opened it, and its merge starts a job', async () => {
    const service = { jobs: [], created: { activePolls: 1, prLink: PR(7) } }
    await withSims(service, { permissions: { octocat: 'write' } }, async (sim, gh) => {
      const t = triggerComment(gh, 7, '/docs-agent Add a FAQ')
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { command: 'message', 'when-no-job': 'create' }),
        env: attempt(gh, 1),
        ...t
      })
      expect(errorsOf(r)).toEqual([])
      expect(creates(sim)).toBe(1)
      const answers = botBodies(gh, 7).join('\n')
      expect(answers).not.toMatch(/opened this pull request/i)
      expect(answers).toMatch(/updated this pull request/)
      expect(keysOf(answers).filter(k => k.startsWith('opened/'))).toEqual([])
      const merge = await mergeOf(sim, gh, 7)
      expect(errorsOf(merge)).toEqual([])
      expect(merge.outputs.skipped).toBe('false')
      expect(creates(sim)).toBe(2)
    })
  })

  it('a human pull request the job already named before the follow-up: a route record, no record that it opened it; its merge starts a job', async () => {
    const jobs = [{ id: 'job-1', activePolls: 1, prLink: PR(8) }]
    await withSims({ jobs }, {}, async (sim, gh) => {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { command: 'message', 'job-id': 'job-1', prompt: 'Fix it' }),
        env: attempt(gh, 1),
        ...pullRequestEvent(7)
      })
      expect(errorsOf(r)).toEqual([])
      const record = botBodies(gh, 8).join('\n')
      expect(keysOf(record)).toEqual(['route/proj-1/job-1'])
      expect(record).not.toMatch(/opened this pull request/i)
      const merge = await mergeOf(sim, gh, 8)
      expect(merge.outputs.skipped).toBe('false')
      expect(creates(sim)).toBe(1)
    })
  })

  it.each([
    ['the creating run had `comment: false`', { comment: 'false' }, {}],
    ['the creating run timed out while the job worked on', { 'wait-timeout': '3s' }, {}],
    ['the merging run has `comment: false`', {}, { comment: 'false' }]
  ])(
    "the agent's pull request, when %s: its merge starts nothing",
    async (_name, creating, merging) => {
      // The job names its pull request while it still works, from its first poll on.
      const created = { activePolls: 30, earlyPrLink: true, prLink: PR(21) }
      await withSims({ jobs: [], created }, {}, async (sim, gh) => {
        await runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'create', prompt: 'Document it', ...creating }),
          env: attempt(gh, 1),
          ...pullRequestEvent(5, 'closed')
        })
        expect(creates(sim)).toBe(1)
        const record = botBodies(gh, 21).join('\n')
        expect(keysOf(record)).toContain('opened/proj-1/created-1')
        const merge = await mergeOf(sim, gh, 21, merging)
        expectSkippedAsOwn(merge)
        expect(creates(sim)).toBe(1)
        expect(leaks(merge, botBodies(gh, 21))).toEqual([])
      })
    }
  )

  it.each([
    ['did not wait (`wait: false`)', { wait: 'false' }],
    ['stopped waiting before the job named it', { 'wait-timeout': '3s' }]
  ])(
    "the agent's pull request, when the creating run %s: no run saw it, so its merge is not known as the agent's own; the recipe's bot guard skips that merge",
    async (_name, creating) => {
      // As a real job: no pull request in the create's answer; named after it has worked a while.
      const created = { activePolls: 200, earlyPrLink: 100, prLink: PR(21) }
      await withSims({ jobs: [], created }, {}, async (sim, gh) => {
        const r = await runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'create', prompt: 'Document it', ...creating }),
          env: attempt(gh, 1),
          ...pullRequestEvent(5, 'closed')
        })
        expect(creates(sim)).toBe(1)
        expect(r.outputs['pr-link'] ?? '').toBe('')
        expect(botBodies(gh, 21)).toEqual([])

        // The agent opens its pull requests as the service's bot: the merge recipe's `if:` is
        // false for that merge, so the action never runs on it.
        const merged = pullRequestEvent(21, 'closed', { user: AGENT })
        const recipe = jobConditions(readFileSync('examples/docs-on-merge.yml', 'utf8'))
        expect(recipe.map(j => runsOn(j.expr, { github: merged }))).toEqual([false])

        // Run all the same (a recipe without the guard), the action cannot tell this merge from
        // a human's: no "own work" notice, and `create` starts a second job.
        const merge = await mergeOf(sim, gh, 21, { wait: 'false' }, { user: AGENT })
        expect(errorsOf(merge)).toEqual([])
        expect(merge.outputs.skipped).toBe('false')
        expect(annotationsOf(merge, 'notice').join('\n')).not.toMatch(/own work/)
        expect(creates(sim)).toBe(2)
      })
    }
  )

  it.each([
    [
      'GitHub fails the listing',
      { failures: [{ method: 'GET', status: 502, times: Infinity }] },
      {}
    ],
    ['GitHub never answers', { failures: [{ method: 'GET', hang: true, times: Infinity }] }, {}],
    ['there is no token to ask with', {}, { 'github-token': '' }]
  ])(
    'a merge when %s: fails closed, nothing started, a warning says how to run it by hand',
    async (_name, github, merging) => {
      await withSims({ jobs: [] }, github, async (sim, gh) => {
        const r = await mergeOf(sim, gh, 21, { 'wait-timeout': '5s', ...merging })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
        expect(sim.requests).toEqual([])
        expect(annotationsOf(r, 'warning').join('\n')).toMatch(
          /Could not check whether the merged pull request #21 is the docs agent's own work .*no job was started.*by hand/
        )
      })
    }
  )
})

describe('markers count only where the action wrote them, outside code', () => {
  const place = { owner: 'octo', repo: 'docs', issueNumber: 7 }
  const routeKey = recordKey('route', { project: 'proj-1', job: 'job-9' })
  const route = makeMarker(routeKey, API_KEY, place, BOT.login, Date.now())
  const jobs = [{ id: 'job-9', activePolls: 1 }]

  /** A trigger without `job-id` on pull request 7, whose comments hold `body` by the action. */
  async function triggerAfter(body: string): Promise<{ r: RunResult; sim: Service }> {
    let out: { r: RunResult; sim: Service } | undefined
    await withSims({ jobs }, { permissions: { octocat: 'write' } }, async (sim, gh) => {
      gh.addComment(7, body, BOT)
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { command: 'message' }),
        env: attempt(gh, 1),
        ...triggerComment(gh, 7, '/docs-agent Fix the typo')
      })
      out = { r, sim }
    })
    return out!
  }

  it('a genuine route in a comment of the action’s own login, but inside a fence left open, routes nothing', async () => {
    const { r, sim } = await triggerAfter(`Notes\n\n\`\`\`text\n${route}`)
    expect(errorsOf(r).join('\n')).toMatch(/records no agent job/)
    expect(sim.jobs.get('job-9')?.messages).toEqual([])
  })

  it('the same route after a closed fence counts', async () => {
    const { r, sim } = await triggerAfter(`Notes\n\n\`\`\`text\nx\n\`\`\`\n\n${route}`)
    expect(errorsOf(r)).toEqual([])
    expect(sim.jobs.get('job-9')?.messages).toEqual(['Fix the typo'])
  })
})

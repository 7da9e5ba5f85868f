// Scenario tier (__tests__/runner.ts). Re-runs: "Re-run jobs" keeps GITHUB_RUN_ID and counts
// GITHUB_RUN_ATTEMPT up. An attempt whose earlier attempt delivered the instruction (its comment
// records the run and the job) follows that job and sends nothing; with nowhere to record it, a
// re-run sends again (the README says so). What the simulator received, the comments at the fake
// GitHub, outputs and notices.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  pullRequestEvent,
  triggerComment,
  withGitHub,
  withService,
  type GitHub,
  type Service
} from './support.js'

function inputs(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'api-key': SIM_API_KEY,
    'project-id': 'proj-1',
    'base-url': url,
    'poll-interval': '0.2',
    'wait-timeout': '20s',
    ...extra
  }
}

const botComments = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)

const attempt = (n: number, gh: GitHub) => ({
  GITHUB_API_URL: gh.url,
  GITHUB_RUN_ID: '777',
  GITHUB_RUN_ATTEMPT: String(n)
})

/** Attempt `n` of run 777 of the merge recipe on pull request 5. */
const mergeRun = (url: string, gh: GitHub, n: number) =>
  runScenario({
    inputs: inputs(url, { command: 'create', prompt: 'Document the new API' }),
    env: attempt(n, gh),
    ...pullRequestEvent(5, 'closed', { title: 'New API' })
  })

/** The jobs the simulator was asked to create. */
const createsSeen = (sim: Service) =>
  sim.requests.filter(q => q.method === 'POST' && /\/job$/.test(q.path)).length

describe('a re-run does not deliver the instruction twice', () => {
  it('a trigger whose wait timed out: the re-run follows the same job, sends nothing, and the one answer ends', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: [{ id: 'job-1', activePolls: 1_000_000 }] }, async sim => {
        const t = triggerComment(gh, 7, '/docs-agent Add a FAQ')
        const first = await runScenario({
          inputs: inputs(sim.url, { command: 'message', 'job-id': 'job-1', 'wait-timeout': '1s' }),
          env: attempt(1, gh),
          ...t
        })
        expect(first.code).toBe(1)
        expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a FAQ'])
        expect(botComments(gh, 7)[0]).toContain(
          'To wait for it again, [re-run the workflow](https://github.com/octo/docs/actions/runs/777): the re-run follows this job and sends nothing twice.'
        )
        // The job finishes on the service while nobody waits; then "Re-run jobs".
        sim.jobs.get('job-1')!.spec.activePolls = 0
        const posts = () => sim.requests.filter(q => q.method === 'POST').length
        const postsBefore = posts()
        const again = await runScenario({
          inputs: inputs(sim.url, { command: 'message', 'job-id': 'job-1' }),
          env: attempt(2, gh),
          ...t
        })
        expect(errorsOf(again)).toEqual([])
        expect(again.code).toBe(0)
        expect(posts()).toBe(postsBefore)
        expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a FAQ'])
        expect(again.outputs['job-id']).toBe('job-1')
        expect(again.outputs.status).toBe('completed')
        expect(annotationsOf(again, 'notice').join('\n')).toMatch(
          /attempt 2 of workflow run 777: an earlier attempt already delivered the instruction to job job-1, so it is not sent again/
        )
        // One answer for the one instruction, now with its ending.
        const answers = botComments(gh, 7)
        expect(answers).toHaveLength(1)
        expect(answers[0]).toMatch(/^### ✅/)
        expect(answers[0]).toContain('A re-run: an earlier attempt of this workflow run already')
      })
    })
  })

  it('create on a merged pull request: the re-run starts no second job', async () => {
    await withGitHub({}, async gh => {
      gh.addComment(5, 'Looks good', { login: 'octocat', type: 'User' })
      await withService({ jobs: [] }, async sim => {
        const run = (n: number) => mergeRun(sim.url, gh, n)
        const first = await run(1)
        expect(errorsOf(first)).toEqual([])
        const creates = () => createsSeen(sim)
        expect(creates()).toBe(1)
        const again = await run(2)
        expect(errorsOf(again)).toEqual([])
        expect(creates()).toBe(1)
        expect(again.outputs['job-id']).toBe(first.outputs['job-id'])
        expect(botComments(gh, 5)).toHaveLength(1)
      })
    })
  })

  it('create on a merged pull request whose job failed: the re-run is the retry the answer offers, a new job', async () => {
    await withGitHub({}, async gh => {
      // Read when each job is created: the first fails, the retry's job completes.
      const options = { jobs: [], created: { finalStatus: 'failed' as const, prLink: null } }
      await withService(options, async sim => {
        const run = (n: number) => mergeRun(sim.url, gh, n)
        const creates = () => createsSeen(sim)
        const first = await run(1)
        expect(first.code).toBe(1)
        expect(first.outputs.status).toBe('failed')
        expect(creates()).toBe(1)
        expect(botComments(gh, 5)[0]).toContain(
          'To try again, [re-run the workflow](https://github.com/octo/docs/actions/runs/777).'
        )
        options.created = { finalStatus: 'completed' as never, prLink: null }
        const again = await run(2)
        expect(errorsOf(again)).toEqual([])
        expect(again.code).toBe(0)
        expect(creates()).toBe(2)
        expect(again.outputs['job-id']).not.toBe(first.outputs['job-id'])
        expect(again.outputs.status).toBe('completed')
        // A third attempt follows the retry's job: it completed, so nothing is sent again.
        const third = await run(3)
        expect(third.code).toBe(0)
        expect(creates()).toBe(2)
        expect(third.outputs['job-id']).toBe(again.outputs['job-id'])
      })
    })
  })

  it('with nowhere to record the delivery (no comment), a re-run sends again, as the README says', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 0 }] }, async sim => {
      const run = (n: number) =>
        runScenario({
          inputs: inputs(sim.url, {
            command: 'message',
            'job-id': 'job-1',
            prompt: 'Fix the typo',
            comment: 'false'
          }),
          env: { GITHUB_RUN_ID: '778', GITHUB_RUN_ATTEMPT: String(n) },
          eventName: 'workflow_dispatch',
          event: { repository: { full_name: 'octo/docs' } }
        })
      expect((await run(1)).code).toBe(0)
      expect((await run(2)).code).toBe(0)
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Fix the typo', 'Fix the typo'])
    })
  })
})

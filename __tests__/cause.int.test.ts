// Scenario tier (__tests__/runner.ts). One send per cause (contract: "A pull request people can
// follow"): the same merged code pull request (its merge commit, from the dispatch payload or the
// `pull_request` event), the same trigger comment, or a re-run of the same step sends its
// instruction once. The repeat is skipped, says it was sent already and links the job's pull
// request; a different merge still sends. Counted at the simulator: creates and follow-ups.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { annotationsOf, errorsOf, type RunResult, type Service } from './support.js'
import { pullRequestEvent, triggerComment, withGitHub, withService } from './support.js'
import { dispatchEvent, dispatchPayload, startTwoRepositories } from './two-repositories.js'

const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
const SHA = 'a1b2c3d4e5f6a7b8'
const ONE_POLL = { jobs: [], created: { activePolls: 1 } }

/** What the simulator was sent: new jobs and follow-ups. */
const sends = (sim: Service) =>
  sim.requests.filter(q => q.method === 'POST' && /\/job(\/[^/]+\/message)?$/.test(q.path)).length

const NOTIFY = { 'notify-token': CODE_TOKEN, 'notify-repository': 'octo/api', context: 'true' }

const jobInputs = (sim: Service, command: 'create' | 'message') => ({
  command,
  'api-key': SIM_API_KEY,
  'project-id': 'proj-1',
  'base-url': sim.url,
  'poll-interval': '0.2'
})

const run = (n: number | string, attempt = 1) => ({
  GITHUB_RUN_ID: String(n),
  GITHUB_RUN_ATTEMPT: String(attempt)
})

function expectSentAlready(r: RunResult, cause: RegExp): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.code).toBe(0)
  expect(r.outputs.skipped).toBe('true')
  const notice = annotationsOf(r, 'notice').join('\n')
  expect(notice).toMatch(cause)
  expect(notice).toContain('was sent already')
}

/** The docs repository's dispatch recipe (examples/docs-repo-dispatch.yml) for a merge `sha`. */
async function withDispatch(
  service: Parameters<typeof withService>[0],
  body: (
    dispatch: (sha: string, env: Record<string, string>) => Promise<RunResult>,
    sim: Service,
    told: () => number
  ) => Promise<void>
): Promise<void> {
  const two = await startTwoRepositories({
    codeRepo: 'octo/api',
    code: { token: CODE_TOKEN, actorLogin: 'docs-notifier[bot]' }
  })
  try {
    await withService(service, async sim => {
      const dispatch = (sha: string, env: Record<string, string>) => {
        const pull = {
          number: 42,
          title: 'Add rate limits',
          html_url: 'https://github.com/octo/api/pull/42',
          merge_commit_sha: sha,
          body: 'Adds `limit`.'
        }
        return runScenario({
          eventName: 'repository_dispatch',
          event: dispatchEvent(dispatchPayload(pull, ['src/limits.ts'])),
          // The docs repository's recipe, examples/docs-repo-dispatch.yml.
          inputs: { ...jobInputs(sim, 'create'), prompt: 'Docs for this merge.', ...NOTIFY },
          env: { GITHUB_API_URL: two.url, ...env }
        })
      }
      await body(dispatch, sim, () => (two.code.comments.get(42) ?? []).length)
    })
  } finally {
    await two.close()
  }
}

describe('one send per cause', () => {
  it('a dispatch delivered twice for the same merge sends once; the second says so and links the pull request', async () => {
    await withDispatch(ONE_POLL, async (dispatch, sim, told) => {
      const first = await dispatch(SHA, run(101))
      expect(errorsOf(first)).toEqual([])
      expect(sends(sim)).toBe(1)
      const second = await dispatch(SHA, run(102))
      expect(sends(sim)).toBe(1)
      expectSentAlready(second, /the merge commit a1b2c3d4e5f6 /)
      expect(second.outputs['job-id']).toBe(first.outputs['job-id'])
      expect(second.outputs['pr-link']).toBe('https://github.com/octo/docs/pull/21')
      expect(second.summary).toContain(
        'Its pull request: [octo/docs#21](https://github.com/octo/docs/pull/21).'
      )
      expect(second.summary).toContain('(https://github.com/octo/docs/actions/runs/101)')
      // The code pull request keeps its one comment, untouched by the repeat.
      expect(told()).toBe(1)
    })
  })

  it('a re-run of the same dispatch step sends once', async () => {
    await withDispatch(ONE_POLL, async (dispatch, sim) => {
      expect((await dispatch(SHA, run(103, 1))).code).toBe(0)
      const again = await dispatch(SHA, run(103, 2))
      expect(sends(sim)).toBe(1)
      expectSentAlready(again, /the merge commit a1b2c3d4e5f6 /)
    })
  })

  it('a job that failed drops the record: the next dispatch of that merge is the retry and sends', async () => {
    const options = { jobs: [], created: { finalStatus: 'failed' as const, prLink: null } }
    await withDispatch(options, async (dispatch, sim) => {
      expect((await dispatch(SHA, run(106))).outputs.status).toBe('failed')
      const retry = await dispatch(SHA, run(107))
      expect(retry.outputs.skipped).not.toBe('true')
      expect(sends(sim)).toBe(2)
    })
  })

  it('a different merge sends again', async () => {
    await withDispatch(ONE_POLL, async (dispatch, sim) => {
      expect((await dispatch(SHA, run(104))).code).toBe(0)
      const other = await dispatch('ffee0011223344', run(105))
      expect(errorsOf(other)).toEqual([])
      expect(other.outputs.skipped).not.toBe('true')
      expect(sends(sim)).toBe(2)
    })
  })

  it('the same merged pull request in one repository (`pull_request` closed, twice) sends once', async () => {
    await withGitHub({}, async gh => {
      await withService({ jobs: [] }, async sim => {
        const merge = (n: number) =>
          runScenario({
            inputs: { ...jobInputs(sim, 'create'), prompt: 'Document the new API' },
            env: { GITHUB_API_URL: gh.url, ...run(n) },
            ...pullRequestEvent(5, 'closed', { title: 'New API', merge_commit_sha: SHA })
          })
        expect((await merge(201)).code).toBe(0)
        const again = await merge(202)
        expect(sends(sim)).toBe(1)
        expectSentAlready(again, /the merge commit a1b2c3d4e5f6 /)
        expect((gh.comments.get(5) ?? []).filter(c => c.user.type === 'Bot')).toHaveLength(1)
      })
    })
  })

  it('the same trigger comment delivered twice sends once', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: [{ id: 'job-1', activePolls: 0 }] }, async sim => {
        const t = triggerComment(gh, 7, '/docs-agent Add a FAQ')
        const answer = (n: number) =>
          runScenario({
            inputs: { ...jobInputs(sim, 'message'), 'job-id': 'job-1' },
            env: { GITHUB_API_URL: gh.url, ...run(n) },
            ...t
          })
        expect((await answer(301)).code).toBe(0)
        const again = await answer(302)
        expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a FAQ'])
        expect(sends(sim)).toBe(1)
        expectSentAlready(again, /trigger comment \d+ /)
        const answers = (gh.comments.get(7) ?? []).filter(c => c.user.type === 'Bot')
        expect(answers).toHaveLength(1)
        expect(answers[0]?.body).toMatch(/^### ✅/)
      })
    })
  })
})

// Scenario tier (__tests__/runner.ts). `notify-repository` bounds `notify-token` (contract:
// "Tokens, proxies and invisible text"), with the attack's own input: a forged
// `repository_dispatch` payload naming https://github.com/victim-org/secret-repo/pull/1 gets no
// request there (neither the comment nor the check's probe) and a warning naming both; the code
// repository's pull request is still told; a `notify-token` without `notify-repository` is
// refused before any request.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { annotationsOf, errorsOf, withService } from './support.js'
import { dispatchEvent, dispatchPayload, startTwoRepositories } from './two-repositories.js'

const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
const VICTIM = 'https://github.com/victim-org/secret-repo/pull/1'

const forged = (url: string) =>
  dispatchEvent(
    dispatchPayload({ number: 1, title: 'x', html_url: url, merge_commit_sha: 'a1', body: null }, [
      'a.ts'
    ])
  )

const inputs = (url: string, extra: Record<string, string> = {}) => ({
  command: 'create',
  'api-key': SIM_API_KEY,
  'project-id': 'proj-1',
  'base-url': url,
  prompt: 'Update the docs.',
  'notify-token': CODE_TOKEN,
  'notify-repository': 'octo/api',
  ...extra
})

describe('notify-repository', () => {
  it('a forged payload naming victim-org: nothing reaches it, a warning names both, the job still runs', async () => {
    // The fake GitHub's "code" side holds victim-org/secret-repo: every request naming it lands there.
    const two = await startTwoRepositories({
      codeRepo: 'victim-org/secret-repo',
      code: { token: CODE_TOKEN }
    })
    try {
      await withService({ jobs: [], created: { activePolls: 1 } }, async sim => {
        const dispatch = { eventName: 'repository_dispatch', event: forged(VICTIM) }
        const env = { GITHUB_API_URL: two.url }
        const r = await runScenario({ ...dispatch, inputs: inputs(sim.url), env })
        expect(r.code).toBe(0)
        const warned = annotationsOf(r, 'warning').filter(w => w.includes('notify-repository'))
        expect(warned).toHaveLength(1)
        expect(warned[0]).toContain('victim-org/secret-repo#1')
        expect(warned[0]).toContain('(octo/api)')
        expect(r.summary).toContain('The code pull request was not told')
        // `notify-pr` naming it instead: the same.
        const r2 = await runScenario({
          ...dispatch,
          inputs: inputs(sim.url, { 'notify-pr': VICTIM }),
          env
        })
        expect(r2.code).toBe(0)
        expect(annotationsOf(r2, 'warning').join('\n')).toContain(
          '`notify-pr` names victim-org/secret-repo#1'
        )
        // `check` does not probe it either: its line fails, naming both and what to set.
        const c = await runScenario({
          ...dispatch,
          inputs: { ...inputs(sim.url), command: 'check', prompt: '' },
          env
        })
        expect(c.code).toBe(1)
        expect(c.summary).toMatch(
          /\| ❌ \| `notify-token` may comment \| .*victim-org\/secret-repo#1.*octo\/api/
        )
        expect(c.summary).toContain('Set `notify-repository` to the code repository')
        expect(two.code.requests).toEqual([])
        expect(two.code.comments.size).toBe(0)
      })
    } finally {
      await two.close()
    }
  })

  it('the code repository named (any case) is still told', async () => {
    const two = await startTwoRepositories({ codeRepo: 'octo/api', code: { token: CODE_TOKEN } })
    try {
      await withService({ jobs: [], created: { activePolls: 1 } }, async sim => {
        const r = await runScenario({
          eventName: 'repository_dispatch',
          event: forged('https://github.com/octo/api/pull/1'),
          inputs: inputs(sim.url, { 'notify-repository': 'Octo/API' }),
          env: { GITHUB_API_URL: two.url }
        })
        expect(r.code).toBe(0)
        expect(two.code.comments.get(1)).toHaveLength(1)
        expect(annotationsOf(r, 'warning').join('\n')).not.toContain('notify-repository')
      })
    } finally {
      await two.close()
    }
  })

  it('`notify-token` without `notify-repository` is refused before any request, naming it', async () => {
    const two = await startTwoRepositories({ codeRepo: 'octo/api', code: { token: CODE_TOKEN } })
    try {
      await withService({ jobs: [] }, async sim => {
        for (const command of ['create', 'check']) {
          const r = await runScenario({
            eventName: 'repository_dispatch',
            event: forged(VICTIM),
            inputs: { ...inputs(sim.url, { 'notify-repository': '' }), command },
            env: { GITHUB_API_URL: two.url }
          })
          expect(r.code).toBe(1)
          expect(errorsOf(r).join('\n')).toMatch(
            /`notify-repository`.*required with `notify-token`/
          )
        }
        expect(sim.requests).toEqual([])
        expect(two.code.requests).toEqual([])
        expect(two.docs.requests).toEqual([])
      })
    } finally {
      await two.close()
    }
  })
})

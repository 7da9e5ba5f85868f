// Scenario tier (__tests__/runner.ts): `reviewers` (issue 50 item 2, contract "The preview and who
// reviews"). Once the job's pull request (#21) is known, one request asks who the input lists;
// `author` is whoever's change or request started the job: a merged pull request's author, a
// dispatch payload's `pull_request.user.login`. Someone GitHub will not ask (422: no
// collaborator) is a warning naming them, and the run goes on; a bad entry fails before any
// request, naming `reviewers`.
import { describe, it, expect } from '@jest/globals'
import { pullRequestEvent } from '../sim/github.js'
import { annotationsOf, errorsOf, withAgentJob } from './support.js'
import { dispatchEvent, dispatchPayload } from './two-repositories.js'

const FILES = { 21: ['api/limits.mdx'] }

/** The merge or dispatch recipe with `reviewers: author`; `extra` adds inputs or overrides. */
const asking = (extra: Record<string, string> = {}) => ({
  prompt: 'Update the docs for this change.',
  reviewers: 'author',
  ...extra
})

type Request = { method: string; path: string; body: unknown }
const asked = (gh: { requests: Request[] }) =>
  gh.requests
    .filter(q => q.method === 'POST' && q.path.endsWith('/requested_reviewers'))
    .map(q => ({ path: q.path, body: q.body }))

describe('reviewers', () => {
  it('`author` on a merge: the merged pull request’s author is asked on the agent’s pull request, once', async () => {
    const permissions = { 'octo-dev': 'write' as const }
    await withAgentJob(
      { permissions, pullFiles: FILES, pulls: { 5: { state: 'closed' as const } } },
      async ({ gh, create }) => {
        const r = await create(
          asking(),
          pullRequestEvent(5, 'closed', { user: { login: 'octo-dev', type: 'User' } })
        )
        expect(errorsOf(r)).toEqual([])
        expect(annotationsOf(r, 'warning')).toEqual([])
        expect(r.code).toBe(0)
        expect(asked(gh)).toEqual([
          {
            path: '/repos/octo/docs/pulls/21/requested_reviewers',
            body: { reviewers: ['octo-dev'], team_reviewers: [] }
          }
        ])
        expect(gh.reviewRequests.get(21)).toEqual({ users: ['octo-dev'], teams: [] })
        expect(r.stdout).toContain('Asked @octo-dev to review #21.')
      }
    )
  })

  it('`author` on a dispatch: the payload’s `pull_request.user.login`, with a team and a login', async () => {
    const permissions = { 'octo-dev': 'write' as const, hubot: 'read' as const }
    const pull = {
      number: 42,
      title: 'Add rate limits',
      html_url: 'https://github.com/octo/api/pull/42',
      merge_commit_sha: 'a1b2c3d4e5f6',
      body: '',
      user: { login: 'octo-dev' }
    }
    await withAgentJob(
      { permissions, pullFiles: FILES, teams: ['docs-writers'] },
      async ({ gh, create }) => {
        const r = await create(
          asking({ reviewers: 'author, @hubot, octo/docs-writers, mintlify[bot]' }),
          {
            eventName: 'repository_dispatch',
            event: dispatchEvent(dispatchPayload(pull, ['src/limits.ts']))
          }
        )
        expect(r.code).toBe(0)
        expect(annotationsOf(r, 'warning')).toEqual([])
        expect(asked(gh)).toEqual([
          {
            path: '/repos/octo/docs/pulls/21/requested_reviewers',
            body: { reviewers: ['octo-dev', 'hubot'], team_reviewers: ['docs-writers'] }
          }
        ])
        // A bot is left out, saying so.
        expect(r.stdout).toContain('`reviewers`: left out @mintlify[bot] (a bot cannot review).')
        expect(r.stdout).toContain('Asked @octo-dev, @hubot and octo/docs-writers to review #21.')
      }
    )
  })

  it('a 422 (not a collaborator): a warning naming who could not be asked and why; the others asked; exit 0', async () => {
    const permissions = { 'octo-dev': 'write' as const }
    await withAgentJob(
      { permissions, pullFiles: FILES, pulls: { 5: { state: 'closed' as const } } },
      async ({ gh, create }) => {
        const r = await create(
          asking({ reviewers: 'author, outsider' }),
          pullRequestEvent(5, 'closed', { user: { login: 'octo-dev', type: 'User' } })
        )
        expect(r.code).toBe(0)
        expect(errorsOf(r)).toEqual([])
        const warnings = annotationsOf(r, 'warning')
        expect(warnings).toHaveLength(1)
        expect(warnings[0]).toContain('`reviewers`: @outsider could not be asked to review #21:')
        expect(warnings[0]).toContain('Reviews may only be requested from collaborators')
        expect(warnings[0]).toContain('GitHub asks only collaborators of octo/docs')
        // Once together, then one by one: the collaborator is still asked.
        expect(asked(gh).map(q => q.body)).toEqual([
          { reviewers: ['octo-dev', 'outsider'], team_reviewers: [] },
          { reviewers: ['octo-dev'], team_reviewers: [] },
          { reviewers: ['outsider'], team_reviewers: [] }
        ])
        expect(gh.reviewRequests.get(21)).toEqual({ users: ['octo-dev'], teams: [] })
        expect(r.outputs.status).toBe('completed')
      }
    )
  })

  it('a bad entry fails the step naming `reviewers`, before any request', async () => {
    await withAgentJob({}, async ({ gh, sim, create }) => {
      const r = await create(
        asking({ reviewers: 'author, octo cat!' }),
        pullRequestEvent(5, 'closed')
      )
      expect(r.code).toBe(1)
      expect(errorsOf(r)[0]).toContain('Input `reviewers`: "cat!" is not a GitHub login')
      expect(sim.requests).toEqual([])
      expect(asked(gh)).toEqual([])
    })
  })
})

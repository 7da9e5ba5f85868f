// Scenario tier (__tests__/runner.ts). A `pr-link` on another host than this GitHub (issue 41,
// tried as a new user would on GitHub Enterprise Server): the job's pull request is on
// github.com while the workflow runs on ghe.example.com. The run says so (a warning naming both
// hosts), `pr-number` stays empty, no record claims the pull request on this GitHub, and the
// answer's link names the other host.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { pullRequestEvent } from '../sim/github.js'
import { runScenario } from './runner.js'
import { annotationsOf, withGitHub, withService } from './support.js'

const SERVER = 'https://ghe.example.com'

describe('a pull request on another host', () => {
  it('is said, naming both hosts, and not taken as a pull request of this repository', async () => {
    await withGitHub({ pathPrefix: '/api/v3', serverUrl: SERVER }, gh =>
      withService(
        {
          jobs: [],
          created: { activePolls: 1, prLink: 'https://github.com/octo/docs/pull/21' }
        },
        async sim => {
          gh.setPullFiles(7, [{ filename: 'docs/a.mdx' }])
          const r = await runScenario({
            ...pullRequestEvent(7, 'closed', { html_url: `${SERVER}/octo/docs/pull/7` }),
            inputs: {
              command: 'create',
              'api-key': SIM_API_KEY,
              'project-id': 'proj-1',
              'base-url': sim.url,
              prompt: 'Document it.'
            },
            env: {
              GITHUB_API_URL: gh.url,
              GITHUB_SERVER_URL: SERVER,
              GITHUB_REPOSITORY: 'octo/docs'
            }
          })
          expect(r.code).toBe(0)
          const warned = annotationsOf(r, 'warning').filter(w => w.includes('not on this GitHub'))
          expect(warned).toHaveLength(1)
          expect(warned[0]).toContain('is on github.com, not on this GitHub (ghe.example.com')
          expect(warned[0]).toContain('not taken as a pull request of octo/docs')
          expect(r.outputs['pr-link']).toBe('https://github.com/octo/docs/pull/21')
          expect(r.outputs['pr-number']).toBe('')
          // Nothing claims pull request 21 here: no record, no comment, no label on it.
          expect(gh.comments.get(21) ?? []).toEqual([])
          expect(gh.requests.filter(q => /\/(issues|pulls)\/21\b/.test(q.path))).toEqual([])
          expect(r.summary).toContain(
            '[github.com/octo/docs#21](https://github.com/octo/docs/pull/21)'
          )
        }
      )
    )
  })
})

// Scenario tier (__tests__/runner.ts). GitHub Enterprise Server (contract: "Proxies and GitHub
// Enterprise Server"): with the fake GitHub served under `/api/v3` and
// `GITHUB_SERVER_URL=https://ghe.example.com`, every GitHub call of a merge run, a trigger
// comment's follow-up, a report and a check reaches it (GraphQL at `/api/graphql` included), and
// every link the runs write in comments, summaries and outputs starts with that server.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { pullRequestEvent, triggerComment } from '../sim/github.js'
import { runScenario, type RunResult } from './runner.js'
import { withGitHub, withService } from './support.js'

const SERVER = 'https://ghe.example.com'
/**
 * Links that are not GitHub's: the docs platform's dashboard and API, and the simulated
 * analytics' hostile search text (shown as text, never as a link).
 */
const NOT_GITHUB = /^https:\/\/((app|api)\.mintlify\.com|evil\.example)/

describe('GitHub Enterprise Server', () => {
  it('every call goes to GITHUB_API_URL and every link to GITHUB_SERVER_URL', async () => {
    await withGitHub({ pathPrefix: '/api/v3', serverUrl: SERVER }, gh =>
      withService(
        {
          projects: ['proj-1'],
          jobs: [
            {
              id: 'job-1',
              activePolls: 1,
              prLink: `${SERVER}/octo/docs/pull/21`,
              repository: `${SERVER}/octo/docs`
            }
          ],
          created: {
            activePolls: 1,
            prLink: `${SERVER}/octo/docs/pull/22`,
            repository: `${SERVER}/octo/docs`
          }
        },
        async sim => {
          const env = {
            GITHUB_API_URL: gh.url,
            GITHUB_SERVER_URL: SERVER,
            GITHUB_REPOSITORY: 'octo/docs'
          }
          const common = { 'api-key': SIM_API_KEY, 'project-id': 'proj-1', 'base-url': sim.url }
          gh.setPullFiles(7, [{ filename: 'docs/a.mdx' }])
          const merged = pullRequestEvent(7, 'closed', { html_url: `${SERVER}/octo/docs/pull/7` })
          const trigger = triggerComment(gh, 8, '/docs-agent say more about limits')
          const issue = trigger.event.issue as { pull_request?: { html_url: string } }
          if (issue.pull_request) issue.pull_request.html_url = `${SERVER}/octo/docs/pull/8`
          const runs: RunResult[] = [
            await runScenario({
              ...merged,
              inputs: { ...common, command: 'create', prompt: 'Document it.', context: 'true' },
              env
            }),
            await runScenario({
              ...trigger,
              inputs: { ...common, command: 'message', 'job-id': 'job-1' },
              env
            }),
            await runScenario({
              inputs: { ...common, command: 'report', period: '7d', 'issue-number': '5' },
              env
            }),
            await runScenario({
              inputs: { ...common, command: 'check', 'issue-number': '5' },
              env
            })
          ]
          expect(runs.map(r => r.code)).toEqual([0, 0, 0, 0])
          expect(gh.requests.length).toBeGreaterThan(0)
          expect(gh.requests.filter(q => q.outside)).toEqual([])
          expect(gh.requests.some(q => q.path === '/api/graphql')).toBe(true)

          const written = [
            ...[...gh.comments.values()].flat().map(c => c.body),
            ...runs.flatMap(r => [r.summary, JSON.stringify(r.outputs)])
          ].join('\n')
          const links = [...written.matchAll(/https?:\/\/[^\s)>\]"'`|]+/g)].map(m => m[0])
          expect(links.length).toBeGreaterThan(5)
          const elsewhere = links.filter(
            url =>
              !url.startsWith(`${SERVER}/`) && !url.startsWith(sim.url) && !NOT_GITHUB.test(url)
          )
          expect(elsewhere).toEqual([])
        }
      )
    )
  })
})

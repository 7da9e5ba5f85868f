// Scenario tier: `command: check` with `checks` on asks GitHub once whether the workflow's token
// may list check runs (`checks: read`), and once whether it may list deployments
// (`deployments: read`, the preview), and names each permission when it may not; with `checks`
// off (the default) it asks nothing of the kind.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { pullRequestEvent } from '../sim/github.js'
import { runScenario } from './runner.js'
import { withGitHub, withService, type GitHub, type Service } from './support.js'

const SHA = 'a'.repeat(40)
const LINE = '| GitHub token may read check runs |'

async function check(sim: Service, gh: GitHub, checks: string) {
  return runScenario({
    inputs: {
      command: 'check',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      checks
    },
    env: { GITHUB_API_URL: gh.url, GITHUB_SHA: SHA },
    ...pullRequestEvent(5)
  })
}
const listed = (gh: GitHub) => gh.requests.filter(q => q.path.endsWith('/check-runs'))
const lineOf = (summary: string) => summary.split('\n').find(l => l.includes(LINE)) ?? ''

describe('command: check and `checks`', () => {
  it('a token without `checks: read`: the line fails and names the permission', async () => {
    const tokenPermissions = { issues: 'write', 'pull-requests': 'write' } as const
    await withGitHub({ tokenPermissions, pulls: { 5: { state: 'open' as const } } }, async gh =>
      withService({ projects: ['proj-1'] }, async sim => {
        const r = await check(sim, gh, 'require')
        expect(r.code).toBe(1)
        expect(listed(gh).map(q => q.path)).toEqual([`/repos/octo/docs/commits/${SHA}/check-runs`])
        expect(lineOf(r.summary)).toMatch(/GitHub refused to list check runs/)
        expect(r.summary).toContain("Add `checks: read` to the workflow's `permissions:`")
        const deployments = r.summary.split('\n').find(l => l.includes('may read deployments'))
        expect(deployments).toMatch(/GitHub refused to list deployments/)
        expect(r.summary).toContain("Add `deployments: read` to the workflow's `permissions:`")
      })
    )
  })

  it('with `checks: read` the line passes; with `checks: off` there is no line and no request', async () => {
    const tokenPermissions = {
      issues: 'write',
      'pull-requests': 'write',
      checks: 'read',
      deployments: 'read'
    } as const
    await withGitHub({ tokenPermissions, pulls: { 5: { state: 'open' as const } } }, async gh =>
      withService({ projects: ['proj-1'] }, async sim => {
        const r = await check(sim, gh, 'wait')
        expect(r.code).toBe(0)
        expect(lineOf(r.summary)).toMatch(/may list the check runs of aaaaaaa/)
        const off = await check(sim, gh, 'off')
        expect(off.code).toBe(0)
        expect(lineOf(off.summary)).toBe('')
        expect(listed(gh)).toHaveLength(1)
      })
    )
  })
})

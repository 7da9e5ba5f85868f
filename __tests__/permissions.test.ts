// Unit tier: a refusal from GitHub names what that call needs (github/permissions.ts): check runs
// `checks: read`, deployments `deployments: read`, a comment `issues: write` and
// `pull-requests: write`; and a refusal of `notify-token` names that token and
// `notify-repository`, never the workflow token's fix (contract: "Every recipe as shipped").
import { describe, it, expect } from '@jest/globals'
import { Deadline, systemClock } from '../src/deadline.js'
import { listCheckRuns } from '../src/github/checks.js'
import { postReply } from '../src/github/comments.js'
import { createOctokit } from '../src/github/octokit.js'
import { permissionFor, refusalAdvice } from '../src/github/permissions.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'
import { PLACE } from './github-support.js'

const API = 'https://api.github.com'
const GHES = 'https://ghe.example.com/api/v3'

describe('the permission a call needs', () => {
  it.each([
    ['GET', `${API}/repos/o/r/commits/abc123/check-runs?per_page=100`, 'checks: read'],
    ['GET', `${GHES}/repos/o/r/check-runs/7/annotations`, 'checks: read'],
    ['GET', `${API}/repos/o/r/deployments?sha=abc`, 'deployments: read'],
    ['GET', `${API}/repos/o/r/deployments/5/statuses`, 'deployments: read'],
    ['POST', `${API}/repos/o/r/pulls/3/requested_reviewers`, 'pull-requests: write'],
    ['GET', `${API}/repos/o/r/pulls/3/files`, 'pull-requests: read'],
    ['GET', `${API}/repos/o/r/commits?path=docs%2Fa.mdx`, 'contents: read'],
    ['GET', `${GHES}/repos/o/r/issues/12`, 'issues: read'],
    ['POST', `${API}/repos/o/r/issues/12/comments`, 'issues: write'],
    ['DELETE', `${API}/repos/o/r/issues/12/labels/Docs`, 'issues: write']
  ])('%s %s needs %s', (method, url, permission) => {
    expect(permissionFor(method, url)).toBe(permission)
  })

  it('knows no permission for a call it has no row for', () => {
    expect(permissionFor('POST', `${API}/graphql`)).toBeUndefined()
    expect(permissionFor('GET', 'not a url')).toBeUndefined()
  })

  it('names the permission, or the token and notify-repository', () => {
    expect(refusalAdvice(403, 'github-token', 'checks: read', 'o/r')).toContain(
      'add `checks: read` to the workflow’s `permissions:`'
    )
    expect(refusalAdvice(403, 'github-token', 'issues: write', 'o/r')).toContain(
      '`issues: write` and `pull-requests: write`'
    )
    const notify = refusalAdvice(403, 'notify-token', 'issues: write', 'octo/api')
    expect(notify).toContain('`notify-token` may not do this on octo/api')
    expect(notify).toContain('`notify-repository`')
    expect(notify).not.toContain('give the workflow')
    expect(refusalAdvice(401, 'notify-token', undefined, undefined)).toContain('invalid or expired')
  })
})

describe('a refusal through the action’s own client', () => {
  const pr = { owner: 'octo', repo: 'docs', number: 12 }

  it('names `checks: read` for check runs, not the comment fix', async () => {
    const gh = await startGitHub({
      failures: [{ method: 'GET', pathIncludes: '/check-runs', status: 403 }]
    })
    try {
      const octokit = createOctokit(
        SIM_GITHUB_TOKEN,
        'github-token',
        gh.url,
        'test',
        new Deadline(systemClock)
      )
      const error = await listCheckRuns(octokit, pr, 'abc1234').catch((e: unknown) => e)
      expect(String(error)).toContain('add `checks: read`')
      expect(String(error)).not.toContain('issues: write')
    } finally {
      await gh.close()
    }
  })

  it('names `notify-token` and `notify-repository` for the code side’s token', async () => {
    const gh = await startGitHub({
      failures: [{ method: 'POST', pathIncludes: '/comments', status: 403 }]
    })
    try {
      const octokit = createOctokit(
        SIM_GITHUB_TOKEN,
        'notify-token',
        gh.url,
        'test',
        new Deadline(systemClock)
      )
      const error = await postReply(octokit, PLACE, 'hello').catch((e: unknown) => e)
      expect(String(error)).toContain('`notify-token` may not do this on octo/docs')
      expect(String(error)).toContain('`notify-repository`')
      expect(String(error)).not.toContain('give the workflow')
    } finally {
      await gh.close()
    }
  })
})

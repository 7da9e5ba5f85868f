// Unit tier: the fake GitHub's permission model (sim/github-permissions.js), which the test of
// every recipe as shipped relies on: each call needs what GitHub's reference says (one of the
// permissions listed; write includes read; what a `permissions:` block does not name is none), a
// comment on a pull request may be written with `pull-requests: write` alone, and a refused call
// is answered as GitHub words it, for REST and for GraphQL's minimizeComment.
import { describe, it, expect } from '@jest/globals'
import { grantedBy, holds, permissionsFor, refusedBy } from '../sim/github-permissions.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const thread = {
  isPull: (n: number) => n === 5,
  issueOfComment: (id: number) => (id === 1 ? 5 : 12)
}
const at = (rest: string) => `/repos/octo/docs${rest}`

describe('the permission each call needs', () => {
  it('reads GitHub’s reference: checks, deployments, review requests, contents, issues and pulls', () => {
    const cases: [string, string, string[] | undefined][] = [
      ['GET', at('/commits/abc/check-runs'), ['checks: read']],
      ['GET', at('/check-runs/7/annotations'), ['checks: read']],
      ['GET', at('/deployments'), ['deployments: read']],
      ['GET', at('/deployments/3/statuses'), ['deployments: read']],
      ['POST', at('/pulls/5/requested_reviewers'), ['pull-requests: write']],
      ['GET', at('/pulls/5/files'), ['pull-requests: read']],
      ['GET', at('/commits'), ['contents: read']],
      ['POST', at('/issues/12/comments'), ['issues: write']],
      ['POST', at('/issues/5/comments'), ['issues: write', 'pull-requests: write']],
      ['PATCH', at('/issues/comments/1'), ['issues: write', 'pull-requests: write']],
      ['POST', at('/issues/comments/2/reactions'), ['issues: write']],
      ['POST', at('/pulls/comments/9/reactions'), ['pull-requests: write']],
      ['DELETE', at('/issues/5/labels/Docs%2FNeeded'), ['issues: write', 'pull-requests: write']],
      ['GET', at('/issues'), ['issues: read']],
      ['GET', at('/collaborators/octocat/permission'), []],
      ['GET', '/user', undefined]
    ]
    for (const [method, path, needs] of cases)
      expect({ method, path, needs: permissionsFor(method, path, thread) }).toEqual({
        method,
        path,
        needs
      })
  })

  it('grants as a `permissions:` block does: write includes read, the rest is none', () => {
    const granted = grantedBy({ contents: 'read', 'pull-requests': 'write' })
    expect(holds(granted, 'pull-requests: read')).toBe(true)
    expect(holds(granted, 'contents: write')).toBe(false)
    expect(holds(granted, 'checks: read')).toBe(false)
    expect(holds(grantedBy('read-all'), 'checks: read')).toBe(true)
    expect(holds(grantedBy('read-all'), 'issues: write')).toBe(false)
    expect(refusedBy(granted, 'POST', at('/issues/5/comments'), thread)).toBeUndefined()
    expect(refusedBy(granted, 'POST', at('/issues/12/comments'), thread)).toEqual(['issues: write'])
  })
})

describe('the fake GitHub refuses as GitHub words it', () => {
  it('answers 403 "Resource not accessible by integration", lists the call, and hides nothing it may not', async () => {
    const gh = await startGitHub({ tokenPermissions: { issues: 'read' } })
    try {
      const headers = { authorization: `token ${SIM_GITHUB_TOKEN}` }
      const res = await fetch(`${gh.url}/repos/octo/docs/commits/${'a'.repeat(40)}/check-runs`, {
        headers
      })
      expect(res.status).toBe(403)
      expect(await res.json()).toEqual({ message: 'Resource not accessible by integration' })
      expect(gh.refused).toEqual([
        {
          method: 'GET',
          path: `/repos/octo/docs/commits/${'a'.repeat(40)}/check-runs`,
          needs: ['checks: read']
        }
      ])
      const comment = gh.addComment(12, 'old report')
      const hide = await fetch(`${gh.url}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query:
            'mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized } } }',
          variables: { id: comment.node_id, classifier: 'OUTDATED' }
        })
      })
      expect(((await hide.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
        'Resource not accessible by integration'
      )
      expect(gh.minimized).toEqual([])
      // Given the permission, the same calls go through.
      gh.setTokenPermissions({ issues: 'write', checks: 'read' })
      const again = await fetch(`${gh.url}/repos/octo/docs/commits/${'a'.repeat(40)}/check-runs`, {
        headers
      })
      expect(again.status).toBe(200)
    } finally {
      await gh.close()
    }
  })
})

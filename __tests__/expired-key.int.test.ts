// Scenario tier (__tests__/runner.ts). A key that expired is said where people read (issue 40,
// contract "Keys"): a dispatch run tells the code pull request that the docs workflow's key was
// refused (401, expired) and how to replace it, never "re-run the docs workflow"; a weekly
// report that fails for the key leaves a short comment on its tracking issue saying so.
import { describe, it, expect } from '@jest/globals'
import { runScenario } from './runner.js'
import { withGitHub, withService } from './support.js'
import { dispatchEvent, dispatchPayload, startTwoRepositories } from './two-repositories.js'

const EXPIRED = 'mint_expired0123456789abcdef'
const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
const ISSUE = 12

describe('an expired key', () => {
  it('on a dispatch run: the code pull request names the cause and the fix', async () => {
    const two = await startTwoRepositories({ codeRepo: 'octo/api', code: { token: CODE_TOKEN } })
    try {
      await withService({ jobs: [], keys: { [EXPIRED]: 'expired' } }, async sim => {
        const payload = dispatchPayload(
          {
            number: 42,
            title: 'Add rate limits',
            html_url: 'https://github.com/octo/api/pull/42',
            merge_commit_sha: 'a1',
            body: null
          },
          ['src/limits.ts']
        )
        const r = await runScenario({
          eventName: 'repository_dispatch',
          event: dispatchEvent(payload),
          inputs: {
            command: 'create',
            'api-key': EXPIRED,
            'project-id': 'proj-1',
            'base-url': sim.url,
            prompt: 'Update the docs.',
            'notify-token': CODE_TOKEN,
            'notify-repository': 'octo/api'
          },
          env: { GITHUB_API_URL: two.url }
        })
        expect(r.code).toBe(1)
        const told = two.code.comments.get(42) ?? []
        expect(told).toHaveLength(1)
        const body = told[0]?.body ?? ''
        expect(body).toMatch(/refused .*401/)
        expect(body).toContain('expired')
        expect(body).toContain('DOCS_API_KEY')
        expect(body).not.toMatch(/Re-run the docs workflow to try again/)
      })
    } finally {
      await two.close()
    }
  })

  it('on a weekly report: its issue gets a short comment saying so', async () => {
    await withGitHub({}, gh =>
      withService({ keys: { [EXPIRED]: 'expired' } }, async sim => {
        const run = () =>
          runScenario({
            inputs: {
              command: 'report',
              'api-key': EXPIRED,
              'project-id': 'acme-docs',
              'base-url': sim.url,
              period: 'last-week',
              'issue-number': String(ISSUE)
            },
            env: { GITHUB_API_URL: gh.url }
          })
        const r = await run()
        expect(r.code).toBe(1)
        const comments = gh.comments.get(ISSUE) ?? []
        expect(comments).toHaveLength(1)
        const body = comments[0]?.body ?? ''
        expect(body).toMatch(/· not read\n\n🔑 On 20\d\d-\d\d-\d\d the service refused/)
        expect(body).toMatch(/refused the API key \(401\), so the report was not read/)
        expect(body).toContain('expired')
        expect(body).toContain('DOCS_API_KEY')
        expect(r.stdout).toMatch(/::error::.*401/)
        // A re-run still refused edits the one note.
        const again = await run()
        expect(again.code).toBe(1)
        expect(gh.comments.get(ISSUE)).toHaveLength(1)
      })
    )
  })
})

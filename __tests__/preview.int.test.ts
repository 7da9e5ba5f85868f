// Scenario tier (__tests__/runner.ts): the preview of the agent's pull request (issue 50 item 1,
// contract "The preview and who reviews"). The docs platform's GitHub app deploys the pull
// request's head (a deployment by `mintlify[bot]`, environment `staging`): building, then built
// with its `environment_url`, which the answer links with the pages the pull request changed.
// A deployment anyone else made is ignored; a failed build fails `checks: require`; no deployment
// at all is "none", said with why, and fails nothing. A 403 names `deployments: read`.
import { describe, it, expect } from '@jest/globals'
import { headSha, pullRequestEvent } from '../sim/github.js'
import { runScenario } from './runner.js'
import {
  AGENT_PR,
  botComments,
  createInputs,
  errorsOf,
  expectNoStack,
  withAgentJob,
  withService
} from './support.js'
import { dispatchEvent, dispatchPayload, startTwoRepositories } from './two-repositories.js'

const PREVIEW = 'https://acme-docs-docs-agent-21.mintlify.app'
const STYLE = {
  name: 'Mintlify: style',
  states: [{ status: 'in_progress' as const }, { status: 'completed' as const }]
}
const FILES = ['api/limits.mdx', 'snippets/limit-note.mdx', 'guides/index.mdx', 'docs.json']
const BUILT = {
  statuses: [
    { state: 'in_progress' as const },
    {
      state: 'success' as const,
      environment_url: PREVIEW,
      log_url: 'https://dashboard.mintlify.com/acme/deployments/7000'
    }
  ]
}

type Request = { method: string; path: string }
const deploymentReads = (gh: { requests: Request[] }) =>
  gh.requests.filter(q => q.method === 'GET' && /\/deployments(\/\d+\/statuses)?$/.test(q.path))

const github = (extra: Record<string, unknown> = {}) => ({
  checkRuns: { [headSha(21)]: [STYLE] },
  pullFiles: { 21: FILES },
  pulls: { 5: { state: 'open' as const } },
  ...extra
})

describe('the preview', () => {
  it('built: its link and the changed pages in the answer, the summary and the outputs', async () => {
    await withAgentJob(
      github({ deployments: { [headSha(21)]: [BUILT] } }),
      async ({ gh, create }) => {
        const r = await create({ checks: 'wait' })
        expectNoStack(r)
        expect(r.code).toBe(0)
        expect(r.outputs.checks).toBe('success')
        expect(r.outputs.preview).toBe('success')
        expect(r.outputs['preview-url']).toBe(`${PREVIEW}/`)
        const line =
          `**Preview:** ✅ built: [acme-docs-docs-agent-21.mintlify.app](${PREVIEW}/) · ` +
          `changed pages: [/api/limits](${PREVIEW}/api/limits), [/guides](${PREVIEW}/guides)`
        for (const text of [botComments(gh, 5)[0] ?? '', r.summary]) {
          expect(text).toContain(line)
          expect(text).toMatch(/### ✅ Opened \[#21\]/)
        }
        // Building at the first poll, built at the second: read until the verdict was in.
        expect(deploymentReads(gh).map(q => q.path.replace(/.*\/deployments/, ''))).toEqual([
          '',
          '/7000/statuses',
          '',
          '/7000/statuses'
        ])
      }
    )
  })

  it('a deployment someone else made is ignored: no preview (`none`, said), nothing fails', async () => {
    const forged = {
      creator: 'octocat',
      statuses: [{ state: 'success' as const, environment_url: 'https://evil.example.com' }]
    }
    const otherApp = { ...forged, creator: 'mintlify-preview[bot]' }
    await withAgentJob(
      github({ deployments: { [headSha(21)]: [forged, otherApp] } }),
      async ({ gh, create }) => {
        const r = await create({ checks: 'require' })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(r.outputs.preview).toBe('none')
        expect(r.outputs['preview-url']).toBe('')
        for (const text of [botComments(gh, 5)[0] ?? '', r.summary]) {
          expect(text).not.toContain('evil.example.com')
          expect(text).toContain(
            '**Preview:** none: the docs platform’s GitHub app made no deployment on its head ' +
              '(the plan may have no previews; or the build has not started yet)'
          )
          expect(text).toMatch(/### ✅ Opened \[#21\]/)
        }
        // Their statuses were never read.
        expect(deploymentReads(gh).filter(q => q.path.endsWith('/statuses'))).toEqual([])
      }
    )
  })

  it('a failed build under `require`: exit 1, the platform’s words and its log in the answer', async () => {
    const failed = {
      statuses: [
        { state: 'in_progress' as const },
        {
          state: 'failure' as const,
          description: 'Build failed: docs.json: navigation references missing page api/limits',
          log_url: 'https://dashboard.mintlify.com/acme/deployments/7000'
        }
      ]
    }
    await withAgentJob(
      github({ deployments: { [headSha(21)]: [failed] } }),
      async ({ gh, create }) => {
        const r = await create({ checks: 'require' })
        expectNoStack(r)
        expect(r.code).toBe(1)
        expect(r.outputs.checks).toBe('success')
        expect(r.outputs.preview).toBe('failure')
        expect(r.outputs['preview-url']).toBe('')
        const [error] = errorsOf(r)
        expect(error).toContain("the preview's build failed")
        expect(error).toContain('navigation references missing page api/limits')
        for (const text of [botComments(gh, 5)[0] ?? '', r.summary]) {
          expect(text).toMatch(/### ❌ Opened \[#21\]\([^)]+\) · its preview build failed/)
          expect(text).toContain(
            '**Preview:** ❌ the build failed “Build failed: docs.json: navigation references ' +
              'missing page api/limits” ([build log](https://dashboard.mintlify.com/acme/deployments/7000))'
          )
          expect(text).toContain('`checks` is `require`, so the step failed.')
        }
      }
    )
  })

  it('no deployment on a pull request to another branch, from a fork: `none`, said with why; `require` passes', async () => {
    const pulls = {
      5: { state: 'open' as const },
      21: { state: 'open' as const, base: 'release/2.x', fork: 'someone/docs' }
    }
    await withAgentJob(github({ pulls }), async ({ create }) => {
      const r = await create({ checks: 'require' })
      expect(r.code).toBe(0)
      expect(r.outputs.preview).toBe('none')
      expect(r.summary).toContain(
        '**Preview:** none: the docs platform’s GitHub app made no deployment on its head (it ' +
          'comes from a fork (someone/docs); it targets `release/2.x`, and previews are made for ' +
          'pull requests to the deployment branch (often `main`); the plan may have no ' +
          'previews; or the build has not started yet)'
      )
    })
  })

  it('a token without `deployments: read`: the 403 names it, the checks are still shown', async () => {
    const tokenPermissions = {
      issues: 'write' as const,
      'pull-requests': 'write' as const,
      checks: 'read' as const
    }
    await withAgentJob(
      github({ tokenPermissions, deployments: { [headSha(21)]: [BUILT] } }),
      async ({ create }) => {
        const r = await create({ checks: 'wait' })
        expect(r.code).toBe(0)
        expect(r.outputs.checks).toBe('success')
        expect(r.outputs.preview ?? '').toBe('')
        expect(r.summary).toContain('**Preview:** not read: GitHub: listing the deployments')
        expect(r.summary).toContain('add `deployments: read` to the workflow’s `permissions:`')
        expect(r.summary).toMatch(/### ⚠️ Opened \[#21\]\([^)]+\) · its preview was not read/)
      }
    )
  })
  it('a deployments listing GitHub fails once (502): read again at the next poll, then built', async () => {
    const failures = [{ method: 'GET', pathIncludes: '/deployments', status: 502 }]
    await withAgentJob(
      github({ failures, deployments: { [headSha(21)]: [BUILT] } }),
      async ({ gh, create }) => {
        const r = await create({ checks: 'wait' })
        expect(r.code).toBe(0)
        expect(r.outputs.preview).toBe('success')
        expect(r.stdout).toContain('Reading the preview failed, will read again')
        expect(deploymentReads(gh).filter(q => q.path.endsWith('/deployments'))).toHaveLength(3)
      }
    )
  })
})

describe('the preview where the code’s author reads', () => {
  it('the code pull request’s comment and the answer carry the checks and the preview', async () => {
    const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
    const two = await startTwoRepositories({
      codeRepo: 'octo/api',
      docs: github({ deployments: { [headSha(21)]: [BUILT] } }),
      code: { token: CODE_TOKEN, actorLogin: 'docs-notifier[bot]' }
    })
    try {
      const pull = {
        number: 42,
        title: 'Add rate limits',
        html_url: 'https://github.com/octo/api/pull/42',
        merge_commit_sha: 'a1b2c3d4e5f6',
        body: 'Adds `limit` to /v1/things.',
        user: { login: 'octo-dev' }
      }
      await withService({ jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }, async sim => {
        const r = await runScenario({
          eventName: 'repository_dispatch',
          event: dispatchEvent(dispatchPayload(pull, ['src/limits.ts'])),
          inputs: {
            ...createInputs(sim.url, { checks: 'wait' }),
            'notify-token': CODE_TOKEN,
            'notify-repository': 'octo/api'
          },
          env: { GITHUB_API_URL: two.url }
        })
        expect(r.code).toBe(0)
        const told = two.code.comments.get(42)?.[0]?.body ?? ''
        expect(told).toContain(
          '📝 Docs pull request: [octo/docs#21](https://github.com/octo/docs/pull/21)'
        )
        expect(told).toContain(
          `**[Checks](https://github.com/octo/docs/pull/21/checks):** ✅ 1 passed\n\n` +
            `**Preview:** ✅ built: [acme-docs-docs-agent-21.mintlify.app](${PREVIEW}/) · ` +
            `changed pages: [/api/limits](${PREVIEW}/api/limits), [/guides](${PREVIEW}/guides)`
        )
      })
    } finally {
      await two.close()
    }
  })
})

describe('the preview in a growth’s note', () => {
  it('a merge that grows the agent’s pull request: its note, posted at once, gets the checks and the preview once read', async () => {
    await withAgentJob(
      github({ deployments: { [headSha(21)]: [BUILT] } }),
      async ({ gh, create }) => {
        const merge = (n: number) => create({ checks: 'wait' }, pullRequestEvent(n, 'closed'))
        expect((await merge(5)).code).toBe(0)
        const grown = await merge(6)
        expect(grown.code).toBe(0)
        expect(grown.outputs.grew).toBe('true')
        const note = (gh.comments.get(21) ?? []).find(c =>
          c.body.startsWith('### ➕ This pull request grew')
        )
        expect(note?.body).toContain(
          `**[Checks](https://github.com/octo/docs/pull/21/checks):** ✅ 1 passed\n\n` +
            `**Preview:** ✅ built: [acme-docs-docs-agent-21.mintlify.app](${PREVIEW}/)`
        )
        // Written once, then edited with the verdict: one note, no second notification.
        const notes = (gh.comments.get(21) ?? []).filter(c =>
          c.body.startsWith('### ➕ This pull request grew')
        )
        expect(notes).toHaveLength(1)
      }
    )
  })
})

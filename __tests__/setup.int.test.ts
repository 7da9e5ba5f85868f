// Scenario tier (__tests__/runner.ts). The first day on the service: `command: check` verifies a
// set-up in at most 8 requests and starts nothing; each broken set-up fails naming what to change,
// with no secret anywhere. A `with:` key that action.yml does not declare fails the step naming
// the nearest input, before any request.
import fs from 'node:fs'
import { describe, it, expect, afterAll } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { SIM_GITHUB_TOKEN } from '../sim/github.js'
import { runScenario, type RunResult } from './runner.js'
import { holdsPart } from './leaks.js'
import {
  errorsOf,
  expectNoStack,
  pullRequestEvent,
  triggerComment,
  withGitHub,
  withService,
  type Service
} from './support.js'

const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

type Json = Record<string, unknown>

async function check(
  sim: Service,
  extra: Record<string, string> = {},
  more: { env?: Record<string, string>; event?: object; eventName?: string } = {}
): Promise<RunResult> {
  const r = await runScenario({
    inputs: {
      command: 'check',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      ...extra
    },
    ...more
  })
  tempDirs.push(r.tempDir)
  expectNoStack(r)
  // No secret anywhere: outputs, summary, log.
  const everything = [r.stdout, r.stderr, r.summary, JSON.stringify(r.outputs)].join('\n')
  for (const secret of [extra['api-key'] ?? SIM_API_KEY, SIM_GITHUB_TOKEN])
    expect(everything.replace(/::add-mask::.*/g, '')).not.toContain(secret)
  return r
}

const lineOf = (r: RunResult, check: string): string =>
  r.summary.split('\n').find(line => line.includes(`| ${check} |`)) ?? ''
const profileOf = (r: RunResult): { operations: Json[]; requests: number } =>
  JSON.parse(r.outputs['service-profile'] ?? '{}') as { operations: Json[]; requests: number }
const fixes = (r: RunResult): string =>
  r.summary.slice(r.summary.indexOf('### What to change'), r.summary.indexOf('### What the'))

describe('command: check', () => {
  it('a good set-up passes in 8 requests, starts nothing, and records what the service answered', async () => {
    await withService(
      { projects: ['proj-1'], rateLimitHeaders: true, cursorForm: 'url' },
      async sim => {
        const r = await check(sim)
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(sim.requests).toHaveLength(8)
        expect(r.outputs.requests).toBe('8')
        expect(sim.requests.every(q => q.method === 'GET')).toBe(true)
        expect(sim.requests.map(q => q.kind)).toEqual([
          'visitors',
          'views',
          'searches',
          'feedback',
          'assistant',
          'caller-stats',
          'job',
          // Last, so it never takes another probe's place: the report's feedback `status` filter.
          'feedback-comments'
        ])
        expect(r.summary).toMatch(/^## Set-up check · ✅ ready to read; agent jobs not verified\n/)
        expect(lineOf(r, 'Agent API')).toContain('404 for a job that does not exist')
        expect(lineOf(r, 'GitHub token may comment')).toContain('set `issue-number`')
        const profile = profileOf(r)
        expect(profile.requests).toBe(8)
        const by = (op: string) => profile.operations.find(o => o.operation === op)!
        expect(by('visitors')).toMatchObject({ status: 200, rows: 10, sorted: true })
        expect(by('searches')).toMatchObject({ cursor: 'url', ctr: 'percent', sorted: true })
        expect(by('agent')).toMatchObject({ status: 404 })
        expect(by('views').rateLimit).toMatchObject({ 'x-ratelimit-limit': '100' })
        // Counts and forms only: no row's content (paths, queries) in the output or the summary.
        expect(r.outputs['service-profile']).not.toMatch(/\/guides\/|"path"|searchQuery/)
        expect(r.summary).not.toMatch(/\/guides\/|how to/)
      }
    )
  })

  it('rate-limit headers only by their known names, clipped and redacted: no other service header name is shown', async () => {
    // A lower-case key (header names come lower-case) that the service echoes in header names.
    const key = 'mint_lowercase_key_0123456789abcdef'
    const extraHeaders: Record<string, string> = {
      [`x-ratelimit-${key}`]: '1',
      [key]: '2',
      'x-ratelimit-remaining': `93 ${key}`,
      'x-served-by': 'cache-fra-1'
    }
    for (let i = 0; i < 8; i++)
      extraHeaders[`x-ratelimit-${String(i).repeat(400)}`] = 'x'.repeat(500)
    await withService({ apiKey: key, projects: ['proj-1'], extraHeaders }, async sim => {
      const r = await check(sim, { 'api-key': key })
      expect(r.code).toBe(0)
      const everything = [r.stdout, r.stderr, r.summary, JSON.stringify(r.outputs)].join('\n')
      expect(holdsPart(everything.replace(/::add-mask::.*/g, ''), key)).toBe(false)
      const profile = r.outputs['service-profile']!
      const names = profileOf(r).operations.flatMap(o => Object.keys((o.rateLimit as Json) ?? {}))
      expect(new Set(names)).toEqual(new Set(['x-ratelimit-remaining']))
      expect(profile).not.toContain('x-served-by')
      expect(profile).not.toContain('0000')
      expect(r.summary).toContain('Rate-limit headers: `visitors`: x-ratelimit-remaining')
      expect(profile.length).toBeLessThan(4000)
    })
  })

  it('a bad key: fails at the first request naming the secret to update, nothing else sent', async () => {
    await withService({}, async sim => {
      const r = await check(sim, { 'api-key': 'mint_revoked_0000000000' })
      expect(r.code).toBe(1)
      expect(sim.requests).toHaveLength(1)
      expect(lineOf(r, 'API key accepted')).toMatch(
        /^\| ❌ \| API key accepted \| the service refuses the key: 401/
      )
      expect(fixes(r)).toMatch(
        /invalid or expired \(new keys expire after 90 days unless set otherwise\): .*\(https:\/\/app\.mintlify\.com\).*repository secret passed as `api-key`/
      )
      expect(errorsOf(r)[0]).toMatch(
        /^The set-up check found a problem: API key accepted: the service refuses the key: 401/
      )
    })
  })

  it('a wrong `base-url` path: names `base-url`, not `project-id`', async () => {
    await withService({ projects: ['proj-1'] }, async sim => {
      const r = await check(sim, { 'base-url': `${sim.url}/wrong` })
      expect(r.code).toBe(1)
      expect(sim.requests.length).toBeLessThanOrEqual(8)
      expect(lineOf(r, 'Service found')).toMatch(/^\| ❌ /)
      expect(fixes(r)).toContain('check `base-url`')
      expect(fixes(r)).not.toContain('`project-id`')
      expect(lineOf(r, 'Project found')).not.toMatch(/^\| ✅ /)
      expect(lineOf(r, 'Agent API')).not.toMatch(/^\| ✅ /)
    })
  })

  it('a key without `mint_` is sent, with a warning naming the prefix, and never called an admin key', async () => {
    await withService({ apiKey: 'abc123', projects: ['proj-1'] }, async sim => {
      const r = await check(sim, { 'api-key': 'abc123' })
      expect(sim.requests.length).toBeGreaterThan(0)
      expect(r.stdout).toMatch(/::warning::Input `api-key` does not start with `mint_`/)
      expect(r.summary).not.toContain('admin key (`mint_…`)')
      expect(lineOf(r, 'API key form')).toMatch(
        /^\| ❌ \| API key form \| a key without the `mint_`/
      )
    })
  })

  it.each([
    ['DOCS_API_KEY', /name of a secret/],
    ['sk-ant-api03-0123456789abcdef', /another AI service[\s\S]*`mint_`/],
    ['ghp_0123456789abcdefghijklmnopqrstuvwxyz', /GitHub token[\s\S]*`mint_`/]
  ])('`api-key: %s` fails before any request, naming the fix', async (key, words) => {
    await withService({ projects: ['proj-1'] }, async sim => {
      const r = await check(sim, { 'api-key': key })
      expect(r.code).toBe(1)
      expect(sim.requests).toHaveLength(0)
      expect(errorsOf(r).join('\n')).toMatch(words)
    })
  })

  it('a key of another organisation: every request refused, the fix names `project-id` and the organisation', async () => {
    const key = 'mint_otherorg_0123456789'
    await withService({ keys: { [key]: 'other-org' } }, async sim => {
      const r = await check(sim, { 'api-key': key })
      expect(r.code).toBe(1)
      expect(sim.requests.length).toBeLessThanOrEqual(8)
      expect(lineOf(r, 'API key accepted')).toContain('every request was refused: 403 Forbidden')
      expect(fixes(r)).toMatch(/another organisation than `project-id`/)
      expect(lineOf(r, 'Analytics: views')).toMatch(/^\| ❌ /)
      // Said once: the lines that follow from it point at it.
      expect(lineOf(r, 'Analytics: views')).toContain('refused (see “API key accepted”)')
      expect(r.summary).toMatch(/^## Set-up check · ❌ 1 to fix\n/)
    })
  })

  it('a wrong project: fails naming `project-id` as a variable, and stops there', async () => {
    await withService({ projects: ['proj-1'] }, async sim => {
      const r = await check(sim, { 'project-id': 'proj-9' })
      expect(r.code).toBe(1)
      expect(sim.requests).toHaveLength(1)
      expect(lineOf(r, 'Project found')).toContain(
        'proj-9 was not found: 404 Not Found: Project not found'
      )
      expect(fixes(r)).toMatch(
        /check `project-id` .*repository variable, e\.g\. `DOCS_PROJECT_ID`, not a secret/
      )
      expect(lineOf(r, 'Agent API')).toContain('not checked: see “Project found”')
    })
  })

  it('a plan without analytics: the analytics lines name the plan; the key and the agent pass', async () => {
    const refuse = { visitors: 403, views: 403, searches: 403, feedback: 403, assistant: 403 }
    await withService({ refuse }, async sim => {
      const r = await check(sim)
      expect(r.code).toBe(1)
      expect(sim.requests).toHaveLength(7)
      expect(lineOf(r, 'API key accepted')).toMatch(/^\| ✅ /)
      expect(lineOf(r, 'Agent API')).toMatch(/^\| ✅ /)
      expect(lineOf(r, 'Analytics: searches')).toContain('not available on your plan')
      // One thing to change, said once for the six operations.
      expect(fixes(r)).toMatch(
        /^### What to change\n\n1\. \*\*Analytics: visitors, views, searches, feedback by page, assistant questions, assistant callers\*\*: Your plan does not include this/
      )
      expect(r.summary).toMatch(/^## Set-up check · ❌ 1 to fix\n/)
    })
  })

  it('a token without `pull-requests: write`: the token line fails naming the permission', async () => {
    await withGitHub(
      {
        tokenPermissions: { issues: 'read', 'pull-requests': 'read' },
        pulls: { 5: { state: 'open' } }
      },
      async gh => {
        await withService({}, async sim => {
          const r = await check(
            sim,
            {},
            { env: { GITHUB_API_URL: gh.url }, ...pullRequestEvent(5) }
          )
          expect(r.code).toBe(1)
          expect(lineOf(r, 'GitHub token may comment')).toContain('GitHub refused a comment on #5')
          expect(fixes(r)).toMatch(/Add `pull-requests: write` to the workflow's `permissions:`/)
          // Nothing was written: the body-less comment was refused.
          expect(gh.comments.get(5) ?? []).toEqual([])
        })
      }
    )
    // With the right, the same check passes, and still writes nothing.
    await withGitHub(
      { tokenPermissions: { 'pull-requests': 'write' }, pulls: { 5: { state: 'open' } } },
      async gh => {
        await withService({}, async sim => {
          const r = await check(
            sim,
            {},
            { env: { GITHUB_API_URL: gh.url }, ...pullRequestEvent(5) }
          )
          expect(errorsOf(r)).toEqual([])
          expect(lineOf(r, 'GitHub token may comment')).toContain('may comment on #5')
          expect(gh.comments.get(5) ?? []).toEqual([])
        })
      }
    )
  })

  it('a GitHub that takes the empty probe comment: it is deleted at once, and the line says so', async () => {
    await withGitHub({ acceptsEmptyComment: true, pulls: { 5: { state: 'open' } } }, async gh => {
      await withService({}, async sim => {
        const r = await check(sim, {}, { env: { GITHUB_API_URL: gh.url }, ...pullRequestEvent(5) })
        expect(errorsOf(r)).toEqual([])
        expect(lineOf(r, 'GitHub token may comment')).toContain(
          "GitHub took the check's empty comment (github.com refuses one), and it was deleted at once"
        )
        // Created, then deleted: nothing left behind.
        expect(gh.requests.map(q => q.method).filter(m => m !== 'GET')).toContain('DELETE')
        expect(gh.comments.get(5) ?? []).toEqual([])
      })
    })
  })

  it('the hourly limit spent: one 429, the other analytics not asked, the agent still checked', async () => {
    await withService({ analyticsQuota: 0 }, async sim => {
      const r = await check(sim)
      expect(r.code).toBe(1)
      expect(sim.requests.map(q => q.kind)).toEqual(['visitors', 'job'])
      expect(fixes(r)).toMatch(
        /hourly analytics limit .* is spent now: run the check again within the hour/
      )
      expect(lineOf(r, 'Analytics: views')).toContain(
        'not checked: the hourly analytics limit is spent'
      )
    })
  })

  it('`max-requests` lower than 8 caps the check too', async () => {
    await withService({}, async sim => {
      const r = await check(sim, { 'max-requests': '3' })
      expect(sim.requests).toHaveLength(3)
      expect(r.summary).toContain('3 of at most 3 requests')
      expect(lineOf(r, 'Agent API')).toContain('not checked')
    })
  })
})

describe('unknown inputs', () => {
  it('`perod: last-week` fails naming `period`, before any request', async () => {
    await withService({}, async sim => {
      const r = await runScenario({
        inputs: {
          command: 'visitors',
          'api-key': SIM_API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          perod: 'last-week'
        }
      })
      tempDirs.push(r.tempDir)
      expect(r.code).toBe(1)
      expect(errorsOf(r)).toEqual([
        '`perod` is not an input of this action; did you mean `period`? Check the `with:` keys ' +
          'of this step against the inputs in the README.'
      ])
      expect(sim.requests).toHaveLength(0)
    })
  })

  it('a comment that is no trigger is skipped whatever the inputs; a trigger comment fails on them', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({}, async sim => {
        const inputs = {
          command: 'message',
          'api-key': SIM_API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          'job-id': 'job-123',
          'wait-timout': '5m'
        }
        const env = { GITHUB_API_URL: gh.url }
        const chatter = await runScenario({ inputs, env, ...triggerComment(gh, 3, 'Looks good!') })
        expect(chatter.code).toBe(0)
        expect(chatter.outputs.skipped).toBe('true')
        const trigger = await runScenario({
          inputs,
          env,
          ...triggerComment(gh, 3, '/docs-agent Fix the typo')
        })
        expect(trigger.code).toBe(1)
        expect(errorsOf(trigger)[0]).toMatch(
          /^`wait-timout` is not an input of this action; did you mean `wait-timeout`\?/
        )
        expect(sim.requests).toHaveLength(0)
      })
    })
  })
})

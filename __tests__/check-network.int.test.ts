// Scenario tier (__tests__/runner.ts). A check with no false green (contract: "Numbers a
// maintainer can trust"): behind a proxy that wants credentials, one that is down, one that allows
// no tunnels, one that inspects TLS, and with a `GITHUB_API_URL` that leads to a web page, no line
// is ✅ on an answer that never came; one line names the cause (the proxy by host:port) with its
// one fix. And the proxy rules (contract: "Tokens, proxies and invisible text"): a loopback target
// is reached directly past a corporate proxy; a secret is never sent over plain http through one.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario, type RunResult } from './runner.js'
import { closedPort, startProxy, type ProxyOptions } from './proxy.js'
import { withGitHub, withService } from './support.js'

const SERVICE = 'https://api.example.test'
const GHE = 'https://ghe.example.test/api/v3'

function check(baseUrl: string, env: Record<string, string>, key = SIM_API_KEY) {
  return runScenario({
    inputs: {
      command: 'check',
      'api-key': key,
      'project-id': 'proj-1',
      'base-url': baseUrl,
      'issue-number': '7'
    },
    env
  })
}

/** The numbered fixes under "What to change". */
const fixesOf = (r: RunResult): string[] =>
  (r.summary.split('### What to change')[1] ?? '').split('###')[0]!.match(/^\d+\. .*$/gm) ?? []

/** A check through a test proxy that maps the service's and GitHub's names to the simulators. */
async function behindProxy(
  options: ProxyOptions
): Promise<{ r: RunResult; port: number; sent: number }> {
  return withService({ projects: ['proj-1'] }, sim =>
    withGitHub({ pathPrefix: '/api/v3' }, async gh => {
      const proxy = await startProxy(
        { 'api.example.test': sim.port, 'ghe.example.test': gh.port },
        options
      )
      try {
        const r = await check(SERVICE, {
          GITHUB_API_URL: GHE,
          HTTPS_PROXY: `127.0.0.1:${proxy.port}`
        })
        return { r, port: proxy.port, sent: sim.requests.length + gh.requests.length }
      } finally {
        await proxy.close()
      }
    })
  )
}

/** Nothing green, every line that needed an answer not reached, one fix that names the proxy. */
function expectNotReached(r: RunResult, proxy: string): string {
  expect(r.code).not.toBe(0)
  expect(r.summary).not.toContain('✅')
  expect(r.summary).toContain(`| ❌ | Proxy | `)
  expect(r.summary).toContain('| ❌ | API key accepted | not reached')
  expect(r.summary).toContain('| ❌ | Agent API | not reached')
  expect(r.summary).toMatch(
    /GitHub token may comment \| not reached: GitHub's API at https&#58;⁠\/\/ghe\.example\.test\/api\/v3 \(through the proxy 127\.0\.0\.1:\d+\)/
  )
  // The cause first, before any other line.
  expect(r.summary.indexOf('| Proxy |')).toBeLessThan(r.summary.indexOf('| API key form |'))
  const fixes = fixesOf(r)
  expect(fixes).toHaveLength(1)
  expect(fixes[0]).toContain(proxy)
  expect(r.summary).not.toContain('base-url')
  expect(r.summary).toContain('0 of at most 8 requests')
  return fixes[0]!
}

describe('check behind a proxy that keeps requests away', () => {
  it('407: credentials in HTTPS_PROXY, or NO_PROXY; nothing reached the service or GitHub', async () => {
    const { r, port, sent } = await behindProxy({ credentials: 'u:p' })
    const fix = expectNotReached(r, `127.0.0.1:${port}`)
    expect(sent).toBe(0)
    // Said at once: the first probe got the proxy's answer, the others were not sent.
    expect(r.summary).toMatch(/\| `visitors` \| no answer \|/)
    expect(r.summary).toMatch(/\| `views` \| not sent \|/)
    expect(r.summary).toMatch(/\| `agent` \| not sent \|/)
    expect(r.summary).toContain(
      `the proxy 127.0.0.1:${port} answered 407 Proxy Authentication Required`
    )
    expect(fix).toContain(`\`HTTPS_PROXY\` as \`http://user:pass@127.0.0.1:${port}\``)
    expect(fix).toContain('api.example.test, ghe.example.test in `NO_PROXY`')
  })

  it('405: the proxy refuses tunnels', async () => {
    const { r, port, sent } = await behindProxy({ noTunnels: true })
    const fix = expectNotReached(r, `127.0.0.1:${port}`)
    expect(sent).toBe(0)
    expect(fix).toContain('refuses tunnels (CONNECT)')
  })

  it('a TLS-inspecting proxy: the cause passed through, and how to trust the CA', async () => {
    const { r, sent } = await behindProxy({ inspectTls: true })
    expect(sent).toBe(0)
    expect(r.summary).not.toContain('✅')
    expect(r.summary).toContain('(DEPTH_ZERO_SELF_SIGNED_CERT)')
    const fixes = fixesOf(r)
    expect(fixes).toHaveLength(1)
    expect(fixes[0]).toContain('`NODE_EXTRA_CA_CERTS`')
  })

  it('a proxy that is down is named by host and port', async () => {
    const port = await closedPort()
    const r = await check(SERVICE, { GITHUB_API_URL: GHE, HTTPS_PROXY: `127.0.0.1:${port}` })
    const fix = expectNotReached(r, `127.0.0.1:${port}`)
    expect(r.summary).toContain(`nobody answers at the proxy 127.0.0.1:${port}`)
    expect(fix).toContain('`HTTPS_PROXY`')
  })

  it('a plain http request the proxy answers 407 is the proxy’s answer, not the service’s', async () => {
    await withService({ projects: ['proj-1'] }, async sim => {
      const proxy = await startProxy({}, { credentials: 'u:p' })
      try {
        const r = await check(sim.url, { HTTP_PROXY: `127.0.0.1:${proxy.port}` })
        expect(sim.requests).toHaveLength(0)
        expect(r.summary).toContain('| ❌ | API key accepted | not reached')
        expect(r.summary).toContain(`answered 407`)
      } finally {
        await proxy.close()
      }
    })
  })
})

describe('check with a GITHUB_API_URL that leads to a web page', () => {
  it('names GITHUB_API_URL and the address used, not issue-number', async () => {
    await withGitHub({ pathPrefix: '/api/v3' }, gh =>
      withService({ projects: ['proj-1'] }, async sim => {
        const apiUrl = gh.url.replace(/\/api\/v3$/, '')
        const r = await check(sim.url, { GITHUB_API_URL: apiUrl })
        expect(r.code).not.toBe(0)
        expect(r.summary).toContain('| ✅ | API key accepted |')
        expect(r.summary).toMatch(
          /GitHub token may comment \| GitHub's API at http&#58;⁠\/\/127\.0\.0\.1:\d+ \(direct\) answered with a web page/
        )
        const fixes = fixesOf(r)
        expect(fixes).toHaveLength(1)
        expect(fixes[0]).toContain('`GITHUB_API_URL`')
        expect(fixes[0]).not.toContain('issue-number')
      })
    )
  })
})

describe('proxy rules', () => {
  it('a loopback base-url and GitHub are reached directly past a corporate proxy', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({}, async gh => {
        const corp = 'http://proxy.corp.example:8080'
        const r = await check(sim.url, {
          GITHUB_API_URL: gh.url,
          HTTP_PROXY: corp,
          HTTPS_PROXY: corp
        })
        expect(r.code).toBe(0)
        expect(sim.requests.length).toBeGreaterThan(0)
        expect(gh.requests.length).toBeGreaterThan(0)
        expect(r.summary).toContain('| ✅ | Proxy | none: direct connections')
      })
    )
  })

  it('a secret over plain http through a proxy that is not loopback: refused, naming NO_PROXY', async () => {
    const r = await check(SERVICE, {
      GITHUB_API_URL: 'http://ghe.example.test/api/v3',
      HTTP_PROXY: 'http://proxy.corp.example:8080'
    })
    expect(r.code).not.toBe(0)
    expect(r.stdout).toMatch(
      /::error::`GITHUB_API_URL` is plain http .*proxy\.corp\.example:8080.*`NO_PROXY`/
    )
  })
})

describe('a refusal before any request', () => {
  it('a secret name as the key still draws the check’s table', async () => {
    const r = await check(SERVICE, {}, 'DOCS_API_KEY')
    expect(r.code).not.toBe(0)
    expect(r.summary).toContain('## Set-up check · ❌')
    expect(r.summary).toContain('| ❌ | API key form |')
    expect(r.summary).toContain('`${{ secrets.NAME }}`')
    expect(r.summary).toContain('| ➖ | API key accepted | not checked')
    expect(r.summary).not.toContain('✅')
  })
})

describe('what the check cannot verify, said as such', () => {
  it('no “admin key” on its form alone; whether it may start jobs; notify-token without notify-pr', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({}, async gh => {
        const r = await runScenario({
          inputs: {
            command: 'check',
            'api-key': SIM_API_KEY,
            'project-id': 'proj-1',
            'base-url': sim.url,
            'issue-number': '7',
            'notify-token': 'ghp_codeRepoToken0123456789abcdef',
            'notify-repository': 'octo/api'
          },
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.summary).toContain('| ✅ | API key form | shaped as an admin key (`mint_…`) |')
        expect(r.summary).not.toContain('| ✅ | API key form | an admin key')
        expect(r.summary).toContain('| ➖ | Key may start agent jobs | not verified:')
        expect(r.summary).toMatch(
          /\| ➖ \| `notify-token` may comment \| not checked: `notify-token` is set but no code pull request is named\. Set `notify-pr`/
        )
      })
    )
  })
})

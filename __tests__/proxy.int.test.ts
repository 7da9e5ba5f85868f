// Scenario tier (__tests__/runner.ts). Proxies (contract: "Proxies and GitHub Enterprise
// Server"): `HTTPS_PROXY`/`HTTP_PROXY`, with or without a scheme, carry every request to the
// service and to GitHub through a real forwarding proxy (__tests__/proxy.ts counts them);
// `NO_PROXY` sends them past it; `check` names the proxy's host and port, never its credentials.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario, type RunResult } from './runner.js'
import { startProxy, type TestProxy } from './proxy.js'
import { withGitHub, withService, type GitHub, type Service } from './support.js'

async function withProxy<T>(
  hosts: Record<string, number>,
  body: (proxy: TestProxy) => Promise<T>
): Promise<T> {
  const proxy = await startProxy(hosts)
  try {
    return await body(proxy)
  } finally {
    await proxy.close()
  }
}

/** `check` on issue 7: the service's probes and GitHub's rights probe, with these variables. */
function check(sim: Service, gh: GitHub, env: Record<string, string>): Promise<RunResult> {
  return runScenario({
    inputs: {
      command: 'check',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      'issue-number': '7'
    },
    env: { GITHUB_API_URL: gh.url, ...env }
  })
}

const hitsOn = (proxy: TestProxy, port: number): number =>
  proxy.hits.filter(h => h.target.endsWith(`:${port}`)).length

describe('proxies', () => {
  it.each([
    ['without a scheme', (p: TestProxy) => `127.0.0.1:${p.port}`],
    ['with http://', (p: TestProxy) => `http://127.0.0.1:${p.port}`]
  ])('a proxy %s carries every request to the service and to GitHub', async (_, value) => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({}, gh =>
        withProxy({}, async proxy => {
          const r = await check(sim, gh, { HTTP_PROXY: value(proxy) })
          expect(r.code).toBe(0)
          expect(sim.requests.length).toBeGreaterThan(0)
          expect(hitsOn(proxy, sim.port)).toBe(sim.requests.length)
          expect(gh.requests.length).toBeGreaterThan(0)
          expect(hitsOn(proxy, gh.port)).toBe(gh.requests.length)
          expect(r.summary).toContain(
            `| Proxy | the service and GitHub through 127.0.0.1:${proxy.port}`
          )
          // The log says it for each (main.ts throughProxy: the proxy steps written once).
          for (const to of ['GitHub', 'the service'])
            expect(r.stdout).toContain(
              `Requests to ${to} go through the proxy 127.0.0.1:${proxy.port}.`
            )
        })
      )
    )
  })

  it('`NO_PROXY` naming the host sends nothing through the proxy', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({}, gh =>
        withProxy({}, async proxy => {
          const r = await check(sim, gh, {
            https_proxy: `127.0.0.1:${proxy.port}`,
            http_proxy: `127.0.0.1:${proxy.port}`,
            NO_PROXY: 'example.com, 127.0.0.1'
          })
          expect(r.code).toBe(0)
          expect(sim.requests.length).toBeGreaterThan(0)
          expect(gh.requests.length).toBeGreaterThan(0)
          expect(proxy.hits).toEqual([])
          expect(r.summary).toMatch(/\| Proxy \| none: direct connections/)
        })
      )
    )
  })

  it('credentials in the proxy address are sent to the proxy and never shown', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({}, gh =>
        withProxy({}, async proxy => {
          const password = 'pr0xy-s3cret-word'
          const r = await check(sim, gh, {
            HTTP_PROXY: `http://builder:${password}@127.0.0.1:${proxy.port}`
          })
          expect(r.code).toBe(0)
          expect(proxy.hits.length).toBe(sim.requests.length + gh.requests.length)
          expect(proxy.hits.every(h => h.authorized)).toBe(true)
          const shown = [r.stdout, r.stderr, r.summary, JSON.stringify(r.outputs)].join('\n')
          expect(shown.replace(/::add-mask::.*/g, '')).not.toContain(password)
          expect(shown).not.toContain('builder')
          expect(r.summary).toContain(`through 127.0.0.1:${proxy.port}`)
        })
      )
    )
  })

  it('`HTTPS_PROXY` without a scheme tunnels https requests (CONNECT) to the service and to GitHub', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withProxy({ 'api.example.test': sim.port, 'ghe.example.test': sim.port }, async proxy => {
        const r = await runScenario({
          inputs: {
            command: 'check',
            'api-key': SIM_API_KEY,
            'project-id': 'proj-1',
            'base-url': 'https://api.example.test',
            'issue-number': '7'
          },
          env: {
            GITHUB_API_URL: 'https://ghe.example.test/api/v3',
            HTTPS_PROXY: `127.0.0.1:${proxy.port}`
          }
        })
        // The simulators speak plain http, so no TLS session is made: what counts here is that
        // every attempt went to the proxy as a tunnel to the named host, none around it.
        expect(r.code).toBe(1)
        expect(sim.requests).toEqual([])
        const targets = new Set(proxy.hits.map(h => `${h.method} ${h.target}`))
        expect(targets).toEqual(
          new Set(['CONNECT api.example.test:443', 'CONNECT ghe.example.test:443'])
        )
        // The check names the proxy it went through (here in the line that says why nothing
        // was reached: the simulators answer no TLS).
        expect(r.summary).toMatch(
          new RegExp(`\\| Proxy \\| .*through the proxy 127\\.0\\.0\\.1:${proxy.port}`)
        )
      })
    )
  })
})

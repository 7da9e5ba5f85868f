// Scenario tier. scratch
import { it } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { startProxy } from './proxy.js'
import { withGitHub, withService } from './support.js'

const inputs = (base: string) => ({
  command: 'check', 'api-key': SIM_API_KEY, 'project-id': 'proj-1', 'base-url': base, 'issue-number': '7'
})
it('407', async () => {
  await withService({ projects: ['proj-1'] }, async sim => {
    const proxy = await startProxy({ 'api.example.test': sim.port, 'ghe.example.test': sim.port }, { credentials: 'u:p' })
    const r = await runScenario({ inputs: inputs('https://api.example.test'), env: { GITHUB_API_URL: 'https://ghe.example.test/api/v3', HTTPS_PROXY: `127.0.0.1:${proxy.port}` } })
    console.log('407 ----\n' + r.summary + r.stdout.split('\n').filter(l => l.startsWith('::')).join('\n'))
    const r2 = await runScenario({ inputs: inputs(sim.url), env: { GITHUB_API_URL: 'https://ghe.example.test/api/v3', HTTP_PROXY: `127.0.0.1:${proxy.port}` } })
    console.log('407 http ----\n' + r2.summary)
    await proxy.close()
  })
})
it('down', async () => {
  const r = await runScenario({ inputs: inputs('https://api.example.test'), env: { GITHUB_API_URL: 'https://ghe.example.test/api/v3', HTTPS_PROXY: `127.0.0.1:9` } })
  console.log('down ----\n' + r.summary + r.stdout.split('\n').filter(l => l.startsWith('::')).join('\n'))
})
it('tls', async () => {
  const proxy = await startProxy({}, { inspectTls: true })
  const r = await runScenario({ inputs: inputs('https://api.example.test'), env: { GITHUB_API_URL: 'https://ghe.example.test/api/v3', HTTPS_PROXY: `127.0.0.1:${proxy.port}` } })
  console.log('tls ----\n' + r.summary + r.stdout.split('\n').filter(l => l.startsWith('::')).join('\n'))
  await proxy.close()
})
it('wrong api url', async () => {
  await withGitHub({ pathPrefix: '/api/v3' }, gh => withService({ projects: ['proj-1'] }, async sim => {
    const r = await runScenario({ inputs: inputs(sim.url), env: { GITHUB_API_URL: gh.url.replace('/api/v3', '') } })
    console.log('apiurl ----\n' + r.summary + r.stdout.split('\n').filter(l => l.startsWith('::')).join('\n'))
  }))
})

// Unit tier: the simulator's agent-job parts behave as the real service does, so the integration
// tests that rely on them test something: create, the stale window after a follow-up, statuses
// added later, and why a key is refused. Plus the fake GitHub's pull request files.
import { describe, it, expect } from '@jest/globals'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'
import { withService, type Service } from './support.js'

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function call(
  sim: Service,
  method: string,
  path: string,
  key = SIM_API_KEY
): Promise<Answer> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify({ prompt: 'go' }) : undefined
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const JOB = '/v2/agent/p/job/j'
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

describe('simulator: agent jobs', () => {
  it('create: 201 with a new active job whose repository is a URL', async () => {
    await withService({ jobs: [] }, async sim => {
      const a = await call(sim, 'POST', '/v2/agent/p/job')
      expect(a.status).toBe(201)
      expect(a.body).toMatchObject({
        id: 'created-1',
        status: 'active',
        prLink: null,
        source: { repository: 'https://github.com/octo/docs', ref: 'main' }
      })
      expect(sim.jobs.get('created-1')?.createdWith).toBe('go')
      expect(sim.requests[0]?.kind).toBe('create')
    })
  })

  it('a job names the pull request it opens only after it has worked a while: never in the answer to its POST', async () => {
    const created = { activePolls: 5, earlyPrLink: 2, prLink: 'https://x/pull/21' }
    const jobs = [{ id: 'j', activePolls: 5, earlyPrLink: true, nextPrLink: 'https://x/pull/22' }]
    await withService({ jobs, created }, async sim => {
      const links = async (path: string) => {
        const seen = [(await call(sim, 'POST', path === JOB ? `${JOB}/message` : path)).body]
        const id = String(seen[0]?.id)
        for (let i = 0; i < 3; i++)
          seen.push((await call(sim, 'GET', `/v2/agent/p/job/${id}`)).body)
        return seen.map(j => `${String(j.status)} ${String(j.prLink)}`)
      }
      expect(await links('/v2/agent/p/job')).toEqual([
        'active null',
        'active null',
        'active https://x/pull/21',
        'active https://x/pull/21'
      ])
      expect(await links(JOB)).toEqual([
        'active null',
        'active https://x/pull/22',
        'active https://x/pull/22',
        'active https://x/pull/22'
      ])
    })
  })

  it('stale window: the old state (answer included) until it ends, then active, then the new link', async () => {
    const jobs = [
      {
        id: 'j',
        prLink: 'https://x/pull/1',
        nextPrLink: 'https://x/pull/2',
        staleMs: 300,
        activePolls: 1
      }
    ]
    await withService({ jobs }, async sim => {
      const answer = await call(sim, 'POST', `${JOB}/message`)
      expect(answer.body).toMatchObject({ status: 'completed', prLink: 'https://x/pull/1' })
      expect((await call(sim, 'GET', JOB)).body.status).toBe('completed')
      await sleep(350)
      const seen = []
      for (let i = 0; i < 3; i++) seen.push((await call(sim, 'GET', JOB)).body)
      expect(seen.map(j => j.status)).toEqual(['active', 'completed', 'completed'])
      expect(seen[2]?.prLink).toBe('https://x/pull/2')
    })
  })

  it('afterStale: unchanged keeps the old state for good; finished skips active', async () => {
    const jobs = [
      { id: 'u', prLink: 'https://x/pull/1', afterStale: 'unchanged' as const },
      {
        id: 'f',
        prLink: 'https://x/pull/1',
        nextPrLink: 'https://x/pull/5',
        staleMs: 0,
        afterStale: 'finished' as const
      }
    ]
    await withService({ jobs }, async sim => {
      await call(sim, 'POST', '/v2/agent/p/job/u/message')
      await call(sim, 'POST', '/v2/agent/p/job/f/message')
      for (let i = 0; i < 3; i++)
        expect((await call(sim, 'GET', '/v2/agent/p/job/u')).body).toMatchObject({
          status: 'completed',
          prLink: 'https://x/pull/1'
        })
      expect((await call(sim, 'GET', '/v2/agent/p/job/f')).body).toMatchObject({
        status: 'completed',
        prLink: 'https://x/pull/5'
      })
    })
  })

  it('queuedPolls: `queued` first, with no link, then active', async () => {
    await withService({ jobs: [{ id: 'j', queuedPolls: 2, activePolls: 1 }] }, async sim => {
      await call(sim, 'POST', `${JOB}/message`)
      const seen = []
      for (let i = 0; i < 4; i++) seen.push((await call(sim, 'GET', JOB)).body)
      expect(seen.map(j => j.status)).toEqual(['queued', 'queued', 'active', 'completed'])
      expect(seen[0]?.prLink).toBeNull()
    })
  })

  it('keys: expired 401; read-only reads but may not POST; an IP allowlist refuses all', async () => {
    const keys = { k_old: 'expired', k_ro: 'read-only', k_ip: 'ip-blocked' } as const
    const sim = await startService({ keys, jobs: [{ id: 'j' }] })
    try {
      expect((await call(sim, 'GET', JOB, 'k_old')).status).toBe(401)
      expect((await call(sim, 'GET', JOB, 'k_ro')).status).toBe(200)
      const refused = await call(sim, 'POST', `${JOB}/message`, 'k_ro')
      expect(refused.status).toBe(403)
      expect(refused.body.error).toMatch(/read-only/)
      expect((await call(sim, 'GET', JOB, 'k_ip')).body.error).toMatch(/IP address/)
      expect((await call(sim, 'GET', JOB, 'k_unknown')).status).toBe(401)
      expect(sim.jobs.get('j')?.messages).toEqual([])
    } finally {
      await sim.close()
    }
  })
})

describe('fake GitHub: pull request files', () => {
  it('pages of per_page with a Link header; 404 for an unknown pull request', async () => {
    const gh = await startGitHub({ pullFiles: { 3: 150 } })
    try {
      const get = (path: string) =>
        fetch(`${gh.url}${path}`, { headers: { authorization: `token ${SIM_GITHUB_TOKEN}` } })
      const first = await get('/repos/octo/docs/pulls/3/files?per_page=100')
      const files = (await first.json()) as { filename: string }[]
      expect(files).toHaveLength(100)
      expect(files[99]?.filename).toBe('docs/page-100.md')
      expect(first.headers.get('link')).toMatch(/page=2>; rel="next"/)
      const second = (await (
        await get('/repos/octo/docs/pulls/3/files?per_page=100&page=2')
      ).json()) as unknown[]
      expect(second).toHaveLength(50)
      expect((await get('/repos/octo/docs/pulls/4/files')).status).toBe(404)
    } finally {
      await gh.close()
    }
  })
})

// Unit tier: the service simulator and the fake GitHub behave as the real ones do.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals'
import { startService, generatedRow, SIM_API_KEY } from '../sim/service.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const auth = { authorization: `Bearer ${SIM_API_KEY}` }

describe('service simulator', () => {
  let sim: Awaited<ReturnType<typeof startService>>

  beforeAll(async () => {
    sim = await startService({
      prefix: '/api',
      jobs: [{ id: 'my job/1', activePolls: 1, finalStatus: 'archived', prLink: null }],
      rows: 120
    })
  })
  afterAll(async () => {
    await sim.close()
  })

  const job = `/v2/agent/${encodeURIComponent('proj x')}/job/${encodeURIComponent('my job/1')}`

  it('refuses a missing or wrong API key', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const res = await fetch(`${sim.url}${job}`, { headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 'Invalid or missing API key' })
    }
  })

  it('answers 404 outside the prefix and for unknown jobs', async () => {
    expect((await fetch(`http://127.0.0.1:${sim.port}${job}`, { headers: auth })).status).toBe(404)
    const res = await fetch(`${sim.url}/v2/agent/p/job/nope`, { headers: auth })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: 'Agent job not found' })
  })

  it('takes a message, stays active for the configured polls, then turns final', async () => {
    const bad = await fetch(`${sim.url}${job}/message`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: '' })
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({
      error: 'Invalid request body: prompt must be a string of at least 1 character'
    })

    const posted = await fetch(`${sim.url}${job}/message`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Fix the typo' })
    })
    expect(posted.status).toBe(200)
    expect(await posted.json()).toMatchObject({ id: 'my job/1', status: 'active', prLink: null })
    expect(sim.jobs.get('my job/1')?.messages).toEqual(['Fix the typo'])

    const poll = async () =>
      (await (await fetch(`${sim.url}${job}`, { headers: auth })).json()) as Record<string, unknown>
    expect((await poll()).status).toBe('active')
    const final = await poll()
    expect(final.status).toBe('archived')
    expect(final.prLink).toBeNull()
    expect(typeof final.archivedAt).toBe('string')
    expect(sim.requests.at(-1)).toMatchObject({
      kind: 'job',
      projectId: 'proj x',
      jobId: 'my job/1'
    })
  })

  it('pages visitors with hasMore and a deduplicated total, and validates the query', async () => {
    const get = (query: string) =>
      fetch(`${sim.url}/v1/analytics/p/visitors?${query}`, { headers: auth })
    const first = (await (await get('limit=100')).json()) as {
      totals: { human: number; ai: number; total: number }
      visitors: { path: string; human: number; ai: number; total: number }[]
      hasMore: boolean
    }
    expect(first.visitors).toHaveLength(100)
    expect(first.visitors[0]).toEqual(generatedRow(0))
    expect(first.hasMore).toBe(true)
    for (const row of first.visitors) {
      expect(row.total).toBeGreaterThanOrEqual(Math.max(row.human, row.ai))
      expect(row.total).toBeLessThanOrEqual(row.human + row.ai)
    }
    expect(first.totals.total).toBeLessThan(first.totals.human + first.totals.ai)
    const last = (await (await get('limit=100&offset=100')).json()) as {
      visitors: unknown[]
      hasMore: boolean
    }
    expect(last.visitors).toHaveLength(20)
    expect(last.hasMore).toBe(false)
    for (const query of ['limit=251', 'offset=-1', 'limit=0', 'dateFrom=nope']) {
      const res = await get(query)
      expect(res.status).toBe(400)
    }
    // No undocumented 400 for a range whose end is not after its start.
    expect((await get('dateFrom=2025-02-01&dateTo=2025-01-01')).status).toBe(200)
    expect((await get('dateFrom=2025-01-01&dateTo=2025-02-01T00:00:00Z')).status).toBe(200)
  })

  it('applies a fault rule once, with its headers', async () => {
    sim.setFaults([{ kind: 'visitors', status: 503, headers: { 'Retry-After': '1' } }])
    const url = `${sim.url}/v1/analytics/p/visitors`
    const faulted = await fetch(url, { headers: auth })
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get('retry-after')).toBe('1')
    await faulted.text()
    expect((await fetch(url, { headers: auth })).status).toBe(200)
    expect(sim.requests.filter(r => r.fault).length).toBe(1)
  })

  it('does not store a message rejected by a fault but stores one reset after reading', async () => {
    sim.setFaults([
      { kind: 'message', status: 500 },
      { kind: 'message', reset: 'after-read' }
    ])
    const post = () =>
      fetch(`${sim.url}${job}/message`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'again' })
      })
    const before = sim.jobs.get('my job/1')?.messages.length ?? 0
    expect((await post()).status).toBe(500)
    expect(sim.jobs.get('my job/1')?.messages.length).toBe(before)
    await expect(post()).rejects.toThrow()
    expect(sim.jobs.get('my job/1')?.messages.length).toBe(before + 1)
  })

  it('refuses connections for a while, then recovers on the same port', async () => {
    sim.setFaults([])
    await sim.refuseFor(300)
    const err = await fetch(`${sim.url}${job}`, { headers: auth }).then(
      () => undefined,
      (e: Error & { cause?: { code?: string } }) => e
    )
    expect(err?.cause?.code).toBe('ECONNREFUSED')
    await new Promise(resolve => setTimeout(resolve, 400))
    expect((await fetch(`${sim.url}${job}`, { headers: auth })).status).toBe(200)
  })
})

describe('GitHub simulator', () => {
  let gh: Awaited<ReturnType<typeof startGitHub>>
  const headers = { authorization: `token ${SIM_GITHUB_TOKEN}`, 'content-type': 'application/json' }

  beforeAll(async () => {
    gh = await startGitHub({ permissions: { alice: 'maintain', bob: 'triage' } })
    for (let i = 0; i < 35; i++) gh.addComment(5, `comment ${i}`)
  })
  afterAll(async () => {
    await gh.close()
  })

  it('paginates comments with a Link header', async () => {
    const base = `${gh.url}/repos/octo/docs/issues/5/comments`
    const first = await fetch(base, { headers })
    const link = first.headers.get('link') ?? ''
    expect(link).toContain(`<${base}?per_page=30&page=2>; rel="next"`)
    expect(link).toContain('rel="last"')
    expect((await first.json()) as unknown[]).toHaveLength(30)
    const second = await fetch(`${base}?per_page=30&page=2`, { headers })
    expect(second.headers.get('link')).not.toContain('rel="next"')
    expect(((await second.json()) as { body: string }[]).map(c => c.body)).toEqual(
      [30, 31, 32, 33, 34].map(i => `comment ${i}`)
    )
  })

  it('creates comments as the bot and rejects bodies over 65536 characters', async () => {
    const url = `${gh.url}/repos/octo/docs/issues/9/comments`
    const ok = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ body: 'hi' }) })
    expect(ok.status).toBe(201)
    expect(await ok.json()).toMatchObject({ body: 'hi', user: { login: 'github-actions[bot]' } })
    const big = JSON.stringify({ body: 'x'.repeat(65537) })
    expect((await fetch(url, { method: 'POST', headers, body: big })).status).toBe(422)
  })

  it('answers the permission endpoint with legacy and exact roles', async () => {
    const perm = async (login: string) =>
      fetch(`${gh.url}/repos/octo/docs/collaborators/${login}/permission`, { headers })
    expect(await (await perm('alice')).json()).toEqual({
      permission: 'write',
      role_name: 'maintain',
      user: { login: 'alice' }
    })
    expect(((await (await perm('bob')).json()) as { permission: string }).permission).toBe('read')
    expect((await perm('mallory')).status).toBe(404)
    const unauth = await fetch(`${gh.url}/repos/octo/docs/collaborators/alice/permission`)
    expect(unauth.status).toBe(401)
  })

  it('asks reviewers as GitHub does: 422 for the author, a bot, a non-collaborator or an unknown team; nobody asked then', async () => {
    const ask = (n: number, body: unknown) =>
      fetch(`${gh.url}/repos/octo/docs/pulls/${n}/requested_reviewers`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body)
      })
    gh.pulls.set(30, { state: 'open', user: 'alice' })
    const message = async (r: Response) => ((await r.json()) as { message: string }).message
    const author = await ask(30, { reviewers: ['alice'] })
    expect(author.status).toBe(422)
    expect(await message(author)).toBe('Review cannot be requested from pull request author.')
    for (const body of [
      { reviewers: ['bob', 'mallory'] },
      { reviewers: ['renovate[bot]'] },
      { team_reviewers: ['writers'] }
    ]) {
      const refused = await ask(30, body)
      expect(refused.status).toBe(422)
      expect(await message(refused)).toMatch(/^Reviews may only be requested from collaborators/)
    }
    expect(gh.reviewRequests.get(30)).toBeUndefined()
    expect((await ask(30, { reviewers: ['bob'] })).status).toBe(201)
    expect(gh.reviewRequests.get(30)).toEqual({ users: ['bob'], teams: [] })
  })

  it('lists deployments by sha and environment, newest first, each status read showing the next', async () => {
    gh.setDeployments('d'.repeat(40), [
      {
        statuses: [{ state: 'in_progress' }, { state: 'success', environment_url: 'https://p.dev' }]
      },
      { creator: 'octocat', environment: 'production', statuses: [] }
    ])
    const get = async <T>(path: string) =>
      (await (await fetch(`${gh.url}/repos/octo/docs${path}`, { headers })).json()) as T
    type Deployment = { id: number; creator: { login: string; type: string }; environment: string }
    const all = await get<Deployment[]>(`/deployments?sha=${'d'.repeat(40)}`)
    expect(all.map(d => [d.creator.login, d.creator.type, d.environment])).toEqual([
      ['octocat', 'User', 'production'],
      ['mintlify[bot]', 'Bot', 'staging']
    ])
    const staging = await get<Deployment[]>(
      `/deployments?sha=${'d'.repeat(40)}&environment=staging`
    )
    expect(staging).toHaveLength(1)
    const statuses = (id: number) => get<{ state: string }[]>(`/deployments/${id}/statuses`)
    expect((await statuses(staging[0]!.id)).map(s => s.state)).toEqual(['in_progress'])
    expect((await statuses(staging[0]!.id)).map(s => s.state)).toEqual(['success', 'in_progress'])
    expect(await get('/deployments?sha=' + 'e'.repeat(40))).toEqual([])
  })

  it('pages check runs with `total_count`: a read is its first page', async () => {
    const sha = 'f'.repeat(40)
    gh.setCheckRuns(
      sha,
      Array.from({ length: 150 }, (_, i) => ({
        name: `c${i}`,
        states: [{ status: 'in_progress' as const }, { status: 'completed' as const }]
      }))
    )
    type Page = { total_count: number; check_runs: { name: string; status: string }[] }
    const page = async (n: number) =>
      (await (
        await fetch(`${gh.url}/repos/octo/docs/commits/${sha}/check-runs?per_page=100&page=${n}`, {
          headers
        })
      ).json()) as Page
    const [one, two] = [await page(1), await page(2)]
    expect([one.total_count, one.check_runs.length, two.check_runs.length]).toEqual([150, 100, 50])
    expect(two.check_runs.every(r => r.status === 'in_progress')).toBe(true)
    expect((await page(1)).check_runs[0]?.status).toBe('completed')
    expect(gh.checkReads.get(sha)).toBe(2)
  })
})

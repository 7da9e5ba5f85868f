// Unit tier: the test doubles for proxies, GitHub Enterprise Server and two repositories (support
// for the scenarios of the contract's "Two repositories" and "Proxies and GitHub Enterprise
// Server") do what those scenarios rely on: the proxy forwards and counts, and reaches only
// loopback; the fake GitHub serves under /api/v3 and links to the server it is told; the two
// repositories keep their comments apart; the dispatch payload is clipped as the recipe clips it.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import http from 'node:http'
import { SIM_GITHUB_TOKEN, startGitHub } from '../sim/github.js'
import { startProxy } from './proxy.js'
import { dispatchPayload, startTwoRepositories } from './two-repositories.js'

const auth = { authorization: `token ${SIM_GITHUB_TOKEN}`, 'content-type': 'application/json' }

/** One HTTP exchange, through `proxy` when given (absolute-URI form), as a proxied client sends it. */
function send(
  url: string,
  o: { method?: string; body?: unknown; proxy?: number } = {}
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: o.proxy ?? target.port,
        method: o.method ?? 'GET',
        path: o.proxy ? url : target.pathname + target.search,
        headers: { ...auth, host: target.host }
      },
      res => {
        let body = ''
        res.setEncoding('utf8').on('data', d => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
      }
    )
    req.on('error', reject)
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body))
  })
}

/** A CONNECT tunnel through the proxy, then one GET inside it. */
function viaTunnel(proxyPort: number, target: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: target
    })
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return resolve(res.statusCode ?? 0)
      const inner = http.request(
        { createConnection: () => socket, path, headers: { ...auth, host: target } },
        answer => {
          answer.resume()
          answer.on('end', () => {
            socket.destroy()
            resolve(answer.statusCode ?? 0)
          })
        }
      )
      inner.on('error', reject)
      inner.end()
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the test proxy', () => {
  it('forwards absolute-URI requests and CONNECT tunnels to loopback, counting each', async () => {
    const gh = await startGitHub({ pullFiles: { 3: ['a.md'] } })
    const proxy = await startProxy({ 'ghe.example.test': gh.port })
    try {
      const direct = await send(`${gh.url}/repos/octo/docs/pulls/3/files`, { proxy: proxy.port })
      expect(direct.status).toBe(200)
      expect(
        await viaTunnel(proxy.port, `127.0.0.1:${gh.port}`, '/repos/octo/docs/pulls/3/files')
      ).toBe(200)
      // A name only the proxy knows: the client never resolves it.
      const named = await send('http://ghe.example.test/repos/octo/docs/pulls/3/files', {
        proxy: proxy.port
      })
      expect(named.status).toBe(200)
      expect(proxy.hits.map(h => `${h.method} ${h.target}`)).toEqual([
        `GET 127.0.0.1:${gh.port}`,
        `CONNECT 127.0.0.1:${gh.port}`,
        'GET ghe.example.test'
      ])
      expect(gh.requests).toHaveLength(3)
    } finally {
      await proxy.close()
      await gh.close()
    }
  })

  it('reaches nothing but loopback', async () => {
    const proxy = await startProxy()
    try {
      expect((await send('http://example.com/', { proxy: proxy.port })).status).toBe(403)
      expect(await viaTunnel(proxy.port, 'example.com:443', '/')).toBe(403)
      expect(proxy.hits).toHaveLength(2)
    } finally {
      await proxy.close()
    }
  })
})

describe('the fake GitHub as GitHub Enterprise Server', () => {
  it('serves under /api/v3, refuses calls outside it, and links to its server', async () => {
    const gh = await startGitHub({ pathPrefix: '/api/v3', serverUrl: 'https://ghe.example.com' })
    try {
      expect(gh.url).toMatch(/\/api\/v3$/)
      const made = await send(`${gh.url}/repos/octo/docs/issues/12/comments`, {
        method: 'POST',
        body: { body: 'hello' }
      })
      expect(made.status).toBe(201)
      expect(JSON.parse(made.body).html_url).toMatch(/^https:\/\/ghe\.example\.com\/octo\/docs\//)
      const origin = gh.url.replace(/\/api\/v3$/, '')
      expect((await send(`${origin}/repos/octo/docs/issues/12/comments`)).status).toBe(404)
      expect(gh.requests.map(r => [r.path, r.outside ?? false])).toEqual([
        ['/repos/octo/docs/issues/12/comments', false],
        ['/repos/octo/docs/issues/12/comments', true]
      ])
      for (let i = 0; i < 30; i++) gh.addComment(12, `c${i}`)
      const page = await send(`${gh.url}/repos/octo/docs/issues/12/comments?per_page=10`)
      expect(page.headers.link).toContain(`${gh.url}/repos/octo/docs/issues/12/comments?`)
    } finally {
      await gh.close()
    }
  })
})

describe('two repositories behind one address', () => {
  it('keeps each repository’s comments in its own fake GitHub', async () => {
    const two = await startTwoRepositories({ codeRepo: 'octo/api' })
    try {
      const post = (repo: string) =>
        send(`${two.url}/repos/${repo}/issues/5/comments`, { method: 'POST', body: { body: repo } })
      expect((await post('octo/api')).status).toBe(201)
      expect((await post('octo/docs')).status).toBe(201)
      expect(two.code.comments.get(5)?.map(c => c.body)).toEqual(['octo/api'])
      expect(two.docs.comments.get(5)?.map(c => c.body)).toEqual(['octo/docs'])
    } finally {
      await two.close()
    }
  })

  it('clips the dispatch payload as the code recipe does, with the fields it sends', () => {
    const payload = dispatchPayload(
      {
        number: 42,
        title: 'T',
        html_url: 'https://github.com/octo/api/pull/42',
        merge_commit_sha: 'f'.repeat(40),
        body: '😀'.repeat(4100)
      },
      Array.from({ length: 150 }, (_, i) => `src/f${i}.ts`)
    )
    expect(Array.from(payload.pull_request.body)).toHaveLength(4000)
    expect(payload.paths).toHaveLength(100)
    const recipe = fs.readFileSync('examples/code-repo-dispatch.yml', 'utf8')
    for (const field of Object.keys(payload.pull_request)) expect(recipe).toContain(field)
    expect(recipe).toContain('.[0:4000]')
    expect(recipe).toContain('.[0:100]')
  })
})

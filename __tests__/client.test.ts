// Unit tier: the service client against loopback servers this test controls: redirects, caps,
// cancellation, the deadline, the 429 stop, the request count and redaction at ingress.
import { secretsOf } from '../src/settings/names.js'
import { describe, it, expect, jest, afterEach } from '@jest/globals'
import http from 'node:http'

jest.unstable_mockModule('@actions/core', () => ({ setSecret: jest.fn() }))
const { registerSecrets } = await import('../src/secrets/redact.js')
const { Deadline } = await import('../src/deadline.js')
const { handClock } = await import('./clock.js')
const { ServiceClient } = await import('../src/service/client.js')
const { BudgetError, RateLimitError, RequestCancelledError, ServiceError } =
  await import('../src/service/errors.js')
const { AgentApi } = await import('../src/service/agent-api.js')
/** The agent operations on a client. */
const agent = (c: InstanceType<typeof ServiceClient>) => new AgentApi(c)
const { capJobJson, checkAgentJob, isFinalStatus, parseJson, plausiblePrLink } =
  await import('../src/service/schema.js')

const KEY = 'mint_client_test_key_0123456789'

/** Waits, a turn of the event loop at a time, until `done()` (or fails after many turns). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    if (turns > 100_000) throw new Error(`never happened: ${what}`)
    await new Promise(resolve => setImmediate(resolve))
  }
}

interface Seen {
  method: string
  url: string
  authorization?: string
}

interface Server {
  url: string
  seen: Seen[]
  /** Connections closed by the client before an answer was sent. */
  dropped: number
  close(): Promise<void>
}

const open: Server[] = []
const clients: InstanceType<typeof ServiceClient>[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.dispose()
  await Promise.all(open.splice(0).map(s => s.close()))
})

async function serve(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void,
  host = '127.0.0.1'
): Promise<Server> {
  const seen: Seen[] = []
  const sockets = new Set<import('node:net').Socket>()
  const state = { dropped: 0 }
  const server = http.createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization
    })
    res.on('close', () => {
      if (!res.writableEnded) state.dropped++
    })
    handler(req, res, seen.length)
  })
  server.on('connection', s => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as import('node:net').AddressInfo).port
  const s: Server = {
    url: `http://${host}:${port}`,
    seen,
    get dropped() {
      return state.dropped
    },
    close: () =>
      new Promise<void>(resolve => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
  open.push(s)
  return s
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

const JOB = { id: 'job-1', status: 'completed', prLink: null }

function client(
  baseUrl: string,
  extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}
) {
  const c = new ServiceClient({
    baseUrl,
    apiKey: KEY,
    userAgent: 'test',
    // Backoffs and Retry-After waits take no time on a clock moved by hand.
    deadline: handClock().deadline(20_000),
    ...extra
  })
  clients.push(c)
  return c
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a failure')
}

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])(
    '%i on a GET and on the POST: one request each, named, no hop',
    async status => {
      const elsewhere = await serve((_req, res) => json(res, 200, JOB))
      const svc = await serve((_req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}/v2/agent/p/job/j` })
        res.end('x'.repeat(1024))
      })
      const logged: string[] = []
      const c = client(svc.url, { info: line => logged.push(line) })
      const get = await failure(agent(c).getJob('/v2/agent/p/job/j'))
      expect(get).toBeInstanceOf(ServiceError)
      // The message (an annotation on the run's page) names the operation in words; the log
      // line names the request.
      expect(get.message).toContain(`Reading the job failed: ${status}`)
      expect(get.message).not.toContain('GET /v2')
      expect(logged).toContain(`GET /v2/agent/p/job/j: ${get.message}`)
      expect(get.message).toContain(`to ${elsewhere.url}/v2/agent/p/job/j`)
      expect(get.message).toContain('check `base-url`')
      const post = await failure(agent(c).sendMessage('p', 'j', 'hi'))
      // Whether it arrived is a field; the job command says it in words.
      expect((post as InstanceType<typeof ServiceError>).delivery).toBe('maybe')
      expect(svc.seen.map(s => s.method)).toEqual(['GET', 'POST'])
      expect(elsewhere.seen).toEqual([])
      expect(c.requests).toBe(2)
      c.dispose()
    }
  )

  it('a Location holding the key is redacted and clipped', async () => {
    registerSecrets(...secretsOf({ 'api-key': KEY }))
    const svc = await serve((_req, res) => {
      res.writeHead(302, { location: `https://evil.example/${KEY}/${'a'.repeat(5000)}` })
      res.end()
    })
    const err = await failure(agent(client(svc.url)).getJob('/x'))
    expect(err.message).not.toContain(KEY)
    expect(err.message).toContain('https://evil.example/***/')
    expect(err.message.length).toBeLessThan(600)
  })

  it('a Location is cleaned as any text from outside: nothing unseen, one line', async () => {
    // A soft hyphen (no reader sees it) and a C1 control (NEL), both valid in a header's bytes.
    const svc = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://evil.example/ab\u00adcd\u0085ef' })
      res.end()
    })
    const err = await failure(agent(client(svc.url)).getJob('/x'))
    expect(err.message).toContain('to https://evil.example/abcd ef')
  })
})

describe('bodies are capped', () => {
  it('a 2xx larger than 16 MiB is refused, not read on', async () => {
    const svc = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      let sent = 0
      const more = (): void => {
        while (sent < 64 && res.write(chunk)) sent++
        if (sent < 64) res.once('drain', more)
        else res.end('{}')
      }
      more()
    })
    const err = await failure(agent(client(svc.url, { maxAttempts: 1 })).getJob('/x'))
    expect(err.message).toMatch(/larger than 16 MiB/)
  })

  it('an endless error body ends the attempt with the status and the first words', async () => {
    const svc = await serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' })
      res.write('Bad things happened. ')
      const timer = setInterval(() => res.write('y'.repeat(16 * 1024)), 1)
      res.on('close', () => clearInterval(timer))
    })
    const err = await failure(agent(client(svc.url)).getJob('/x'))
    expect(err.message).toMatch(/400 Bad Request: Bad things happened\. y+/)
    expect(err.message.length).toBeLessThan(700)
  })
})

describe('cancellation, the deadline and the request count', () => {
  it('an aborted signal destroys the request at once and is not retried', async () => {
    const svc = await serve(() => undefined) // never answers
    const c = client(svc.url)
    const controller = new AbortController()
    const pending = c.getJson('/slow', v => v, { signal: controller.signal })
    await until(() => svc.seen.length === 1, 'the request reached the server')
    controller.abort()
    const err = await failure(pending)
    expect(err).toBeInstanceOf(RequestCancelledError)
    await until(() => svc.dropped === 1, 'the server saw the connection close')
    expect(svc.seen).toHaveLength(1)
    // Aborted before it starts: nothing is sent.
    await failure(c.getJson('/never', v => v, { signal: controller.signal }))
    expect(svc.seen).toHaveLength(1)
    expect(c.requests).toBe(1)
  })

  it('an abort during a retry wait ends the wait at once', async () => {
    const svc = await serve((_req, res) =>
      json(res, 503, { error: 'busy' }, { 'retry-after': '5' })
    )
    const controller = new AbortController()
    // A clock whose waits end only when aborted: the abort is what ends the 5 s wait.
    const waits: number[] = []
    const clock = {
      ...handClock(),
      sleep: (ms: number, signal?: AbortSignal) => {
        waits.push(ms)
        return new Promise<void>(resolve => signal?.addEventListener('abort', () => resolve()))
      }
    }
    const c = client(svc.url, { deadline: Deadline.after(20_000, clock) })
    const pending = c.getJson('/x', v => v, { signal: controller.signal })
    await until(() => waits.length === 1, 'the client waits before its retry')
    expect(waits).toEqual([5_000])
    controller.abort()
    expect(await failure(pending)).toBeInstanceOf(RequestCancelledError)
    expect(svc.seen).toHaveLength(1)
  })

  it('no request starts at or after the deadline', async () => {
    const svc = await serve((_req, res) => json(res, 200, JOB))
    const c = client(svc.url, { deadline: handClock().deadline(0) })
    const err = await failure(agent(c).getJob('/x'))
    expect(err.message).toBe(
      'The time allowed (`wait-timeout`) ran out while waiting for reading the job to start: it ' +
        'was not sent.'
    )
    expect(svc.seen).toHaveLength(0)
    expect(c.requests).toBe(0)
  })

  it('counts every attempt sent, retries included', async () => {
    const svc = await serve((_req, res, n) =>
      n <= 2 ? json(res, 500, { error: 'flaky' }) : json(res, 200, JOB)
    )
    const c = client(svc.url)
    await agent(c).getJob('/x')
    await agent(c).getJob('/x')
    expect(svc.seen).toHaveLength(4)
    expect(c.requests).toBe(4)
  })
})

describe('a 429 that asks to wait too long stops the client', () => {
  it.each([
    ['past the deadline', '900', 60_000],
    ['past 10 minutes', '700', 60 * 60_000]
  ])('Retry-After %s: one request, the reset time, nothing sent after', async (_n, after, ms) => {
    const svc = await serve((_req, res) =>
      json(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': after })
    )
    const clock = handClock(Date.UTC(2026, 2, 9, 12, 0))
    const c = client(svc.url, { deadline: clock.deadline(ms) })
    const err = await failure(agent(c).getJob('/x'))
    expect(err).toBeInstanceOf(RateLimitError)
    const reset = (err as InstanceType<typeof RateLimitError>).resetAt.getTime()
    // Counted on the run's clock from the answer.
    expect(reset).toBe(clock.now() + Number(after) * 1000)
    const at = new Date(reset).toISOString().slice(11, 16)
    expect(err.message).toContain(`resets at `)
    expect(err.message).toContain(`${at}`)
    expect(err.message).toContain('UTC')
    expect(err.message).toContain('Rate limit exceeded')
    const again = await failure(agent(c).sendMessage('p', 'j', 'hi'))
    expect(again).toBeInstanceOf(RateLimitError)
    expect(svc.seen).toHaveLength(1)
    expect(c.requests).toBe(1)
  })
})

describe('what comes back is cleaned and bounded', () => {
  it('an echoed key is gone from error texts and from the job', async () => {
    registerSecrets(...secretsOf({ 'api-key': KEY }))
    const svc = await serve((req, res) =>
      req.method === 'POST'
        ? json(res, 400, {
            error: `bad key ${KEY}`,
            details: [{ message: Buffer.from(`Bearer ${KEY}`).toString('base64') }]
          })
        : json(res, 200, { ...JOB, note: `echo ${encodeURIComponent(KEY)}` })
    )
    const c = client(svc.url)
    const err = await failure(agent(c).sendMessage('p', 'j', 'hi'))
    expect(err.message).toContain('400 Bad Request: bad key ***')
    expect(err.message).not.toContain(Buffer.from(`Bearer ${KEY}`).toString('base64'))
    const job = await agent(c).getJob('/x')
    expect(job.note).toBe('echo ***')
  })

  it('a refusal keeps the service words apart from the key advice, redacted too', async () => {
    registerSecrets(...secretsOf({ 'api-key': KEY }))
    const svc = await serve((_req, res) => json(res, 403, { error: `Search is off for ${KEY}` }))
    const err = await failure(client(svc.url).getJson('/v1/analytics/p/searches', v => v))
    expect(err.message).toMatch(/allowlist/)
    expect((err as InstanceType<typeof ServiceError>).serviceText).toBe(
      '403 Forbidden: Search is off for ***'
    )
  })

  it('a job 5,000 levels deep is a clean shape error, not a stack overflow', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    const svc = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(`{"id":"job-1","status":"completed","prLink":null,"x":${deep}}`)
    })
    const err = await failure(agent(client(svc.url, { maxAttempts: 1 })).getJob('/x'))
    expect(err.message).toMatch(/nested too deeply/)
    expect(err.message).not.toMatch(/call stack/)
  })

  it('an implausible prLink becomes null, with one warning', async () => {
    const warn = jest.fn<(line: string) => void>()
    const svc = await serve((_req, res) =>
      json(res, 200, { ...JOB, prLink: `https://github.com/${'a'.repeat(3000)}` })
    )
    const c = client(svc.url, { warn })
    expect((await agent(c).getJob('/x')).prLink).toBeNull()
    expect((await agent(c).getJob('/x')).prLink).toBeNull()
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/prLink is 3019 characters long/)
  })

  it('getJson hands the parsed answer to any check', async () => {
    const svc = await serve((_req, res) => json(res, 200, { searches: [1, 2] }))
    const c = client(svc.url)
    const n = await c.getJson(
      '/v1/analytics/p/searches?limit=2',
      v => (v as { searches: number[] }).searches.length
    )
    expect(n).toBe(2)
    expect(svc.seen[0]!.url).toBe('/v1/analytics/p/searches?limit=2')
    expect(svc.seen[0]!.authorization).toBe(`Bearer ${KEY}`)
    expect(checkAgentJob({ ...JOB, status: 'queued' }).status).toBe('queued')
  })
})

describe('schema limits', () => {
  it('parses 64 levels, refuses 65 with a clean error, and ignores brackets inside strings', () => {
    expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeDefined()
    expect(() => parseJson(`${'['.repeat(65)}${']'.repeat(65)}`)).toThrow(/nested too deeply/)
    expect(parseJson(`{"a":"${'['.repeat(100)}\\"{{"}`)).toEqual({ a: `${'['.repeat(100)}"{{` })
  })

  it.each([
    ['https://github.com/octo/docs/pull/7', true],
    ['http://127.0.0.1/pr/1', true],
    [`https://github.com/${'a'.repeat(2100)}`, false],
    ['javascript:alert(1)', false],
    ['https://user:pw@github.com/x', false],
    ['https://github.com/a b', false],
    ['not a url', false],
    [42, false]
  ])('prLink %j kept: %s', (value, kept) => {
    const { link, warning } = plausiblePrLink(value)
    expect(link).toBe(kept ? value : null)
    expect(warning === undefined).toBe(kept)
  })

  it('accepts null for every nullable field, and later statuses; refuses odd statuses', () => {
    const job = checkAgentJob({
      id: 7,
      status: 'queued',
      source: { repository: null, ref: null },
      model: null,
      prLink: null,
      archivedAt: null
    })
    expect(job).toMatchObject({ id: '7', status: 'queued', prLink: null })
    expect(checkAgentJob({ id: 'j', status: 'active', source: null }).source).toBeNull()
    expect(isFinalStatus('queued')).toBe(false)
    expect(isFinalStatus('archived')).toBe(true)
    for (const status of ['', 'x'.repeat(65), 'a b', 7, null])
      expect(() => checkAgentJob({ id: 'j', status })).toThrow(/job.status/)
  })

  it('caps the job output at 256 KiB, keeping the main fields', () => {
    const job = checkAgentJob({ id: 'j', status: 'completed', prLink: null, log: 'x'.repeat(3e5) })
    const { json, capped } = capJobJson(job)
    expect(capped).toBe(true)
    expect(JSON.parse(json)).toEqual({
      id: 'j',
      status: 'completed',
      source: null,
      model: undefined,
      prLink: null,
      createdAt: undefined,
      archivedAt: undefined
    })
    expect(capJobJson({ ...job, log: 'short' })).toEqual({
      json: JSON.stringify({ ...job, log: 'short' }),
      capped: false
    })
  })
})

describe('the service as observed: 429 without Retry-After, at most 3 POSTs, a budget', () => {
  const plain429 = (res: http.ServerResponse): void => {
    res.writeHead(429, { 'content-type': 'text/plain' })
    res.end('Too many requests, please try again later.')
  }

  it('a plain-text 429 without Retry-After is retried twice, then the run stops: the hourly limit is spent', async () => {
    const svc = await serve((_req, res) => plain429(res))
    const c = client(svc.url, { quotaRetryWaitsMs: [10, 20] })
    const err = await failure(agent(c).getJob('/x'))
    expect(err).toBeInstanceOf(RateLimitError)
    expect(svc.seen).toHaveLength(3)
    expect(err.message).toMatch(/hourly limit is spent.*Run it again within the hour/)
    // Nothing more is sent by this run.
    await failure(agent(c).getJob('/y'))
    expect(svc.seen).toHaveLength(3)
  })

  it('a 429 without Retry-After on the POST: the same rule (it was certainly not taken)', async () => {
    const svc = await serve((_req, res) => plain429(res))
    const c = client(svc.url, { quotaRetryWaitsMs: [10, 20] })
    const err = await failure(agent(c).createJob('p', 'hi'))
    expect(err).toBeInstanceOf(RateLimitError)
    expect(svc.seen.filter(s => s.method === 'POST')).toHaveLength(3)
  })

  it('a POST refused with 503 forever is sent 3 times in all, never 5', async () => {
    const svc = await serve((_req, res) => json(res, 503, { error: 'busy' }))
    const err = await failure(agent(client(svc.url)).sendMessage('p', 'j', 'hi'))
    expect(err.message).toMatch(/after 3 attempts/)
    expect(svc.seen).toHaveLength(3)
  })

  it('an answer of the wrong shape is refused naming the field, and not retried', async () => {
    const svc = await serve((_req, res) => json(res, 200, { id: 'j', status: 7 }))
    const err = await failure(agent(client(svc.url)).getJob('/x'))
    expect(err.message).toMatch(/status/)
    expect(svc.seen).toHaveLength(1)
  })

  it('max-requests: no request is sent past it, retries included', async () => {
    const svc = await serve((_req, res) => json(res, 500, { error: 'boom' }))
    const c = client(svc.url, { maxRequests: 2 })
    const err = await failure(agent(c).getJob('/x'))
    expect(err).toBeInstanceOf(BudgetError)
    expect(err.message).toMatch(/at most 2 requests/)
    expect(svc.seen).toHaveLength(2)
    expect(c.requests).toBe(2)
  })

  it('max-requests: 12 calls at once send 5 under a cap of 5 (a place is taken at the check)', async () => {
    const svc = await serve((_req, res) => setImmediate(() => json(res, 200, JOB)))
    const c = client(svc.url, { maxRequests: 5 })
    const calls = Array.from({ length: 12 }, () => agent(c).getJob('/x'))
    const settled = await Promise.allSettled(calls)
    expect(settled.filter(s => s.status === 'fulfilled')).toHaveLength(5)
    expect(svc.seen).toHaveLength(5)
    expect(c.requests).toBe(5)
  })

  it('a hostile cursor cannot make a log or error line huge: request paths are clipped', async () => {
    const svc = await serve((_req, res) => json(res, 500, { error: 'boom' }))
    const err = await failure(
      client(svc.url, { maxAttempts: 1 }).getJson(`/x?cursor=${'c'.repeat(100_000)}`, b => b)
    )
    expect(err.message.length).toBeLessThan(1_000)
  })
})

describe('ids from the service are checked like the job-id input', () => {
  it.each(['.', '..', 'a\nb'])(
    'a job id %j is refused: the next poll would address another endpoint',
    async id => {
      const svc = await serve((_req, res) => json(res, 201, { id, status: 'active', prLink: null }))
      const err = await failure(agent(client(svc.url)).createJob('p', 'hi'))
      expect(err.message).toMatch(/job\.id .* is not an id/)
    }
  )
})

describe('a cancelled run sends nothing more', () => {
  it('after halt(), no request leaves: the count published stays what the service saw', async () => {
    const svc = await serve((_req, res) => json(res, 200, JOB))
    const c = client(svc.url)
    await agent(c).getJob('/x')
    c.halt()
    await failure(agent(c).getJob('/x'))
    expect(svc.seen).toHaveLength(1)
    expect(c.requests).toBe(1)
  })
})

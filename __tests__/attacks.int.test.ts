// Scenario tier: the attacks that broke an earlier build, as a suite that stays, beside the fault
// matrix (faults.int.test.ts). Each runs the action (in this process by default; `.ci/run` runs
// them through the built dist/index.js on Node 24) against the simulators, with the service or
// GitHub echoing the secrets back in forms that decoding reveals. Every output, the summary, every
// comment and every log line is decoded (percent in either case, `\u` escapes, HTML entities,
// Markdown escapes, invisible characters, line breaks, base64 wrapped or not) before it is searched,
// for the secret and for any 12-character part of it (__tests__/leaks.ts).
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { runScenario, type RunOptions, type RunResult } from './runner.js'
import { tempDir } from './temp-dirs.js'
import { startService } from '../sim/service.js'
import { generatedConversation, generatedSearch } from '../sim/analytics.js'
import { pullRequestEvent, startGitHub, triggerComment } from '../sim/github.js'
import { errorsOf, expectNoStack } from './support.js'
import { API_KEY, decodings, leaks, pct, TOKEN } from './leaks.js'
import { base32, between, lookAlikes, reversed, smallCapitals } from './hiding.js'

/** The forms of a secret a hostile service echoes, each of which decoding reveals. */
const ENCODINGS: Record<string, (s: string) => string> = {
  'percent, lower case': s => pct(s, true),
  'percent, upper case': s => pct(s, false),
  '\\u escapes': s =>
    Array.from(s, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'HTML entities': s => Array.from(s, c => `&#${c.charCodeAt(0)};`).join(''),
  'split across two lines': s => `${s.slice(0, 15)}\n${s.slice(15)}`,
  'zero-width characters interleaved': s => Array.from(s).join('\u200b'),
  'tag characters interleaved (U+E0020)': s => Array.from(s).join('\u{e0020}'),
  'variation selectors interleaved (U+E0101)': s => Array.from(s).join('\u{e0101}'),
  'near the end of a long text (clipped)': s => `${'x'.repeat(480)} ${s}`,
  'its first 30 characters, as a clip leaves them': s => `${s.slice(0, 30)}…`,
  'without its prefix (the secret part alone)': s => s.replace(/^(mint|ghs)_/, ''),
  '12 characters from its middle': s => s.slice(10, 22),
  'with Markdown backslash escapes': s => s.replace(/[_+/=:@$,;.-]/g, c => `\\${c}`),
  'in base64 wrapped at 76 columns': s =>
    Buffer.from(`{"authorization":"Bearer ${s}","note":"${'n'.repeat(40)}"}`)
      .toString('base64')
      .replace(/.{76}/g, '$&\n'),
  // What a person or a decoder reads (issue 49 item 7).
  'dotted (m.i.n.t._…)': between('.'),
  reversed,
  'in Cyrillic and Greek look-alikes': lookAlikes,
  'in small capitals': smallCapitals,
  'in base32': base32,
  'in look-alikes, dotted, reversed, in base32': s => base32(reversed(between('.')(lookAlikes(s))))
}

const inputs = (url: string, extra: Record<string, string> = {}) => ({
  command: 'message',
  'api-key': API_KEY,
  'project-id': 'proj-1',
  'base-url': url,
  'job-id': 'job-1',
  prompt: 'Fix the typo',
  'poll-interval': '0.2',
  'wait-timeout': '15s',
  ...extra
})

const prEvent = pullRequestEvent(7).event

/** The follow-up on pull request 7, answered there. */
const onPullRequest7 = (url: string, gh: string): RunOptions => ({
  inputs: inputs(url),
  env: { GITHUB_API_URL: gh },
  eventName: 'pull_request',
  event: prEvent
})

async function attack(
  service: NonNullable<Parameters<typeof startService>[0]>,
  run: (url: string, gh: string) => RunOptions
): Promise<{ r: RunResult; comments: string[] }> {
  const sim = await startService({ apiKey: API_KEY, ...service })
  const gh = await startGitHub({ token: TOKEN })
  try {
    const r = await runScenario({ githubToken: TOKEN, ...run(sim.url, gh.url) })
    const comments = [...gh.comments.values()].flat().map(c => c.body)
    return { r, comments }
  } finally {
    await sim.close()
    await gh.close()
  }
}

describe('the leak detector itself', () => {
  it.each(Object.entries(ENCODINGS))(
    'finds a secret %s, in any place it looks',
    (_name, encode) => {
      const clean = { stdout: 'ok', stderr: '', outputs: {}, summary: '' } as unknown as RunResult
      expect(leaks(clean, ['fine'])).toEqual([])
      expect(leaks({ ...clean, stdout: `x ${encode(API_KEY)} y` }, [])).toContain('log: api key')
      expect(leaks({ ...clean, summary: encode(TOKEN) }, [])).toEqual(['summary: token'])
      expect(leaks(clean, [`a ${encode(API_KEY)}`])).toEqual(['comment 1: api key'])
      expect(leaks({ ...clean, outputs: { job: encode(API_KEY) } }, [])).toEqual([
        'output job: api key'
      ])
    }
  )
})

describe('secrets echoed in forms that decoding reveals never leave the run', () => {
  it.each(Object.entries(ENCODINGS))(
    'the key in the error text of a refused POST, %s',
    async (_name, encode) => {
      const { r, comments } = await attack(
        {
          jobs: [{ id: 'job-1' }],
          faults: [
            {
              kind: 'message',
              status: 400,
              body: { error: `Invalid credential ${encode(API_KEY)} for ${encode(TOKEN)}` }
            }
          ]
        },
        onPullRequest7
      )
      expect(r.code).toBe(1)
      expect(leaks(r, comments)).toEqual([])
      // The run still says what happened.
      expect(r.stdout).toMatch(/::error::.*400/)
      expect(comments.length).toBeGreaterThan(0)
    }
  )

  it.each(Object.entries(ENCODINGS))(
    'the key in a job field of every poll, %s',
    async (_name, encode) => {
      const { r, comments } = await attack(
        {
          jobs: [
            {
              id: 'job-1',
              activePolls: 1,
              model: `model ${encode(API_KEY)}`,
              extra: { note: encode(TOKEN) }
            }
          ]
        },
        onPullRequest7
      )
      expect(r.code).toBe(0)
      expect(leaks(r, comments)).toEqual([])
      expect(r.outputs.status).toBe('completed')
    }
  )
})

describe('a successful answer is searched field by field', () => {
  const run = (job: Record<string, unknown>) =>
    attack({ jobs: [{ id: 'job-1', activePolls: 1, ...job }] }, onPullRequest7)

  it("a job whose `model` ends with the key's first 30 characters: withheld from the `job` output, the summary and the comments", async () => {
    const { r, comments } = await run({ model: `claude-sonnet ${API_KEY.slice(0, 30)}` })
    expect(r.code).toBe(0)
    expect(leaks(r, comments)).toEqual([])
    expect(JSON.parse(r.outputs.job ?? '{}')).toMatchObject({
      id: 'job-1',
      model: '[withheld: this text contained the API key in an encoded form]'
    })
    expect(r.summary).toContain('withheld: this text contained the API key')
  })

  it('a key split over two fields: each withheld, so no two summary lines join into it', async () => {
    const { r, comments } = await run({
      model: API_KEY.slice(0, 18),
      ref: API_KEY.slice(18)
    })
    expect(r.code).toBe(0)
    expect(leaks(r, comments)).toEqual([])
    const job = JSON.parse(r.outputs.job ?? '{}') as { model: string; source: { ref: string } }
    expect(job.model).toMatch(/^\[withheld: /)
    expect(job.source.ref).toMatch(/^\[withheld: /)
  })
})

describe('a secret is refused on the way in', () => {
  it.each([
    ['the key without its prefix', API_KEY.slice(5)],
    ['12 characters of the token', TOKEN.slice(8, 20)],
    ['the key with Markdown escapes', API_KEY.replace(/[_+/=]/g, c => `\\${c}`)]
  ])('`prompt` holding %s: refused naming the input, nothing sent', async (_name, text) => {
    const sim = await startService({ apiKey: API_KEY, jobs: [{ id: 'job-1' }] })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { prompt: `Fix the typo (${text})` })
      })
      expect(r.code).toBe(1)
      expect(errorsOf(r).join('\n')).toMatch(
        /Input `prompt`.*holds the `api-key` or the `github-token`/
      )
      expect(sim.requests).toEqual([])
      expect(leaks(r, [])).toEqual([])
    } finally {
      await sim.close()
    }
  })

  it('`prompt-file` holding the key in base64 wrapped at 76 columns: refused naming it', async () => {
    const sim = await startService({ apiKey: API_KEY, jobs: [{ id: 'job-1' }] })
    const wrapped = Buffer.from(`config:\n  note: ${'x'.repeat(26)}\n  key: ${API_KEY}\n`)
      .toString('base64')
      .replace(/.{76}/g, '$&\n')
    const workspace = tempDir('docs-agent-ws-')
    fs.writeFileSync(path.join(workspace, 'prompt.md'), `Apply this:\n\n${wrapped}\n`)
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { prompt: '', 'prompt-file': 'prompt.md' }),
        env: { GITHUB_WORKSPACE: workspace }
      })
      expect(r.code).toBe(1)
      expect(errorsOf(r).join('\n')).toMatch(/Input `prompt-file`.*holds the `api-key`/)
      expect(sim.requests).toEqual([])
    } finally {
      await sim.close()
    }
  })

  it('a trigger comment holding 12 characters of the key: a reply, nothing sent, the text never repeated', async () => {
    const sim = await startService({ apiKey: API_KEY, jobs: [{ id: 'job-1' }] })
    const gh = await startGitHub({ token: TOKEN, permissions: { octocat: 'write' } })
    try {
      const t = triggerComment(
        gh,
        7,
        `/docs-agent Use the key ${API_KEY.slice(9, 21)} for the example`
      )
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { prompt: '' }),
        env: { GITHUB_API_URL: gh.url },
        ...t
      })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(sim.requests).toEqual([])
      const replies = (gh.comments.get(7) ?? []).filter(c => c.user.type === 'Bot')
      expect(replies.map(c => c.body).join('\n')).toMatch(/holds a secret/)
      expect(
        leaks(
          r,
          replies.map(c => c.body)
        )
      ).toEqual([])
    } finally {
      await sim.close()
      await gh.close()
    }
  })
})

describe('text from GitHub holding the token is neither sent nor echoed', () => {
  /** A follow-up with `context: true` on pull request 7: the run, and the instruction sent. */
  async function withContext(
    event: object,
    github: Omit<NonNullable<Parameters<typeof startGitHub>[0]>, 'token'> = {}
  ): Promise<{ r: RunResult; sent: string }> {
    const sim = await startService({ apiKey: API_KEY, jobs: [{ id: 'job-1', activePolls: 1 }] })
    const gh = await startGitHub({ token: TOKEN, ...github })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: inputs(sim.url, { context: 'true' }),
        env: { GITHUB_API_URL: gh.url },
        eventName: 'pull_request',
        event
      })
      expect(errorsOf(r)).toEqual([])
      const comments = [...gh.comments.values()].flat().map(c => c.body)
      expect(leaks(r, comments)).toEqual([])
      const messages = sim.jobs.get('job-1')?.messages ?? []
      expect(messages).toHaveLength(1)
      const sent = messages[0] ?? ''
      expect(decodings(sent).some(d => d.includes(TOKEN))).toBe(false)
      return { r, sent }
    } finally {
      await sim.close()
      await gh.close()
    }
  }

  it.each([
    ['base64', Buffer.from(TOKEN).toString('base64')],
    ['12 characters from its middle', TOKEN.slice(10, 22)],
    ['without its prefix', TOKEN.slice(4)]
  ])(
    'a pull request title with the token (%s) in the context block: that line withheld',
    async (_name, form) => {
      const { sent } = await withContext({
        ...prEvent,
        pull_request: { ...prEvent.pull_request, title: `Docs ${form} update` }
      })
      expect(sent).toContain('Pull request: (withheld: it contained a secret)')
      expect(sent).not.toContain(form)
    }
  )

  it.each([
    ['raw', TOKEN],
    ['base64', Buffer.from(TOKEN).toString('base64')],
    ['URL-encoded', pct(TOKEN, false)]
  ])('changed file names, %s: that line withheld, the other files sent', async (_n, form) => {
    const { sent } = await withContext(prEvent, {
      pullFiles: { 7: ['docs/intro.md', `docs/${form}.md`, 'docs/limits.md'] }
    })
    expect(sent).toContain('- docs/intro.md')
    expect(sent).toContain('- docs/limits.md')
    expect(sent).toContain('(withheld: it contained a secret)')
    expect(sent).not.toContain(form)
  })
})

describe('a hostile GitHub', () => {
  const merged = pullRequestEvent(5, 'closed', { title: 'New API' })
  const create = (url: string, extra: Record<string, string> = {}) =>
    inputs(url, { command: 'create', 'job-id': '', prompt: 'Document the new API', ...extra })

  it('a comment listing whose `next` link never ends: at most 100 pages a listing, and the run ends', async () => {
    const sim = await startService({ apiKey: API_KEY, jobs: [], created: { activePolls: 1 } })
    const gh = await startGitHub({ token: TOKEN, endlessComments: true })
    gh.addComment(5, 'Looks good', { login: 'octocat', type: 'User' })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: create(sim.url),
        env: { GITHUB_API_URL: gh.url },
        ...merged
      })
      const listings = gh.requests.filter(
        q => q.method === 'GET' && q.path.endsWith('/issues/5/comments')
      )
      expect(listings.length).toBeGreaterThan(0)
      expect(listings.length).toBeLessThanOrEqual(200)
      expect(r.timedOut).toBe(false)
      expect(r.stdout).toMatch(/::warning::.*100 pages/)
      // One job, however long the listing claimed to be.
      expect(sim.requests.filter(q => q.kind === 'create')).toHaveLength(1)
    } finally {
      await sim.close()
      await gh.close()
    }
  })

  it('a slow comment listing (1 s a page) with a `next` link for ever ends within `wait-timeout` + 10 s', async () => {
    const sim = await startService({ apiKey: API_KEY, rows: 40 })
    const gh = await startGitHub({ token: TOKEN, endlessComments: true, listingDelayMs: 1_000 })
    gh.addComment(5, 'Looks good', { login: 'octocat', type: 'User' })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: {
          command: 'visitors',
          'api-key': API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          'issue-number': '5',
          'wait-timeout': '5s'
        },
        env: { GITHUB_API_URL: gh.url }
      })
      const listings = gh.requests.filter(
        q => q.method === 'GET' && q.path.endsWith('/issues/5/comments')
      )
      // On the simulators' clock: 5 s of pages, the one under way when time ran out, no more.
      expect(r.durationMs).toBeLessThanOrEqual(5_000 + 10_000)
      expect(listings.length).toBeGreaterThanOrEqual(2)
      expect(listings.length).toBeLessThanOrEqual(7)
      expect(r.stdout).toMatch(
        /::warning::The comments on #5 were listed up to \d+ pages: the time allowed/
      )
      expectNoStack(r)
    } finally {
      await sim.close()
      await gh.close()
    }
  })

  it('a GitHub that never answers holds a run with `wait-timeout: 5s` for seconds, not minutes', async () => {
    const sim = await startService({ apiKey: API_KEY, jobs: [], created: { activePolls: 1 } })
    const gh = await startGitHub({ token: TOKEN, failures: [{ hang: true, times: Infinity }] })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: create(sim.url, { 'wait-timeout': '5s' }),
        env: { GITHUB_API_URL: gh.url },
        timeoutMs: 120_000,
        // Opened, not merged: a merge that GitHub cannot check starts nothing (attacks-records).
        ...pullRequestEvent(5)
      })
      expect(r.timedOut).toBe(false)
      // Each GitHub call gets the time the run has left (5 s at least, so the ending can still
      // be written): a few calls of about 5 s, where each took 30 s (90 s in all) before.
      expect(r.durationMs).toBeLessThan(60_000)
      expect(gh.requests.length).toBeGreaterThan(0)
      expect(r.stdout).toMatch(/::warning::GitHub: .* failed \(no answer within \d+ s\)/)
      expect(r.stdout).not.toMatch(/\b500\b/)
      // The job was started once and waited for as long as `wait-timeout` allows.
      expect(sim.requests.filter(q => q.kind === 'create')).toHaveLength(1)
      expectNoStack(r)
    } finally {
      await sim.close()
      await gh.close()
    }
  })
})

describe('hostile answers are bounded', () => {
  it.each([503, 429])(
    'a POST answered %i (`Retry-After: 0`) every time is sent 3 times in all',
    async status => {
      const sim = await startService({
        apiKey: API_KEY,
        jobs: [{ id: 'job-1' }],
        faults: [{ kind: 'message', status, times: Infinity, headers: { 'retry-after': '0' } }]
      })
      try {
        const r = await runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { wait: 'false' })
        })
        expect(r.code).toBe(1)
        expect(sim.requests.filter(q => q.method === 'POST')).toHaveLength(3)
        expect(sim.jobs.get('job-1')?.messages).toEqual([])
      } finally {
        await sim.close()
      }
    }
  )

  it.each(['.', '..'])(
    'a job id of %j from the service is refused, and nothing else is addressed',
    async id => {
      const sim = await startService({ apiKey: API_KEY, created: { extra: { id } } })
      try {
        const r = await runScenario({
          githubToken: TOKEN,
          inputs: inputs(sim.url, { command: 'create', 'job-id': '' })
        })
        expect(r.code).toBe(1)
        expect(r.stdout).toMatch(/::error::.*id/)
        // The create, and no poll of another endpoint.
        expect(sim.requests.map(q => q.kind)).toEqual(['create'])
      } finally {
        await sim.close()
      }
    }
  )

  /** A cursor operation that answers one row a page, each with a fresh cursor, forever. */
  const rowAPage = (kind: string, page: (i: number) => Record<string, unknown>) => {
    let i = 0
    return {
      kind,
      status: 200,
      times: Infinity,
      body: () => ({ ...page(i), nextCursor: `cursor-${++i}` })
    }
  }

  const reportOf = (url: string, extra: Record<string, string>) => ({
    ...inputs(url),
    command: 'report',
    'date-from': '2026-11-09',
    'date-to': '2026-11-16',
    ...extra
  })

  it('searches answered a row a page with a fresh cursor forever: `top: 500` costs 6 requests, with a note', async () => {
    const sim = await startService({
      apiKey: API_KEY,
      faults: [
        rowAPage('searches', i => ({ totalSearches: 9_999, searches: [generatedSearch(i)] }))
      ]
    })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: reportOf(sim.url, { sections: 'searches', top: '500' })
      })
      expect(errorsOf(r)).toEqual([])
      // The pages 500 rows need at 100 a page, plus one.
      expect(sim.requests.filter(q => q.kind === 'searches')).toHaveLength(6)
      expect(r.stdout).toMatch(
        /::warning::Searches: the service gave fewer queries a page than asked for/
      )
    } finally {
      await sim.close()
    }
  })

  it('assistant questions answered one a page: 4 pages, not 3,001', async () => {
    const sim = await startService({
      apiKey: API_KEY,
      faults: [
        rowAPage('assistant', i => ({ conversations: [generatedConversation(i)], hasMore: true }))
      ]
    })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: reportOf(sim.url, { sections: 'assistant' })
      })
      expect(errorsOf(r)).toEqual([])
      expect(sim.requests.filter(q => q.kind === 'assistant')).toHaveLength(4)
      expect(r.stdout).toMatch(/::warning::Assistant: the service gave fewer questions a page/)
    } finally {
      await sim.close()
    }
  })

  it('a cursor that doubles in length on every page: no log line, output or file grows with it', async () => {
    let cursor = 'c'.repeat(1_000)
    const sim = await startService({
      apiKey: API_KEY,
      faults: [
        {
          kind: 'searches',
          status: 200,
          times: Infinity,
          body: () => {
            cursor = cursor + cursor
            return { totalSearches: 9_999, searches: [generatedSearch(1)], nextCursor: cursor }
          }
        }
      ]
    })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: reportOf(sim.url, { sections: 'searches', top: '500', 'output-file': 'r.json' })
      })
      const longest = Math.max(...r.stdout.split('\n').map(line => line.length))
      expect(longest).toBeLessThan(4_000)
      expect(r.stdout.length).toBeLessThan(100_000)
      expect((r.outputs.report ?? '').length).toBeLessThan(100_000)
      expect((r.files('r.json') ?? '').length).toBeLessThan(100_000)
      expect(r.summary.length).toBeLessThan(100_000)
      expect(sim.requests.filter(q => q.kind === 'searches').length).toBeLessThanOrEqual(6)
    } finally {
      await sim.close()
    }
  })

  it('a count of 1e308 is refused naming the field, and not retried', async () => {
    const row = { path: '/a', thumbsUp: 1, thumbsDown: 1e308, code: 0, total: 1e308 }
    const sim = await startService({ apiKey: API_KEY, feedback: [row, row] })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: {
          ...inputs(sim.url),
          command: 'report',
          sections: 'feedback',
          'date-from': '2026-11-09',
          'date-to': '2026-11-16'
        }
      })
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/thumbsDown/)
      expect(r.summary).not.toContain('Infinity')
      expect(r.summary).toContain('thumbsDown is not a count')
      expect(sim.requests.filter(q => q.kind === 'feedback')).toHaveLength(1)
    } finally {
      await sim.close()
    }
  })
})

describe('limits an attacker cannot stretch', () => {
  it('`max-requests: 12` with `concurrency: 16`: 12 requests at most, however many are in flight', async () => {
    const sim = await startService({ apiKey: API_KEY, rows: 10_000, latencyMs: [20, 80] })
    try {
      const r = await runScenario({
        githubToken: TOKEN,
        inputs: {
          ...inputs(sim.url),
          command: 'visitors',
          'page-size': '25',
          concurrency: '16',
          'max-requests': '12'
        }
      })
      expect(r.code).toBe(1)
      expect(sim.requests.length).toBeLessThanOrEqual(12)
      expect(r.outputs.requests).toBe(String(sim.requests.length))
      expect(errorsOf(r).join('\n')).toMatch(/stopped at `max-requests` \(12\)/)
    } finally {
      await sim.close()
    }
  })

  it.each([
    ['date-from', { 'date-from': '0000-06-01', 'date-to': '2026-01-01' }],
    ['date-from', { 'date-from': '0001-01-01T00:00:00+01:00', 'date-to': '2026-01-01' }],
    ['date-to', { 'date-from': '2026-01-01', 'date-to': '9999-12-31T23:00:00-05:00' }],
    ['compare', { 'date-from': '0001-01-05', 'date-to': '0001-02-05', compare: 'true' }],
    ['trend', { 'date-from': '0001-03-01', 'date-to': '0001-04-01', trend: '4' }],
    ['trend', { 'date-from': '0001-01-01', 'date-to': '9999-12-31', trend: '26' }]
  ])(
    'a range reaching past the years 1 to 9999 is refused naming `%s`, nothing sent',
    async (input, dates) => {
      const sim = await startService({ apiKey: API_KEY })
      try {
        const r = await runScenario({
          githubToken: TOKEN,
          inputs: { ...inputs(sim.url), command: 'report', sections: 'visitors', ...dates }
        })
        expect(r.code).toBe(1)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(new RegExp(`^Input \`${input}\`: .*year`))
        expect(errors[0]).not.toMatch(/Invalid time value/)
        expect(sim.requests).toEqual([])
      } finally {
        await sim.close()
      }
    }
  )
})

describe('a link cannot hide where it goes', () => {
  it("a job's pull request on a look-alike host: the headline's link text names that host", async () => {
    const prLink = 'https://github.com.evil.example/octo/docs/pull/7'
    const { r, comments } = await attack(
      { jobs: [{ id: 'job-1', activePolls: 1, prLink }] },
      onPullRequest7
    )
    expect(r.code).toBe(0)
    const headline = `[github.com.evil.example/octo/docs#7](${prLink})`
    expect(r.summary).toContain(headline)
    expect(comments.join('\n')).toContain(headline)
  })
})

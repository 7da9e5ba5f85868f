// Scenario tier (__tests__/runner.ts): `command: message` against the service simulator (and the
// fake GitHub API), in this process on the simulators' jumping clock, or (signals) as dist/index.js
// in a child process exactly as on a runner.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { startGitHub } from '../sim/github.js'
import { runScenario } from './runner.js'
import { annotationsOf, errorsOf, expectNoStack, messageInputs, withService } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type RunResult = Awaited<ReturnType<typeof runScenario>>

const PROMPT = 'Fix the typo on the quickstart page'
const DEFAULT_PR = 'https://github.com/octo/docs/pull/7'

/** Inputs of a quick `message` run against `url`; `extra` overrides them. */
const inputs = (url: string, extra: Record<string, string> = {}): Record<string, string> =>
  messageInputs(url, { prompt: PROMPT, ...extra })

const warningsOf = (r: RunResult): string[] => annotationsOf(r, 'warning')
const noticesOf = (r: RunResult): string[] => annotationsOf(r, 'notice')

const posts = (sim: Service) => sim.requests.filter(r => r.method === 'POST')
const gets = (sim: Service) => sim.requests.filter(r => r.method === 'GET')

/** The key is masked at once, and printed nowhere else: not in logs, outputs or summary. */
function expectKeyHidden(r: RunResult, key: string): void {
  const lines = r.stdout.split(/\r?\n/).filter(l => l.includes(key))
  expect(lines.length).toBeGreaterThan(0)
  for (const line of lines) expect(line).toMatch(/^::add-mask::/)
  expect(r.stderr).not.toContain(key)
  for (const value of Object.values(r.outputs)) expect(value).not.toContain(key)
  expect(r.summary).not.toContain(key)
}

describe('message: outcomes of a follow-up', () => {
  let sim: Service

  beforeAll(async () => {
    sim = await startService({
      jobs: [
        {
          id: 'job-1',
          activePolls: 1,
          repository: 'acme/handbook',
          ref: 'docs-refresh',
          model: 'claude-test-model'
        },
        { id: 'job-failed', activePolls: 1, finalStatus: 'failed' },
        { id: 'job-failed-2', activePolls: 1, finalStatus: 'failed' },
        { id: 'job-nopr', activePolls: 1, prLink: null },
        { id: 'job-archived', activePolls: 1, finalStatus: 'archived' },
        { id: 'job-nowait', activePolls: 1 }
      ]
    })
  })
  afterAll(async () => {
    await sim.close()
  })

  const requestsFor = (jobId: string) => sim.requests.filter(r => r.jobId === jobId)

  it('happy path: sends the prompt once, waits, sets the outputs and the summary', async () => {
    const r = await runScenario({ inputs: inputs(sim.url) })
    expect(errorsOf(r)).toEqual([])
    expect(r.code).toBe(0)

    expect(r.outputs['job-id']).toBe('job-1')
    expect(r.outputs.status).toBe('completed')
    expect(r.outputs['pr-link']).toBe(DEFAULT_PR)
    expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({
      id: 'job-1',
      status: 'completed',
      prLink: DEFAULT_PR,
      source: { repository: 'acme/handbook', ref: 'docs-refresh' },
      model: 'claude-test-model'
    })

    for (const text of [
      'job-1',
      'completed',
      DEFAULT_PR,
      'acme/handbook',
      'docs-refresh',
      'claude-test-model'
    ])
      expect(r.summary).toContain(text)

    const mine = requestsFor('job-1')
    const sent = mine.filter(q => q.kind === 'message')
    expect(sent).toHaveLength(1)
    expect(mine.filter(q => q.kind === 'other')).toHaveLength(0)
    expect(JSON.parse(sent[0]?.body ?? 'null')).toEqual({ prompt: PROMPT })
    expect(sent[0]?.headers['content-type']).toMatch(/^application\/json/)
    // At least the poll that still saw `active` and the one that saw `completed`.
    expect(mine.filter(q => q.kind === 'job').length).toBeGreaterThanOrEqual(2)
    for (const q of mine) {
      expect(q.headers.authorization).toBe(`Bearer ${SIM_API_KEY}`)
      expect(String(q.headers['user-agent'])).toMatch(/docs-agent-action\/\d+\.\d+\.\d+/)
    }
    expect(sim.jobs.get('job-1')?.messages).toEqual([PROMPT])
    expect(r.stdout.split(/\r?\n/)).toContain(`::add-mask::${SIM_API_KEY}`)
    expectKeyHidden(r, SIM_API_KEY)
    expectNoStack(r)
  })

  it('a failed job fails the step, with status, job and pr-link still set', async () => {
    const r = await runScenario({ inputs: inputs(sim.url, { 'job-id': 'job-failed' }) })
    expect(r.code).toBe(1)
    expect(r.outputs['job-id']).toBe('job-failed')
    expect(r.outputs.status).toBe('failed')
    expect(r.outputs['pr-link']).toBe(DEFAULT_PR)
    expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({
      id: 'job-failed',
      status: 'failed'
    })
    const errors = errorsOf(r)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('failed')
    expect(errors[0]).toContain('job-failed')
    expect(r.summary).toContain('job-failed')
    expectKeyHidden(r, SIM_API_KEY)
    expectNoStack(r)
  })

  it("`fail-on-status: ''` lets a failed job pass", async () => {
    const r = await runScenario({
      inputs: inputs(sim.url, { 'job-id': 'job-failed-2', 'fail-on-status': '' })
    })
    expect(errorsOf(r)).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.status).toBe('failed')
    expect(sim.jobs.get('job-failed-2')?.messages).toEqual([PROMPT])
  })

  it('a completed job without a pull request: exit 0, empty pr-link, both reasons said', async () => {
    const r = await runScenario({ inputs: inputs(sim.url, { 'job-id': 'job-nopr' }) })
    expect(errorsOf(r)).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.status).toBe('completed')
    expect(r.outputs['pr-link']).toBe('')
    expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({ prLink: null })
    const notice = noticesOf(r).find(n => /without opening a pull request/.test(n)) ?? ''
    expect(notice).toMatch(/changed nothing/)
    expect(notice).toMatch(/committed directly/)
    expect(r.summary).toMatch(/^### ✅ Completed without a pull request · \d+ s$/m)
    expect(r.summary).toContain(
      'No pull request was opened: the agent may have changed nothing, or committed directly'
    )
    expect(`${r.stdout}${r.summary}`).not.toMatch(/no file changed/i)
  })

  it('an archived job: exit 0 with a warning', async () => {
    const r = await runScenario({ inputs: inputs(sim.url, { 'job-id': 'job-archived' }) })
    expect(errorsOf(r)).toEqual([])
    expect(r.code).toBe(0)
    expect(r.outputs.status).toBe('archived')
    expect(warningsOf(r).some(w => /archived/i.test(w) && w.includes('job-archived'))).toBe(true)
  })

  it('`wait: false`: exactly one request, the POST; outputs from its answer', async () => {
    const r = await runScenario({
      inputs: inputs(sim.url, { 'job-id': 'job-nowait', wait: 'false' })
    })
    expect(errorsOf(r)).toEqual([])
    expect(r.code).toBe(0)
    const mine = requestsFor('job-nowait')
    expect(mine).toHaveLength(1)
    expect(mine[0]?.method).toBe('POST')
    expect(mine[0]?.kind).toBe('message')
    expect(r.outputs['job-id']).toBe('job-nowait')
    expect(r.summary).toMatch(/^### 📨 Instruction sent · not waited for$/m)
    expect(r.summary).toContain('The job keeps running on the service (`wait: false`).')
    expect(r.outputs.status).toBe('active')
    expect(r.outputs['pr-link']).toBe('')
    expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({
      id: 'job-nowait',
      status: 'active',
      prLink: null
    })
  })
})

describe('message: errors from the service', () => {
  it('times out when the job stays active: exit 1 in bounded time, status=active', async () => {
    await withService({ jobs: [{ id: 'job-1', activeMs: 600_000 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'wait-timeout': '2s' }) })
      expect(r.code).toBe(1)
      expect(r.durationMs).toBeGreaterThanOrEqual(2_000)
      expect(r.durationMs).toBeLessThan(9_000)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/timed out/i)
      expect(r.outputs.status).toBe('active')
      expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({ status: 'active' })
      // The summary says the job may still finish, not that the action erred.
      expect(r.summary).toMatch(/^### ⌛ Stopped waiting after \d+ s · the job may still finish$/m)
      expect(r.summary).toContain('It can still open a pull request. Last status seen: **active**.')
      // Nowhere to record the delivery: a re-run would send again, and the summary says so.
      expect(r.summary).toContain('re-running the workflow would send the instruction again')
      expect(r.summary).not.toMatch(/error|&#96;/i)
      expect(gets(sim).length).toBeGreaterThanOrEqual(1)
      expect(posts(sim)).toHaveLength(1)
      expectNoStack(r)
    })
  })

  it('an unknown job (404) fails before the POST: no follow-up spent, the service’s words', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'job-id': 'no-such-job' }) })
      expect(r.code).toBe(1)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain('404')
      expect(errors[0]).toContain('Agent job not found')
      expect(errors[0]).toContain('Nothing was sent')
      expect(posts(sim)).toHaveLength(0)
      expect(gets(sim)).toHaveLength(1)
      expect(r.outputs['job-id']).toBe('no-such-job')
      expect(r.summary).toContain('Agent job not found')
      expectNoStack(r)
    })
  })

  it('`wait: false` makes no GET before the POST (the contract: only when waiting)', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const r = await runScenario({
        inputs: inputs(sim.url, { 'job-id': 'no-such-job', wait: 'false' })
      })
      expect(r.code).toBe(1)
      expect(sim.requests.map(q => q.method)).toEqual(['POST'])
      expect(errorsOf(r)[0]).toContain('Agent job not found')
    })
  })

  it('a wrong key (401): exit 1 naming 401 and `api-key`, not retried, key not shown', async () => {
    const wrong = 'mint_wrongkey0000111122223333'
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'api-key': wrong }) })
      expect(r.code).toBe(1)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain('401')
      expect(errors[0]).toContain('api-key')
      expect(sim.requests).toHaveLength(1)
      expect(sim.jobs.get('job-1')?.messages).toEqual([])
      expectKeyHidden(r, wrong)
      expectNoStack(r)
    })
  })
})

describe('message: delivery of the POST and retries', () => {
  it('429 with `Retry-After: 1` on the POST: waits, then delivers exactly once', async () => {
    await withService(
      {
        jobs: [{ id: 'job-1', activePolls: 1 }],
        faults: [{ kind: 'message', status: 429, headers: { 'retry-after': '1' } }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        const sent = posts(sim)
        expect(sent).toHaveLength(2)
        expect((sent[1]?.time ?? 0) - (sent[0]?.time ?? 0)).toBeGreaterThanOrEqual(950)
        expect(sim.jobs.get('job-1')?.messages).toHaveLength(1)
        expect(r.outputs.status).toBe('completed')
      }
    )
  })

  it('`wait-timeout` is counted from the answer to the POST, not from the start', async () => {
    await withService(
      {
        // Counted from the start, 6 s would end during the job's 2 s of work after a 5 s POST;
        // counted from the answer, it leaves 4 s to spare, enough for a loaded machine.
        jobs: [{ id: 'job-1', activeMs: 2_000 }],
        faults: [{ kind: 'message', delayMs: 5_000, passThrough: true }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url, { 'wait-timeout': '6s' }) })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(r.outputs.status).toBe('completed')
        expect(posts(sim)).toHaveLength(1)
        expect(sim.jobs.get('job-1')?.messages).toEqual([PROMPT])
      }
    )
  })

  it('503 on the POST: retried and delivered once', async () => {
    await withService(
      {
        jobs: [{ id: 'job-1', activePolls: 1 }],
        faults: [{ kind: 'message', status: 503 }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(posts(sim)).toHaveLength(2)
        expect(sim.jobs.get('job-1')?.messages).toHaveLength(1)
        expect(r.outputs.status).toBe('completed')
      }
    )
  })

  it('500 on the POST: not retried, exit 1, "may or may not have been delivered"', async () => {
    await withService(
      {
        jobs: [{ id: 'job-1', activePolls: 1 }],
        faults: [{ kind: 'message', status: 500, processed: true }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(r.code).toBe(1)
        expect(posts(sim)).toHaveLength(1)
        // Only the GET before the POST: nothing polls an instruction that may not have arrived.
        expect(sim.requests.map(q => q.method)).toEqual(['GET', 'POST'])
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toContain('500')
        expect(errors[0]).toMatch(/may or may not have been delivered/)
        expectNoStack(r)
      }
    )
  })

  it('a reset after the POST was read: not retried, exit 1, "may or may not"', async () => {
    await withService(
      {
        jobs: [{ id: 'job-1', activePolls: 1 }],
        faults: [{ kind: 'message', reset: 'after-read' }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(r.code).toBe(1)
        expect(sim.requests.map(q => q.method)).toEqual(['GET', 'POST'])
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(/may or may not/)
        expect(r.summary).toMatch(/may or may not have been delivered/)
        expectNoStack(r)
      }
    )
  })

  it('503 on the first 3 polls: survived, exit 0', async () => {
    await withService(
      {
        jobs: [{ id: 'job-1', activePolls: 1 }],
        faults: [{ kind: 'job', status: 503, times: 3 }]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(r.outputs.status).toBe('completed')
        const polls = gets(sim)
        expect(polls.filter(q => q.fault?.status === 503)).toHaveLength(3)
        expect(polls.length).toBeGreaterThanOrEqual(5)
        expect(posts(sim)).toHaveLength(1)
        expect(sim.jobs.get('job-1')?.messages).toHaveLength(1)
      }
    )
  })
})

describe('message: paths', () => {
  it('project and job ids with spaces and slashes arrive encoded and decode back', async () => {
    const projectId = 'my proj/x'
    const jobId = 'job 1/a b'
    await withService({ jobs: [{ id: jobId, activePolls: 1 }] }, async sim => {
      const r = await runScenario({
        inputs: inputs(sim.url, { 'project-id': projectId, 'job-id': jobId })
      })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['job-id']).toBe(jobId)
      expect(sim.requests.length).toBeGreaterThanOrEqual(2)
      for (const q of sim.requests) {
        expect(q.kind === 'message' || q.kind === 'job').toBe(true)
        expect(q.projectId).toBe(projectId)
        expect(q.jobId).toBe(jobId)
        expect(q.path).toContain('/v2/agent/my%20proj%2Fx/job/job%201%2Fa%20b')
      }
      expect(sim.jobs.get(jobId)?.messages).toEqual([PROMPT])
    })
  })

  it('a `base-url` with a path prefix keeps the prefix', async () => {
    await withService({ prefix: '/api', jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      expect(sim.url).toMatch(/\/api$/)
      const r = await runScenario({ inputs: inputs(`${sim.url}/`) })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(sim.requests.length).toBeGreaterThanOrEqual(2)
      for (const q of sim.requests) expect(q.path.startsWith('/api/v2/agent/')).toBe(true)
      expect(sim.jobs.get('job-1')?.messages).toEqual([PROMPT])
    })
  })

  it('a custom `job-path` is used for the polls', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const r = await runScenario({
        inputs: inputs(sim.url, { 'job-path': '/v2/agent/static-proj/job/{id}?view=full' })
      })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(posts(sim)).toHaveLength(1)
      expect(posts(sim)[0]?.projectId).toBe('proj-1')
      const polls = gets(sim)
      expect(polls.length).toBeGreaterThanOrEqual(2)
      for (const q of polls) {
        expect(q.path).toBe('/v2/agent/static-proj/job/job-1')
        expect(q.query).toEqual({ view: 'full' })
      }
      expect(r.outputs.status).toBe('completed')
    })
  })
})

describe('message: progress comment on a pull request', () => {
  it('comments on the pull request of the event without showing the key', async () => {
    const gh = await startGitHub()
    try {
      await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          eventName: 'pull_request',
          event: { action: 'opened', number: 5, pull_request: { number: 5 } }
        })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        const onPr = gh.comments.get(5) ?? []
        expect(onPr).toHaveLength(1)
        expect(onPr[0]?.body).toContain('job-1')
        expect(r.outputs['comment-url']).toBe(onPr[0]?.html_url)
        expect(JSON.stringify(gh.requests)).not.toContain(SIM_API_KEY)
        for (const list of gh.comments.values())
          for (const c of list) expect(c.body).not.toContain(SIM_API_KEY)
        expectKeyHidden(r, SIM_API_KEY)
      })
    } finally {
      await gh.close()
    }
  })
})

describe('message: notes about the setup', () => {
  it('warns naming `mint_`, and still sends, when the key lacks the prefix', async () => {
    await withService(
      { apiKey: 'plainkey123', jobs: [{ id: 'job-1', activePolls: 1 }] },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url, { 'api-key': 'plainkey123' }) })
        expect(r.code).toBe(0)
        expect(warningsOf(r).some(w => w.includes('`api-key` does not start with `mint_`'))).toBe(
          true
        )
        expect(sim.jobs.get('job-1')?.messages).toEqual([PROMPT])
      }
    )
  })

  it('does not warn about a well-shaped key', async () => {
    await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url) })
      expect(warningsOf(r).some(w => w.includes('`mint_`'))).toBe(false)
    })
  })

  it('says so, and makes no GitHub call, when a pull request run has no token', async () => {
    const gh = await startGitHub()
    try {
      await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url, { 'github-token': '' }),
          env: { GITHUB_API_URL: gh.url },
          eventName: 'pull_request',
          event: { action: 'opened', number: 5, pull_request: { number: 5 } }
        })
        expect(r.code).toBe(0)
        expect(r.stdout).toContain('`github-token` is empty, so no comment is written.')
        expect(gh.requests).toEqual([])
      })
    } finally {
      await gh.close()
    }
  })
})

describe('message: bad inputs fail before any request', () => {
  const visitors = { command: 'visitors' }
  // [case, input named in the error, inputs to change]
  const cases: [string, string, Record<string, string>][] = [
    ['missing command', 'command', { command: '' }],
    ['unknown command', 'command', { command: 'send' }],
    ['empty api-key', 'api-key', { 'api-key': '' }],
    ['api-key with a space', 'api-key', { 'api-key': 'mint_abc def' }],
    ['api-key with an inner line break', 'api-key', { 'api-key': 'mint_abc\ndef' }],
    ['missing project-id', 'project-id', { 'project-id': '' }],
    ['base-url not a URL', 'base-url', { 'base-url': 'not a url' }],
    ['http:// for a non-loopback host', 'base-url', { 'base-url': 'http://example.com' }],
    ['ftp:// URL', 'base-url', { 'base-url': 'ftp://127.0.0.1/x' }],
    ['base-url with a query', 'base-url', { 'base-url': 'QUERY' }],
    ['missing job-id', 'job-id', { 'job-id': '' }],
    ['empty prompt', 'prompt', { prompt: '' }],
    ['whitespace prompt', 'prompt', { prompt: '   ' }],
    ['wait yes', 'wait', { wait: 'yes' }],
    ['wait-timeout 10x', 'wait-timeout', { 'wait-timeout': '10x' }],
    ['wait-timeout 0', 'wait-timeout', { 'wait-timeout': '0' }],
    ['poll-interval -1', 'poll-interval', { 'poll-interval': '-1' }],
    ['job-path without {id}', 'job-path', { 'job-path': '/v2/agent/{projectId}/job' }],
    ['fail-on-status done', 'fail-on-status', { 'fail-on-status': 'done' }],
    ['page-size 0', 'page-size', { 'page-size': '0' }],
    ['page-size 251', 'page-size', { 'page-size': '251' }],
    ['concurrency 17', 'concurrency', { concurrency: '17' }],
    ['top 0', 'top', { top: '0' }],
    ['comment maybe', 'comment', { comment: 'maybe' }],
    ['comment-mode append', 'comment-mode', { 'comment-mode': 'append' }],
    ['permission owner', 'permission', { permission: 'owner' }],
    ['issue-number abc', 'issue-number', { 'issue-number': 'abc' }],
    ['output-file x.txt (visitors)', 'output-file', { ...visitors, 'output-file': 'x.txt' }],
    [
      'output-file ../x.json (visitors)',
      'output-file',
      { ...visitors, 'output-file': '../x.json' }
    ],
    ['job-id ..', 'job-id', { 'job-id': '..' }],
    ['api-key with a non-ASCII letter', 'api-key', { 'api-key': 'mint_caf\u00e9' }],
    ['github-token with a line break', 'github-token', { 'github-token': 'ghs_a\nb' }],
    [
      'sections with an unknown name (report)',
      'sections',
      { command: 'report', sections: 'views,clicks' }
    ],
    ['prompt and prompt-file together', 'prompt-file', { 'prompt-file': 'p.md' }],
    ['period 8w (visitors)', 'period', { ...visitors, period: '8w' }],
    ['date-from 2026-02-30 (visitors)', 'date-from', { ...visitors, 'date-from': '2026-02-30' }],
    [
      'period together with date-from (visitors)',
      'period',
      { ...visitors, period: '7d', 'date-from': '2026-01-01' }
    ],
    ['compare with an unbounded range (visitors)', 'compare', { ...visitors, compare: 'true' }]
  ]

  // Each case gets its own simulator, so a request can be blamed on the case that sent it; the
  // runs go four at a time in beforeAll to keep the file fast, and each case asserts on its own.
  const results = new Map<string, { r: RunResult; requests: number }>()

  beforeAll(async () => {
    const queue = [...cases]
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const [name, , change] = c
        await withService({ jobs: '*' }, async sim => {
          const given = inputs(sim.url, change)
          if (given['base-url'] === 'QUERY') given['base-url'] = `${sim.url}?region=eu`
          const r = await runScenario({ inputs: given, timeoutMs: 20_000 })
          results.set(name, { r, requests: sim.requests.length })
        })
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
  }, 60_000)

  it.each(cases)('%s: exit 1, names `%s`, nothing sent', (name, input) => {
    const result = results.get(name)
    expect(result).toBeDefined()
    const { r, requests } = result as { r: RunResult; requests: number }
    expect(r.code).toBe(1)
    expect(requests).toBe(0)
    const errors = errorsOf(r)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`\`${input}\``)
    expectNoStack(r)
  })

  it.each([
    ['api-key with a space', 'mint_abc def'],
    ['api-key with an inner line break', 'mint_abc']
  ])('%s: the refused key is not printed', (name, secret) => {
    const result = results.get(name)
    expect(result).toBeDefined()
    expectKeyHidden((result as { r: RunResult }).r, secret)
  })
})

describe('message: a final status is believed only when the job took the instruction', () => {
  const OLD_PR = 'https://github.com/octo/docs/pull/3'
  const NEW_PR = 'https://github.com/octo/docs/pull/4'
  const stale = { id: 'job-1', status: 'completed', prLink: OLD_PR, nextPrLink: NEW_PR }

  it('old state, then active, then completed: the new result, not the old one', async () => {
    await withService({ jobs: [{ ...stale, staleMs: 1_500, activePolls: 1 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url) })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      expect(r.outputs['pr-link']).toBe(NEW_PR)
      // The polls inside the window saw `completed` with the old link and were not believed.
      const inWindow = gets(sim).filter(q => q.time < (posts(sim)[0]?.time ?? 0) + 1_400)
      expect(inWindow.length).toBeGreaterThanOrEqual(3)
      expect(r.stdout).toMatch(/status: completed, as before the instruction/)
      expect(r.stdout).toMatch(/status: active/)
      expect(r.summary).toContain('pull/4')
      expect(r.summary).not.toContain('pull/3')
    })
  })

  it('the live comment never shows the old result as this one’s', async () => {
    const gh = await startGitHub()
    try {
      await withService({ jobs: [{ ...stale, staleMs: 1_000, activePolls: 1 }] }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          eventName: 'pull_request',
          event: { action: 'opened', number: 5, pull_request: { number: 5 } }
        })
        expect(r.code).toBe(0)
        const bodies = gh.requests
          .filter(q => q.method === 'POST' || q.method === 'PATCH')
          .map(q => String((q.body as { body?: string } | undefined)?.body ?? ''))
        expect(bodies.length).toBeGreaterThanOrEqual(2)
        for (const body of bodies) expect(body).not.toContain('pull/3')
        expect(bodies.at(-1)).toContain('pull/4')
      })
    } finally {
      await gh.close()
    }
  })

  it('finishes between two polls with a new prLink: believed at once, no settle-time wait', async () => {
    await withService({ jobs: [{ ...stale, staleMs: 800, afterStale: 'finished' }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'settle-time': '60s' }) })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs['pr-link']).toBe(NEW_PR)
      expect(r.stdout).not.toMatch(/status: active/)
      expect(r.durationMs).toBeLessThan(15_000)
    })
  })

  it('never changes: believed once `settle-time` has passed since the answer', async () => {
    await withService({ jobs: [{ ...stale, afterStale: 'unchanged' }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'settle-time': '2s' }) })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      expect(r.outputs['pr-link']).toBe(OLD_PR)
      const sentAt = posts(sim)[0]?.time ?? 0
      const polls = gets(sim).filter(q => q.time > sentAt)
      expect(polls.length).toBeGreaterThanOrEqual(2)
      expect((polls.at(-1)?.time ?? 0) - sentAt).toBeGreaterThanOrEqual(1_900)
      expect(r.stdout).toMatch(/did not change within `settle-time`/)
    })
  })

  it('still unchanged when `wait-timeout` ends: exit 1, saying why the status was not believed', async () => {
    await withService({ jobs: [{ ...stale, afterStale: 'unchanged' }] }, async sim => {
      const r = await runScenario({
        inputs: inputs(sim.url, { 'settle-time': '60s', 'wait-timeout': '2s' })
      })
      expect(r.code).toBe(1)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/state from before the instruction/)
      expect(errors[0]).toMatch(/was delivered/)
      expect(posts(sim)).toHaveLength(1)
    })
  })
})

describe('message: fields the service leaves null', () => {
  it('null source.repository, ref, model and prLink: exit 0, shown as absent', async () => {
    await withService(
      {
        jobs: [
          { id: 'job-1', activePolls: 1, repository: null, ref: null, model: null, prLink: null }
        ]
      },
      async sim => {
        const r = await runScenario({ inputs: inputs(sim.url) })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(r.outputs['pr-link']).toBe('')
        expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({
          source: { repository: null, ref: null },
          model: null,
          prLink: null,
          archivedAt: null
        })
        expect(r.summary).toContain('job-1')
        expect(r.summary).not.toContain('null')
      }
    )
  })
})

describe('message: statuses the service added later', () => {
  it('`queued` is shown, warned about once, and polled on until completed', async () => {
    await withService({ jobs: [{ id: 'job-1', queuedPolls: 3, activePolls: 1 }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url) })
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      const about = warningsOf(r).filter(w => w.includes('`queued`'))
      expect(about).toHaveLength(1)
      expect(about[0]).toMatch(/not .*final/)
      expect(r.stdout).toMatch(/status: queued/)
      expect(gets(sim).filter(q => q.time > (posts(sim)[0]?.time ?? 0)).length).toBeGreaterThan(3)
    })
  })
})

describe('message: why the service refuses the key', () => {
  const cases: [string, 'expired' | 'read-only' | 'ip-blocked', number, RegExp, number][] = [
    ['an expired key (401)', 'expired', 401, /expired/, 0],
    ['a read-only key (403 on the POST)', 'read-only', 403, /read-only/, 1],
    ['a key limited to an IP allowlist (403)', 'ip-blocked', 403, /allowlist/, 0]
  ]
  it.each(cases)('%s: the hint names the cause', async (_name, kind, status, hint, postCount) => {
    const key = `mint_${kind.replace('-', '')}_0123456789`
    await withService({ keys: { [key]: kind }, jobs: [{ id: 'job-1' }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'api-key': key }) })
      expect(r.code).toBe(1)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(String(status))
      expect(errors[0]).toMatch(hint)
      expect(posts(sim)).toHaveLength(postCount)
      expect(sim.jobs.get('job-1')?.messages).toEqual([])
      expectKeyHidden(r, key)
      expectNoStack(r)
    })
  })

  it('a 403 hint tells GitHub-hosted runners apart from an allowlist', async () => {
    const key = 'mint_ipblocked_0123456789'
    await withService({ keys: { [key]: 'ip-blocked' }, jobs: [{ id: 'job-1' }] }, async sim => {
      const r = await runScenario({ inputs: inputs(sim.url, { 'api-key': key }) })
      expect(errorsOf(r)[0]).toMatch(/GitHub-hosted runners/)
    })
  })
})

describe('message: GitHub failing after the instruction was delivered', () => {
  const cases: [number, string, number][] = [
    [403, 'completed', 0],
    [502, 'failed', 1]
  ]
  it.each(cases)(
    'GitHub %i on every comment write: warnings, outputs set, exit by the job status (%s)',
    async (ghStatus, finalStatus, exitCode) => {
      const gh = await startGitHub({
        failures: [
          { method: 'POST', pathIncludes: '/comments', status: ghStatus, times: Infinity },
          { method: 'PATCH', pathIncludes: '/comments', status: ghStatus, times: Infinity }
        ]
      })
      try {
        await withService(
          {
            jobs: [
              {
                id: 'job-1',
                activePolls: 1,
                finalStatus: finalStatus as 'completed' | 'failed'
              }
            ]
          },
          async sim => {
            const r = await runScenario({
              inputs: inputs(sim.url),
              env: { GITHUB_API_URL: gh.url },
              eventName: 'pull_request',
              event: { action: 'opened', number: 5, pull_request: { number: 5 } }
            })
            expect(r.code).toBe(exitCode)
            expect(posts(sim)).toHaveLength(1)
            expect(r.outputs.status).toBe(finalStatus)
            expect(r.outputs['job-id']).toBe('job-1')
            expect(JSON.parse(r.outputs.job ?? 'null')).toMatchObject({ status: finalStatus })
            expect(
              warningsOf(r).some(w => w.includes(`GitHub`) && w.includes(String(ghStatus)))
            ).toBe(true)
            const errors = errorsOf(r)
            if (exitCode === 0) expect(errors).toEqual([])
            else expect(errors).toEqual([expect.stringMatching(/status `failed`/)])
            expect(r.summary).toContain('job-1')
            expectNoStack(r)
          }
        )
      } finally {
        await gh.close()
      }
    }
  )
})

describe('message: cancellation tells what became of the instruction', () => {
  it('SIGTERM while polling: the job keeps running on the service; the summary says so', async () => {
    await withService({ jobs: [{ id: 'job-1', activeMs: 600_000 }] }, async sim => {
      const r = await runScenario({
        inputs: inputs(sim.url, { 'wait-timeout': '60s' }),
        // Once the job has been polled after the instruction was taken.
        signalWhen: () => sim.requests.at(-1)?.kind === 'job' && posts(sim).length === 1
      })
      expect(r.timedOut).toBe(false)
      expect(r.code).not.toBe(0)
      expect(posts(sim)).toHaveLength(1)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/Cancelled \(SIGTERM\)/)
      expect(errors[0]).toMatch(/the job keeps running on the service; this run stopped waiting/)
      expect(r.summary).toMatch(/^### 🚫 Run cancelled · the job keeps running$/m)
      expect(r.summary).toContain('It may still open a pull request.')
      expect(r.outputs.status).toBe('active')
      // What the run spent is known even though it was cut short.
      expect(r.outputs.requests).toBe(String(sim.requests.length))
    })
  })

  it('SIGTERM during the POST: "may or may not have been delivered"', async () => {
    await withService(
      { jobs: [{ id: 'job-1', activePolls: 1 }], faults: [{ kind: 'message', hang: true }] },
      async sim => {
        // While the POST hangs: sent, and not answered.
        const r = await runScenario({
          inputs: inputs(sim.url),
          signalWhen: () => posts(sim).length === 1
        })
        expect(r.timedOut).toBe(false)
        expect(r.code).not.toBe(0)
        expect(posts(sim)).toHaveLength(1)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(/may or may not have been delivered/)
        expect(r.summary).toMatch(/may or may not have been delivered/)
        expect(r.outputs.requests).toBe(String(sim.requests.length))
      }
    )
  })
})

// Scenario tier (__tests__/runner.ts). Secrets never leak: every command and failure path runs with
// a distinctive API key and GitHub token, and everything the run leaves behind is searched for
// both: stdout (except the `::add-mask::` lines that register them), stderr, the step outputs, the
// summary, every file written under the runner's temp folder (workspace included), and everything
// the fake GitHub received. The API key goes to the service only in `Authorization`, the token only
// to GitHub. Keys that could inject a header are refused before any request.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { startService } from '../sim/service.js'
import { startGitHub } from '../sim/github.js'
import { runScenario } from './runner.js'
import { errorsOf } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type ServiceOptions = NonNullable<Parameters<typeof startService>[0]>
type GitHub = Awaited<ReturnType<typeof startGitHub>>
type GitHubOptions = NonNullable<Parameters<typeof startGitHub>[0]>
type RunOptions = NonNullable<Parameters<typeof runScenario>[0]>
type RunResult = Awaited<ReturnType<typeof runScenario>>

// eslint-disable-next-line no-control-regex -- control characters are what the keys hold
const SEPARATORS = /[\s\u0000-\u001f\u007f]+/
const API_KEY = 'mint_SECRETKEY_do_not_leak_123'
const TOKEN = 'ghs_SECRETTOKEN_do_not_leak_456'
const PROJECT = 'proj-1'

/** The secret and the encodings a careless log line, file or service could carry it in. */
function formsOf(secret: string): string[] {
  const b64 = (text: string): string => Buffer.from(text).toString('base64')
  const b64url = (text: string): string => Buffer.from(text).toString('base64url')
  return [
    secret,
    b64(secret),
    b64(secret).replace(/=+$/, ''),
    b64url(secret),
    Buffer.from(secret).toString('hex'),
    encodeURIComponent(secret),
    b64(`Bearer ${secret}`).replace(/=+$/, ''),
    b64url(`Bearer ${secret}`),
    b64(`token ${secret}`).replace(/=+$/, '')
  ]
}

/**
 * What a reader sees of rendered Markdown: numeric and named HTML entities decoded (the escaper
 * writes `_` as `&#95;`, which hides a key from a literal scan), backslash escapes removed, and
 * the invisible word joiners that break mentions and autolinks dropped.
 */
function rendered(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return text
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&([a-z]+);/gi, (m, n: string) => named[n.toLowerCase()] ?? m)
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/[\u2060\u200b\u200c\u200d]/g, '')
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const p = path.join(dir, entry.name)
    return entry.isDirectory() ? walk(p) : entry.isFile() ? [p] : []
  })
}

/** Every place a secret turned up, as "where: which"; empty when none did. */
function leaks(r: RunResult, svc: Service, gh?: GitHub): string[] {
  const found: string[] = []
  const check = (where: string, text: string, secrets = [API_KEY, TOKEN]): void => {
    const seen = [text, rendered(text)]
    for (const secret of secrets)
      for (const form of formsOf(secret))
        if (seen.some(t => t.includes(form)))
          found.push(`${where}: ${secret === API_KEY ? 'api key' : 'token'} (${form})`)
  }
  const logLines = r.stdout.split(/\r?\n/).filter(line => !line.startsWith('::add-mask::'))
  check('stdout', logLines.join('\n'))
  check('stderr', r.stderr)
  for (const [name, value] of Object.entries(r.outputs)) check(`output ${name}`, value)
  check('summary', r.summary)
  for (const file of walk(r.tempDir)) check(`file ${file}`, fs.readFileSync(file, 'latin1'))
  for (const q of svc.requests) {
    // The key belongs in Authorization, and nowhere else: not in the path, query or body.
    const { authorization, ...headers } = q.headers
    check(
      `service request ${q.method} ${q.path}`,
      `${q.path}\n${q.body}\n${JSON.stringify(headers)}`
    )
    check(`service Authorization header`, String(authorization), [TOKEN])
  }
  if (gh) {
    for (const list of gh.comments.values()) for (const c of list) check(`comment ${c.id}`, c.body)
    for (const q of gh.requests) {
      const { authorization, ...headers } = q.headers
      check(
        `GitHub request ${q.method} ${q.path}`,
        `${q.path}\n${JSON.stringify(q.query)}\n${JSON.stringify(q.body ?? null)}\n${JSON.stringify(headers)}`
      )
      check(`GitHub Authorization header`, String(authorization), [API_KEY])
    }
  }
  return found
}

/** Both secrets were registered as masks before anything else was printed. */
function expectMasked(r: RunResult, secrets = [API_KEY, TOKEN]): void {
  const lines = r.stdout.split(/\r?\n/)
  for (const secret of secrets) {
    const at = lines.indexOf(`::add-mask::${secret}`)
    expect(at).toBeGreaterThanOrEqual(0)
    expect(lines.slice(0, at).every(line => line.startsWith('::add-mask::'))).toBe(true)
  }
}

const noStack = (r: RunResult): void => {
  expect(r.stdout).not.toMatch(/^ {4}at /m)
  expect(r.stderr).not.toMatch(/^ {4}at /m)
}

interface Scenario {
  name: string
  service?: ServiceOptions
  /** Start the fake GitHub (with this token unless given) and point the action at it. */
  github?: GitHubOptions
  inputs: Record<string, string>
  /** Builds the event once the fake GitHub is up (so a trigger comment can be seeded). */
  event?: (gh: GitHub | undefined) => { eventName: string; payload: object }
  code: number
  check?: (r: RunResult, svc: Service, gh: GitHub | undefined) => void
}

const message = (extra: Record<string, string> = {}): Record<string, string> => ({
  command: 'message',
  'job-id': 'job-1',
  prompt: 'Add a page on webhooks',
  'poll-interval': '0.2',
  'wait-timeout': '20s',
  ...extra
})
const visitors = (extra: Record<string, string> = {}): Record<string, string> => ({
  command: 'visitors',
  'page-size': '50',
  concurrency: '3',
  'wait-timeout': '20s',
  ...extra
})

const repository = { full_name: 'octo/docs', name: 'docs', owner: { login: 'octo' } }

function triggerEvent(
  gh: GitHub | undefined,
  login: string
): { eventName: string; payload: object } {
  const body = '/docs-agent Please document the new SDK'
  const seeded = gh?.addComment(12, body, { login, type: 'User' })
  return {
    eventName: 'issue_comment',
    payload: {
      action: 'created',
      issue: {
        number: 12,
        title: 'Docs',
        user: { login: 'docs-agent[bot]', type: 'Bot' },
        pull_request: { url: 'https://api.github.com/repos/octo/docs/pulls/12' }
      },
      comment: { id: seeded?.id ?? 1, body, user: { login, type: 'User' } },
      repository,
      sender: { login, type: 'User' }
    }
  }
}

const pullRequestEvent = {
  eventName: 'pull_request',
  payload: { action: 'opened', number: 7, pull_request: { number: 7 }, repository }
}

const SCENARIOS: Scenario[] = [
  {
    name: 'message: happy path, route recorded on the PR',
    service: { jobs: [{ id: 'job-1', activePolls: 1 }] },
    github: {},
    inputs: message(),
    code: 0,
    check: (r, svc, gh) => {
      expect(r.outputs.status).toBe('completed')
      expect(svc.requests.every(q => q.headers.authorization === `Bearer ${API_KEY}`)).toBe(true)
      expect(gh?.comments.get(7)?.length).toBe(1)
    }
  },
  {
    name: 'message: the job failed',
    service: { jobs: [{ id: 'job-1', activePolls: 1, finalStatus: 'failed' }] },
    github: {},
    inputs: message(),
    code: 1
  },
  {
    name: 'message: 401 (the key is refused)',
    service: { apiKey: 'mint_other_key', jobs: [{ id: 'job-1' }] },
    inputs: message(),
    code: 1,
    check: r => expect(errorsOf(r).join('\n')).toMatch(/401/)
  },
  {
    name: 'message: 500 on the POST',
    service: {
      jobs: [{ id: 'job-1' }],
      faults: [{ kind: 'message', status: 500, body: { error: 'boom' } }]
    },
    inputs: message(),
    code: 1,
    check: r => expect(errorsOf(r).join('\n')).toMatch(/may or may not have been delivered/)
  },
  {
    name: 'message: the POST times out',
    service: { jobs: [{ id: 'job-1' }], faults: [{ kind: 'message', hang: true }] },
    inputs: message({ 'wait-timeout': '2s' }),
    code: 1
  },
  {
    name: 'message: the wait times out',
    service: { jobs: [{ id: 'job-1', activePolls: 1000 }] },
    inputs: message({ 'wait-timeout': '2s' }),
    code: 1,
    check: r => expect(errorsOf(r).join('\n')).toMatch(/Timed out/)
  },
  ...(['json', 'csv', 'ndjson'] as const).map((ext): Scenario => ({
    name: `visitors: output-file .${ext}`,
    service: { rows: 120 },
    inputs: visitors({ 'output-file': `out/visitors.${ext}`, period: '7d', compare: 'true' }),
    code: 0,
    check: r => {
      expect(r.outputs.rows).toBe('120')
      expect(r.files(`out/visitors.${ext}`)).toBeDefined()
    }
  })),
  {
    name: 'visitors: comment on a pull request',
    service: { rows: 80 },
    github: {},
    inputs: visitors(),
    event: () => pullRequestEvent,
    code: 0,
    check: (r, _svc, gh) => {
      expect(r.outputs['comment-url']).toMatch(/issuecomment/)
      expect(gh?.comments.get(7)?.length).toBe(1)
    }
  },
  {
    name: 'visitors: the service keeps failing',
    service: {
      rows: 80,
      faults: [{ kind: 'visitors', status: 500, times: Infinity, body: { error: 'down' } }]
    },
    inputs: visitors({ 'wait-timeout': '3s', 'output-file': 'v.csv' }),
    code: 1
  },
  {
    name: 'visitors: GitHub refuses the token (401 on the comment)',
    service: { rows: 10 },
    github: { token: 'ghs_someone_else' },
    inputs: visitors(),
    event: () => pullRequestEvent,
    code: 1
  },
  // A careless service echoes the key it received back, in every encoding: nothing of it may
  // reach the log, the outputs, the summary, the comment or GitHub.
  {
    name: 'message: the service echoes the key in the job it answers (POST and polls)',
    service: {
      jobs: [{ id: 'job-1', activePolls: 1 }],
      faults: [{ echoKey: 'job', times: Infinity }]
    },
    github: {},
    inputs: message(),
    event: () => pullRequestEvent,
    code: 0,
    check: r => {
      expect(r.outputs.status).toBe('completed')
      expect(r.outputs['pr-link']).toBe('https://github.com/octo/docs/pull/7?k=***')
      const job = JSON.parse(r.outputs.job ?? '{}') as {
        echo: { headers: { authorization: string } }
        source: { repository: string }
      }
      expect(job.echo.headers.authorization).toBe('Bearer ***')
      expect(job.source.repository).toBe('https://x-access-token:***@github.com/octo/docs')
      expect(rendered(r.summary)).toContain('***')
    }
  },
  ...(['error', 'details'] as const).map((echo): Scenario => ({
    name: `message: the POST is refused with the key echoed in the ${echo === 'error' ? 'error text' : 'details'}`,
    service: { jobs: [{ id: 'job-1' }], faults: [{ kind: 'message', echoKey: echo }] },
    github: {},
    inputs: message(),
    event: () => pullRequestEvent,
    code: 1,
    check: (r, svc, gh) => {
      expect(errorsOf(r).join('\n')).toMatch(
        /400 Bad Request: Invalid (credential|request).*\*\*\*/
      )
      expect(svc.jobs.get('job-1')?.messages).toEqual([])
      expect(gh?.comments.get(7)?.some(c => rendered(c.body).includes('***'))).toBe(true)
    }
  })),
  {
    name: 'visitors: a page is refused with the key echoed in the error text',
    service: { rows: 80, faults: [{ kind: 'visitors', echoKey: 'error', times: Infinity }] },
    inputs: visitors({ 'output-file': 'v.json' }),
    code: 1,
    check: r => {
      expect(errorsOf(r).join('\n')).toMatch(/400 Bad Request: Invalid credential \*\*\*/)
      expect(r.files('v.json')).toBeUndefined()
    }
  },
  {
    name: 'visitors: GitHub refuses the comment, echoing the token and the key',
    service: { rows: 10 },
    github: {
      failures: [
        {
          method: 'POST',
          pathIncludes: '/comments',
          status: 403,
          times: Infinity,
          message: `Bad credentials ${TOKEN} ${encodeURIComponent(API_KEY)} ${Buffer.from(`Bearer ${API_KEY}`).toString('base64')}`
        }
      ]
    },
    inputs: visitors(),
    event: () => pullRequestEvent,
    code: 1,
    check: r => expect(errorsOf(r).join('\n')).toMatch(/403 Bad credentials \*\*\* \*\*\* \*\*\*/)
  },
  {
    name: 'comment trigger on a PR by a writer',
    service: { jobs: [{ id: 'job-1', activePolls: 1 }] },
    github: { permissions: { maintainer: 'write' } },
    inputs: {
      'job-id': 'job-1',
      command: 'message',
      'poll-interval': '0.2',
      'wait-timeout': '20s'
    },
    event: gh => triggerEvent(gh, 'maintainer'),
    code: 0,
    check: (r, svc, gh) => {
      expect(r.outputs.skipped).toBe('false')
      expect(svc.jobs.get('job-1')?.messages).toEqual(['Please document the new SDK'])
      // The progress comment on #12 and the route on #7, both signed with markers.
      expect(gh?.comments.get(12)?.some(c => c.body.includes('docs-agent:'))).toBe(true)
      expect(gh?.reactions.map(x => x.content)).toContain('eyes')
    }
  },
  {
    name: 'comment trigger refused: the commenter only has read',
    service: { jobs: [{ id: 'job-1' }] },
    github: { permissions: { stranger: 'read' } },
    inputs: { 'job-id': 'job-1', command: 'message' },
    event: gh => triggerEvent(gh, 'stranger'),
    code: 0,
    check: (r, svc, gh) => {
      expect(r.outputs.skipped).toBe('true')
      expect(svc.requests).toHaveLength(0)
      expect(gh?.reactions.map(x => x.content)).toEqual(['-1'])
    }
  }
]

async function checkScenario(s: Scenario): Promise<void> {
  const svc = await startService({ apiKey: API_KEY, ...s.service })
  const gh = s.github ? await startGitHub({ token: TOKEN, ...s.github }) : undefined
  try {
    const event = s.event?.(gh)
    const options: RunOptions = {
      inputs: { 'api-key': API_KEY, 'project-id': PROJECT, 'base-url': svc.url, ...s.inputs },
      githubToken: TOKEN,
      eventName: event?.eventName ?? 'workflow_dispatch',
      event: event?.payload ?? {},
      timeoutMs: 40_000,
      // Without a fake GitHub, GITHUB_API_URL stays on a closed port: a call fails fast.
      env: gh ? { GITHUB_API_URL: gh.url } : {}
    }
    const r = await runScenario(options)
    expect({ code: r.code, errors: errorsOf(r) }).toMatchObject({ code: s.code })
    expectMasked(r)
    noStack(r)
    expect(leaks(r, svc, gh)).toEqual([])
    expect(gh?.requests.some(q => q.path === '/user') ?? false).toBe(false)
    s.check?.(r, svc, gh)
  } finally {
    await svc.close()
    await gh?.close()
  }
}

describe('no secret leaks on any path', () => {
  it.concurrent.each(SCENARIOS.map(s => [s.name, s] as const))('%s', async (_name, s) =>
    checkScenario(s)
  )
})

describe('api keys that could inject a header are refused before any request', () => {
  const keys: [string, string][] = [
    ['a line feed inside', 'mint_SECRETKEY\nX-Injected: yes'],
    ['a trailing line feed', 'mint_SECRETKEY_do_not_leak_123\n'],
    ['a carriage return + line feed', 'mint_SECRETKEY\r\nX-Injected: yes'],
    ['a lone carriage return', 'mint_SECRETKEY\rX-Injected'],
    ['a tab', 'mint_SECRETKEY\tdo_not_leak'],
    ['a bell (\\u0007)', 'mint_SECRETKEY\u0007do_not_leak'],
    ['a space', 'mint_SECRETKEY do_not_leak'],
    ['DEL (\\u007f)', 'mint_SECRETKEY\u007fdo_not_leak']
  ]
  it.concurrent.each(keys)('%s', async (_name, key) => {
    const svc = await startService({ apiKey: key, jobs: [{ id: 'job-1' }] })
    try {
      const r = await runScenario({
        inputs: { 'api-key': key, 'project-id': PROJECT, 'base-url': svc.url, ...message() },
        githubToken: TOKEN,
        timeoutMs: 20_000
      })
      expect(r.code).toBe(1)
      expect(svc.requests).toHaveLength(0)
      const errors = errorsOf(r)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/`api-key`/)
      noStack(r)
      // No piece of the key is printed: each line (and the whole) was masked first.
      const pieces = key.split(SEPARATORS).filter(p => p.length >= 6)
      const logLines = r.stdout.split(/\r?\n/).filter(line => !line.startsWith('::add-mask::'))
      for (const piece of pieces) {
        expect(logLines.join('\n')).not.toContain(piece)
        expect(r.stderr).not.toContain(piece)
        expect(r.summary).not.toContain(piece)
        for (const value of Object.values(r.outputs)) expect(value).not.toContain(piece)
      }
      // A line break in the key cannot end a log line early and start one of its own.
      expect(r.stdout).not.toMatch(/^X-Injected/m)
    } finally {
      await svc.close()
    }
  })
})

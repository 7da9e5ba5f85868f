// Scenario tier (__tests__/runner.ts). The newcomer's set-up mistakes, run again (issue 48,
// contract "Causes, and who fixes them"): each is said by its own cause, with what to change and
// who changes it, where people read (the log, the check's summary, the code pull request's
// comment, the report's issue); "re-run" only where a re-run can help; no ✅ on what was not
// reached; no HTML entity in a plain-text line. Real loopback proxies (__tests__/proxy.ts) play
// the corporate proxy: wanting credentials, down, refusing tunnels, given as https://, dropping
// tunnels, answering 502 for a misspelt host.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario, type RunResult } from './runner.js'
import { closedPort, startProxy, type ProxyOptions, type TestProxy } from './proxy.js'
import { errorsOf, withGitHub, withService, type GitHub, type Service } from './support.js'
import { dispatchEvent, dispatchPayload, startTwoRepositories } from './two-repositories.js'

const SERVICE = 'https://api.example.test'
const READ_ONLY = 'mint_readonly0123456789abcdef'
const EXPIRED = 'mint_expired0123456789abcdef'
const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
const ISSUE = 12

/** What a mistake left where people read. */
interface Seen {
  r: RunResult
  /** Comments written on GitHub (the docs side's and the code pull request's). */
  comments: string[]
  /** Requests that reached the service. */
  sent: number
  /** Tunnels and requests the proxy saw, when there was one. */
  proxyHits?: number
}

/** Everything a person reads of a run: the log (no debug lines), the summary, the comments. */
const readable = (s: Seen): string =>
  [
    ...s.r.stdout.split('\n').filter(line => !line.startsWith('::debug::')),
    s.r.summary,
    ...s.comments
  ].join('\n')

/** A plain-text line of the log (not a summary, not a comment). */
const logLines = (r: RunResult): string[] =>
  r.stdout.split('\n').filter(line => line !== '' && !line.startsWith('::debug::'))

async function withProxy<T>(
  hosts: Record<string, number>,
  options: ProxyOptions,
  body: (proxy: TestProxy) => Promise<T>
): Promise<T> {
  const proxy = await startProxy(hosts, options)
  try {
    return await body(proxy)
  } finally {
    await proxy.close()
  }
}

const reportInputs = (baseUrl: string, extra: Record<string, string> = {}) => ({
  command: 'report',
  'api-key': SIM_API_KEY,
  'project-id': 'proj-1',
  'base-url': baseUrl,
  period: 'last-week',
  'issue-number': String(ISSUE),
  ...extra
})

const checkInputs = (baseUrl: string, extra: Record<string, string> = {}) => ({
  command: 'check',
  'api-key': SIM_API_KEY,
  'project-id': 'proj-1',
  'base-url': baseUrl,
  'issue-number': String(ISSUE),
  ...extra
})

const commentsOf = (gh: GitHub): string[] => [...gh.comments.values()].flat().map(c => c.body)

/** A weekly report whose service is reached through a test proxy (`HTTPS_PROXY`). */
function reportBehindProxy(options: ProxyOptions): Promise<Seen> {
  return withService({ projects: ['proj-1'] }, sim =>
    withGitHub({}, gh =>
      withProxy({ 'api.example.test': sim.port }, options, async proxy => {
        const r = await runScenario({
          inputs: reportInputs(SERVICE),
          env: { GITHUB_API_URL: gh.url, HTTPS_PROXY: `127.0.0.1:${proxy.port}` }
        })
        return {
          r,
          comments: commentsOf(gh),
          sent: sim.requests.length,
          proxyHits: proxy.hits.length
        }
      })
    )
  )
}

/** A check whose service is reached through a test proxy, with these variables besides. */
function checkBehindProxy(
  options: ProxyOptions,
  env: (proxy: TestProxy) => Record<string, string>,
  baseUrl = SERVICE
): Promise<Seen> {
  return withService({ projects: ['proj-1'] }, sim =>
    withGitHub({}, gh =>
      withProxy({ 'api.example.test': sim.port }, options, async proxy => {
        const r = await runScenario({
          inputs: checkInputs(baseUrl),
          env: { GITHUB_API_URL: gh.url, ...env(proxy) }
        })
        return {
          r,
          comments: commentsOf(gh),
          sent: sim.requests.length,
          proxyHits: proxy.hits.length
        }
      })
    )
  )
}

/** The docs repository's dispatch run (docs-repo-dispatch.yml) for a merge, with `notify-token`. */
async function dispatchCreate(
  o: {
    key?: string
    project?: string
    codePermissions?: { issues?: 'read' | 'write'; 'pull-requests'?: 'read' | 'write' }
  } = {}
): Promise<Seen & { code: string[] }> {
  const two = await startTwoRepositories({
    codeRepo: 'octo/api',
    code: {
      token: CODE_TOKEN,
      actorLogin: 'docs-notifier[bot]',
      ...(o.codePermissions ? { tokenPermissions: o.codePermissions, pulls: {} } : {})
    }
  })
  try {
    return await withService(
      {
        projects: ['proj-1'],
        jobs: [],
        created: { activePolls: 1 },
        keys: { [READ_ONLY]: 'read-only', [EXPIRED]: 'expired' }
      },
      async sim => {
        const pull = {
          number: 42,
          title: 'Add rate limits',
          html_url: 'https://github.com/octo/api/pull/42',
          merge_commit_sha: 'a1b2c3d4e5f6',
          body: 'Adds `limit`.'
        }
        const r = await runScenario({
          eventName: 'repository_dispatch',
          event: dispatchEvent(dispatchPayload(pull, ['src/limits.ts'])),
          inputs: {
            command: 'create',
            'api-key': o.key ?? SIM_API_KEY,
            'project-id': o.project ?? 'proj-1',
            'base-url': sim.url,
            prompt: 'Update the docs for this change.',
            'poll-interval': '0.2',
            'notify-token': CODE_TOKEN,
            'notify-repository': 'octo/api'
          },
          env: { GITHUB_API_URL: two.url }
        })
        const code = (two.code.comments.get(42) ?? []).map(c => c.body)
        return { r, code, comments: [...commentsOf(two.docs), ...code], sent: sim.requests.length }
      }
    )
  } finally {
    await two.close()
  }
}

/** A plain run against the simulators. */
function plain(inputs: (sim: Service) => Record<string, string>): Promise<Seen> {
  return withService({ projects: ['proj-1'] }, sim =>
    withGitHub({}, async gh => {
      const r = await runScenario({ inputs: inputs(sim), env: { GITHUB_API_URL: gh.url } })
      return { r, comments: commentsOf(gh), sent: sim.requests.length }
    })
  )
}

interface Mistake {
  /** What the newcomer got wrong. */
  name: string
  run: () => Promise<Seen>
  /** The cause, in its own words. */
  cause: RegExp
  /** What to change (and, where it is not the workflow's, who changes it). */
  fix: RegExp
  /** A re-run may help (a dropped tunnel): "try again" is then right. */
  rerunHelps?: boolean
  /** The service or GitHub was never reached: nothing may show ✅ but what needs no answer. */
  unreached?: true
  /** The step goes on (a code pull request that cannot be told only warns). */
  warnsOnly?: true
}

const RERUN_ONLY = /Re-run the docs workflow to try again|To try again, /

const MISTAKES: Mistake[] = [
  {
    name: 'a key of another service (`sk-…`) as `api-key`',
    run: () => plain(sim => checkInputs(sim.url, { 'api-key': 'sk-proj-0123456789abcdefghij' })),
    cause: /looks like .*so it was not sent/,
    fix: /admin API key|`mint_`/
  },
  {
    name: 'the secret’s name instead of its value',
    run: () => plain(sim => checkInputs(sim.url, { 'api-key': 'DOCS_API_KEY' })),
    cause: /looks like the name of a secret/,
    fix: /`\$\{\{ secrets\.NAME \}\}`/
  },
  {
    name: 'an expired key, on a dispatch run',
    run: () => dispatchCreate({ key: EXPIRED }),
    cause: /refused the API key \(401\)/,
    fix: /expired.*`DOCS_API_KEY`|`DOCS_API_KEY`.*expired/s
  },
  {
    name: 'a read-only key on `create`, from a dispatch',
    run: () => dispatchCreate({ key: READ_ONLY }),
    cause: /API key may only read \(403\)/,
    fix: /replace it with an admin API key/
  },
  {
    name: 'a wrong `project-id` on `create`',
    run: () => dispatchCreate({ project: 'proj-typo' }),
    cause: /knows no such project \(404\)/,
    fix: /check `project-id`/
  },
  {
    name: 'a wrong `project-id` on a report',
    run: () => plain(sim => reportInputs(sim.url, { 'project-id': 'proj-typo' })),
    cause: /404 Not Found: Project not found/,
    fix: /check `project-id`/
  },
  {
    name: 'a proxy that wants credentials (407)',
    run: () => reportBehindProxy({ credentials: 'u:p' }),
    cause: /answered 407 Proxy Authentication Required: it wants credentials/,
    fix: /`HTTPS_PROXY` as `http:\/\/user:pass@127\.0\.0\.1:\d+`/,
    unreached: true
  },
  {
    name: 'a proxy nobody answers on',
    run: async () => {
      const port = await closedPort()
      return withGitHub({}, async gh => {
        const r = await runScenario({
          inputs: reportInputs(SERVICE),
          env: { GITHUB_API_URL: gh.url, HTTPS_PROXY: `127.0.0.1:${port}` }
        })
        return { r, comments: commentsOf(gh), sent: 0 }
      })
    },
    cause: /nobody answers at the proxy 127\.0\.0\.1:\d+ \(ECONNREFUSED/,
    fix: /check its address in `HTTPS_PROXY`/,
    unreached: true
  },
  {
    name: 'a proxy that allows no tunnels (405)',
    run: () => reportBehindProxy({ noTunnels: true }),
    cause: /answered 405 Method Not Allowed to the tunnel/,
    fix: /network's administrators \(the proxy's\)/,
    unreached: true
  },
  {
    name: 'a proxy that refuses the host (403)',
    run: () =>
      withGitHub({}, gh =>
        withProxy({}, {}, async proxy => {
          const r = await runScenario({
            inputs: reportInputs(SERVICE),
            env: { GITHUB_API_URL: gh.url, HTTPS_PROXY: `127.0.0.1:${proxy.port}` }
          })
          return { r, comments: commentsOf(gh), sent: 0, proxyHits: proxy.hits.length }
        })
      ),
    cause: /answered 403 Forbidden instead of reaching api\.example\.test:443/,
    fix: /network's administrators \(the proxy's\)/,
    unreached: true
  },
  {
    name: 'an https:// proxy address for a proxy that speaks http',
    run: () => checkBehindProxy({}, proxy => ({ HTTPS_PROXY: `https://127.0.0.1:${proxy.port}` })),
    cause: /is given as https:\/\/ in `HTTPS_PROXY`, but it answers in plain http/,
    fix: /Write the proxy as `http:\/\/127\.0\.0\.1:\d+` in `HTTPS_PROXY`/,
    unreached: true
  },
  {
    name: 'a proxy that drops the tunnel',
    run: () =>
      checkBehindProxy({ dropTunnels: true }, proxy => ({
        HTTPS_PROXY: `127.0.0.1:${proxy.port}`
      })),
    cause: /opened the tunnel to api\.example\.test:443, then closed it/,
    fix: /Run the workflow again/,
    rerunHelps: true,
    unreached: true
  },
  {
    name: 'a `NO_PROXY` that sends the service direct, past a firewall',
    run: async () => {
      const port = await closedPort()
      return checkBehindProxy(
        {},
        proxy => ({ HTTP_PROXY: `127.0.0.1:${proxy.port}`, NO_PROXY: 'example.org,127.0.0.1' }),
        `http://127.0.0.1:${port}`
      )
    },
    cause:
      /reached directly, not through the proxy 127\.0\.0\.1:\d+, because the `NO_PROXY` entry `127\.0\.0\.1` matches it/,
    fix: /Take `127\.0\.0\.1` out of `NO_PROXY`/,
    unreached: true
  },
  {
    name: 'a misspelt `base-url` host, through the proxy (502)',
    run: () =>
      checkBehindProxy(
        { unknownHosts: 502 },
        proxy => ({ HTTPS_PROXY: `127.0.0.1:${proxy.port}` }),
        'https://api.mintlfy.test'
      ),
    cause: /could not reach api\.mintlfy\.test:443 \(it answered 502 Bad Gateway\)/,
    fix: /Check the host api\.mintlfy\.test in `base-url`/,
    unreached: true
  },
  {
    name: 'a `notify-token` that may not comment on the code repository',
    run: () => dispatchCreate({ codePermissions: { issues: 'read', 'pull-requests': 'read' } }),
    warnsOnly: true,
    cause: /Could not tell the code pull request octo\/api#42: GitHub: .*403/,
    fix: /`notify-token` may not do this on octo\/api: it needs `pull-requests: write`.*`notify-repository`/
  },
  {
    name: 'an `issue-number` that names no issue',
    run: () =>
      withService({ projects: ['proj-1'] }, sim =>
        withGitHub({ missingIssues: [999] }, async gh => {
          const r = await runScenario({
            inputs: reportInputs(sim.url, { 'issue-number': '999' }),
            env: { GITHUB_API_URL: gh.url }
          })
          return { r, comments: commentsOf(gh), sent: sim.requests.length }
        })
      ),
    cause: /Issue #999 does not exist in octo\/docs/,
    fix: /check `issue-number`/
  },
  {
    name: '`command: chek`',
    run: () => plain(sim => checkInputs(sim.url, { command: 'chek' })),
    cause: /`command`: "chek" is not accepted/,
    fix: /did you mean `check`\?/
  },
  {
    name: 'a typo in an input’s name (`perod`)',
    run: () => plain(sim => ({ ...reportInputs(sim.url), perod: 'last-month' })),
    cause: /`perod` is not an input of this action/,
    fix: /did you mean `period`\?/
  },
  {
    name: 'a typo in an enumerated value (`comment-mode: minimise`)',
    run: () => plain(sim => reportInputs(sim.url, { 'comment-mode': 'minimise' })),
    cause: /`comment-mode`: "minimise" is not accepted/,
    fix: /did you mean `minimize`\?/
  }
]

describe("the newcomer's set-up mistakes, run again", () => {
  it.each(MISTAKES.map(m => [m.name, m] as const))('%s: its cause and its fix', async (_, m) => {
    const seen = await m.run()
    const text = readable(seen)
    expect(seen.r.code).toBe(m.warnsOnly ? 0 : 1)
    expect(text).toMatch(m.cause)
    expect(text).toMatch(m.fix)
    // Plain-text lines carry no HTML entities: escaping is for Markdown only.
    for (const line of logLines(seen.r)) expect(line).not.toMatch(/&#\d+;|&(amp|lt|gt);/)
    // "Re-run" only where a re-run can help.
    if (!m.rerunHelps) expect(text).not.toMatch(RERUN_ONLY)
    if (m.unreached) {
      expect(seen.sent).toBe(0)
      expect(seen.r.summary).not.toMatch(
        /\| ✅ \| (Proxy|API key accepted|Project found|Analytics|Agent API)/
      )
    }
  })
})

describe('said at once, before anything is spent', () => {
  it('a report behind a proxy that wants credentials: one try, seconds on the test clock, the fix line, a note on the issue', async () => {
    const seen = await reportBehindProxy({ credentials: 'u:p' })
    expect(seen.proxyHits).toBeLessThanOrEqual(2)
    expect(seen.r.durationMs).toBeLessThan(10_000)
    const [error] = errorsOf(seen.r)
    expect(error).toMatch(/put them in `HTTPS_PROXY` as `http:\/\/user:pass@/)
    expect(error).toContain("This workflow's maintainers must change this first")
    // The sections after the first were not tried: nothing more went to the proxy.
    expect(seen.r.stdout).not.toMatch(/retrying in/)
    expect(seen.comments).toHaveLength(1)
    expect(seen.comments[0]).toMatch(
      /· not read\n\n🔌 On \d{4}-\d\d-\d\d the proxy 127\.0\.0\.1:\d+ answered 407/
    )
    expect(seen.comments[0]).toContain("**To fix** (this workflow's maintainers): The proxy")
  })

  it('an issue that does not exist: 1 GitHub request, 0 analytics requests, the step names `issue-number`', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({ missingIssues: [999] }, async gh => {
        const r = await runScenario({
          inputs: reportInputs(sim.url, { 'issue-number': '999' }),
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.code).toBe(1)
        expect(sim.requests).toHaveLength(0)
        expect(gh.requests.map(q => `${q.method} ${q.path}`)).toEqual([
          'GET /repos/octo/docs/issues/999'
        ])
        expect(errorsOf(r)).toEqual([
          expect.stringMatching(
            /^Issue #999 does not exist in octo\/docs \(GitHub answered 404\), so nothing was read and nothing posted\. To fix: check `issue-number`/
          )
        ])
        expect(r.outputs.requests).toBe('0')
      })
    )
  })

  it('a visitors export to an issue that does not exist spends nothing either', async () => {
    await withService({ projects: ['proj-1'] }, sim =>
      withGitHub({ missingIssues: [999] }, async gh => {
        const r = await runScenario({
          inputs: { ...reportInputs(sim.url, { 'issue-number': '999' }), command: 'visitors' },
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.code).toBe(1)
        expect(sim.requests).toHaveLength(0)
        expect(errorsOf(r)[0]).toMatch(/Issue #999 does not exist/)
      })
    )
  })
})

describe('GitHub behind a proxy that wants credentials', () => {
  it('one call goes to the proxy; the calls after it are not sent, and the step says the fix once', async () => {
    await withService({ projects: ['proj-1'], rows: 10 }, sim =>
      withGitHub({}, gh =>
        withProxy({}, { credentials: 'u:p' }, async proxy => {
          const r = await runScenario({
            inputs: reportInputs(sim.url),
            env: {
              GITHUB_API_URL: gh.url,
              HTTP_PROXY: `127.0.0.1:${proxy.port}`,
              // The service is reached directly: only GitHub's calls go to the proxy.
              NO_PROXY: `127.0.0.1:${sim.port}`
            }
          })
          expect(proxy.hits).toHaveLength(1)
          expect(gh.requests).toHaveLength(0)
          // The report itself was read (the service was reached) and is in the summary.
          expect(sim.requests.length).toBeGreaterThan(0)
          expect(r.summary).toContain('## Docs health')
          expect(r.stdout).toMatch(/not sent, not reached: the proxy 127\.0\.0\.1:\d+ answered 407/)
          expect(r.code).toBe(1)
          const [error] = errorsOf(r)
          expect(error).toMatch(
            /To fix: the proxy 127\.0\.0\.1:\d+ wants credentials: put them in `HTTP_PROXY`/
          )
          expect(error).toContain("This workflow's maintainers must change this first")
        })
      )
    )
  })
})

describe('who fixes it, on the code pull request', () => {
  it('a scope 403 on `create` from a dispatch: replace the key, not re-run', async () => {
    const seen = await dispatchCreate({ key: READ_ONLY })
    expect(seen.code).toHaveLength(1)
    const body = seen.code[0]!
    expect(body).toContain(
      "🔑 The docs agent did not start on octo/docs's documentation for this change: the API key may only read (403): starting or messaging a job needs an admin key"
    )
    expect(body).toContain(
      '**To fix** (the maintainers of the docs workflow in octo/docs): The key lacks the scope for this'
    )
    expect(body).toContain('replace it with an admin API key (it starts with `mint_`, full access)')
    expect(body).toContain(
      'Nothing was sent to the agent; a re-run before that fails the same way.'
    )
    expect(body).not.toMatch(RERUN_ONLY)
    // The docs side's summary: who changes it, no "to try again".
    expect(seen.r.summary).toContain(
      "This workflow's maintainers must change this first, then re-run the workflow: trying again as it is would be refused the same way."
    )
    expect(seen.r.summary).not.toMatch(RERUN_ONLY)
  })

  it('a refused `notify-token`: its own scope and `notify-repository`, never the workflow token’s fix', async () => {
    const seen = await dispatchCreate({
      codePermissions: { issues: 'read', 'pull-requests': 'read' }
    })
    expect(seen.code).toEqual([])
    const warnings = seen.r.stdout.split('\n').filter(l => l.startsWith('::warning::'))
    const told = warnings.filter(w => w.includes('Could not tell the code pull request'))
    expect(told.length).toBeGreaterThan(0)
    for (const w of told) {
      expect(w).toContain('`notify-token` may not do this on octo/api')
      expect(w).not.toMatch(/give the workflow `issues: write`|workflow’s `permissions:`\)?$/)
    }
    // The summary says the code pull request could not be told, and why.
    expect(seen.r.summary).toMatch(
      /The code pull request octo\/api#42 could not be told: .*`notify-token` may not do this/
    )
  })
})

describe('the check says what it could prove', () => {
  it('a read-only key: ready to read; agent jobs not verified, never “✅ ready”', async () => {
    await withService({ projects: ['proj-1'], keys: { [READ_ONLY]: 'read-only' } }, async sim => {
      const r = await runScenario({
        inputs: checkInputs(sim.url, { 'api-key': READ_ONLY, 'issue-number': '' })
      })
      expect(r.code).toBe(0)
      expect(r.summary).toMatch(/^## Set-up check · ✅ ready to read; agent jobs not verified\n/)
      expect(r.summary).toContain('| ➖ | Key may start agent jobs | not verified')
    })
  })

  it('✅ Proxy only when an answer came back through it', async () => {
    const dropped = await checkBehindProxy({ dropTunnels: true }, proxy => ({
      HTTPS_PROXY: `127.0.0.1:${proxy.port}`
    }))
    expect(dropped.r.summary).not.toMatch(/\| ✅ \| Proxy/)
    // The service answered through it; GitHub, not asked, is said as such.
    await withService({ projects: ['proj-1'] }, sim =>
      withProxy({}, {}, async proxy => {
        const r = await runScenario({
          inputs: checkInputs(sim.url, { 'issue-number': '' }),
          env: { HTTP_PROXY: `127.0.0.1:${proxy.port}`, GITHUB_API_URL: 'http://127.0.0.1:9' }
        })
        expect(r.summary).toContain(
          `| ✅ | Proxy | the service through 127.0.0.1:${proxy.port}; GitHub through 127.0.0.1:${proxy.port} (not asked by this check) |`
        )
      })
    )
  })
})

describe('suggestions worth doing', () => {
  it('a hostile query with the most zero-click searches: in its table, inert, not suggested', async () => {
    const hostile = '[click me](javascript:alert(1)) | table | break'
    const searches = [
      {
        searchQuery: hostile,
        hits: 900,
        ctr: 0,
        topClickedPage: null,
        lastSearchedAt: '2026-11-20T10:00:00Z'
      },
      {
        searchQuery: 'rotate api key',
        hits: 300,
        ctr: 0,
        topClickedPage: null,
        lastSearchedAt: '2026-11-20T10:00:00Z'
      }
    ]
    await withService({ projects: ['proj-1'], rows: 10, searches }, sim =>
      withGitHub({}, async gh => {
        const r = await runScenario({
          inputs: reportInputs(sim.url, { sections: 'searches' }),
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.code).toBe(0)
        const [body] = commentsOf(gh)
        // In the searches table, inert: no link, no extra cell.
        const row = body!.split('\n').find(l => l.includes('click me'))!
        expect(row).toContain('| 1 | &#91;click me&#93;&#40;javascript')
        expect(row.match(/\|/g)).toHaveLength(6)
        // Not suggested: the first suggestion is the next gap, and the notes say one was left out.
        expect(body).toMatch(/\n1\. \*\*Search gap\*\* “rotate api key”/)
        const suggestions = body!.slice(body!.indexOf('#### What to fix'))
        expect(suggestions.split('<details>')[0]).not.toContain('click me')
        expect(body).toContain(
          '_1 search or question carrying markup, HTML, a table pipe or a link was left out of the suggestions (shown as text in its table)._'
        )
      })
    )
  })
})

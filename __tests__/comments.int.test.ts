// Scenario tier (__tests__/runner.ts): the action against the service simulator and the fake
// GitHub REST API, driven by real-shaped event payloads; in this process on the simulators'
// jumping clock, or (signals) as dist/index.js in a child process. Covers the comment
// trigger (permission levels, non-triggers), the comments the action writes (upsert, size limit,
// live progress, cancellation, hostile text) and routing a reply to the job recorded on a PR.
import { describe, it, expect } from '@jest/globals'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { startGitHub } from '../sim/github.js'
import { annotations } from '../sim/run-action.js'
import { runScenario } from './runner.js'
import { expectNoStack } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type ServiceOptions = NonNullable<Parameters<typeof startService>[0]>
type GitHub = Awaited<ReturnType<typeof startGitHub>>
type GitHubOptions = NonNullable<Parameters<typeof startGitHub>[0]>
type RunOptions = NonNullable<Parameters<typeof runScenario>[0]>
type RunResult = Awaited<ReturnType<typeof runScenario>>
type Level = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

const PROJECT = 'proj-1'
const PR_7 = 'https://github.com/octo/docs/pull/7'

// Every fake GitHub started here, so the last test can check that none was asked `GET /user`.
const allGitHubs: GitHub[] = []

interface Sims {
  svc: Service
  gh: GitHub
}

async function withSims<T>(
  svcOptions: ServiceOptions,
  ghOptions: GitHubOptions,
  fn: (sims: Sims) => Promise<T>
): Promise<T> {
  const svc = await startService(svcOptions)
  const gh = await startGitHub(ghOptions)
  allGitHubs.push(gh)
  try {
    return await fn({ svc, gh })
  } finally {
    await svc.close()
    await gh.close()
  }
}

function baseInputs(svc: Service): Record<string, string> {
  return {
    'api-key': SIM_API_KEY,
    'project-id': PROJECT,
    'base-url': svc.url,
    'poll-interval': '0.2',
    'wait-timeout': '20s'
  }
}

function run(sims: Sims, o: RunOptions): Promise<RunResult> {
  return runScenario({ timeoutMs: 40_000, ...o, env: { GITHUB_API_URL: sims.gh.url, ...o.env } })
}

const repository = { full_name: 'octo/docs', name: 'docs', owner: { login: 'octo' } }

function user(login: string): { login: string; type: string } {
  return { login, type: 'User' }
}

/** An `issue_comment` payload; `pr: false` makes it a plain issue. */
function issueCommentEvent(
  n: number,
  comment: { id: number; body: string; login: string },
  o: { pr?: boolean; action?: string } = {}
): object {
  const pr = o.pr ?? true
  return {
    action: o.action ?? 'created',
    issue: {
      number: n,
      title: 'Update the docs',
      state: 'open',
      user: user('docs-agent[bot]'),
      ...(pr
        ? {
            pull_request: {
              url: `https://api.github.com/repos/octo/docs/pulls/${n}`,
              html_url: `https://github.com/octo/docs/pull/${n}`
            }
          }
        : {})
    },
    comment: {
      id: comment.id,
      body: comment.body,
      user: user(comment.login),
      html_url: `https://github.com/octo/docs/${pr ? 'pull' : 'issues'}/${n}#issuecomment-${comment.id}`
    },
    repository,
    sender: user(comment.login)
  }
}

function reviewCommentEvent(n: number, comment: { id: number; body: string; login: string }) {
  return {
    action: 'created',
    pull_request: { number: n, title: 'Update the docs' },
    comment: { id: comment.id, body: comment.body, user: user(comment.login), path: 'a.md' },
    repository,
    sender: user(comment.login)
  }
}

function pullRequestEvent(n: number): object {
  return {
    action: 'synchronize',
    number: n,
    pull_request: { number: n, title: 'Update the docs', head: { ref: 'docs' } },
    repository,
    sender: user('octocat')
  }
}

/** Seeds the trigger comment (so reactions on it succeed) and builds its issue_comment run. */
function trigger(
  gh: GitHub,
  n: number,
  body: string,
  login = 'octocat',
  o: { pr?: boolean; action?: string } = {}
): Pick<RunOptions, 'event' | 'eventName'> & { commentId: number } {
  const seeded = gh.addComment(n, body, user(login))
  return {
    commentId: seeded.id,
    eventName: 'issue_comment',
    event: issueCommentEvent(n, { id: seeded.id, body, login }, o)
  }
}

const reactionsOn = (gh: GitHub, id: number) =>
  gh.reactions.filter(r => r.commentId === id).map(r => r.content)
const commentWrites = (gh: GitHub, method = 'POST') =>
  gh.requests.filter(
    r =>
      r.method === method &&
      /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+\/comments|comments\/\d+)$/.test(r.path)
  )
const messagesSent = (svc: Service) => svc.requests.filter(r => r.kind === 'message')
const notices = (r: RunResult) => annotations(r.stdout).filter(a => a.command === 'notice')
const errors = (r: RunResult) => annotations(r.stdout).filter(a => a.command === 'error')
const debug = (r: RunResult) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`

/** Markers the action appends: `<!-- docs-agent:<key> t=<ms> sig=<32 hex> -->`, at the end only. */
const TRAILING_MARKERS =
  /(?:\n<!-- docs-agent:[A-Za-z0-9\-_.!~*'()%]+ v=2 t=\d+ sig=[0-9a-f]{32} -->)+$/

describe('comment trigger: permission of the commenter', () => {
  const permissions: Record<string, Level> = {
    'u-none': 'none',
    'u-read': 'read',
    'u-triage': 'triage',
    'u-write': 'write',
    'u-maintain': 'maintain',
    'u-admin': 'admin'
  }
  const cases: [login: string, least: Level, accepted: boolean][] = [
    ['u-none', 'write', false],
    ['u-read', 'write', false],
    ['u-triage', 'write', false],
    ['u-write', 'write', true],
    ['u-maintain', 'write', true],
    ['u-admin', 'write', true],
    ['stranger', 'write', false], // not a collaborator: the API answers 404
    ['u-read', 'triage', false],
    ['u-triage', 'triage', true]
  ]

  it.each(cases)('%s against permission: %s → accepted %s', async (login, least, accepted) => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1, prLink: PR_7 }] },
      { permissions },
      async sims => {
        const { svc, gh } = sims
        const prompt = 'Fix the intro.\n\nAlso add\n  an example with `code`.'
        const t = trigger(gh, 7, `/docs-agent ${prompt}\n`, login)
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', permission: least }
        })
        const permissionChecks = gh.requests.filter(q => q.path.endsWith(`/${login}/permission`))
        expect(permissionChecks).toHaveLength(1)
        if (!accepted) {
          expect(r.code).toBe(0)
          expect(r.outputs.skipped).toBe('true')
          expect(
            notices(r)
              .map(n => n.message)
              .join('\n')
          ).toMatch(/trigger comment/i)
          expect(reactionsOn(gh, t.commentId)).toEqual(['-1'])
          expect(svc.requests).toEqual([])
          expect(commentWrites(gh)).toEqual([])
          expect(commentWrites(gh, 'PATCH')).toEqual([])
          expect(gh.comments.get(7)).toHaveLength(1) // only the trigger
        } else {
          expect(r.code).toBe(0)
          expect(r.outputs.skipped).toBe('false')
          expect(svc.jobs.get('job-1')?.messages).toEqual([prompt])
          expect(reactionsOn(gh, t.commentId)).toEqual(['eyes', 'rocket'])
          expect(r.outputs.status).toBe('completed')
          expect(r.outputs['pr-link']).toBe(PR_7)
        }
      }
    )
  })

  it('a review comment (pull_request_review_comment) is checked and reacted to the same way', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1 }] },
      { permissions: { 'u-write': 'write' } },
      async sims => {
        const { svc, gh } = sims
        const r = await run(sims, {
          eventName: 'pull_request_review_comment',
          event: reviewCommentEvent(7, {
            id: 777,
            body: '/docs-agent reword this',
            login: 'u-write'
          }),
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(0)
        expect(svc.jobs.get('job-1')?.messages).toEqual(['reword this'])
        const reactionPaths = gh.requests.filter(q => q.path.endsWith('/reactions'))
        expect(reactionPaths.map(q => q.path)).toEqual([
          '/repos/octo/docs/pulls/comments/777/reactions',
          '/repos/octo/docs/pulls/comments/777/reactions'
        ])
        expect(gh.reactions.map(x => x.content)).toEqual(['eyes', 'rocket'])
      }
    )
  })

  it('a job that fails gets the confused reaction and fails the step', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1, finalStatus: 'failed', prLink: null }] },
      { permissions: { octocat: 'admin' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, '/docs-agent try this')
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(1)
        expect(r.outputs.status).toBe('failed')
        expect(svc.jobs.get('job-1')?.messages).toEqual(['try this'])
        expect(reactionsOn(gh, t.commentId)).toEqual(['eyes', 'confused'])
      }
    )
  })

  it('a failing permission endpoint (500) counts as none: refused', async () => {
    await withSims({ jobs: [{ id: 'job-1' }] }, { permissionStatus: 500 }, async sims => {
      const { svc, gh } = sims
      const t = trigger(gh, 7, '/docs-agent do it')
      const r = await run(sims, {
        ...t,
        inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
      })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(notices(r)).toHaveLength(1)
      expect(reactionsOn(gh, t.commentId)).toEqual(['-1'])
      expect(svc.requests).toEqual([])
      expect(commentWrites(gh)).toEqual([])
    })
  })
})

describe('comment trigger: comments that are not triggers', () => {
  const cases: [name: string, body: string, o: { action?: string; trigger?: string }][] = [
    ['a longer word', '/docs-agentx do it', {}],
    ['the trigger mid-text', 'please /docs-agent do it', {}],
    ['an edited comment', '/docs-agent do it', { action: 'edited' }],
    ['a deleted comment', '/docs-agent do it', { action: 'deleted' }],
    ['the default trigger when a custom one is set', '/docs-agent do it', { trigger: '/ask' }]
  ]

  it.each(cases)('%s → skipped, no request anywhere', async (_name, body, o) => {
    await withSims(
      { jobs: [{ id: 'job-1' }] },
      { permissions: { octocat: 'admin' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, body, 'octocat', { action: o.action })
        const inputs = { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        const r = await run(sims, {
          ...t,
          inputs: o.trigger ? { ...inputs, trigger: o.trigger } : inputs
        })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
        expect(svc.requests).toEqual([])
        expect(gh.requests).toEqual([])
        expect(gh.reactions).toEqual([])
      }
    )
  })

  it('a custom trigger runs with its own word', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 3, '/ask   add a table  ', 'octocat', { pr: false })
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', trigger: '/ask' }
        })
        expect(r.code).toBe(0)
        expect(svc.jobs.get('job-1')?.messages).toEqual(['add a table'])
        expect(reactionsOn(gh, t.commentId)[0]).toBe('eyes')
      }
    )
  })
})

describe('comment trigger: who may trigger, and the order of the checks', () => {
  const bot = (login: string) => ({ login, type: 'Bot' })
  /** An issue_comment by a bot account, as GitHub sends it (`user.type: Bot`). */
  function botTrigger(gh: GitHub, n: number, body: string, login: string) {
    const seeded = gh.addComment(n, body, bot(login))
    const event = issueCommentEvent(n, { id: seeded.id, body, login })
    const withBot = {
      ...event,
      comment: { ...(event as { comment: object }).comment, user: bot(login) },
      sender: bot(login)
    }
    return { commentId: seeded.id, eventName: 'issue_comment', event: withBot }
  }
  const permissionChecks = (gh: GitHub) => gh.requests.filter(q => q.path.endsWith('/permission'))
  const logOf = (r: RunResult) => `${r.stdout}\n${r.stderr}`

  it('matches the trigger without regard to case, as the workflow filter does', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, '/Docs-Agent fix the intro')
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('false')
        expect(svc.jobs.get('job-1')?.messages).toEqual(['fix the intro'])
        expect(reactionsOn(gh, t.commentId)[0]).toBe('eyes')
      }
    )
  })

  it.each([
    ['an edited comment', '/docs-agent do it', 'edited', 'the comment was edited, not created'],
    ['another comment', 'LGTM', 'created', 'the comment does not start with /docs-agent']
  ])('%s: the log says why it was skipped', async (_name, body, action, reason) => {
    await withSims(
      { jobs: [{ id: 'job-1' }] },
      { permissions: { octocat: 'admin' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, body, 'octocat', { action })
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
        expect(r.stdout).toContain(`Skipped: ${reason}.`)
        expect(gh.requests).toEqual([])
      }
    )
  })

  it('refuses a bot by default, even one with admin permission: 👎, a notice naming allowed-bots', async () => {
    await withSims(
      { jobs: [{ id: 'job-1' }] },
      { permissions: { 'renovate[bot]': 'admin' } },
      async sims => {
        const { svc, gh } = sims
        const t = botTrigger(gh, 7, '/docs-agent bump the docs', 'renovate[bot]')
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
        expect(notices(r).map(n => n.message)).toEqual([
          'Ignored the trigger comment: @renovate[bot] is a bot; bots run only when listed in `allowed-bots`.'
        ])
        expect(reactionsOn(gh, t.commentId)).toEqual(['-1'])
        expect(permissionChecks(gh)).toEqual([])
        expect(svc.requests).toEqual([])
      }
    )
  })

  it.each([
    ['by name, in any case', 'dependabot[bot], Renovate[bot]'],
    ['by *', '*']
  ])('runs a bot listed in allowed-bots %s', async (_name, allowedBots) => {
    await withSims({ jobs: [{ id: 'job-1', activePolls: 1 }] }, {}, async sims => {
      const { svc, gh } = sims
      const t = botTrigger(gh, 7, '/docs-agent bump the docs', 'renovate[bot]')
      const r = await run(sims, {
        ...t,
        inputs: {
          ...baseInputs(svc),
          command: 'message',
          'job-id': 'job-1',
          'allowed-bots': allowedBots
        }
      })
      expect(debug(r)).toContain('Trigger accepted')
      expect(r.code).toBe(0)
      expect(svc.jobs.get('job-1')?.messages).toEqual(['bump the docs'])
      expect(reactionsOn(gh, t.commentId)[0]).toBe('eyes')
      expect(permissionChecks(gh)).toEqual([])
    })
  })

  it('runs a user listed in allowed-users who has no permission, without asking GitHub', async () => {
    await withSims({ jobs: [{ id: 'job-1', activePolls: 1 }] }, { permissions: {} }, async sims => {
      const { svc, gh } = sims
      const t = trigger(gh, 7, '/docs-agent add a FAQ entry', 'Outside-Contributor')
      const r = await run(sims, {
        ...t,
        inputs: {
          ...baseInputs(svc),
          command: 'message',
          'job-id': 'job-1',
          'allowed-users': 'someone, outside-contributor'
        }
      })
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('@Outside-Contributor is listed in `allowed-users`')
      expect(svc.jobs.get('job-1')?.messages).toEqual(['add a FAQ entry'])
      expect(permissionChecks(gh)).toEqual([])
    })
  })

  it('allowed-bots: * does not open the door to users without permission', async () => {
    await withSims({ jobs: [{ id: 'job-1' }] }, { permissions: { reader: 'read' } }, async sims => {
      const { svc, gh } = sims
      const t = trigger(gh, 7, '/docs-agent go', 'reader')
      const r = await run(sims, {
        ...t,
        inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', 'allowed-bots': '*' }
      })
      expect(r.outputs.skipped).toBe('true')
      expect(reactionsOn(gh, t.commentId)).toEqual(['-1'])
      expect(svc.requests).toEqual([])
    })
  })

  it('settles who commented before the other inputs: a refused or non-trigger comment never fails on them', async () => {
    await withSims({}, { permissions: { reader: 'read' } }, async sims => {
      const { gh } = sims
      const broken = { command: 'message', 'api-key': '', 'base-url': 'ftp://x', wait: 'maybe' }
      for (const [login, body] of [
        ['reader', '/docs-agent go'],
        ['octocat', 'just a comment']
      ] as const) {
        const r = await run(sims, { ...trigger(gh, 7, body, login), inputs: broken })
        expect(debug(r)).not.toMatch(/::error::/)
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
      }
    })
  })

  it('a misconfigured allow list never fails a non-trigger comment; a trigger comment names it', async () => {
    await withSims({}, { permissions: { octocat: 'write' } }, async sims => {
      const { svc, gh } = sims
      const inputs = { ...baseInputs(svc), 'job-id': 'job-1', 'allowed-users': 'bad login!' }
      const quiet = await run(sims, { ...trigger(gh, 7, 'LGTM', 'octocat'), inputs })
      expect(quiet.code).toBe(0)
      expect(quiet.outputs.skipped).toBe('true')
      expect(errors(quiet)).toEqual([])
      const loud = await run(sims, { ...trigger(gh, 7, '/docs-agent go', 'octocat'), inputs })
      expect(loud.code).toBe(1)
      expect(errors(loud).map(e => e.message)).toEqual([
        expect.stringContaining('Input `allowed-users`')
      ])
      expect(svc.requests).toEqual([])
    })
  })

  describe('a run with no api-key (a pull request from a fork gets no secrets)', () => {
    const events: [
      string,
      (gh: GitHub, login: string) => Pick<RunOptions, 'event' | 'eventName'>
    ][] = [
      ['issue_comment', (gh, login) => trigger(gh, 7, '/docs-agent fix it', login)],
      [
        'pull_request_review_comment',
        (_gh, login) => ({
          eventName: 'pull_request_review_comment',
          event: {
            ...reviewCommentEvent(7, { id: 778, body: '/docs-agent fix it', login }),
            pull_request: {
              number: 7,
              title: 'Update the docs',
              head: { ref: 'patch-1', repo: { full_name: 'someone/docs', fork: true } },
              base: { ref: 'main', repo: { full_name: 'octo/docs', fork: false } }
            }
          }
        })
      ]
    ]

    it.each(events)(
      'on %s: an allowed commenter is told so in a notice and skipped',
      async (eventName, ev) => {
        await withSims(
          { jobs: [{ id: 'job-1' }] },
          { permissions: { octocat: 'write' } },
          async sims => {
            const { svc, gh } = sims
            const r = await run(sims, {
              ...ev(gh, 'octocat'),
              inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', 'api-key': '' }
            })
            expect(r.code).toBe(0)
            expect(r.outputs.skipped).toBe('true')
            const said = notices(r).map(n => n.message)
            expect(said).toHaveLength(1)
            expect(said[0]).toMatch(/no `api-key`.*fork/)
            // A review comment's payload names the fork; an issue comment's does not.
            if (eventName === 'pull_request_review_comment')
              expect(said[0]).toContain('fork someone/docs')
            expect(errors(r)).toEqual([])
            expect(gh.reactions).toEqual([])
            expect(svc.requests).toEqual([])
          }
        )
      }
    )

    it.each(events)(
      'on %s: a refused commenter is refused first (👎), not told about the key',
      async (_n, ev) => {
        await withSims(
          { jobs: [{ id: 'job-1' }] },
          { permissions: { reader: 'read' } },
          async sims => {
            const { svc, gh } = sims
            const r = await run(sims, {
              ...ev(gh, 'reader'),
              inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', 'api-key': '' }
            })
            expect(r.code).toBe(0)
            expect(r.outputs.skipped).toBe('true')
            expect(
              notices(r)
                .map(n => n.message)
                .join('\n')
            ).toMatch(/reader has read permission/)
            expect(logOf(r)).not.toMatch(/api-key/)
            expect(gh.reactions.map(x => x.content)).toEqual(['-1'])
            expect(svc.requests).toEqual([])
          }
        )
      }
    )
  })

  describe('😕 after 👀 on every failure', () => {
    const cases: [string, ServiceOptions, Record<string, string>, RegExp][] = [
      [
        'an input error',
        { jobs: [{ id: 'job-1' }] },
        { 'job-id': 'job-1', 'wait-timeout': 'soon' },
        /`wait-timeout`/
      ],
      ['an error from the service', { jobs: [] }, { 'job-id': 'job-404' }, /404/],
      ['no job recorded on the pull request', { jobs: [{ id: 'job-1' }] }, {}, /`job-id`/],
      [
        'a wait that timed out',
        { jobs: [{ id: 'job-1', activeMs: 600_000 }] },
        { 'job-id': 'job-1', 'wait-timeout': '2s' },
        /Timed out/
      ],
      [
        'a failed job',
        { jobs: [{ id: 'job-1', activePolls: 1, finalStatus: 'failed', prLink: null }] },
        { 'job-id': 'job-1' },
        /fail-on-status/
      ]
    ]

    it.each(cases)('%s', async (_name, svcOptions, inputs, error) => {
      await withSims(svcOptions, { permissions: { octocat: 'write' } }, async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, '/docs-agent fix it')
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', ...inputs }
        })
        expect(r.code).toBe(1)
        expect(
          errors(r)
            .map(e => e.message)
            .join('\n')
        ).toMatch(error)
        expectNoStack(r)
        // Exactly one of each: the failure is reported once, however many places saw it.
        expect(reactionsOn(gh, t.commentId)).toEqual(['eyes', 'confused'])
      })
    })

    it('no 😕 without 👀: a run whose eyes reaction failed adds nothing more', async () => {
      await withSims(
        { jobs: [{ id: 'job-1' }] },
        { permissions: { octocat: 'write' } },
        async sims => {
          const { svc, gh } = sims
          const body = '/docs-agent fix it'
          // The comment is not on the fake GitHub, so the 👀 reaction gets a 404.
          const r = await run(sims, {
            eventName: 'issue_comment',
            event: issueCommentEvent(7, { id: 99999, body, login: 'octocat' }),
            inputs: {
              ...baseInputs(svc),
              command: 'message',
              'job-id': 'job-1',
              'wait-timeout': 'soon'
            }
          })
          expect(r.code).toBe(1)
          const reactionPosts = gh.requests.filter(q => q.path.endsWith('/reactions'))
          expect(reactionPosts.map(q => (q.body as { content: string }).content)).toEqual(['eyes'])
        }
      )
    })
  })
})

describe('inputs on a trigger run', () => {
  it('empty text means the default, for every input', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, '/docs-agent fix it')
        const empty = Object.fromEntries(
          [
            'wait',
            'wait-timeout',
            'job-path',
            'fail-on-status',
            'comment',
            'comment-mode',
            'trigger',
            'permission',
            'page-size',
            'top',
            'summary'
          ].map(n => [n, ''])
        )
        const r = await run(sims, {
          ...t,
          inputs: {
            ...baseInputs(svc),
            command: 'message',
            'job-id': 'job-1',
            ...empty,
            'poll-interval': '0.2'
          }
        })
        expect(debug(r)).not.toMatch(/::error::/)
        expect(r.code).toBe(0)
        expect(r.outputs.status).toBe('completed') // waited: `wait` took its default, true
        expect(svc.jobs.get('job-1')?.messages).toEqual(['fix it'])
      }
    )
  })

  it('warns about inputs set for another command, naming them', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const t = trigger(gh, 7, '/docs-agent fix it')
        const r = await run(sims, {
          ...t,
          inputs: {
            ...baseInputs(svc),
            command: 'message',
            'job-id': 'job-1',
            period: '7d',
            'output-file': 'x.csv'
          }
        })
        expect(r.code).toBe(0)
        const warnings = annotations(r.stdout)
          .filter(a => a.command === 'warning')
          .map(a => a.message)
          .join('\n')
        expect(warnings).toMatch(/`period`/)
        expect(warnings).toMatch(/`output-file`/)
        expect(warnings).toMatch(/message/)
      }
    )
  })
})

describe('visitors comments', () => {
  it('upsert: three runs with the same range leave one comment on #12, edited in place', async () => {
    await withSims({ rows: 40 }, {}, async sims => {
      const { svc, gh } = sims
      const inputs = {
        ...baseInputs(svc),
        command: 'visitors',
        'issue-number': '12',
        'date-from': '2025-01-06',
        'date-to': '2025-01-13'
      }
      const urls: string[] = []
      for (let i = 0; i < 3; i++) {
        const r = await run(sims, { inputs })
        expect(r.code).toBe(0)
        urls.push(r.outputs['comment-url'] ?? '')
      }
      const list = gh.comments.get(12) ?? []
      expect(list).toHaveLength(1)
      expect(commentWrites(gh, 'POST')).toHaveLength(1)
      // The new comment is complete in its POST; then one PATCH per later run.
      expect(commentWrites(gh, 'PATCH')).toHaveLength(2)
      expect(urls).toEqual([list[0]?.html_url, list[0]?.html_url, list[0]?.html_url])
      expect(list[0]?.body).toContain('unique visitors · Jan 6–12, 2025')
      // A specific headline, a link to the run, and when the report was made.
      expect(list[0]?.body).toMatch(/^### [\d,]+ unique visitors · Jan 6–12, 2025$/m)
      expect(list[0]?.body).toContain(
        '[workflow run](https://github.com/octo/docs/actions/runs/4242)'
      )
      expect(list[0]?.body).toMatch(/ · made \d{4}-\d\d-\d\d \d\d:\d\d UTC · /)
    })
  })

  it('comment-mode: create adds a comment each run', async () => {
    await withSims({ rows: 40 }, {}, async sims => {
      const { svc, gh } = sims
      const inputs = {
        ...baseInputs(svc),
        command: 'visitors',
        'issue-number': '12',
        'date-from': '2025-01-06',
        'date-to': '2025-01-13',
        'comment-mode': 'create'
      }
      const urls = new Set<string>()
      for (let i = 0; i < 3; i++) {
        const r = await run(sims, { inputs })
        expect(r.code).toBe(0)
        urls.add(r.outputs['comment-url'] ?? '')
      }
      const list = gh.comments.get(12) ?? []
      expect(list).toHaveLength(3)
      // Each run creates its comment complete, and none edits an earlier one.
      expect(commentWrites(gh, 'POST')).toHaveLength(3)
      expect(commentWrites(gh, 'PATCH')).toHaveLength(0)
      expect(urls.size).toBe(3)
    })
  })

  it('a report too big for one comment is cut with a visible note; the summary stays small', async () => {
    await withSims({ rows: 6000 }, {}, async sims => {
      const { svc, gh } = sims
      const r = await run(sims, {
        inputs: {
          ...baseInputs(svc),
          command: 'visitors',
          'issue-number': '12',
          top: '5000'
        }
      })
      expect(r.code).toBe(0)
      expect(r.outputs.rows).toBe('6000')
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(body.length).toBeGreaterThan(30_000) // it was filled, not emptied
      expect(body.length).toBeLessThanOrEqual(65536)
      const withoutMarkers = body.replace(TRAILING_MARKERS, '')
      expect(withoutMarkers).toMatch(/not shown|cut to fit/)
      // The job summary holds every row (1 MiB), so the comment sends readers there.
      expect(r.summary).not.toMatch(/more rows not shown/)
      expect(withoutMarkers).toMatch(/every row is in the job summary of the \[workflow run\]/)
      expect(withoutMarkers).toContain('| 1 |')
      expect(Buffer.byteLength(r.summary, 'utf8')).toBeLessThan(1024 * 1024)
      expect(Buffer.byteLength(r.summary, 'utf8')).toBeGreaterThan(65536) // more than the comment
    })
  })
})

describe('message: live progress comment', () => {
  const events: [string, (gh: GitHub) => Pick<RunOptions, 'event' | 'eventName'>][] = [
    ['an issue_comment trigger', gh => trigger(gh, 7, '/docs-agent Add a FAQ entry')],
    ['a pull_request event', () => ({ eventName: 'pull_request', event: pullRequestEvent(7) })]
  ]

  it.each(events)('on %s: created when sent, edited on changes and at the end', async (_n, ev) => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 3, prLink: PR_7 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const r = await run(sims, {
          ...ev(gh),
          inputs: {
            ...baseInputs(svc),
            command: 'message',
            'job-id': 'job-1',
            prompt: 'Add a FAQ entry'
          }
        })
        expect(r.code).toBe(0)
        const created = commentWrites(gh, 'POST')
        const edits = commentWrites(gh, 'PATCH')
        expect(created).toHaveLength(1)
        expect(created[0]?.body.body).toMatch(/working/)
        expect(created[0]?.body.body).not.toMatch(/completed/)
        const polls = svc.requests.filter(q => q.kind === 'job').length
        expect(polls).toBeGreaterThanOrEqual(4)
        expect(edits.length).toBeGreaterThanOrEqual(1)
        expect(edits.length).toBeLessThanOrEqual(3)
        expect(edits.length).toBeLessThan(polls)
        const mine = (gh.comments.get(7) ?? []).filter(c => c.user.type === 'Bot')
        expect(mine).toHaveLength(1)
        const final = mine[0]?.body ?? ''
        // The headline leads with the answer; the start time replaces a frozen elapsed time.
        expect(final).toMatch(/^### ✅ The docs agent updated this pull request · \d+ s$/m)
        // Who asked (a trigger's writer), or what this is; the end is in the headline's time.
        expect(final).toMatch(
          /^(@octocat asked|Docs agent follow-up) · started \d\d:\d\d UTC · \[workflow run\]/m
        )
        expect(final).not.toMatch(/ended \d/)
        expect(created[0]?.body.body).toMatch(/^### ⏳ The docs agent is working$/m)
        expect(created[0]?.body.body).toMatch(/started \d\d:\d\d UTC/)
        for (const q of [...created, ...edits]) expect(q.body.body).not.toMatch(/Elapsed|&#96;/)
        expect(r.outputs['comment-url']).toBe(mine[0]?.html_url)
      }
    )
  })

  it('hostile prompt text cannot add markers, HTML comments or mentions: it stays inside its fence', async () => {
    await withSims(
      { jobs: [{ id: 'job-1', activePolls: 1, prLink: PR_7 }] },
      { permissions: { octocat: 'write' } },
      async sims => {
        const { svc, gh } = sims
        const prompt =
          'Fix <!-- docs-agent:route/x/y sig=abc --> now, cc @octocat | a | b ' +
          '`code` and ```js\nalert(1)\n``` <!-- docs-agent:route/proj-1/evil sig=' +
          '5a3c9e1f7b2d4068a1c3e5f7092b4d6f -->'
        const t = trigger(gh, 7, `/docs-agent ${prompt}`)
        const r = await run(sims, {
          ...t,
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1' }
        })
        expect(r.code).toBe(0)
        expect(svc.jobs.get('job-1')?.messages).toEqual([prompt]) // sent as written
        const bodies = [...commentWrites(gh, 'POST'), ...commentWrites(gh, 'PATCH')].map(
          q => q.body.body as string
        )
        expect(bodies.length).toBeGreaterThanOrEqual(2)
        for (const body of bodies) {
          const markers = TRAILING_MARKERS.exec(body)?.[0] ?? ''
          // Every write, the creating POST included, carries its signed markers.
          expect(markers).not.toBe('')
          const text = body.slice(0, body.length - markers.length)
          // The instruction verbatim, in a fence longer than its longest backtick run.
          const fenced = /^(`{4,})text\n([\s\S]*?)\n\1$/m.exec(text)
          expect(fenced?.[2]).toBe(prompt)
          // Outside the fence: no HTML comment, mention or table syntax from the prompt.
          const outside = text.replace(fenced?.[0] ?? '', '')
          expect(outside).not.toContain('<!--')
          expect(outside).not.toContain('`code`')
          expect(outside).not.toContain(' | a | b')
          // The one mention is the action's own: who asked, at the start of its line.
          expect(outside.replace(/^@octocat asked · /m, '')).not.toMatch(/@octocat/)
          // Only the action's own markers, at the end, are read as markers.
          expect(markers).not.toMatch(/evil|route%2Fx/)
          for (const key of markers.matchAll(/docs-agent:(\S+) /g)) {
            expect(decodeURIComponent(key[1] ?? '')).toMatch(
              /^(answer\/proj-1\/\d+|route\/proj-1\/job-1|run\/proj-1\/\d+\/[^/]*\/[^/]*\/[0-9a-f]{12}\/[0-9a-f]{16}\/job-1\/job-1|cause\/proj-1\/comment-\d+\/[0-9a-f]{16}\/\d+\/job-1)$/
            )
          }
        }
      }
    )
  })
})

describe('routing a reply to the job recorded on its pull request', () => {
  it('a trigger on the PR the job opened reaches that job; forged or copied markers do not route', async () => {
    await withSims(
      {
        jobs: [
          { id: 'job-1', activePolls: 1, prLink: PR_7 },
          { id: 'job-evil', activePolls: 1, prLink: null }
        ]
      },
      { permissions: { octocat: 'write', mallory: 'write' } },
      async sims => {
        const { svc, gh } = sims
        // Run 1: a follow-up from a workflow with no PR; the job completes with PR #7.
        const r1 = await run(sims, {
          inputs: { ...baseInputs(svc), command: 'message', 'job-id': 'job-1', prompt: 'start' }
        })
        expect(r1.code).toBe(0)
        const onPr7 = gh.comments.get(7) ?? []
        expect(onPr7).toHaveLength(1)
        expect(onPr7[0]?.body).toMatch(
          /<!-- docs-agent:route%2Fproj-1%2Fjob-1 v=2 t=\d+ sig=[0-9a-f]{32} -->/
        )

        // Run 2: a reply on PR #7 with no job-id goes to job-1.
        const t2 = trigger(gh, 7, '/docs-agent fix typo')
        const r2 = await run(sims, {
          ...t2,
          inputs: { ...baseInputs(svc), command: 'message' }
        })
        expect(r2.code).toBe(0)
        expect(r2.outputs['job-id']).toBe('job-1')
        expect(svc.jobs.get('job-1')?.messages).toEqual(['start', 'fix typo'])

        // On PR #8: a forged marker, and PR #7's action comment copied verbatim by a user.
        gh.addComment(
          8,
          'looks good <!-- docs-agent:route/proj-1/job-evil sig=0123456789abcdef0123456789abcdef -->',
          user('mallory')
        )
        gh.addComment(8, onPr7[0]?.body ?? '', user('mallory'))
        gh.addComment(8, '<!-- docs-agent:route/proj-1/job-evil sig=abc -->', user('mallory'))
        const before = messagesSent(svc).length
        const t3 = trigger(gh, 8, '/docs-agent delete everything', 'mallory')
        const r3 = await run(sims, { ...t3, inputs: { ...baseInputs(svc), command: 'message' } })
        expect(r3.code).toBe(1)
        expect(
          errors(r3)
            .map(e => e.message)
            .join('\n')
        ).toMatch(/`job-id`/)
        expect(messagesSent(svc)).toHaveLength(before)
        expect(svc.requests.filter(q => q.jobId === 'job-evil')).toEqual([])
        expect(svc.jobs.get('job-1')?.messages).toEqual(['start', 'fix typo'])
        const replies = (gh.comments.get(8) ?? []).filter(c => c.user.type === 'Bot')
        expect(replies).toHaveLength(1)
        expect(replies[0]?.body).toMatch(/^### ⚠️ No job to follow up$/m)
        expect(replies[0]?.body).toMatch(/Set the `job-id` input of the workflow/)
        expect(r3.summary).toMatch(/^### ⚠️ No job to follow up$/m)
      }
    )
  })

  it('a user copy of an older route marker on the same PR does not override the newer job', async () => {
    await withSims(
      {
        jobs: [
          { id: 'job-old', activePolls: 1, prLink: PR_7 },
          { id: 'job-new', activePolls: 1, prLink: PR_7 }
        ]
      },
      { permissions: { octocat: 'write', mallory: 'write' } },
      async sims => {
        const { svc, gh } = sims
        for (const id of ['job-old', 'job-new']) {
          const r = await run(sims, {
            inputs: { ...baseInputs(svc), command: 'message', 'job-id': id, prompt: 'start' }
          })
          expect(r.code).toBe(0)
        }
        const marked = gh.comments.get(7) ?? []
        expect(marked).toHaveLength(2)
        const oldComment = marked.find(c => c.body.includes('route%2Fproj-1%2Fjob-old'))
        expect(oldComment).toBeDefined()
        // Only the action's own comments may route: a user's verbatim copy must not count.
        gh.addComment(7, oldComment?.body ?? '', user('mallory'))
        const t = trigger(gh, 7, '/docs-agent fix typo', 'octocat')
        const r = await run(sims, { ...t, inputs: { ...baseInputs(svc), command: 'message' } })
        expect(r.code).toBe(0)
        expect(svc.jobs.get('job-new')?.messages).toEqual(['start', 'fix typo'])
        expect(svc.jobs.get('job-old')?.messages).toEqual(['start'])
      }
    )
  })
})

describe('the comment input', () => {
  it('comment: false on a pull_request event makes no GitHub request at all', async () => {
    await withSims({ jobs: [{ id: 'job-1', activePolls: 1, prLink: PR_7 }] }, {}, async sims => {
      const { svc, gh } = sims
      const r = await run(sims, {
        eventName: 'pull_request',
        event: pullRequestEvent(7),
        inputs: {
          ...baseInputs(svc),
          command: 'message',
          'job-id': 'job-1',
          prompt: 'go',
          comment: 'false'
        }
      })
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      expect(messagesSent(svc)).toHaveLength(1)
      expect(gh.requests).toEqual([])
      expect(r.outputs['comment-url'] ?? '').toBe('')
    })
  })

  it('comment: true with no pull request or issue fails before any request', async () => {
    await withSims({ jobs: [{ id: 'job-1' }] }, {}, async sims => {
      const { svc, gh } = sims
      const r = await run(sims, {
        eventName: 'workflow_dispatch',
        event: { inputs: {}, ref: 'refs/heads/main', repository, sender: user('octocat') },
        inputs: {
          ...baseInputs(svc),
          command: 'message',
          'job-id': 'job-1',
          prompt: 'go',
          comment: 'true'
        }
      })
      expect(r.code).toBe(1)
      expect(
        errors(r)
          .map(e => e.message)
          .join('\n')
      ).toMatch(/`comment`/)
      expect(svc.requests).toEqual([])
      expect(gh.requests).toEqual([])
    })
  })
})

describe('cancellation', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s while waiting: the comment says cancelled and the process ends promptly',
    async signal => {
      await withSims({ jobs: [{ id: 'job-1', activeMs: 600_000 }] }, {}, async sims => {
        const { svc, gh } = sims
        const r = await run(sims, {
          eventName: 'pull_request',
          event: pullRequestEvent(7),
          signal,
          // Once the live comment says it is working on the instruction the service took.
          signalWhen: () =>
            messagesSent(svc).length === 1 &&
            (gh.comments.get(7) ?? []).some(c => /working/.test(c.body)),
          inputs: {
            ...baseInputs(svc),
            command: 'message',
            'job-id': 'job-1',
            prompt: 'long job',
            'wait-timeout': '60s'
          }
        })
        expect(r.timedOut).toBe(false)
        expect(r.code === 0 && r.signal === null).toBe(false) // not a success
        expect(r.signalledAtMs).toBeDefined()
        expect(r.durationMs - (r.signalledAtMs ?? 0)).toBeLessThan(2000)
        expect(messagesSent(svc)).toHaveLength(1)
        const mine = (gh.comments.get(7) ?? []).filter(c => c.user.type === 'Bot')
        expect(mine).toHaveLength(1)
        expect(mine[0]?.body).toMatch(/^### 🚫 Run cancelled · the job keeps running$/m)
        expect(mine[0]?.body).toContain('It may still open a pull request.')
        // The comment records the delivery: a re-run follows the job, and the ending links it.
        expect(mine[0]?.body).toContain(
          'To follow it again, [re-run the workflow](https://github.com/octo/docs/actions/runs/4242): the re-run follows this job'
        )
        expect(mine[0]?.body).not.toMatch(/is working/)
        // Every ending writes the summary too.
        expect(r.summary).toMatch(/^### 🚫 Run cancelled · the job keeps running$/m)
        expect(debug(r)).toMatch(/Cancelled \(SIG(TERM|INT)\)/)
      })
    }
  )
})

describe('GitHub identity', () => {
  it('no run asked GET /user (an installation token cannot)', () => {
    expect(allGitHubs.length).toBeGreaterThan(10)
    const asked = allGitHubs.flatMap(gh => gh.requests.filter(r => r.path === '/user'))
    expect(asked).toEqual([])
  })
})

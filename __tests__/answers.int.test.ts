// Scenario tier (__tests__/runner.ts). What reviewers meet on a pull request: answers that name
// who asked and the files changed, one reply hint per thread, endings that link to where to go
// next (never an API path), a reply on the code pull request that names the agent's pull request,
// reviews as triggers, the author's own trigger, and the outputs later steps use.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { PR_AUTHOR, triggerReview } from '../sim/github.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  type GitHub,
  messageInputs,
  pullRequestEvent,
  type Service,
  type ServiceOptions,
  triggerComment,
  withGitHub,
  withService
} from './support.js'

const RUN = 'https://github.com/octo/docs/actions/runs/4242'
const PR = (n: number) => `https://github.com/octo/docs/pull/${n}`
const WRITER = { login: 'octocat', type: 'User' }
const READER = { login: 'passer-by', type: 'User' }
const PERMISSIONS = { octocat: 'write', 'passer-by': 'read', 'octo-author': 'read' } as const

const inputs = (url: string, extra: Record<string, string> = {}): Record<string, string> =>
  messageInputs(url, { 'settle-time': '1s', ...extra })

const botComments = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)
/** What a reader sees without opening Details. */
const visible = (body: string) => body.slice(0, body.indexOf('<details>'))

async function withSims(
  service: ServiceOptions,
  files: Record<number, { filename: string; additions: number; deletions: number }[]>,
  body: (gh: GitHub, url: string, sim: Service) => Promise<void>
): Promise<void> {
  await withGitHub({ permissions: PERMISSIONS, pullFiles: files }, async gh => {
    await withService(service, sim => body(gh, sim.url, sim))
  })
}

describe('answers worth reading', () => {
  it('two instructions: two answers, each naming who asked and the files changed, one reply hint', async () => {
    const files = [
      { filename: 'docs/api-reference/rate-limits.mdx', additions: 46, deletions: 3 },
      { filename: 'docs/faq.mdx', additions: 14, deletions: 0 }
    ]
    const job = { id: 'job-1', activePolls: 1, prLink: PR(7) }
    await withSims({ jobs: [job] }, { 7: files }, async (gh, url) => {
      const env = { GITHUB_API_URL: gh.url }
      const first = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerComment(gh, 7, '/docs-agent Add a FAQ entry about rate limits')
      })
      expect(errorsOf(first)).toEqual([])
      gh.setPullFiles(7, [
        ...files,
        { filename: 'docs/guides/retries.mdx', additions: 22, deletions: 0 }
      ])
      const second = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerComment(gh, 7, '/docs-agent Link the retries guide', true, {
          login: 'hubot-fan',
          type: 'User'
        })
      })
      // hubot-fan has no permission: only octocat's instructions count.
      expect(second.outputs.skipped).toBe('true')
      const third = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerComment(gh, 7, '/docs-agent: Also add a retries guide', true, WRITER)
      })
      expect(errorsOf(third)).toEqual([])
      const answers = botComments(gh, 7)
      expect(answers).toHaveLength(2)
      const [a, b] = answers.map(visible)
      expect(a).toMatch(/^@octocat asked · started \d\d:\d\d UTC · \[workflow run\]/m)
      expect(a).toContain(
        '**[2 files changed](https://github.com/octo/docs/pull/7/files)** (+60 −3)'
      )
      expect(a).toContain('- `docs/api-reference/rate-limits.mdx` +46 −3')
      expect(b).toMatch(/^@octocat asked · /m)
      expect(b).toContain(
        '**[3 files changed](https://github.com/octo/docs/pull/7/files)** (+82 −3)'
      )
      expect(b).toContain('- `docs/guides/retries.mdx` +22')
      // The reply hint once in the thread: on the first answer, which first routed the job here.
      const hints = answers.filter(x => x.includes('Reply `/docs-agent <instruction>`'))
      expect(hints).toEqual([answers[0]])
      // The files are also in the job summary.
      expect(third.summary).toContain('**[3 files changed](')
    })
  })

  it('a person’s pull request the job pushed to: the count is the pull request’s, and links its files', async () => {
    const files = [{ filename: 'docs/faq.mdx', additions: 14, deletions: 0 }]
    const job = { id: 'job-1', activePolls: 1, prLink: PR(7) }
    // Seeded without `created_at`: opened an hour before the job, by its author.
    const options = {
      permissions: PERMISSIONS,
      pullFiles: { 7: files },
      pulls: { 7: { state: 'open' as const } }
    }
    await withGitHub(options, async gh => {
      await withService({ jobs: [job] }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          ...triggerComment(gh, 7, '/docs-agent Add a FAQ entry about rate limits')
        })
        expect(errorsOf(r)).toEqual([])
        const head =
          '**[1 file changed](https://github.com/octo/docs/pull/7/files) in the pull request** ' +
          '(+14), counting all its commits, not only the job’s:'
        expect(visible(botComments(gh, 7)[0] ?? '')).toContain(head)
        expect(r.summary).toContain(head)
      })
    })
  })

  it('files GitHub cannot list: a warning, and an answer without them', async () => {
    const job = { id: 'job-1', activePolls: 1, prLink: PR(7) }
    await withSims({ jobs: [job] }, {}, async (gh, url) => {
      const r = await runScenario({
        inputs: inputs(url),
        env: { GITHUB_API_URL: gh.url },
        ...triggerComment(gh, 7, '/docs-agent Add a FAQ')
      })
      expect(r.code).toBe(0)
      expect(annotationsOf(r, 'warning').join('\n')).toContain(
        'The answer shows no files: GitHub: listing the files of octo/docs#7 failed (404 Not Found)'
      )
      expect(botComments(gh, 7)[0]).toMatch(/^### ✅ The docs agent updated this pull request/m)
      expect(botComments(gh, 7)[0]).not.toContain('files changed')
    })
  })

  it('an issue answered twice points to the agent’s pull request once; the record there keeps the hint', async () => {
    const job = { id: 'job-1', activePolls: 1, prLink: null, nextPrLink: PR(9) }
    await withSims({ jobs: [job] }, { 9: [] }, async (gh, url) => {
      const env = { GITHUB_API_URL: gh.url }
      for (const text of ['/docs-agent Write a FAQ page', '/docs-agent Shorten it'])
        expect(
          (await runScenario({ inputs: inputs(url), env, ...triggerComment(gh, 3, text, false) }))
            .code
        ).toBe(0)
      const [first, second] = botComments(gh, 3)
      expect(first).toContain(
        'Reply `/docs-agent <instruction>` on [#9](https://github.com/octo/docs/pull/9)'
      )
      expect(second).not.toContain('Reply ')
      // Pull request 9 is the job's own (GitHub shows it opened after the job): the job's count.
      expect(second).toContain('**[No files changed](https://github.com/octo/docs/pull/9/files).**')
      const [record] = botComments(gh, 9)
      expect(record).toContain('Reply `/docs-agent <instruction>` on this pull request')
    })
  })

  it('a reply on the code pull request of a merge names the agent’s pull request, and sends nothing', async () => {
    await withSims({ jobs: [], created: { activePolls: 1 } }, {}, async (gh, url) => {
      const env = { GITHUB_API_URL: gh.url }
      const merge = await runScenario({
        inputs: inputs(url, { command: 'create', 'job-id': '', prompt: 'Document the change' }),
        env,
        ...pullRequestEvent(5, 'closed')
      })
      expect(merge.code).toBe(0)
      const reply = await runScenario({
        inputs: inputs(url, { 'job-id': '' }),
        env,
        ...triggerComment(gh, 5, '/docs-agent Mention the limits in the FAQ')
      })
      // The wrong place, as an unknown `fix 9` is: answered there and skipped, not failed (the
      // commenter gets no "run failed" mail).
      expect(reply.code).toBe(0)
      expect(reply.outputs.skipped).toBe('true')
      expect(errorsOf(reply)).toEqual([])
      const answer = botComments(gh, 5)[1] ?? ''
      expect(answer).toMatch(/^### ⚠️ No job to follow up$/m)
      expect(visible(answer)).toContain(
        "Nothing was sent: this pull request's docs agent job takes its instructions on " +
          '[#21](https://github.com/octo/docs/pull/21), the pull request it opened. Reply there with ' +
          '`/docs-agent <instruction>`.'
      )
      expect(annotationsOf(reply, 'notice').join('\n')).toContain(
        'takes no instructions: its docs agent job is followed up on the pull request it opened, ' +
          'https://github.com/octo/docs/pull/21. Reply there'
      )
      expect(gh.reactions.map(x => x.content)).toEqual(['eyes', 'confused'])
    })
  })
})

describe('endings that link, in words for reviewers', () => {
  const endings: [string, ServiceOptions, Record<string, string>, RegExp, string][] = [
    [
      'failed',
      { jobs: [{ id: 'job-1', activePolls: 1, finalStatus: 'failed', prLink: null }] },
      {},
      /^### ❌ The job failed/m,
      'To try again, write a new `/docs-agent <instruction>` comment, or [re-run the workflow]'
    ],
    [
      'timed out, the polls failing',
      {
        jobs: [{ id: 'job-1', activePolls: 1_000_000 }],
        faults: [{ kind: 'job', method: 'GET', after: 2, status: 500, times: Infinity }]
      },
      { 'wait-timeout': '3s' },
      /^### ⌛ Stopped waiting/m,
      '**Last poll:** 500 Internal Server Error: Simulated 500'
    ],
    [
      'uncertain: the POST answered 502',
      { jobs: [{ id: 'job-1' }], faults: [{ kind: 'message', method: 'POST', status: 502 }] },
      {},
      /^### ⚠️ The instruction may or may not have been delivered/m,
      '**Error:** 502 Bad Gateway'
    ],
    [
      'not sent: the job does not exist',
      { jobs: [] },
      {},
      /^### ⚠️ The instruction was not sent/m,
      '**Error:** 404 Not Found: Agent job not found. Check `project-id` and `job-id` (and ' +
        '`job-path`, `base-url`).'
    ]
  ]

  it.each(endings)(
    '%s: a link in the next step, no API path, the summary alike',
    async (_n, svc, extra, head, says) => {
      await withSims(svc, {}, async (gh, url) => {
        const r = await runScenario({
          inputs: inputs(url, extra),
          env: { GITHUB_API_URL: gh.url },
          ...triggerComment(gh, 7, '/docs-agent Add a FAQ')
        })
        expect(r.code).toBe(1)
        const [answer = ''] = botComments(gh, 7)
        expect(answer).toMatch(head)
        const prose = visible(answer)
        expect(prose).toContain(says)
        expect(prose).toContain(`](${RUN})`)
        expect(prose).not.toMatch(/\/v2\//)
        expect(prose).not.toMatch(/job-1/)
        expect(prose).not.toContain('&#96;') // the action's own hints are code, not escaped text
        // The run page's annotation names the operation in words; the log keeps the request for
        // whoever debugs it.
        expect(errorsOf(r).join('\n')).not.toMatch(/\/v2\//)
        expect(r.stdout).toMatch(/job-1/)
        expect(visible(r.summary)).not.toMatch(/\/v2\//)
        expect(visible(r.summary)).not.toContain(RUN)
      })
    }
  )
})

describe('a review is a trigger', () => {
  const job = { id: 'job-1', activePolls: 1, prLink: PR(7) }

  it('a writer’s review reaches the job and is answered on the pull request; a reader’s does not', async () => {
    await withSims({ jobs: [job] }, { 7: [] }, async (gh, url, sim) => {
      const env = { GITHUB_API_URL: gh.url }
      const byWriter = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerReview(gh, 7, '/docs-agent Add a curl example')
      })
      expect(errorsOf(byWriter)).toEqual([])
      expect(byWriter.outputs.skipped).toBe('false')
      const byReader = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerReview(gh, 7, '/docs-agent Delete the FAQ', { user: READER })
      })
      expect(byReader.outputs.skipped).toBe('true')
      expect(annotationsOf(byReader, 'notice')[0]).toBe(
        'Ignored the trigger review: @passer-by has read permission; write is required (or list the login in `allowed-users`).'
      )
      // Only the writer's instruction reached the job, and one answer, naming the writer.
      expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a curl example'])
      const answers = botComments(gh, 7)
      expect(answers).toHaveLength(1)
      expect(answers[0]).toMatch(/^@octocat asked · /m)
      expect(answers[0]).toContain('Add a curl example')
      // Reviews take no reactions: nothing was asked of GitHub for one.
      expect(gh.requests.filter(q => q.path.includes('/reactions'))).toEqual([])
      expect(gh.reactions).toEqual([])
    })
  })

  it.each([
    ['an edited review', { action: 'edited' }, 'the review was edited, not submitted'],
    ['a review that is no trigger', { body: 'LGTM' }, 'the review does not start with /docs-agent']
  ])('%s is skipped before any request', async (_n, o, reason) => {
    await withGitHub({ permissions: PERMISSIONS }, async gh => {
      const { body = '/docs-agent x', action } = o as { body?: string; action?: string }
      const r = await runScenario({
        inputs: { command: 'message' },
        env: { GITHUB_API_URL: gh.url },
        ...triggerReview(gh, 7, body, action ? { action } : {})
      })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(r.stdout).toContain(`Skipped: ${reason}.`)
      expect(gh.requests).toEqual([])
    })
  })

  it('a review with no instruction, or holding the key: a reply on the pull request, nothing sent', async () => {
    await withSims({ jobs: '*' }, {}, async (gh, url, sim) => {
      const env = { GITHUB_API_URL: gh.url }
      const bare = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerReview(gh, 7, '/docs-agent', { state: 'approved' })
      })
      expect(bare.outputs.skipped).toBe('true')
      const secret = await runScenario({
        inputs: inputs(url),
        env,
        ...triggerReview(gh, 7, `/docs-agent use ${SIM_API_KEY}`)
      })
      expect(secret.outputs.skipped).toBe('true')
      expect(sim.requests).toHaveLength(0)
      const [howTo, refused] = botComments(gh, 7)
      expect(howTo).toContain('There is no instruction after `/docs-agent`')
      expect(refused).toContain('This review holds a secret')
      expect(refused).toContain('Edit the review to remove it')
      expect(refused).not.toContain(SIM_API_KEY)
      expect(gh.reactions).toEqual([])
    })
  })

  it('a review on a fork’s pull request gets no secrets: skipped with a notice saying where to write', async () => {
    await withGitHub({ permissions: PERMISSIONS }, async gh => {
      const r = await runScenario({
        inputs: { command: 'message', 'api-key': '', 'project-id': 'proj-1' },
        env: { GITHUB_API_URL: gh.url },
        ...triggerReview(gh, 7, '/docs-agent Add a curl example', { head: 'mallory/docs' })
      })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(annotationsOf(r, 'notice')[0]).toContain(
        'this pull request comes from the fork mallory/docs, and GitHub gives its review runs no secrets'
      )
      expect(botComments(gh, 7)).toEqual([])
    })
  })
})

describe('allow-pr-author', () => {
  const job = { id: 'job-1', activePolls: 1, prLink: PR(7) }
  const byAuthor = (gh: GitHub, review: boolean) =>
    review
      ? triggerReview(gh, 7, '/docs-agent Add a curl example', { user: PR_AUTHOR })
      : triggerComment(gh, 7, '/docs-agent Add a curl example', true, PR_AUTHOR)

  it.each([
    ['a comment', false],
    ['a review', true]
  ])(
    'the author’s own trigger (%s) works with `allow-pr-author: true`, and only then',
    async (_n, review) => {
      await withGitHub({ permissions: PERMISSIONS, pullFiles: { 7: [] } }, async gh => {
        await withService({ jobs: [job] }, async sim => {
          const env = { GITHUB_API_URL: gh.url }
          const refused = await runScenario({
            inputs: inputs(sim.url),
            env,
            ...byAuthor(gh, review)
          })
          expect(refused.outputs.skipped).toBe('true')
          expect(sim.jobs.get('job-1')?.messages).toEqual([])
          const allowed = await runScenario({
            inputs: inputs(sim.url, { 'allow-pr-author': 'true' }),
            env,
            ...byAuthor(gh, review)
          })
          expect(errorsOf(allowed)).toEqual([])
          expect(allowed.stdout).toContain(
            'Trigger accepted: @octo-author opened this pull request, and `allow-pr-author` is `true`.'
          )
          expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a curl example'])
          // Someone else with read permission on the same pull request is still refused.
          const other = await runScenario({
            inputs: inputs(sim.url, { 'allow-pr-author': 'true' }),
            env,
            ...triggerComment(gh, 7, '/docs-agent Add a curl example', true, READER)
          })
          expect(other.outputs.skipped).toBe('true')
          expect(sim.jobs.get('job-1')?.messages).toHaveLength(1)
        })
      })
    }
  )

  it('the author’s review on a fork’s pull request still gets no secrets: skipped', async () => {
    await withGitHub({ permissions: PERMISSIONS }, async gh => {
      const r = await runScenario({
        inputs: {
          command: 'message',
          'api-key': '',
          'project-id': 'proj-1',
          'allow-pr-author': 'true'
        },
        env: { GITHUB_API_URL: gh.url },
        ...triggerReview(gh, 7, '/docs-agent Add a curl example', {
          user: PR_AUTHOR,
          head: 'octo-author/docs'
        })
      })
      expect(r.code).toBe(0)
      expect(r.outputs.skipped).toBe('true')
      expect(annotationsOf(r, 'notice')[0]).toContain('allow-pr-author')
      expect(annotationsOf(r, 'notice')[0]).toContain('GitHub gives its review runs no secrets')
    })
  })
})

describe('outputs for later steps: pr-number, branch; require-pr', () => {
  const runJob = async (spec: Record<string, unknown>, extra: Record<string, string> = {}) =>
    withService({ jobs: [{ id: 'job-1', activePolls: 1, ...spec }] }, async sim =>
      runScenario({ inputs: inputs(sim.url, { prompt: 'Fix the typo', ...extra }) })
    )

  it('pr-number: the pull request’s number on this GitHub, of any repository; branch: source.ref', async () => {
    const here = await runJob({ prLink: PR(7), ref: 'docs/rate-limits' })
    expect(here.outputs['pr-number']).toBe('7')
    expect(here.outputs.branch).toBe('docs/rate-limits')
    const other = await runJob({ prLink: 'https://github.com/acme/website/pull/311' })
    expect(other.outputs['pr-number']).toBe('311')
    const elsewhere = await runJob({
      prLink: 'https://gitlab.example/acme/docs/-/merge_requests/3'
    })
    expect(elsewhere.outputs['pr-number']).toBe('')
    expect(elsewhere.outputs['pr-link']).toBe('https://gitlab.example/acme/docs/-/merge_requests/3')
  })

  it('empty when the job has no pull request or ref', async () => {
    const none = await runJob({ prLink: null, ref: null })
    expect(none.code).toBe(0)
    expect(none.outputs['pr-number']).toBe('')
    expect(none.outputs.branch).toBe('')
  })

  it('require-pr: a completed job with no pull request fails the step, saying why; with one, it passes', async () => {
    const without = await runJob({ prLink: null }, { 'require-pr': 'true' })
    expect(without.code).toBe(1)
    expect(errorsOf(without)).toEqual([
      'Job job-1 completed without opening a pull request, and `require-pr` is `true`: the agent ' +
        'may have changed nothing, or committed directly to the branch it works on.'
    ])
    expect(without.outputs.status).toBe('completed')
    expect(without.summary).toMatch(/^### ❌ Completed without a pull request/m)
    expect(without.summary).toContain('`require-pr` is `true`, so the step failed.')
    const withPr = await runJob({ prLink: PR(7) }, { 'require-pr': 'true' })
    expect(withPr.code).toBe(0)
    // By default no pull request is a notice, not a failure.
    const lenient = await runJob({ prLink: null })
    expect(lenient.code).toBe(0)
    expect(annotationsOf(lenient, 'notice').join('\n')).toContain('without opening a pull request')
  })

  it('require-pr never fails a job that did not complete (`wait: false`)', async () => {
    const r = await runJob({ prLink: null }, { 'require-pr': 'true', wait: 'false' })
    expect(r.code).toBe(0)
    expect(r.outputs.status).toBe('active')
  })
})

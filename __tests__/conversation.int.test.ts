// Scenario tier (__tests__/runner.ts). The pull-request conversation as reviewers and merge recipes
// meet it: the `:` trigger form, an empty instruction, a secret in an instruction, runs GitHub
// gives no secrets, the agent's own merged pull request, and a report with nowhere to comment.
// Comment bodies at the fake GitHub, what the simulator received, outputs and notices.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { SIM_GITHUB_TOKEN } from '../sim/github.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  type GitHub,
  messageInputs,
  triggerComment,
  withGitHub,
  withService
} from './support.js'

const inputs = (url: string, extra: Record<string, string> = {}): Record<string, string> =>
  messageInputs(url, { prompt: '', ...extra })

const trigger = triggerComment

const botComments = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)

describe('the trigger as reviewers write it', () => {
  it('`/docs-agent: Add a FAQ` is a trigger; the instruction is what follows the colon', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
        const t = trigger(gh, 7, '/docs-agent: Add a FAQ')
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          ...t
        })
        expect(errorsOf(r)).toEqual([])
        expect(r.outputs.skipped).toBe('false')
        expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a FAQ'])
      })
    })
  })

  it.each([
    ['a bare trigger', '/docs-agent', true],
    ['only invisible and direction-control characters', '/docs-agent \u200b\u202e\u2060', true],
    ['a bare trigger on an issue', '/docs-agent', false]
  ])('%s: a reply saying how to write one, 😕, skipped, nothing sent', async (_name, body, pr) => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: '*' }, async sim => {
        const t = trigger(gh, 7, body, pr)
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          ...t
        })
        expect(r.code).toBe(0)
        expect(r.outputs.skipped).toBe('true')
        expect(sim.requests).toHaveLength(0)
        const [reply] = botComments(gh, 7)
        expect(reply).toContain('There is no instruction after `/docs-agent`')
        expect(reply).toContain(pr ? 'on this pull request' : 'on this issue')
        expect(gh.reactions.map(x => x.content)).toEqual(['confused'])
        expect(errorsOf(r)).toEqual([])
      })
    })
  })
})

describe('no secret in an instruction', () => {
  it('a trigger comment holding the API key: a reply that does not repeat it, nothing sent', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: '*' }, async sim => {
        const t = trigger(gh, 7, `/docs-agent use the key ${SIM_API_KEY} to test`)
        const r = await runScenario({
          inputs: inputs(sim.url),
          env: { GITHUB_API_URL: gh.url },
          ...t
        })
        expect(r.outputs.skipped).toBe('true')
        expect(sim.requests).toHaveLength(0)
        const [reply] = botComments(gh, 7)
        expect(reply).toContain('holds a secret')
        expect(reply).not.toContain(SIM_API_KEY)
        expect(reply).not.toContain('use the key')
      })
    })
  })

  it.each([
    ['plain', (k: string) => k],
    ['base64', (k: string) => Buffer.from(k).toString('base64')],
    ['the GitHub token', () => SIM_GITHUB_TOKEN]
  ])(
    'a `prompt` holding a secret (%s) is refused before any request, naming the input',
    async (_n, form) => {
      await withService({ jobs: '*' }, async sim => {
        const r = await runScenario({
          inputs: inputs(sim.url, { prompt: `Document this: ${form(SIM_API_KEY)}` })
        })
        expect(r.code).toBe(1)
        expect(errorsOf(r)[0]).toMatch(/^Input `prompt`: holds the `api-key` or the `github-token`/)
        expect(sim.requests).toHaveLength(0)
      })
    }
  )
})

describe('runs GitHub gives no secrets, and the agent’s own pull requests', () => {
  const merged = (n: number, head = 'octo/docs') => ({
    eventName: 'pull_request',
    event: {
      action: 'closed',
      number: n,
      pull_request: {
        number: n,
        merged: true,
        title: 'A change',
        head: { repo: { full_name: head } }
      },
      repository: { full_name: 'octo/docs' }
    }
  })

  it('a merged pull request from a fork, with no api-key: skipped with a notice, not failed', async () => {
    const r = await runScenario({
      inputs: { command: 'create', 'api-key': '', 'project-id': 'proj-1', prompt: 'x' },
      ...merged(5, 'mallory/docs')
    })
    expect(r.code).toBe(0)
    expect(r.outputs.skipped).toBe('true')
    expect(annotationsOf(r, 'notice')[0]).toContain('the fork mallory/docs')
  })

  it('a Dependabot run with no api-key: skipped with a notice', async () => {
    const r = await runScenario({
      inputs: { command: 'create', 'api-key': '', 'project-id': 'proj-1', prompt: 'x' },
      env: { GITHUB_ACTOR: 'dependabot[bot]' },
      ...merged(5)
    })
    expect(r.code).toBe(0)
    expect(r.outputs.skipped).toBe('true')
    expect(annotationsOf(r, 'notice')[0]).toContain('Dependabot')
  })

  it('merging the agent’s own pull request starts no job; merging another one does', async () => {
    await withGitHub({}, async gh => {
      await withService({ jobs: [], created: { activePolls: 1, prLink: null } }, async sim => {
        const env = { GITHUB_API_URL: gh.url }
        const create = inputs(sim.url, { command: 'create', 'job-id': '', prompt: 'Document it' })
        // A first job opens #21 and records itself there.
        await withService({ jobs: [], created: { activePolls: 1 } }, async first => {
          const r = await runScenario({
            inputs: { ...create, 'base-url': first.url },
            env,
            ...merged(5)
          })
          expect(r.code).toBe(0)
        })
        expect(botComments(gh, 21).join('\n')).toContain('docs-agent:route')
        const own = await runScenario({ inputs: create, env, ...merged(21) })
        expect(own.code).toBe(0)
        expect(own.outputs.skipped).toBe('true')
        expect(annotationsOf(own, 'notice').join('\n')).toContain("the docs agent's own work")
        expect(sim.requests).toHaveLength(0)
        // The run's page says why nothing started, which job opened #21, and how to start one.
        expect(own.summary).toMatch(/^### ⏭️ No job started: the merged pull request is the docs/)
        expect(own.summary).toContain(
          '#21 was opened by docs agent job created-1 of project proj-1'
        )
        expect(own.summary).toContain('run a workflow by hand (`workflow_dispatch`)')
        // Merged, #21 is closed: the next merge starts a job of its own (none grows).
        gh.pulls.set(21, { state: 'closed', merged_at: '2026-11-18T10:00:00Z' })
        const other = await runScenario({ inputs: create, env, ...merged(6) })
        expect(other.outputs.skipped).toBe('false')
        expect(sim.requests.filter(q => q.method === 'POST')).toHaveLength(1)
      })
    })
  })
})

describe('a report with nowhere to comment', () => {
  it('comment: auto on a schedule with no issue-number: a notice naming `issue-number`', async () => {
    await withService({ rows: 10 }, async sim => {
      const r = await runScenario({
        inputs: {
          command: 'report',
          'api-key': SIM_API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          period: 'last-week',
          sections: 'visitors'
        },
        eventName: 'schedule'
      })
      expect(r.code).toBe(0)
      expect(annotationsOf(r, 'notice').join('\n')).toContain('Set `issue-number`')
    })
  })
})

describe('a thread with two instructions', () => {
  it('each instruction gets its own answer below it; the first answer keeps its ending', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: [{ id: 'job-1', activePolls: 1 }] }, async sim => {
        const env = { GITHUB_API_URL: gh.url }
        const first = trigger(gh, 7, '/docs-agent Add a FAQ')
        const r1 = await runScenario({
          inputs: inputs(sim.url, { 'settle-time': '1s' }),
          env,
          ...first
        })
        expect(r1.code).toBe(0)
        const second = trigger(gh, 7, '/docs-agent Also mention the rate limits')
        const r2 = await runScenario({
          inputs: inputs(sim.url, { 'settle-time': '1s' }),
          env,
          ...second
        })
        expect(r2.code).toBe(0)
        expect(sim.jobs.get('job-1')?.messages).toEqual([
          'Add a FAQ',
          'Also mention the rate limits'
        ])
        // The thread reads instruction, answer, instruction, answer.
        const thread = (gh.comments.get(7) ?? []).map(c =>
          c.user.type === 'Bot' ? 'answer' : c.body
        )
        expect(thread).toEqual([
          '/docs-agent Add a FAQ',
          'answer',
          '/docs-agent Also mention the rate limits',
          'answer'
        ])
        const answers = botComments(gh, 7)
        expect(answers[0]).toContain('Add a FAQ')
        expect(answers[0]).not.toContain('Also mention')
        expect(answers[1]).toContain('Also mention the rate limits')
        // The follow-up updated the pull request the job already had, the one answered on:
        // "updated this pull request", neither "Opened" nor a link to itself.
        for (const a of answers) {
          expect(a).toMatch(/^### ✅ The docs agent updated this pull request/m)
          expect(a).not.toContain('[#7](')
        }
        // The summary is read on the run's page: it names the pull request, links no run (it
        // is on that run's page) and asks for no reply.
        expect(r2.summary).toMatch(/^### ✅ Updated \[#7\]/m)
        expect(r2.summary).not.toContain('/actions/runs/')
        expect(r2.summary).not.toContain('Reply `/docs-agent')
        expect(answers[1]).toContain('/actions/runs/')
      })
    })
  })

  it('a job asked for on an issue: the answer says it opened the pull request, whose record links back', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      const pr9 = 'https://github.com/octo/docs/pull/9'
      await withService(
        { jobs: [{ id: 'job-1', activePolls: 1, prLink: null, nextPrLink: pr9 }] },
        async sim => {
          const env = { GITHUB_API_URL: gh.url }
          const r1 = await runScenario({
            inputs: inputs(sim.url),
            env,
            ...trigger(gh, 3, '/docs-agent Write a FAQ page', false)
          })
          expect(r1.code).toBe(0)
          const [answer] = botComments(gh, 3)
          expect(answer).toMatch(
            /^### ✅ Opened \[#9\]\(https:\/\/github\.com\/octo\/docs\/pull\/9\)/m
          )
          // The record on the agent's pull request: what happened to it, and where it was asked.
          // Where to reply next: on the pull request that records the job.
          expect(answer).toContain(
            'Reply `/docs-agent <instruction>` on [#9](https://github.com/octo/docs/pull/9) to send a follow-up to this job.'
          )
          const [record] = botComments(gh, 9)
          expect(record).toMatch(/^### ✅ The docs agent opened this pull request/m)
          expect(record).toMatch(
            /^@octocat asked in \[#3\]\(https:\/\/github\.com\/octo\/docs\/issues\/3\) · /m
          )
          expect(record).toContain('Reply `/docs-agent <instruction>`')

          // A reviewer's reply on #9 reaches the job; the record stays one comment, kept current.
          const r2 = await runScenario({
            inputs: { ...inputs(sim.url), 'job-id': '' },
            env,
            ...trigger(gh, 9, '/docs-agent Shorten the intro')
          })
          expect(r2.code).toBe(0)
          expect(sim.jobs.get('job-1')?.messages).toEqual(['Write a FAQ page', 'Shorten the intro'])
          const on9 = (gh.comments.get(9) ?? []).map(c => (c.user.type === 'Bot' ? 'bot' : c.body))
          expect(on9).toEqual(['bot', '/docs-agent Shorten the intro', 'bot'])
          expect(botComments(gh, 9)[1]).toMatch(/^### ✅ The docs agent updated this pull request/m)
        }
      )
    })
  })

  it('a trigger on an issue with no job to follow: the reply, the error and the summary say "issue"', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh => {
      await withService({ jobs: '*' }, async sim => {
        const r = await runScenario({
          inputs: { ...inputs(sim.url), 'job-id': '' },
          env: { GITHUB_API_URL: gh.url },
          ...trigger(gh, 3, '/docs-agent Write a FAQ page', false)
        })
        expect(r.code).toBe(1)
        expect(sim.requests).toHaveLength(0)
        const [reply] = botComments(gh, 3)
        expect(reply).toContain(
          'No agent job is recorded on this issue, so the instruction was not sent.'
        )
        expect(errorsOf(r).join('\n')).toContain('this issue records no agent job')
        expect(r.summary).toContain(
          'No agent job is recorded on issue [#3](https://github.com/octo/docs/issues/3)'
        )
        for (const text of [reply, r.summary, r.stdout])
          expect(text).not.toContain('pull request records')
        expect(reply).not.toMatch(/recorded on this pull request/)
      })
    })
  })
})

describe('files on the runner', () => {
  it('are named in the job summary, not in the comment no reader of which can open them', async () => {
    await withGitHub({}, async gh => {
      await withService({ rows: 30 }, async sim => {
        const r = await runScenario({
          inputs: {
            command: 'visitors',
            'api-key': SIM_API_KEY,
            'project-id': 'proj-1',
            'base-url': sim.url,
            period: '7d',
            'output-file': 'reports/visitors.csv',
            'issue-number': '12'
          },
          env: { GITHUB_API_URL: gh.url }
        })
        expect(r.code).toBe(0)
        expect(r.summary).toContain('reports/visitors.csv')
        const [comment] = botComments(gh, 12)
        expect(comment).toContain('30 rows exported.')
        expect(comment).not.toContain('visitors.csv')
      })
    })
  })
})

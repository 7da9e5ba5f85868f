// Scenario tier (__tests__/runner.ts). The gate's one asker and its one skip (issue 47): a comment,
// a review and a label on the same pull request, with GitHub's webhook payloads, are answered with
// the same "who asked, where" line, on the pull request and on the record the job's pull request
// keeps; every run the gate stops (a reader who may not ask, a cause sent already, a reply where
// no job takes it, the agent's own merge) says so through the one path: `skipped=true` and
// exactly one `Skipped: <reason>. Nothing was sent to the service.` line.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { labelEvent, triggerReview } from '../sim/github.js'
import { runScenario } from './runner.js'
import {
  errorsOf,
  pullRequestEvent,
  triggerComment,
  withGitHub,
  withService,
  type GitHub,
  type RunResult,
  type Service
} from './support.js'

const LABEL = 'docs/needed'
const AGENT_PR = 'https://github.com/octo/docs/pull/21'

const inputs = (sim: Service, extra: Record<string, string> = {}): Record<string, string> => ({
  command: 'create',
  'api-key': SIM_API_KEY,
  'project-id': 'acme-docs',
  'base-url': sim.url,
  prompt: '',
  'trigger-label': LABEL,
  'when-agent-pr-open': 'create',
  'poll-interval': '1',
  ...extra
})

const bots = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)

/** The line under an answer's headline, its time of day left out. */
const askedLine = (body: string | undefined): string =>
  (body ?? '').split('\n\n')[1]?.replace(/started \d\d:\d\d UTC/, 'started …') ?? ''

/** The log's "Skipped:" lines. */
const skippedLines = (r: RunResult): string[] =>
  r.stdout.split('\n').filter(line => line.startsWith('Skipped:'))

function expectSkippedOnce(r: RunResult, reason: string): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.code).toBe(0)
  expect(r.outputs.skipped).toBe('true')
  expect(skippedLines(r)).toEqual([`Skipped: ${reason}. Nothing was sent to the service.`])
}

describe('one asker, whatever asked', () => {
  it('a comment, a review and a label on one pull request: the same "who asked, where", a label said as its cause', async () => {
    const github = {
      permissions: { octocat: 'write' } as const,
      pulls: { 7: { state: 'open' as const } }
    }
    await withGitHub(github, async gh =>
      withService({ jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }, async sim => {
        const asks = [
          () => triggerComment(gh, 7, '/docs-agent Document the limits'),
          () => triggerReview(gh, 7, '/docs-agent Document the limits'),
          () => labelEvent(gh, 7, LABEL)
        ]
        const lines: { answer: string; record: string; summary: string }[] = []
        for (const ask of asks) {
          const r = await runScenario({
            inputs: inputs(sim, { prompt: 'Document the limits' }),
            env: { GITHUB_API_URL: gh.url },
            ...ask()
          })
          expect(errorsOf(r)).toEqual([])
          expect(r.outputs.skipped).toBe('false')
          lines.push({
            answer: askedLine(bots(gh, 7).at(-1)),
            // Each job (`when-agent-pr-open: create`) keeps its own record on #21.
            record: askedLine(bots(gh, 21).at(-1)),
            summary: askedLine(r.summary)
          })
        }
        expect(sim.requests.filter(q => q.kind === 'create')).toHaveLength(3)
        const [comment, review, label] = lines
        expect(comment?.answer).toBe(
          '@octocat asked for a new job · started … · [workflow run](https://github.com/octo/docs/actions/runs/4242)'
        )
        // The record on the job's pull request says where: the pull request asked on.
        expect(comment?.record).toMatch(
          /^@octocat asked for a new job in \[#7\]\(https:\/\/github\.com\/octo\/docs\/issues\/7\) · started …/
        )
        expect(review).toEqual(comment)
        // A label asks without words: its answer says its cause, in the cause's own words.
        expect(label?.answer).toBe(
          `The label ${LABEL} on [#7](https://github.com/octo/docs/issues/7) by @octocat · started … · [workflow run](https://github.com/octo/docs/actions/runs/4242)`
        )
        expect(label?.record).toMatch(
          /^The label docs\/needed on \[#7\]\([^)]*\) by @octocat · started …/
        )
        expect(label?.summary).toMatch(
          /^The label docs\/needed on \[#7\]\([^)]*\) by @octocat · started …/
        )
      })
    )
  })
})

describe('one skip, whichever phase of the gate decided it', () => {
  it('a reader who may not ask and a cause sent already: skipped=true, one "Skipped:" line each', async () => {
    const github = { permissions: { octocat: 'write', reader: 'read' } as const }
    await withGitHub(github, async gh =>
      withService({ jobs: [{ id: 'job-1', activePolls: 0 }] }, async sim => {
        const message = inputs(sim, { command: 'message', 'job-id': 'job-1' })
        const reader = await runScenario({
          inputs: message,
          env: { GITHUB_API_URL: gh.url },
          ...triggerComment(gh, 7, '/docs-agent Add a FAQ', true, {
            login: 'reader',
            type: 'User'
          })
        })
        expectSkippedOnce(
          reader,
          '@reader has read permission; write is required (or list the login in `allowed-users`)'
        )
        const t = triggerComment(gh, 7, '/docs-agent Add a FAQ')
        const first = await runScenario({
          inputs: message,
          env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ID: '501' },
          ...t
        })
        expect(first.outputs.skipped).toBe('false')
        expect(skippedLines(first)).toEqual([])
        const again = await runScenario({
          inputs: message,
          env: { GITHUB_API_URL: gh.url, GITHUB_RUN_ID: '502' },
          ...t
        })
        const cause = `trigger comment ${t.event.comment.id}`
        expectSkippedOnce(again, `the instruction for ${cause} was sent already, to job job-1`)
        // What it said before it took the one path: the notice, the job's outputs, the summary.
        expect(again.outputs['job-id']).toBe('job-1')
        expect(again.outputs.status).toBe('completed')
        expect(again.summary).toMatch(/^### ⏭️ Sent already/)
        expect(sim.jobs.get('job-1')?.messages).toEqual(['Add a FAQ'])
      })
    )
  })

  it('a reply where no job takes it, and the agent\'s own merge: one "Skipped:" line each', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh =>
      withService({ jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }, async sim => {
        const env = { GITHUB_API_URL: gh.url }
        // A merge of #5 starts a job, which opens #21 and records it as its own.
        const merge = await runScenario({
          inputs: inputs(sim, { prompt: 'Document the change' }),
          env,
          ...pullRequestEvent(5, 'closed')
        })
        expect(merge.outputs.skipped).toBe('false')
        // A merge's asker is its pull request's author: the answer names the merge, by them (a
        // merge is no request: nothing "asked").
        expect(askedLine(bots(gh, 5)[0])).toMatch(
          /^The merge of \[#5\]\(https:\/\/github\.com\/octo\/docs\/issues\/5\) “Docs” by @octocat · started …/
        )
        const reply = await runScenario({
          inputs: inputs(sim, { command: 'message' }),
          env,
          ...triggerComment(gh, 5, '/docs-agent Mention the limits')
        })
        expectSkippedOnce(reply, 'this thread takes no instructions')
        expect(reply.outputs['comment-url']).toMatch(/^https:\/\//)
        const own = await runScenario({
          inputs: inputs(sim, { prompt: 'Document the change' }),
          env,
          ...pullRequestEvent(21, 'closed')
        })
        expectSkippedOnce(own, "the merged pull request is the docs agent's own")
      })
    )
  })
})

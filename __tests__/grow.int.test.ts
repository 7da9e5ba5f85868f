// Scenario tier (__tests__/runner.ts): one pull request that grows. With the docs agent's pull
// request of this project still open (its signed `opened` record on it), a run that would start a
// job (the merge recipe, `fix N`) sends a follow-up to that job instead: `grew=true`, the answer,
// the summary and the record on the agent's pull request say so. `when-agent-pr-open: create`, a
// closed or merged agent pull request, and a labelled pull request without the record start a job;
// a newer labelled pull request without the record does not hide the agent's older one.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import {
  errorsOf,
  expectNoStack,
  triggerComment,
  withGitHub,
  withService,
  type GitHub,
  type RunResult,
  type Service
} from './support.js'

const AGENT_PR = 'https://github.com/octo/docs/pull/21'
const FIRST = 'Document the rate limits of the new API.'
const SECOND = 'Document the webhook retries.'

const merged = (n: number) => ({
  eventName: 'pull_request',
  event: {
    action: 'closed',
    number: n,
    pull_request: { number: n, merged: true, title: `Change ${n}`, head: { repo: null } },
    repository: { full_name: 'octo/docs' }
  }
})

/** The merge recipe: `command: create` on a merged pull request. */
function onMerge(
  sim: Service,
  gh: GitHub,
  n: number,
  prompt: string,
  extra: Record<string, string> = {}
): Promise<RunResult> {
  return runScenario({
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': 'acme-docs',
      'base-url': sim.url,
      command: 'create',
      prompt,
      'poll-interval': '1',
      ...extra
    },
    env: { GITHUB_API_URL: gh.url },
    ...merged(n)
  })
}

function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
  expectNoStack(r)
}

/** The run grew the agent's pull request: still one job in all, which took `sent`. */
function expectGrew(r: RunResult, sim: Service, job: string, sent: string[]): void {
  expectSuccess(r)
  expect(r.outputs.grew).toBe('true')
  expect(r.outputs['job-id']).toBe(job)
  expect(creates(sim)).toHaveLength(1)
  expect(sim.jobs.get(job)?.messages).toEqual(sent)
}

const bots = (gh: GitHub, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)
const creates = (sim: Service) => sim.requests.filter(q => q.kind === 'create')
const messages = (sim: Service) => sim.requests.filter(q => q.kind === 'message')
const githubCalls = (gh: GitHub, from: number) =>
  gh.requests.slice(from).map(q => `${q.method} ${q.path}`)

/** A first merge: a job opens #21, records itself there and labels it. */
async function agentPullRequestOpen(sim: Service, gh: GitHub): Promise<string> {
  const first = await onMerge(sim, gh, 5, FIRST)
  expectSuccess(first)
  expect(first.outputs.grew).toBe('false')
  expect(first.outputs['pr-link']).toBe(AGENT_PR)
  expect([...(gh.labels.get(21) ?? [])]).toEqual(['docs-agent'])
  expect(bots(gh, 21)).toHaveLength(1)
  return first.outputs['job-id'] ?? ''
}

const service = { jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }

describe('when-agent-pr-open', () => {
  it('follow-up (default): a merge while the agent’s pull request is open grows it, found in 2 GitHub requests', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        const job = await agentPullRequestOpen(sim, gh)
        const before = gh.requests.length
        const grown = await onMerge(sim, gh, 6, SECOND)
        expectGrew(grown, sim, job, [SECOND])
        expect(messages(sim).map(q => q.jobId)).toEqual([job])
        // Finding it: the open pull requests labelled as the agent's, then #21's comments (the
        // run's one listing of that thread, which the record on it then uses): 2 requests.
        const calls = githubCalls(gh, before)
        const finding = calls.filter(
          c =>
            c === 'GET /repos/octo/docs/issues' || c === 'GET /repos/octo/docs/issues/21/comments'
        )
        expect(finding).toEqual([
          'GET /repos/octo/docs/issues',
          'GET /repos/octo/docs/issues/21/comments'
        ])
        // No second label: the pull request was labelled when it was opened.
        expect(calls).not.toContain('POST /repos/octo/docs/issues/21/labels')
        // The answer on the merged pull request, and the summary: it grew, why, how to opt out.
        const answer = bots(gh, 6).at(-1) ?? ''
        for (const text of [answer, grown.summary]) {
          expect(text).toMatch(/pull request \[?#21\]?(\([^)]*\))? was still open/)
          expect(text).toContain('`when-agent-pr-open: create`')
        }
        expect(answer).toContain(`> ${SECOND}`)
        // The agent's pull request: still one record, now of both instructions, still its own.
        // Still one record, now of both instructions, still its own; and a new comment that
        // says it grew (issue 42: an edit notifies nobody).
        const [record, note, ...more] = bots(gh, 21)
        expect(more).toEqual([])
        expect(note).toContain('This pull request grew: instruction 2')
        expect(note).toContain(`> ${SECOND}`)
        expect(record).toContain('This pull request grew')
        expect(record).toContain('The 2 instructions this pull request grew from')
        // Each cause on one line, its whole text folded below it.
        expect(record).toContain(
          '<b>1.</b> The merge of <a href="https://github.com/octo/docs/issues/5">#5</a> “Change 5”'
        )
        expect(record).toContain(
          `<b>2.</b> The merge of <a href="https://github.com/octo/docs/issues/6">#6</a> “Change 6”`
        )
        expect(record).toContain(`\`\`\`text\n${FIRST}\n\`\`\``)
        expect(record).toContain(`\`\`\`text\n${SECOND}\n\`\`\``)
        expect(record).toMatch(/docs-agent:opened%2Facme-docs%2F/)
        // A third merge grows it again: three instructions, still one record.
        const third = await onMerge(sim, gh, 7, 'Document the new CLI flag.')
        expectSuccess(third)
        expect(third.outputs.grew).toBe('true')
        expect(creates(sim)).toHaveLength(1)
        expect(bots(gh, 21)).toHaveLength(3)
        expect(bots(gh, 21)[0]).toContain('The 3 instructions this pull request grew from')
        expect(bots(gh, 21)[2]).toContain('instruction 3')
        // Merging the agent's pull request itself still starts nothing: its record survived.
        gh.pulls.set(21, { state: 'closed', merged_at: '2026-11-18T10:00:00Z' })
        const own = await onMerge(sim, gh, 21, 'Never sent.')
        expect(own.outputs.skipped).toBe('true')
        expect(creates(sim)).toHaveLength(1)
      })
    )
  })

  it('create: a merge starts a new job whatever is open', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        await agentPullRequestOpen(sim, gh)
        const before = gh.requests.length
        const r = await onMerge(sim, gh, 6, SECOND, { 'when-agent-pr-open': 'create' })
        expectSuccess(r)
        expect(r.outputs.grew).toBe('false')
        expect(creates(sim)).toHaveLength(2)
        expect(messages(sim)).toHaveLength(0)
        expect(githubCalls(gh, before)).not.toContain('GET /repos/octo/docs/issues')
      })
    )
  })

  it.each([
    ['closed', { state: 'closed' as const }],
    ['merged', { state: 'closed' as const, merged_at: '2026-11-18T10:00:00Z' }]
  ])('a %s agent pull request is never grown', async (_, state) => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        await agentPullRequestOpen(sim, gh)
        gh.pulls.set(21, state)
        const r = await onMerge(sim, gh, 6, SECOND)
        expectSuccess(r)
        expect(r.outputs.grew).toBe('false')
        expect(creates(sim)).toHaveLength(2)
        expect(messages(sim)).toHaveLength(0)
      })
    )
  })

  it('a human pull request a reader labelled, holding a copy of the record, is not grown', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        await agentPullRequestOpen(sim, gh)
        gh.pulls.set(21, { state: 'closed' })
        // #30 is newer than any other labelled pull request, and holds the genuine record of #21
        // pasted by a reader: it names another thread and another writer, so it counts for nothing.
        gh.pulls.set(30, { state: 'open', created_at: '2099-01-01T00:00:00Z' })
        gh.addLabel(30, 'docs-agent')
        gh.addComment(30, bots(gh, 21)[0] ?? '', { login: 'mallory', type: 'User' })
        const r = await onMerge(sim, gh, 6, SECOND)
        expectSuccess(r)
        expect(r.outputs.grew).toBe('false')
        expect(r.stdout).toContain('#30 carries the `docs-agent` label but no record')
        expect(creates(sim)).toHaveLength(2)
        expect(messages(sim)).toHaveLength(0)
      })
    )
  })

  it('a newer labelled pull request without the record: the agent’s older one still grows, and the log says why the newer did not', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        const job = await agentPullRequestOpen(sim, gh)
        // Someone's pull request #30, opened after the agent's and labelled `docs-agent` too.
        gh.pulls.set(30, { state: 'open', created_at: '2099-01-01T00:00:00Z' })
        gh.addLabel(30, 'docs-agent')
        const before = gh.requests.length
        const r = await onMerge(sim, gh, 6, SECOND)
        expectGrew(r, sim, job, [SECOND])
        expect(r.stdout).toContain(
          'Pull request #30 carries the `docs-agent` label but no record that a job of this project opened it'
        )
        expect(r.stdout).toMatch(/The docs agent's pull request #21 \(job [^)]+\) is still open/)
        // Finding it: the labelled listing, #30's comments, then #21's: 3 requests.
        const finding = githubCalls(gh, before).filter(c =>
          /^GET \/repos\/octo\/docs\/issues(\/(21|30)\/comments)?$/.test(c)
        )
        expect(finding).toEqual([
          'GET /repos/octo/docs/issues',
          'GET /repos/octo/docs/issues/30/comments',
          'GET /repos/octo/docs/issues/21/comments'
        ])
        expect(bots(gh, 30)).toEqual([])
      })
    )
  })

  it('at most the 3 newest labelled pull requests are looked through', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        await agentPullRequestOpen(sim, gh)
        for (const n of [30, 31, 32]) {
          gh.pulls.set(n, { state: 'open', created_at: `2099-01-0${n - 29}T00:00:00Z` })
          gh.addLabel(n, 'docs-agent')
        }
        const before = gh.requests.length
        const r = await onMerge(sim, gh, 6, SECOND)
        expectSuccess(r)
        expect(r.outputs.grew).toBe('false')
        expect(creates(sim)).toHaveLength(2)
        expect(r.stdout).toContain('None of the 3 newest pull requests labelled `docs-agent`')
        const listed = githubCalls(gh, before).filter(c => /\/issues\/(21|3\d)\/comments$/.test(c))
        expect(listed.slice(0, 3)).toEqual([
          'GET /repos/octo/docs/issues/32/comments',
          'GET /repos/octo/docs/issues/31/comments',
          'GET /repos/octo/docs/issues/30/comments'
        ])
        // #21 is read only later, for the new job's own records, never to find one to grow.
        expect(r.stdout).not.toMatch(/#21 \(job [^)]+\) is still open/)
      })
    )
  })

  it('the job of the open pull request is gone: nothing grown, a new job, with a warning', async () => {
    await withGitHub({}, async gh =>
      withService(service, async sim => {
        const job = await agentPullRequestOpen(sim, gh)
        sim.jobs.delete(job)
        const r = await onMerge(sim, gh, 6, SECOND)
        expect(r.code).toBe(0)
        expect(r.outputs.grew).toBe('false')
        expect(creates(sim)).toHaveLength(2)
        expect(messages(sim)).toHaveLength(0)
      })
    )
  })
})

const keys = (sim: Service) => ({
  'api-key': SIM_API_KEY,
  'project-id': 'acme-docs',
  'base-url': sim.url
})

/** A week's report with its suggestions, on issue 12. */
const weeklyReport = (sim: Service, gh: GitHub): Promise<RunResult> =>
  runScenario({
    inputs: {
      ...keys(sim),
      command: 'report',
      'issue-number': '12',
      'date-from': '2026-11-02',
      'date-to': '2026-11-09'
    },
    env: { GITHUB_API_URL: gh.url }
  })

describe('fix 1 3', () => {
  it('one job for two suggestions; with the agent’s pull request open, `fix N` grows it', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh =>
      withService({ ...service, varyByDate: true }, async sim => {
        const common = keys(sim)
        const report = await weeklyReport(sim, gh)
        expectSuccess(report)
        const suggestions = JSON.parse(report.outputs.report ?? '{}').suggestions as {
          instruction: string
        }[]
        const trigger = (body: string) =>
          runScenario({
            inputs: { ...common, command: 'message', 'poll-interval': '1' },
            env: { GITHUB_API_URL: gh.url },
            ...triggerComment(gh, 12, body, false, undefined, 'Docs health (weekly)')
          })
        const fix = await trigger('/docs-agent fix 1 3 Keep it short.')
        expectSuccess(fix)
        expect(fix.outputs.grew).toBe('false')
        expect(creates(sim)).toHaveLength(1)
        const sent = [...sim.jobs.values()][0]?.createdWith ?? ''
        expect(sent).toBe(
          'Do these 2 things, in one pull request.\n\n' +
            `1. ${suggestions[0]?.instruction}\n\n2. ${suggestions[2]?.instruction}\n\nKeep it short.`
        )
        // The answer names both suggestions and shows the instruction, wrapped, in view.
        const answer = bots(gh, 12).at(-1) ?? ''
        expect(answer).toMatch(/@octocat asked the docs agent to fix suggestions 1 and 3: \S/)
        expect(answer).not.toContain('asked for a new job')
        expect(answer.split('<details>')[0]).toContain('> Do these 2 things, in one pull request.')
        // Each suggestion's subject is recorded, for the next report to follow.
        expect(answer.match(/docs-agent:fix%2F/g)).toHaveLength(2)

        // The job's pull request #21 is open: `fix 2` goes to its job, and #21 grows.
        // What #21 holds before the growth (the first job's commit), and what the growth pushes
        // (dated after its run started; explicit dates hold in both tiers).
        gh.pushCommit(21, {
          sha: 'aaaa111',
          date: '2000-01-01T00:00:00Z',
          files: [{ filename: 'docs/first-fix.mdx', additions: 40 }]
        })
        gh.pushCommit(21, {
          sha: 'bbbb222',
          date: '2099-01-01T00:00:00Z',
          files: [{ filename: 'docs/concepts/deployments.mdx', additions: 12, deletions: 2 }]
        })
        const beforeGrowth = gh.requests.length
        const more = await trigger('/docs-agent fix 2')
        expectSuccess(more)
        expect(more.outputs.grew).toBe('true')
        expect(creates(sim)).toHaveLength(1)
        expect(messages(sim)).toHaveLength(1)
        const grown = bots(gh, 12).at(-1) ?? ''
        expect(grown).toMatch(/asked the docs agent to fix suggestion 2: /)
        expect(grown).toMatch(/pull request \[#21\]\([^)]*\) was still open/)
        // The growth's answer shows what it changed: the commit pushed after it started, not the
        // first job's (issue 42); 2 requests: the pull request's commits, then the new one's.
        expect(grown).toContain('1 file changed')
        expect(grown).toContain('- `docs/concepts/deployments.mdx` +12 −2')
        expect(grown).not.toContain('first-fix')
        const commitReads = githubCalls(gh, beforeGrowth).filter(c => /commits/.test(c))
        expect(commitReads).toEqual([
          'GET /repos/octo/docs/pulls/21/commits',
          'GET /repos/octo/docs/commits/bbbb222'
        ])
        // #21 keeps one record (edited: it notifies nobody) and gets a new comment that does
        // (issue 42): who asked, where (a link to the trigger comment) and the first line.
        const [record, note, ...rest] = bots(gh, 21)
        expect(rest).toEqual([])
        expect(record).toContain('The 2 instructions this pull request grew from, newest last')
        // Both causes, where and when (UTC), newest last.
        const asked = [
          ...(record ?? '').matchAll(
            /<b>(\d)\.<\/b> A comment by @octocat in <a href="([^"]*)">#12<\/a> · (\S+ \d\d:\d\d UTC)/g
          )
        ]
        expect(asked.map(m => m[1])).toEqual(['1', '2'])
        const triggers = (gh.comments.get(12) ?? []).filter(c =>
          c.body.startsWith('/docs-agent fix')
        )
        expect(asked.map(m => m[2])).toEqual(
          triggers.map(c => `https://github.com/octo/docs/issues/12#issuecomment-${c.id}`)
        )
        expect(note).toMatch(/^### ➕ This pull request grew: instruction 2\n/)
        expect(note).toContain(
          `For a comment by @octocat in [#12](https://github.com/octo/docs/issues/12#issuecomment-${triggers[1]?.id}), this pull request's job took a follow-up`
        )
        // The instruction's first line (suggestion 2's), quoted, and nothing more of it.
        const firstLine = /\n> (\S[^\n]+)\n/.exec(note ?? '')?.[1] ?? ''
        expect(firstLine.slice(0, 12)).toBe((suggestions[1]?.instruction ?? '').slice(0, 12))
        // The 📎 explanation is said once in #21's thread: on the record, not in the note.
        expect(note).not.toContain('📎')

        // A second growth, asked on the same issue: its answer does not explain again (the
        // issue's thread was told by the answer above), while the run's summary still says it.
        const again = await trigger('/docs-agent fix 4')
        expectSuccess(again)
        expect(again.outputs.grew).toBe('true')
        expect(messages(sim)).toHaveLength(2)
        expect(grown).toContain('📎')
        const second = bots(gh, 12).at(-1) ?? ''
        expect(second).toMatch(/asked the docs agent to fix suggestion 4: /)
        expect(second).not.toContain('📎')
        expect(again.summary).toContain('📎')
        expect(bots(gh, 12).filter(b => b.includes('📎'))).toHaveLength(1)
      })
    )
  })

  it('an unknown number among them: a reply listing the valid ones, nothing sent', async () => {
    await withGitHub({ permissions: { octocat: 'write' } }, async gh =>
      withService({ ...service, varyByDate: true }, async sim => {
        const common = keys(sim)
        await weeklyReport(sim, gh)
        const r = await runScenario({
          inputs: { ...common, command: 'message' },
          env: { GITHUB_API_URL: gh.url },
          ...triggerComment(gh, 12, '/docs-agent fix 1 9', false)
        })
        expect(r.outputs.skipped).toBe('true')
        expect(sim.requests.filter(q => q.kind === 'create' || q.kind === 'message')).toEqual([])
        expect(bots(gh, 12).at(-1)).toMatch(
          /^There is no suggestion 9, so nothing was sent .* has suggestions 1, 2/
        )
      })
    )
  })
})

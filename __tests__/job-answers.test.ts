// Unit tier: what an answer shows a reviewer: the files the pull request changes (as GitHub lists
// them), and endings that say what happened once and link where to go next.
import { secretsOf } from '../src/settings/names.js'
import { describe, it, expect, afterEach } from '@jest/globals'
import { pullRequestChanges, pullRequestOfLink } from '../src/github/pulls.js'
import { GitHubError } from '../src/github/errors.js'
import { renderJobReport } from '../src/report/job.js'
import { changesBlock } from '../src/report/job-changes.js'
import { registerSecrets } from '../src/secrets/redact.js'
import { SIM_GITHUB_TOKEN } from '../sim/github.js'
import { withGitHub } from './github-support.js'
import { JOB_STATES, jobReport } from './report-scenarios.js'
import { quietWorkflowCommands } from './quiet.js'

quietWorkflowCommands()

const PR = { owner: 'octo', repo: 'docs', number: 7 }
const RUN_URL = 'https://github.com/acme/docs/actions/runs/123456789'
/** The part a reader sees without opening the collapsed block. */
const visible = (markdown: string) => markdown.slice(0, markdown.indexOf('<details>'))

describe('what the pull request changes', () => {
  afterEach(() => registerSecrets())

  it('reads every page of files for the totals, and keeps the first ones', async () => {
    await withGitHub({ pullFiles: { 7: 150 } }, async (gh, octokit) => {
      const changes = await pullRequestChanges(octokit, PR, 10)
      expect(changes.count).toBe(150)
      expect(changes.files.map(f => f.path)).toEqual(
        Array.from({ length: 10 }, (_, i) => `docs/page-${i + 1}.md`)
      )
      expect(changes.additions).toBe(150)
      expect(changes.deletions).toBe(0)
      const pages = gh.requests.filter(q => q.path === '/repos/octo/docs/pulls/7/files')
      expect(pages.map(q => q.query.page ?? '1')).toEqual(['1', '2'])
    })
  })

  it('sums lines added and removed; counts that are no counts read as 0', async () => {
    const files = [
      { filename: 'a.md', additions: 10, deletions: 2 },
      { filename: 'b.md', additions: -5, deletions: 1.5 },
      { filename: 'c.png', additions: 0, deletions: 0 }
    ]
    await withGitHub({ pullFiles: { 7: files } }, async (_gh, octokit) => {
      const changes = await pullRequestChanges(octokit, PR, 10)
      expect(changes).toEqual({
        files: [
          { path: 'a.md', additions: 10, deletions: 2 },
          { path: 'b.md', additions: 0, deletions: 0 },
          { path: 'c.png', additions: 0, deletions: 0 }
        ],
        count: 3,
        additions: 10,
        deletions: 2
      })
    })
  })

  it('keeps no file name that holds a secret', async () => {
    registerSecrets(
      ...secretsOf({ 'api-key': 'mint_0123456789abcdefSECRET', 'github-token': SIM_GITHUB_TOKEN })
    )
    const files = [`docs/${SIM_GITHUB_TOKEN}.md`, 'docs/ok.md']
    await withGitHub({ pullFiles: { 7: files } }, async (_gh, octokit) => {
      const changes = await pullRequestChanges(octokit, PR, 10)
      expect(changes.files[0]).toEqual({ path: '', additions: 1, deletions: 0, withheld: true })
      const block = changesBlock(changes)
      expect(block).not.toContain(SIM_GITHUB_TOKEN)
      expect(block).toContain('- _a file whose name holds a secret_ +1')
      expect(block).toContain('- `docs/ok.md` +1')
    })
  })

  it('fails as a GitHubError that names the pull request', async () => {
    await withGitHub({}, async (_gh, octokit) => {
      const err = await pullRequestChanges(octokit, PR, 10).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(GitHubError)
      expect((err as Error).message).toBe(
        'GitHub: listing the files of octo/docs#7 failed (404 Not Found)'
      )
    })
  })

  it('shows at most 10 files, "and N more", lines per file and in all', () => {
    const changes = {
      files: Array.from({ length: 12 }, (_, i) => ({
        path: `docs/p${i}.md`,
        additions: 3,
        deletions: i === 0 ? 0 : 1
      })),
      count: 14,
      additions: 1234,
      deletions: 13
    }
    const block = changesBlock(changes)
    expect(block.split('\n')[0]).toBe('**14 files changed** (+1,234 −13)')
    expect(block.split('\n').filter(l => l.startsWith('- `'))).toHaveLength(10)
    expect(block).toContain('- `docs/p0.md` +3\n')
    expect(block).toContain('- `docs/p1.md` +3 −1\n')
    expect(block.endsWith('\n- and 4 more')).toBe(true)
    expect(changesBlock({ files: [], count: 0, additions: 0, deletions: 0 })).toBe(
      '**No files changed.**'
    )
    const one = { files: [{ path: 'logo.png', additions: 0, deletions: 0 }], count: 1 }
    expect(changesBlock({ ...one, additions: 0, deletions: 0 })).toBe(
      '**1 file changed**\n- `logo.png`'
    )
  })

  it('links the files view, and says a count is the pull request’s where the job did not open it', () => {
    const files = [{ path: 'docs/a.md', additions: 3, deletions: 1 }]
    const filesUrl = 'https://github.com/octo/docs/pull/7/files'
    const base = { files, count: 1, additions: 3, deletions: 1, filesUrl }
    expect(changesBlock(base).split('\n')[0]).toBe(`**[1 file changed](${filesUrl})** (+3 −1)`)
    const whole = changesBlock({ ...base, ofThePullRequest: true })
    expect(whole.split('\n')[0]).toBe(
      `**[1 file changed](${filesUrl}) in the pull request** (+3 −1), counting all its ` +
        'commits, not only the job’s:'
    )
    expect(whole).toContain('- `docs/a.md` +3 −1')
    const none = { ...base, files: [], count: 0, additions: 0, deletions: 0 }
    expect(changesBlock(none)).toBe(`**[No files changed](${filesUrl}).**`)
    expect(changesBlock({ ...none, ofThePullRequest: true })).toBe(
      `**The [pull request](${filesUrl}) changes no files.**`
    )
  })

  it('shows an odd path as escaped text, never as Markdown or a mention', () => {
    const path = 'docs/`x` <b>@octocat</b> [y](javascript:alert(1)).md'
    const block = changesBlock({
      files: [{ path, additions: 1, deletions: 0 }],
      count: 1,
      additions: 1,
      deletions: 0
    })
    expect(block).not.toMatch(/<b>|`x`|@octocat|\]\(/)
    expect(block).toContain('&lt;b&gt;')
  })

  it('is in the answer only once the job completed with a pull request', () => {
    const changes = { files: [], count: 0, additions: 0, deletions: 0 }
    const done = renderJobReport(jobReport({ prNumber: 42, changes }))
    expect(visible(done)).toContain('**No files changed.**')
    for (const name of ['waiting, active', 'failed', 'timed out', 'done without a pull request'])
      expect(renderJobReport(jobReport({ ...JOB_STATES[name], changes }))).not.toContain(
        'files changed'
      )
  })
})

describe('pullRequestOfLink: a pull request on this GitHub, of any repository', () => {
  it.each([
    ['https://github.com/octo/docs/pull/7', 'https://github.com', PR],
    [
      'https://github.com/acme/site/pull/12/',
      'https://github.com',
      { owner: 'acme', repo: 'site', number: 12 }
    ],
    ['https://ghe.example/git/octo/docs/pull/7/files', 'https://ghe.example/git', PR],
    ['https://gitlab.com/octo/docs/pull/7', 'https://github.com', undefined],
    ['https://github.com/octo/docs/issues/7', 'https://github.com', undefined],
    ['https://user:pw@github.com/octo/docs/pull/7', 'https://github.com', undefined],
    ['not a link', 'https://github.com', undefined]
  ])('%s on %s', (link, server, expected) => {
    expect(pullRequestOfLink(link, server)).toEqual(expected)
  })
})

describe('endings that link', () => {
  const ENDINGS = [
    'failed',
    'failed, after a merge',
    'timed out',
    'timed out, the last polls failing',
    'cancelled while waiting',
    'cancelled before sending',
    'error, maybe delivered',
    'error, not sent',
    'error, sent but lost track of the job'
  ]

  it.each(ENDINGS)('%s: one link to the run, in the next step; no API path or job id', name => {
    const out = visible(renderJobReport(jobReport(JOB_STATES[name])))
    const runLinks = out.split(`](${RUN_URL})`).length - 1
    expect(runLinks).toBe(1)
    // The link is in what to do next, not in the line under the headline.
    expect(out.split('\n')[2]).not.toContain('](')
    expect(out).not.toMatch(/\/v\d\//)
    expect(out).not.toMatch(/job(_|&#95;)7Hq2mX/)
    // The job's id stays in the details.
    expect(renderJobReport(jobReport(JOB_STATES[name]))).toContain('- **Job:** job&#95;7Hq2mX')
  })

  it.each(ENDINGS)(
    '%s: the job summary gives the same next step, without a link to itself',
    name => {
      const r = jobReport(JOB_STATES[name])
      const comment = visible(renderJobReport(r))
      const summary = visible(renderJobReport(r, 'summary'))
      expect(summary).not.toContain(RUN_URL)
      const steps = (md: string) =>
        md
          .split('\n\n')
          .slice(2)
          .map(p => p.replace(/\[([^\]]+)\]\(https:\/\/[^)]+\)/g, '$1'))
      // A comment names the place by "this"; the summary links the pull request where it was asked.
      expect(steps(summary).map(p => p.replace(' on #42', ''))).toEqual(steps(comment))
    }
  )

  it('each failure is said once: the headline says what happened, the body what to do', () => {
    const count = (text: string, re: RegExp) => (text.match(re) ?? []).length
    const maybe = renderJobReport(jobReport(JOB_STATES['error, maybe delivered']))
    expect(count(maybe, /may or may not/g)).toBe(1)
    const lost = visible(
      renderJobReport(jobReport(JOB_STATES['error, sent but lost track of the job']))
    )
    expect(count(lost, /took the instruction|lost track/g)).toBe(1)
    const cancelled = visible(renderJobReport(jobReport(JOB_STATES['cancelled while waiting'])))
    expect(count(cancelled, /keeps running/g)).toBe(1)
  })
})

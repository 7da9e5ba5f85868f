// Unit tier: the checks and the preview as people read them (issue 50 items 1 and 3, issue 49
// item 1): a warning annotation is no failure; neutral and skipped runs are counted apart from
// passed; runs GitHub counts but the run did not read are never green; the headline's mark says
// what it is about; the preview's verdict (built with its changed pages, failed, building, none
// and why); who `reviewers` asks.
import { describe, it, expect } from '@jest/globals'
import {
  checksBlock,
  checksFail,
  checksHeadline,
  checksState,
  checksVerdict,
  type CheckRunSeen,
  type ChecksReport
} from '../src/report/job-checks.js'
import { changedPages, previewLine } from '../src/report/job-preview.js'
import { isPlatformApp, previewOf, readPreview, whyNone } from '../src/agent/preview.js'
import { checksFixPrompt } from '../src/gate/fix-checks.js'
import { readReviewers } from '../src/settings/lists.js'
import { whoToAsk } from '../src/commands/job-reviewers.js'

let nextId = 1
const run = (conclusion: string | undefined, extra: Partial<CheckRunSeen> = {}): CheckRunSeen => ({
  id: nextId++,
  name: `check ${nextId}`,
  status: conclusion === undefined ? 'in_progress' : 'completed',
  ...(conclusion ? { conclusion } : {}),
  annotationsCount: 0,
  annotations: [],
  ...extra
})
const report = (runs: CheckRunSeen[], extra: Partial<ChecksReport> = {}): ChecksReport => ({
  mode: 'wait',
  state: checksState({ runs, total: extra.total ?? runs.length }),
  prNumber: 21,
  url: 'https://github.com/octo/docs/pull/21/checks',
  runs,
  ...extra
})

describe('the check runs as people read them', () => {
  it('counts neutral and skipped apart from passed; they still pass', () => {
    const c = report([run('success'), run('neutral'), run('skipped'), run('success')])
    expect(c.state).toBe('success')
    expect(checksBlock(c, '/docs-agent', 'comment')).toContain(
      ':** ✅ 2 passed · ➖ 1 neutral · ⏭️ 1 skipped\n'
    )
    expect(checksHeadline(c)).toBeUndefined()
    expect(checksFail({ ...c, mode: 'require' })).toBe(false)
  })

  it('shows a warning annotation as a warning, on a run that passed', () => {
    const warned = run('success', {
      name: 'style',
      annotationsCount: 1,
      annotations: [{ path: 'a.mdx', line: 3, level: 'warning', message: 'Long line' }]
    })
    const block = checksBlock(report([warned]), '/docs-agent', 'comment')
    expect(block).toContain('- ✅ style: success\n  - `a.mdx:3` (warning) Long line')
    expect(checksHeadline(report([warned]))).toBeUndefined()
  })

  it('lists what failed first, whatever GitHub’s order', () => {
    const runs = [
      ...Array.from({ length: 25 }, () => run('success')),
      run('failure', { name: 'links' })
    ]
    const block = checksBlock(report(runs), undefined, 'summary')
    expect(block.split('\n')[1]).toBe('- ❌ links: failure')
    expect(block).toContain('- and 6 more check runs')
  })

  it('never calls unread runs green: pending, said, and flagged in the headline', () => {
    const c = report([run('success')], { total: 3, cut: 'time' })
    expect(c.state).toBe('pending')
    expect(checksBlock(c, undefined, 'summary')).toContain(
      'GitHub lists 3 check runs; 2 were not read (time ran out (`wait-timeout`) before their page was read), and a check not read is not taken as passed.'
    )
    expect(checksHeadline(c)).toEqual({ mark: '⚠️', about: '2 checks not read' })
    expect(checksHeadline({ ...c, mode: 'require' })).toEqual({
      mark: '❌',
      about: '2 checks not read'
    })
  })

  it('says what the ⚠️ is about: a failed check, a failed preview build', () => {
    expect(checksHeadline(report([run('failure'), run('success')]))?.about).toBe('1 check failed')
    const failed = report([run('success')], { preview: { state: 'failure' } })
    expect(checksHeadline(failed)).toEqual({ mark: '⚠️', about: 'its preview build failed' })
    expect(checksFail({ ...failed, mode: 'require' })).toBe(true)
  })

  it('gives a note two short paragraphs: the counts and the preview', () => {
    const c = report([run('failure'), run('success')], {
      preview: { state: 'success', url: 'https://p.mintlify.app/' }
    })
    expect(checksVerdict(c)).toBe(
      '**[Checks](https://github.com/octo/docs/pull/21/checks):** ❌ 1 failed · ✅ 1 passed\n\n' +
        '**Preview:** ✅ built: [p.mintlify.app](https://p.mintlify.app/)'
    )
    expect(checksVerdict(undefined)).toBeUndefined()
  })
})

describe('`fix checks` sends failures, and says what it did not send', () => {
  it('counts the annotations not sent and the runs not read', () => {
    const failing = run('failure', { name: 'links', annotationsCount: 30 })
    const prompt = checksFixPrompt(
      21,
      [
        {
          run: failing,
          annotations: [{ path: 'a.mdx', level: 'failure', message: 'x' }],
          notSent: 25
        }
      ],
      '',
      4
    )
    expect(prompt).toContain('- and 25 more annotations, not sent')
    expect(prompt).toContain('4 more check runs were not read.')
  })
})

describe('the preview', () => {
  const PREVIEW = 'https://acme-docs-pr-21.mintlify.app/'

  it('links the pages the pull request changed: .mdx and .md, index as its folder, no partials, at most 5', () => {
    const files = [
      'index.mdx',
      'api/limits.mdx',
      'api/index.md',
      'snippets/note.mdx',
      'api/_partial.mdx',
      'README.md',
      'docs.json',
      'guides/a b?.mdx',
      'guides/c.mdx',
      'guides/d.mdx',
      'guides/e.mdx'
    ]
    expect(changedPages(PREVIEW, files)).toEqual([
      { path: '/', url: 'https://acme-docs-pr-21.mintlify.app/' },
      { path: '/api/limits', url: 'https://acme-docs-pr-21.mintlify.app/api/limits' },
      { path: '/api', url: 'https://acme-docs-pr-21.mintlify.app/api' },
      { path: '/guides/a b?', url: 'https://acme-docs-pr-21.mintlify.app/guides/a%20b%3F' },
      { path: '/guides/c', url: 'https://acme-docs-pr-21.mintlify.app/guides/c' }
    ])
  })

  it('reads a status as the build’s verdict', () => {
    expect(previewOf(undefined, [])).toEqual({ state: 'pending' })
    expect(previewOf({ state: 'queued' }, []).state).toBe('pending')
    expect(previewOf({ state: 'in_progress' }, []).state).toBe('pending')
    expect(previewOf({ state: 'error', description: 'boom' }, [])).toEqual({
      state: 'failure',
      description: 'boom'
    })
    expect(previewOf({ state: 'success', environmentUrl: PREVIEW }, ['a.mdx'])).toEqual({
      state: 'success',
      url: PREVIEW,
      pages: [{ path: '/a', url: `${PREVIEW}a` }]
    })
    // Only an https address is a preview to link.
    expect(
      previewOf({ state: 'success', environmentUrl: 'javascript:alert(1)' }, []).url
    ).toBeUndefined()
    expect(previewLine({ state: 'success' })).toBe('**Preview:** ✅ built (no address given)')
    expect(previewOf({ state: 'inactive' }, []).state).toBe('none')
  })

  it('counts only the docs platform’s app: a Bot of its login', () => {
    const d = { id: 1, environment: 'staging', createdAt: 0 }
    expect(isPlatformApp({ ...d, creator: 'mintlify[bot]', creatorIsBot: true })).toBe(true)
    expect(isPlatformApp({ ...d, creator: 'Mintlify[bot]', creatorIsBot: true })).toBe(true)
    expect(isPlatformApp({ ...d, creator: 'mintlify[bot]', creatorIsBot: false })).toBe(false)
    expect(isPlatformApp({ ...d, creator: 'mintlify-preview[bot]', creatorIsBot: true })).toBe(
      false
    )
    expect(isPlatformApp({ ...d, creator: 'github-actions[bot]', creatorIsBot: true })).toBe(false)
  })

  it('reads the newest deployment of the app, its status once; none: why, from the head', async () => {
    const statuses: number[] = []
    const deployments = [
      { id: 9, creator: 'octocat', creatorIsBot: false, environment: 'staging', createdAt: 3 },
      { id: 8, creator: 'mintlify[bot]', creatorIsBot: true, environment: 'staging', createdAt: 2 },
      { id: 7, creator: 'mintlify[bot]', creatorIsBot: true, environment: 'staging', createdAt: 1 }
    ]
    const head = { sha: 'abc1234', base: 'main', defaultBranch: 'main' }
    const built = await readPreview({
      deployments: () => Promise.resolve(deployments),
      status: id => (statuses.push(id), Promise.resolve({ state: 'failure' })),
      head: () => Promise.resolve(head),
      changedFiles: []
    })
    expect(built.state).toBe('failure')
    expect(statuses).toEqual([8])
    const none = await readPreview({
      deployments: () => Promise.resolve(deployments.slice(0, 1)),
      status: () => Promise.reject(new Error('not asked')),
      head: () => Promise.resolve(head),
      changedFiles: []
    })
    expect(none).toEqual({
      state: 'none',
      why: ['the plan may have no previews', 'or the build has not started yet']
    })
    expect(whyNone({ sha: 'a', base: 'x`y', defaultBranch: 'main' })[0]).toBe(
      "it targets `x'y`, and previews are made for pull requests to the deployment branch (often `main`)"
    )
  })
})

describe('reviewers', () => {
  it('reads logins, `@logins`, `org/team` slugs and `author`, once each', () => {
    expect(readReviewers('')).toEqual([])
    expect(readReviewers('author, @Octocat octocat,acme/Docs-Writers, AUTHOR')).toEqual([
      { kind: 'author' },
      { kind: 'user', login: 'Octocat' },
      { kind: 'team', org: 'acme', slug: 'docs-writers' }
    ])
  })

  it.each([
    'octo cat!',
    'a/b/c',
    '-lead',
    'x'.repeat(40),
    'acme/',
    '/team',
    'bot[bot]/team',
    'a/-b'
  ])('refuses %j naming `reviewers`', bad => {
    expect(() => readReviewers(bad)).toThrow(/^Input `reviewers`: /)
  })

  it('refuses a huge entry by its length, before any regular expression reads it', () => {
    for (const huge of ['a'.repeat(5_000_000), `${'a'.repeat(5_000_000)}/x`])
      expect(() => readReviewers(huge)).toThrow(/^Input `reviewers`: /)
  })

  it('refuses more than 15', () => {
    const many = Array.from({ length: 16 }, (_, i) => `user${i}`).join(',')
    expect(() => readReviewers(many)).toThrow('at most 15 are asked')
  })

  it('asks the starter for `author`, leaves out bots, the pull request’s author and other organisations’ teams', () => {
    const listed = readReviewers(
      'author, renovate[bot], mintlify[bot], hubot, Hubot, octo/writers, other/team'
    )
    expect(
      whoToAsk(listed, { starter: 'octo-dev', prAuthor: 'mintlify[bot]', owner: 'octo' })
    ).toEqual({
      users: ['octo-dev', 'hubot'],
      teams: ['writers'],
      left: [
        '@renovate[bot] (a bot cannot review)',
        '@mintlify[bot] (a bot cannot review)',
        'other/team (a team of another organisation than octo)'
      ]
    })
    // The pull request's own author, and an `author` nobody is named as.
    expect(whoToAsk(readReviewers('author, hubot'), { prAuthor: 'HUBOT', owner: 'octo' })).toEqual({
      users: [],
      teams: [],
      left: [
        '`author` (nobody is named as the one who started this job)',
        '@hubot (opened the pull request)'
      ]
    })
  })
})

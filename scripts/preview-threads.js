// The threads of `npm run preview`: what real runs leave on a pull request or an issue, comment
// after comment, as reviewers meet them. Each thread is made by running the built action
// (dist/index.js, as the runner does) against the simulators, so it shows exactly what the
// action writes, in order, with the reviewers' own comments between.
import { runAction } from '../sim/run-action.js'
import { startService, SIM_API_KEY } from '../sim/service.js'
import {
  headSha,
  labelEvent,
  pullRequestEvent,
  SIM_GITHUB_TOKEN,
  startGitHub,
  triggerComment,
  triggerReview
} from '../sim/github.js'

const REVIEWER = { login: 'octocat', type: 'User' }
const READER = { login: 'passer-by', type: 'User' }
const PR = n => `https://github.com/octo/docs/pull/${n}`

const base = url => ({
  'api-key': SIM_API_KEY,
  'project-id': 'acme-docs',
  'base-url': url,
  'poll-interval': '0.2',
  'wait-timeout': '20s'
})

/** A reviewer's trigger comment on `n`, and its webhook payload. */
const comment = (gh, n, body, pullRequest = true) =>
  triggerComment(gh, n, body, pullRequest, REVIEWER, 'Document the new rate limits')

/** The comments and reviews on `n`, oldest first, as GitHub's conversation shows them. */
const thread = (gh, n) =>
  [
    ...(gh.comments.get(n) ?? []),
    ...(gh.reviews.get(n) ?? []).map(r => ({
      ...r,
      verb: r.state === 'approved' ? 'approved these changes' : 'reviewed'
    }))
  ]
    .sort((a, b) => a.id - b.id)
    .map(c => ({
      author: c.user.login,
      bot: c.user.type === 'Bot',
      body: c.body,
      ...(c.verb ? { verb: c.verb } : {}),
      // Hidden through GraphQL (`comment-mode: minimize`): GitHub folds it away.
      ...(gh.minimized?.some(m => m.id === c.id) ? { hidden: true } : {})
    }))

/** What the agent's pull requests change, as GitHub lists their files (read at each request). */
const FILES = {
  7: [
    { filename: 'docs/api-reference/rate-limits.mdx', additions: 46, deletions: 3 },
    { filename: 'docs/faq.mdx', additions: 14, deletions: 0 }
  ],
  9: [
    { filename: 'docs/guides/webhooks/retries.mdx', additions: 88, deletions: 0 },
    { filename: 'docs/mint.json', additions: 1, deletions: 0 }
  ],
  21: [{ filename: 'docs/api-reference/rate-limits.mdx', additions: 31, deletions: 2 }]
}

async function withSims(service, body, more = {}) {
  const sim = await startService(service)
  const gh = await startGitHub({
    permissions: { octocat: 'write', 'passer-by': 'read' },
    pullFiles: FILES,
    ...more
  })
  try {
    return await body(sim, gh)
  } finally {
    await sim.close()
    await gh.close()
  }
}

async function twoInstructions() {
  return withSims({ jobs: [{ id: 'job-1', activePolls: 1, prLink: PR(7) }] }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const inputs = { ...base(sim.url), command: 'message', 'job-id': 'job-1', 'settle-time': '1s' }
    await runAction({
      inputs,
      env,
      ...comment(gh, 7, '/docs-agent Add a FAQ entry about rate limits')
    })
    // The second instruction adds a page.
    gh.setPullFiles(7, [
      ...FILES[7],
      { filename: 'docs/guides/retries.mdx', additions: 22, deletions: 0 }
    ])
    await runAction({
      inputs,
      env,
      ...comment(
        gh,
        7,
        '/docs-agent: Also say what `Retry-After` means, with an example:\n\n```http\nRetry-After: 30\n```'
      )
    })
    return [{ title: 'Pull request #7', comments: thread(gh, 7) }]
  })
}

async function reviews() {
  return withSims({ jobs: [{ id: 'job-1', activePolls: 1, prLink: PR(7) }] }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const inputs = { ...base(sim.url), command: 'message', 'job-id': 'job-1', 'settle-time': '1s' }
    await runAction({ inputs, env, ...triggerReview(gh, 7, '/docs-agent Add a curl example') })
    // A reader's review: not obeyed, and nothing written (a review takes no 👎).
    await runAction({
      inputs,
      env,
      ...triggerReview(gh, 7, '/docs-agent Delete the FAQ', { user: READER })
    })
    gh.addReview(7, 'Looks good now, thanks!', REVIEWER, 'approved')
    return [{ title: 'Pull request #7, reviewed', comments: thread(gh, 7) }]
  })
}

async function fromTheCodePullRequest() {
  return withSims({ jobs: [], created: { activePolls: 1 } }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    // The merge recipe: the merged code pull request #5 starts a job, which opens #21.
    await runAction({
      inputs: { ...base(sim.url), command: 'create', prompt: 'Update the docs for this change' },
      env,
      ...pullRequestEvent(5, 'closed', { title: 'Add rate limits to the API' })
    })
    // A reviewer replies on the code pull request, where the job takes no instructions.
    await runAction({
      inputs: { ...base(sim.url), command: 'message', 'job-id': '' },
      env,
      ...comment(gh, 5, '/docs-agent Mention the new limits in the FAQ')
    })
    return [{ title: 'Pull request #5, the merged code change', comments: thread(gh, 5) }]
  })
}

async function fromAnIssue() {
  return withSims(
    { jobs: [{ id: 'job-1', activePolls: 1, prLink: null, nextPrLink: PR(9) }] },
    async (sim, gh) => {
      const env = { GITHUB_API_URL: gh.url }
      const inputs = { ...base(sim.url), command: 'message', 'job-id': 'job-1' }
      await runAction({
        inputs,
        env,
        ...comment(gh, 3, '/docs-agent Write a page on webhooks retries', false)
      })
      await runAction({
        inputs: { ...inputs, 'job-id': '' },
        env,
        ...comment(gh, 9, '/docs-agent Shorten the intro')
      })
      // Merging the agent's own pull request: the merge recipe starts nothing.
      const merged = await runAction({
        inputs: { ...base(sim.url), command: 'create', prompt: 'Update the docs for this change' },
        env,
        ...pullRequestEvent(9, 'closed', {
          title: 'Docs: webhooks retries',
          user: { login: 'docs-agent[bot]', type: 'Bot' }
        })
      })
      const notice = merged.stdout.split('\n').find(l => l.startsWith('::notice'))
      return [
        { title: 'Issue #3, where the job was asked for', comments: thread(gh, 3) },
        {
          title:
            'Pull request #9, which the agent opened (then merged: the merge run only left a notice)',
          comments: thread(gh, 9),
          note: notice ? notice.replace(/^::notice[^:]*::/, 'Merge run notice: ') : undefined
        }
      ]
    }
  )
}

/**
 * The record that a job opened a pull request: written on it even with `comment: false` (then
 * alone), and never on a human pull request the job only pushed to.
 */
async function openedRecords() {
  const created = { activePolls: 1, prLink: PR(21) }
  const onMerge = await withSims({ jobs: [], created }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const inputs = { ...base(sim.url), command: 'create', prompt: 'Document this change' }
    await runAction({
      inputs: { ...inputs, comment: 'false' },
      env,
      ...pullRequestEvent(5, 'closed', { title: 'Add rate limits' })
    })
    const merged = await runAction({ inputs, env, ...pullRequestEvent(21, 'closed') })
    const notice = merged.stdout.split('\n').find(l => l.startsWith('::notice'))
    return {
      title: 'Pull request #21, opened by a job that a `comment: false` merge run started',
      comments: thread(gh, 21),
      note: notice ? notice.replace(/^::notice[^:]*::/, 'Merge run notice: ') : undefined
    }
  })
  const onHumanPr = await withSims(
    { jobs: [], created: { activePolls: 1, prLink: PR(7) } },
    async (sim, gh) => {
      await runAction({
        inputs: { ...base(sim.url), command: 'message', 'when-no-job': 'create' },
        env: { GITHUB_API_URL: gh.url },
        ...comment(gh, 7, '/docs-agent Add a FAQ entry about rate limits')
      })
      return {
        title: 'Pull request #7, a human one the new job pushed to',
        comments: thread(gh, 7)
      }
    }
  )
  return [onMerge, onHumanPr]
}

/** What readers wrote on the pages the weekly issue suggests (the feedback export's rows). */
const WEEKLY_COMMENTS = [
  [
    '/concepts/deployments',
    'The rollback section stops after step 2; what happens to the old build?'
  ],
  [
    '/api-reference/versioning',
    'Which header pins the version? The example uses two different ones.'
  ],
  ['/concepts/deployments', 'No word on preview deployments for pull requests from forks.'],
  ['/api-reference/versioning', '<b>@team</b> the changelog link is broken #12']
].map(([path, comment], i) => ({
  id: `fb_${i}`,
  path,
  comment,
  createdAt: `2026-11-0${i + 3}T10:00:00Z`,
  helpful: false,
  source: 'contextual',
  status: 'pending'
}))

/**
 * The weekly issue over four weeks: each report with compare and trend: 8 (the recipe); after
 * the first, a maintainer asks the agent to fix suggestion 2; its pull request is merged in the
 * second week, so that week's report says when the fix is first measured, and the third and
 * fourth say what it did. Each report takes the totals the earlier ones recorded.
 */
/** The weekly issue's service: its comments, and the pull request a `fix` opens (#31). */
const WEEKLY_SERVICE = {
  varyByDate: true,
  comments: WEEKLY_COMMENTS,
  jobs: [],
  created: { activePolls: 1, prLink: PR(31) }
}

async function weeklyIssue() {
  return withSims(WEEKLY_SERVICE, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const week = (from, to) =>
      runAction({
        inputs: {
          ...base(sim.url),
          command: 'report',
          'issue-number': '12',
          'date-from': from,
          'date-to': to,
          compare: 'true',
          trend: '8',
          'site-url': 'https://docs.acme.dev',
          // The recipe's: each week a new comment, last week's folded away as outdated.
          'comment-mode': 'minimize'
        },
        env
      })
    await week('2026-11-02', '2026-11-09')
    await runAction({
      inputs: { ...base(sim.url), command: 'message' },
      env,
      ...triggerComment(gh, 12, '/docs-agent fix 2 Keep it short.', false, REVIEWER, 'Docs health')
    })
    gh.pulls.set(31, { state: 'closed', merged_at: '2026-11-12T10:00:00Z' })
    await week('2026-11-09', '2026-11-16')
    await week('2026-11-16', '2026-11-23')
    await week('2026-11-23', '2026-11-30')
    return [
      {
        title: 'Issue #12, the weekly report over four weeks, and a suggestion fixed on request',
        comments: thread(gh, 12)
      }
    ]
  })
}

/**
 * Issue 42: `fix 1` opens #31, `fix 2` grows it; the growth pushes one commit. The issue shows
 * both answers (the second with the growth's files only); #31 its record and the growth's note.
 */
async function grownByASecondFix() {
  return withSims(WEEKLY_SERVICE, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const first = { 'date-from': '2026-11-02', 'date-to': '2026-11-09' }
    const report = { ...base(sim.url), command: 'report', 'issue-number': '12', ...first }
    await runAction({ inputs: report, env })
    const fix = body =>
      runAction({
        inputs: { ...base(sim.url), command: 'message' },
        env,
        ...triggerComment(gh, 12, body, false, REVIEWER, 'Docs health')
      })
    await fix('/docs-agent fix 1')
    // The first job's commit, then the growth's (dated after its run started).
    const file = (filename, additions) => [{ filename, additions, deletions: 2 }]
    gh.pushCommit(31, { sha: 'aaaa111', date: '2000-01-01T00:00:00Z', files: file('a.mdx', 40) })
    const late = '2099-01-01T00:00:00Z'
    gh.pushCommit(31, { sha: 'bbbb222', date: late, files: file('docs/deployments.mdx', 12) })
    await fix('/docs-agent fix 2')
    return [
      { title: 'Issue #12, two `fix` answers', comments: thread(gh, 12).slice(1) },
      { title: 'Pull request #31, grown by the second fix', comments: thread(gh, 31) }
    ]
  })
}

/**
 * Issue 50: the agent's pull request #21, opened for the merge of #41, grows for the merge of
 * #43, the label Docs/Needed on #9, a dispatch for octo/api#42 and a comment in #12: each growth
 * leaves a note naming its cause; #21's record lists every cause, each whole text folded.
 */
async function grownFourTimes() {
  return withSims({ jobs: [], created: { activePolls: 1, prLink: PR(21) } }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const prompt =
      'Update the documentation for the change merged in this pull request. Keep the\n' +
      'existing structure and tone; add or update pages only where behaviour changed.\n'
    const create = { ...base(sim.url), command: 'create', context: 'true' }
    const merge = (n, title, login) =>
      runAction({
        inputs: { ...create, prompt },
        env,
        ...pullRequestEvent(n, 'closed', { title, user: { login, type: 'User' } })
      })
    await merge(41, 'Explain key rotation', 'octocat')
    await merge(43, 'Rotate keys on a schedule', 'hubot')
    await runAction({
      inputs: {
        ...create,
        'trigger-label': 'Docs/Needed',
        prompt: 'Write or update the documentation this issue (described below) needs.'
      },
      env,
      ...labelEvent(gh, 9, 'Docs/Needed', { issue: true })
    })
    const url = 'https://github.com/octo/api/pull/42'
    await runAction({
      inputs: {
        ...create,
        prompt: 'Update the documentation for the code change described below.',
        'notify-repository': 'octo/api'
      },
      env,
      eventName: 'repository_dispatch',
      event: {
        action: 'code-merged',
        client_payload: {
          pull_request: { number: 42, title: 'Add retry budget', html_url: url, body: 'Budgets.' },
          paths: ['src/retry.ts']
        },
        repository: { full_name: 'octo/docs' }
      }
    })
    await runAction({
      inputs: { ...base(sim.url), command: 'message', 'when-no-job': 'create' },
      env,
      ...triggerComment(gh, 12, '/docs-agent Document the retry budget, with its default.', false)
    })
    return [{ title: 'Pull request #21, grown four times', comments: thread(gh, 21) }]
  })
}

/** The docs platform's checks on the agent's pull request #21: the link check fails. */
const AGENT_CHECKS = {
  [headSha(21)]: [
    {
      name: 'Mintlify: broken links',
      states: [{ status: 'in_progress' }, { status: 'completed', conclusion: 'failure' }],
      annotations: [
        {
          path: 'docs/api-reference/rate-limits.mdx',
          line: 12,
          message: 'Broken link: /api-reference/quotas does not exist'
        },
        { path: 'docs/faq.mdx', line: 40, message: 'Broken link: #retry-after (no such heading)' }
      ]
    },
    { name: 'Mintlify: style', states: [{ status: 'completed', conclusion: 'success' }] },
    { name: 'Mintlify: deployment', states: [{ status: 'completed', conclusion: 'neutral' }] }
  ]
}

/** `trigger-label` on code pull request #5 with `checks: require`, then `fix checks` on #21. */
async function labelAndChecks() {
  const service = { jobs: [], created: { activePolls: 1, prLink: PR(21) } }
  const code = [{ filename: 'src/limits.ts', additions: 40, deletions: 2 }]
  const more = {
    checkRuns: AGENT_CHECKS,
    pulls: { 5: { state: 'open' } },
    pullFiles: { ...FILES, 5: code }
  }
  return withSims(
    service,
    async (sim, gh) => {
      const env = { GITHUB_API_URL: gh.url }
      await runAction({
        inputs: {
          ...base(sim.url),
          command: 'create',
          prompt: 'Write the docs this change needs.',
          'trigger-label': 'Docs/Needed',
          checks: 'require'
        },
        env,
        ...labelEvent(gh, 5, 'Docs/Needed', {
          title: 'Add rate limits to the API',
          changedFiles: 1
        })
      })
      await runAction({
        inputs: { ...base(sim.url), command: 'message' },
        env,
        ...comment(gh, 21, '/docs-agent fix checks')
      })
      return [
        { title: 'Pull request #5, labelled Docs/Needed', comments: thread(gh, 5) },
        { title: "Pull request #21 (the agent's), fix checks", comments: thread(gh, 21) }
      ]
    },
    more
  )
}

/**
 * A key that expired: a dispatch run tells the code pull request the cause and the fix, and the
 * weekly report leaves a short note on its issue.
 */
async function expiredKey() {
  const expired = 'mint_expired0123456789abcdef'
  return withSims({ jobs: [], keys: { [expired]: 'expired' } }, async (sim, gh) => {
    const env = { GITHUB_API_URL: gh.url }
    const key = { ...base(sim.url), 'api-key': expired }
    const pull = {
      number: 42,
      html_url: 'https://github.com/octo/api/pull/42',
      title: 'Add rate limits'
    }
    await runAction({
      inputs: {
        ...key,
        command: 'create',
        prompt: 'Update the docs for this change',
        'notify-token': SIM_GITHUB_TOKEN,
        'notify-repository': 'octo/api'
      },
      env,
      eventName: 'repository_dispatch',
      event: {
        action: 'code-merged',
        client_payload: { pull_request: pull, paths: ['src/limits.ts'] },
        repository: { full_name: 'octo/docs' }
      }
    })
    await runAction({
      inputs: { ...key, command: 'report', period: 'last-week', 'issue-number': '12' },
      env
    })
    return [
      {
        title: 'Pull request octo/api#42, the code change of a dispatch',
        comments: thread(gh, 42)
      },
      { title: 'Issue #12, the weekly report refused for its key', comments: thread(gh, 12) }
    ]
  })
}

/** Every thread, made by running the action; a thread that cannot be made says why instead. */
export async function previewThreads() {
  const made = []
  for (const [name, make] of [
    ['Two instructions on a pull request', twoInstructions],
    ['A review that is an instruction, and one by a reader', reviews],
    ['A reply on the code pull request of a merge', fromTheCodePullRequest],
    ['A job asked for on an issue, and the merge of its pull request', fromAnIssue],
    ['The record that a job opened a pull request', openedRecords],
    ['The weekly report over four weeks', weeklyIssue],
    ['A pull request grown by a second fix', grownByASecondFix],
    ['A pull request grown four times: a merge, a label, a dispatch, a comment', grownFourTimes],
    ['A label asks for docs, and the checks of the agent pull request', labelAndChecks],
    ['A key that expired', expiredKey]
  ]) {
    try {
      made.push({ name, threads: await make() })
    } catch (err) {
      made.push({ name, threads: [], error: String(err) })
    }
  }
  return made
}

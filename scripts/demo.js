// `npm run demo`: the built action, run as a runner would, against the simulators on loopback.
// No key, no network, no install: only Node and the committed dist/.
import { startService, SIM_API_KEY } from '../sim/service.js'
import { startGitHub } from '../sim/github.js'
import { runAction } from '../sim/run-action.js'

// A docs site with a long tail of pages; each week's ranking differs a little from the last.
const service = await startService({
  latencyMs: [30, 90],
  rows: 1234,
  // The other report sections follow each period's traffic too.
  varyByDate: true,
  // The service's shared analytics quota: every analytics operation counts against it.
  analyticsQuota: 100,
  // A real docs site's data: the hostile strings the tests feed the action stay in the tests.
  hostile: false,
  jobs: [{ id: 'job-123', activePolls: 2, prLink: 'https://github.com/octo/docs/pull/7' }],
  created: { activePolls: 2, prLink: 'https://github.com/octo/docs/pull/21' }
})
const github = await startGitHub({
  permissions: { octocat: 'write' },
  pullFiles: {
    // The merged code change of scenario 2.
    18: ['src/limits.ts', 'src/headers.ts', 'docs/api/rate-limits.mdx'],
    // The agent's pull requests: an answer lists the files the job changed there.
    7: ['faq.mdx'],
    21: ['api/rate-limits.mdx', 'api/headers.mdx']
  }
})
// The trigger comment exists on the fake GitHub, so the action can react to it.
const trigger = github.addComment(7, '/docs-agent Add a FAQ entry about rate limits', {
  login: 'octocat',
  type: 'User'
})
const common = {
  'api-key': SIM_API_KEY,
  'project-id': 'demo-project',
  'base-url': service.url
}
const env = { GITHUB_API_URL: github.url }

try {
  await show(
    '1. Follow-up to an agent job, triggered by a pull-request comment',
    await runAction({
      inputs: { ...common, command: 'message', 'job-id': 'job-123', 'poll-interval': '1s' },
      env,
      eventName: 'issue_comment',
      event: {
        action: 'created',
        issue: {
          number: 7,
          pull_request: { url: 'https://api.github.com/repos/octo/docs/pulls/7' }
        },
        comment: { id: trigger.id, body: trigger.body, user: trigger.user },
        repository: { full_name: 'octo/docs' }
      }
    })
  )
  await showCreate()
  await show(
    '3. Weekly docs-health report: visitors, views, searches, feedback and the assistant',
    await weeklyReport(common, env)
  )
  console.log(
    '\nTo see these reports as GitHub draws them (tables, folded rows, charts): npm ci && npm run preview'
  )
  const kinds = service.requests.map(r => `${r.method} ${r.kind}`)
  console.log(`\nThe simulator saw ${service.requests.length} requests:`, count(kinds))
  console.log(
    `GitHub saw ${github.requests.length} requests:`,
    count(github.requests.map(r => `${r.method} ${r.path.replace(/\d+/g, 'N')}`))
  )
} finally {
  await service.close()
  await github.close()
}

/** A merged pull request starts a new agent job, with a block about the change. */
async function showCreate() {
  await show(
    '2. New agent job when a pull request is merged (command: create, context: true)',
    await runAction({
      inputs: {
        ...common,
        command: 'create',
        prompt: 'Update the documentation for the change merged in this pull request.',
        context: 'true',
        'poll-interval': '1s'
      },
      env,
      eventName: 'pull_request',
      event: {
        action: 'closed',
        number: 18,
        pull_request: {
          number: 18,
          title: 'Return rate-limit headers on every response',
          html_url: 'https://github.com/octo/docs/pull/18',
          merged: true,
          changed_files: 3,
          head: { sha: '9f2c1e0b7a6d5c4b3a291807f6e5d4c3b2a19080' }
        },
        repository: { full_name: 'octo/docs' }
      }
    })
  )
}

/** Last week against the week before, posted on a tracking issue and kept as a JSON file. */
function weeklyReport(common, env) {
  return runAction({
    inputs: {
      ...common,
      command: 'report',
      period: 'last-week',
      compare: 'true',
      trend: '4',
      top: '10',
      'site-url': 'https://docs.example.com',
      'output-file': 'reports/docs-health.json',
      'issue-number': '12'
    },
    env
  })
}

async function show(title, result) {
  const line = '─'.repeat(78)
  console.log(`\n${line}\n${title}\n${line}`)
  console.log(`exit code: ${result.code} (${result.durationMs} ms)`)
  console.log('\noutputs:')
  for (const [k, v] of Object.entries(result.outputs)) {
    console.log(`  ${k} = ${v.length > 160 ? v.slice(0, 157) + '...' : v}`)
  }
  console.log('\nlog:')
  // A runner prints `::add-mask::` for each secret and hides the values from then on.
  const log = result.stdout
    .split('\n')
    .filter(l => !l.startsWith('::add-mask::'))
    .join('\n')
  console.log(indent('(the runner now hides the API key and the GitHub token in this log)'))
  console.log(indent(log.trim()))
  if (result.stderr.trim()) console.log(indent(result.stderr.trim()))
  console.log('\njob summary (Markdown):')
  console.log(indent(result.summary.trim()))
  if (result.code !== 0) process.exitCode = 1
}

function indent(text) {
  return text
    .split('\n')
    .map(l => `  │ ${l}`)
    .join('\n')
}

function count(items) {
  const counts = {}
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1
  return counts
}

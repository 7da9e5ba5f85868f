// `npm run sim`: the service simulator and the fake GitHub API on loopback, kept running, for
// debugging the action locally (README: Debug locally). Prints the variables to put in .env.
// Standard library and the simulators only, like the demo.
import fs from 'node:fs'
import path from 'node:path'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const service = await startService({
  latencyMs: [30, 90],
  rows: 1234,
  // Completes two polls after a follow-up, with a pull-request link.
  jobs: [{ id: 'job-123', activePolls: 2, prLink: 'https://github.com/octo/docs/pull/7' }]
})
const github = await startGitHub({ permissions: { octocat: 'write' } })
const comment = github.addComment(7, '/docs-agent Add a FAQ entry about rate limits', {
  login: 'octocat',
  type: 'User'
})
// A trigger comment's webhook payload, as GitHub sends it, for GITHUB_EVENT_PATH.
const eventPath = path.resolve('.tmp', 'issue_comment.json')
fs.mkdirSync(path.dirname(eventPath), { recursive: true })
// The job summary file must exist before @actions/core appends to it.
const summaryPath = path.resolve('.tmp', 'summary.md')
fs.writeFileSync(summaryPath, '')
fs.writeFileSync(
  eventPath,
  JSON.stringify(
    {
      action: 'created',
      issue: { number: 7, pull_request: { url: `${github.url}/repos/octo/docs/pulls/7` } },
      comment: { id: comment.id, body: comment.body, user: comment.user },
      repository: { full_name: 'octo/docs', name: 'docs', owner: { login: 'octo' } },
      sender: comment.user
    },
    null,
    2
  )
)

// `npm run sim -- --env [command]` writes a complete .env for local-action, for one command
// (message by default: the comment-trigger flow; or create, visitors, report, check).
const envAt = process.argv.indexOf('--env')
if (envAt >= 0) {
  const command = process.argv[envAt + 1] ?? 'message'
  const byCommand = {
    message: [
      'INPUT_JOB-ID=job-123',
      'INPUT_PROMPT=',
      'INPUT_WAIT-TIMEOUT=2m',
      'INPUT_POLL-INTERVAL=1s'
    ],
    create: ['INPUT_PROMPT=Add a FAQ entry about rate limits', 'INPUT_POLL-INTERVAL=1s'],
    visitors: ['INPUT_PERIOD=7d', 'INPUT_TOP=10'],
    report: [
      'INPUT_PERIOD=last-week',
      'INPUT_COMPARE=true',
      'INPUT_TREND=4',
      'INPUT_ISSUE-NUMBER=7'
    ],
    check: ['INPUT_ISSUE-NUMBER=7']
  }
  if (!(command in byCommand)) {
    console.error(`--env takes message, create, visitors, report or check, not ${command}`)
    process.exit(2)
  }
  const trigger = command === 'message'
  const lines = [
    `# Written by \`npm run sim -- --env ${command}\` for the simulators now running.`,
    `INPUT_COMMAND=${command}`,
    `INPUT_API-KEY=${SIM_API_KEY}`,
    'INPUT_PROJECT-ID=proj-1',
    `INPUT_BASE-URL=${service.url}`,
    `INPUT_GITHUB-TOKEN=${SIM_GITHUB_TOKEN}`,
    ...byCommand[command],
    `GITHUB_API_URL=${github.url}`,
    `GITHUB_STEP_SUMMARY=${summaryPath}`,
    'GITHUB_REPOSITORY=octo/docs',
    ...(trigger ? ['GITHUB_EVENT_NAME=issue_comment', `GITHUB_EVENT_PATH=${eventPath}`] : [])
  ]
  fs.writeFileSync('.env', `${lines.join('\n')}\n`)
  console.log(
    `Wrote .env for command: ${command}. Run: npx @github/local-action run . src/main.ts .env`
  )
}

console.log(`Service simulator: ${service.url}   fake GitHub API: ${github.url}

For .env (see .env.example):
INPUT_API-KEY=${SIM_API_KEY}
INPUT_BASE-URL=${service.url}
INPUT_GITHUB-TOKEN=${SIM_GITHUB_TOKEN}
INPUT_JOB-ID=job-123
GITHUB_API_URL=${github.url}
GITHUB_STEP_SUMMARY=${summaryPath}

and, to try the comment trigger (comment #${comment.id} on pull request #7 by @octocat):
GITHUB_EVENT_NAME=issue_comment
GITHUB_EVENT_PATH=${eventPath}
GITHUB_REPOSITORY=octo/docs

Ctrl-C stops both.`)

const stop = async () => {
  // A client's kept-alive connection can hold close() open: Ctrl-C must not wait for it.
  setTimeout(() => process.exit(0), 1_000).unref()
  await Promise.all([service.close(), github.close()])
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

// `npm run bench -- previewCost`: what following the preview of the agent's pull request costs
// (issue 50): a job answer with `checks: wait` whose pull request gets a preview (the docs
// platform's app deploys it: building for a few polls, then built) against the same answer
// without one (no deployment), in the same run, the built action against the simulators. GitHub
// requests are counted at the fake GitHub, polls as its listings of the head's check runs; no
// figure is a time. Target: at most 2 GitHub requests more a poll.
import { headSha, startGitHub } from '../sim/github.js'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { runAction } from '../sim/run-action.js'

const AGENT_PR = 'https://github.com/octo/docs/pull/21'
/** Polls while the check and the preview are under way; both are done at the next one. */
const POLLS_UNDER_WAY = 3

/** The check runs and (with a preview) the deployment of the agent's pull request. */
function github(withPreview) {
  const building = Array.from({ length: POLLS_UNDER_WAY }, () => ({ state: 'in_progress' }))
  const running = Array.from({ length: POLLS_UNDER_WAY }, () => ({ status: 'in_progress' }))
  return {
    checkRuns: {
      [headSha(21)]: [{ name: 'Mintlify: links', states: [...running, { status: 'completed' }] }]
    },
    pullFiles: { 21: ['api/limits.mdx'] },
    ...(withPreview
      ? {
          deployments: {
            [headSha(21)]: [
              {
                statuses: [
                  ...building,
                  { state: 'success', environment_url: 'https://acme-pr-21.mintlify.app' }
                ]
              }
            ]
          }
        }
      : {})
  }
}

/** One job answer with `checks: wait`: the GitHub requests it sent, and its polls. */
async function answerOnce(withPreview) {
  const gh = await startGitHub(github(withPreview))
  const sim = await startService({ jobs: [], created: { activePolls: 1, prLink: AGENT_PR } })
  try {
    const r = await runAction({
      inputs: {
        command: 'create',
        'api-key': SIM_API_KEY,
        'project-id': 'bench',
        'base-url': sim.url,
        prompt: 'Document the rate-limit headers.',
        'poll-interval': '0.2',
        checks: 'wait'
      },
      env: { GITHUB_API_URL: gh.url },
      eventName: 'workflow_dispatch',
      event: { repository: { full_name: 'octo/docs' }, sender: { login: 'octocat' } }
    })
    if (r.code !== 0) throw new Error(`the action failed (exit ${r.code}):\n${r.stdout}`)
    const want = withPreview ? 'success' : 'none'
    if (r.outputs.preview !== want)
      throw new Error(`expected preview=${want}, the action said ${r.outputs.preview}`)
    const polls = gh.requests.filter(
      q => q.path.endsWith('/check-runs') && (q.query.page ?? '1') === '1'
    ).length
    const deployments = gh.requests.filter(q => /\/deployments/.test(q.path)).length
    return { requests: gh.requests.length, polls, deployments }
  } finally {
    await Promise.all([gh.close(), sim.close()])
  }
}

/** The figure, through bench.js's `figure` (name, value, target, pass). */
export async function previewCost(figure) {
  console.log(
    `\n(f) The preview's cost: a job answer with \`checks: wait\`, its check and its preview ` +
      `under way for ${POLLS_UNDER_WAY} polls, with a preview and without`
  )
  const withPreview = await answerOnce(true)
  const without = await answerOnce(false)
  if (withPreview.polls !== without.polls)
    throw new Error(`the runs polled ${withPreview.polls} and ${without.polls} times`)
  const more = (withPreview.requests - without.requests) / withPreview.polls
  console.log(
    `      with a preview: ${withPreview.requests} GitHub requests (${withPreview.deployments} ` +
      `for it) in ${withPreview.polls} polls; without: ${without.requests} ` +
      `(${without.deployments} looking for one)`
  )
  // Against the answer without a preview, the listing that finds none is paid on both sides: the
  // preview's own requests a poll (its deployments and its status) are the whole of its cost.
  const own = withPreview.deployments / withPreview.polls
  figure(
    'GitHub requests a poll the preview costs a job answer with `checks: wait`',
    own.toFixed(2),
    'at most 2',
    own <= 2
  )
  figure(
    'GitHub requests a poll a built preview adds to the answer without one',
    more.toFixed(2),
    'at most 2',
    more <= 2
  )
  figure(
    'GitHub requests a poll spent looking for a preview there is none of',
    (without.deployments / without.polls).toFixed(2),
    'informational',
    undefined
  )
  return { own, more, polls: withPreview.polls }
}

// Scenario tier: every recipe of examples/ run as shipped (contract: "Every recipe as shipped").
// A recipe is read as GitHub reads it (recipes.ts): its jobs in `needs:` order, each matrix leg,
// and for each step its `if:`, `with:` and `env:`, the `${{ … }}` in them evaluated against a
// real webhook payload for the recipe's `on:` event and the simulators' key, project and tokens
// (`secrets.DOCS_API_KEY` is the service simulator's key, `vars.DOCS_PROJECT_ID` its project,
// `github.token` the fake GitHub's token; the service's address, `base-url`'s default, is the
// simulator's). The fake GitHub holds the job's `permissions:` and
// refuses, with GitHub's 403 "Resource not accessible by integration", every call they do not
// grant (sim/github-permissions.js). A start passes when every step of this action ends green,
// with no error annotation and no GitHub call refused.
//
// Which steps run: every step of this action (in this process, runScenario), and the code
// side's `gh` scripts (bash, with sim/gh-cli.js as `gh` and the real jq, against a GitHub
// Enterprise Server host, so a script that leaves GH_HOST unset talks to github.com and fails).
// actions/upload-artifact and actions/download-artifact are played by copying the files they
// name. The code side's `gh` runs as on a GitHub Enterprise Server (`github.server_url` is
// https://ghe.example.com, the one host the stand-in reaches; the repositories' own links stay
// github.com's, which the docs side's runs are on). Every other step (actions/checkout, slackapi/slack-github-action, `echo`) is not run; its
// `if:` is evaluated and, for the chat recipe, its message is built from the outputs it reads.
//
// Then each permission a start's own feature needs is taken out of the recipe, and the start
// must fail: `checks: read` out of comment-trigger.yml fails `/docs-agent fix checks`, whose
// reply names `checks: read` (not `issues: write`).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it, expect } from '@jest/globals'
import { grantedBy } from '../sim/github-permissions.js'
import {
  headSha,
  labelEvent,
  pullRequestEvent,
  SIM_GITHUB_TOKEN,
  triggerComment,
  triggerReview
} from '../sim/github.js'
import { SIM_API_KEY } from '../sim/service.js'
import {
  interpolate,
  parseRecipe,
  readRecipe,
  recipeFiles,
  runs,
  THIS_ACTION,
  type Contexts,
  type Recipe,
  type RecipeJob,
  type RecipeStep
} from './recipes.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  withService,
  type RunResult,
  type Service,
  type ServiceOptions
} from './support.js'
import { tempDir } from './temp-dirs.js'
import { startTwoRepositories, type GitHubSim, type TwoRepositories } from './two-repositories.js'

const ROOT = path.join(import.meta.dirname, '..')
const CODE_TOKEN = 'ghs_W4nT8qZ1vX6cR3mK9pL2bY7d'
const GHES = 'ghe.example.com'
const AGENT_PR = 21
const hasJq = spawnSync('jq', ['--version']).status === 0

const SECRETS = {
  DOCS_API_KEY: SIM_API_KEY,
  // The docs repository's own token also takes the dispatch (one fake GitHub holds octo/docs).
  DOCS_REPO_DISPATCH_TOKEN: SIM_GITHUB_TOKEN,
  DOCS_NOTIFY_TOKEN: CODE_TOKEN,
  SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/T0/B0/x'
}
const VARS = {
  DOCS_PROJECT_ID: 'acme-docs',
  DOCS_REPORT_ISSUE: '12',
  DOCS_SITE_URL: 'https://docs.example.com',
  DOCS_JOB_ID: '',
  DOCS_REPOSITORY: 'octo/docs'
}

/** The simulators a story runs against, and the workspace its jobs share. */
interface World {
  sim: Service
  two: TwoRepositories
  /** The docs repository (octo/docs): where this action's steps run. */
  docs: GitHubSim
  /** The code repository (your-org/api), on the same GitHub. */
  code: GitHubSim
  ws: string
}

interface StepRun {
  step: string
  uses?: string
  /**
   * What happened: `action` (this action, its result), `script` (a `run:` calling gh or jq),
   * `artifact` (played), `not run`, `skipped` (its `if:`).
   */
  kind: 'action' | 'script' | 'artifact' | 'not run' | 'skipped'
  result?: RunResult
  /** A script's exit status and what it printed to stderr. */
  exit?: number
  stderr?: string
  /** For a step not run: its `with:` and `env:` as the runner would pass them. */
  passed?: Record<string, string>
}

interface StartRun {
  steps: StepRun[]
  /** The calls the fake GitHub refused for the workflow token's `permissions:`. */
  refused: { method: string; path: string; needs: string[] }[]
  failed: string[]
}

interface Start {
  /** Which recipe, and a name for this start. */
  recipe: string
  name: string
  /** The service simulator's options, when the story needs another service (a job that fails). */
  service?: ServiceOptions
  /** This action's step is to end red (a job that failed): the start passes when only it is. */
  red?: true
  /** What the recipe itself invites changing (its commented lines), as a reader would. */
  edit?: (text: string) => string
  /** The webhook payload (and its event name) GitHub would send, made in this world. */
  event: (w: World) => { eventName: string; event: Record<string, unknown> }
  /** Other starts run first, in the same world, as shipped: what this one's story needs. */
  after?: string[]
  /** Each permission of the recipe this start's own feature needs: taken out, the start fails. */
  needs: string[]
  /** What the start does when it passes, beyond a green run with no refusal. */
  check?: (run: StartRun, w: World) => void
}

const actionRuns = (r: StartRun): RunResult[] => r.steps.flatMap(s => (s.result ? [s.result] : []))
/** What the Slack steps would post: the text of each payload file they name, in order. */
const slackMessages = (r: StartRun, w: World): string[] =>
  r.steps
    .filter(s => s.kind === 'not run' && s.uses?.startsWith('slackapi/slack-github-action@'))
    .map(s => {
      const file = path.join(w.ws, s.passed?.['payload-file-path'] ?? '')
      return (JSON.parse(fs.readFileSync(file, 'utf8')) as { text: string }).text
    })
const bots = (gh: GitHubSim, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)
const merged = (n: number) =>
  pullRequestEvent(n, 'closed', {
    title: 'Return rate-limit headers',
    user: { login: 'octocat', type: 'User' }
  })

const STARTS: Start[] = [
  {
    recipe: 'check.yml',
    name: 'run by hand, the tracking issue taken from DOCS_REPORT_ISSUE',
    event: () => ({ eventName: 'workflow_dispatch', event: { inputs: { 'issue-number': '' } } }),
    needs: ['issues: write'],
    check: r => expect(actionRuns(r)[0]?.summary).toMatch(/may comment on #12/)
  },
  {
    recipe: 'check.yml',
    name: 'its `notify-…` lines uncommented: the notify token may comment on the code side',
    edit: text => text.replace(/^( {10})# (notify-[a-z]+: )/gm, '$1$2'),
    event: () => ({ eventName: 'workflow_dispatch', event: { inputs: { 'issue-number': '' } } }),
    needs: [],
    check: r => expect(actionRuns(r)[0]?.summary).toMatch(/`notify-token` may comment.*#1/)
  },
  {
    recipe: 'docs-on-merge.yml',
    name: 'a merge starts a job, whose pull request is recorded',
    event: () => merged(5),
    needs: ['issues: write', 'pull-requests: write'],
    check: (r, w) => {
      expect(actionRuns(r)[0]?.outputs['pr-link']).toBe(
        `https://github.com/octo/docs/pull/${AGENT_PR}`
      )
      expect(bots(w.docs, 5).join('\n')).toContain(`#${AGENT_PR}`)
    }
  },
  {
    recipe: 'comment-trigger.yml',
    name: 'a comment on an ordinary pull request starts a job',
    event: w => triggerComment(w.docs, 5, '/docs-agent Add a FAQ entry about rate limits'),
    needs: [],
    check: r => expect(actionRuns(r)[0]?.outputs.status).toBe('completed')
  },
  {
    recipe: 'comment-trigger.yml',
    name: '`/docs-agent fix checks` on the agent’s pull request',
    after: ['docs-on-merge.yml'],
    event: w => triggerComment(w.docs, AGENT_PR, '/docs-agent fix checks'),
    needs: ['checks: read'],
    check: (r, w) => {
      const sent = w.sim.requests.filter(q => q.kind === 'message')
      expect(sent.at(-1)?.body ?? '').toContain('Broken link: /api/rate-limits does not exist')
      expect(actionRuns(r)[0]?.outputs.skipped).not.toBe('true')
    }
  },
  {
    recipe: 'comment-trigger.yml',
    name: '`/docs-agent fix 1` on the weekly report’s issue',
    after: ['weekly-report.yml'],
    event: w => triggerComment(w.docs, 12, '/docs-agent fix 1', false),
    needs: ['issues: write'],
    check: (r, w) => expect(w.sim.requests.filter(q => q.kind === 'create')).toHaveLength(1)
  },
  {
    recipe: 'comment-trigger.yml',
    name: 'a review comment on the agent’s pull request follows its job up',
    after: ['docs-on-merge.yml'],
    event: w => reviewComment(w, AGENT_PR, '/docs-agent Add a curl example'),
    needs: ['pull-requests: write'],
    check: (r, w) => expect(w.sim.requests.filter(q => q.kind === 'message')).toHaveLength(1)
  },
  {
    recipe: 'review-trigger.yml',
    name: 'a review on the agent’s pull request follows its job up',
    after: ['docs-on-merge.yml'],
    event: w => triggerReview(w.docs, AGENT_PR, '/docs-agent Add a curl example'),
    needs: ['pull-requests: write'],
    check: (r, w) => expect(w.sim.requests.filter(q => q.kind === 'message')).toHaveLength(1)
  },
  {
    recipe: 'dispatch-follow-up.yml',
    name: 'run by hand for a job',
    event: () => ({
      eventName: 'workflow_dispatch',
      event: { inputs: { 'job-id': 'job-123', prompt: 'Add a curl example' } }
    }),
    needs: [],
    check: r => expect(actionRuns(r)[0]?.outputs.status).toBe('completed')
  },
  {
    recipe: 'label-trigger.yml',
    name: 'the label on a pull request, its checks waited for',
    event: w => labelEvent(w.docs, 9, 'Docs/Needed'),
    needs: ['checks: read', 'pull-requests: write'],
    check: (r, w) => {
      expect(actionRuns(r)[0]?.outputs.checks).toBe('failure')
      expect(w.docs.labels.get(9)?.has('Docs/Needed')).toBe(false)
    }
  },
  {
    recipe: 'label-trigger.yml',
    name: 'the label on an issue',
    event: w => labelEvent(w.docs, 10, 'Docs/Needed', { issue: true }),
    needs: ['issues: write'],
    check: (r, w) => expect(bots(w.docs, 10)).toHaveLength(1)
  },
  {
    recipe: 'weekly-report.yml',
    name: 'Monday’s report on the tracking issue',
    event: () => ({ eventName: 'schedule', event: { schedule: '17 6 * * 1' } }),
    needs: ['issues: write'],
    check: (r, w) => expect(bots(w.docs, 12)[0]).toMatch(/^## Docs health · /)
  },
  {
    recipe: 'weekly-report.yml',
    name: 'the next report follows the pull request `fix 1` opened',
    after: [
      'weekly-report.yml',
      'comment-trigger.yml:`/docs-agent fix 1` on the weekly report’s issue'
    ],
    event: () => ({ eventName: 'workflow_dispatch', event: { inputs: {} } }),
    needs: ['pull-requests: read'],
    check: (r, w) => expect(bots(w.docs, 12).at(-1)).toContain(`#${AGENT_PR}`)
  },
  {
    recipe: 'matrix-report.yml',
    name: 'three projects, each in its summary',
    event: () => ({ eventName: 'schedule', event: { schedule: '41 9 * * 1' } }),
    needs: [],
    check: r => expect(actionRuns(r)).toHaveLength(3)
  },
  {
    recipe: 'rollup-report.yml',
    name: 'three legs on the issue, then the roll-up of their files',
    event: () => ({ eventName: 'schedule', event: { schedule: '41 10 * * 1' } }),
    needs: ['issues: write'],
    check: (r, w) => {
      expect(actionRuns(r)).toHaveLength(4)
      expect(bots(w.docs, 12).at(-1)).toMatch(/^## Docs health · 3 projects · /)
    }
  },
  {
    recipe: 'visitors-export.yml',
    name: 'last month’s visitors as a file',
    event: () => ({ eventName: 'schedule', event: { schedule: '23 5 1 * *' } }),
    needs: [],
    check: r => expect(actionRuns(r)[0]?.outputs['visitors-file']).toMatch(/visitors\.csv$/)
  },
  {
    recipe: 'chat-notify.yml',
    name: 'a merge opens a docs pull request: the channel gets its link and its checks',
    event: () => merged(5),
    needs: ['checks: read', 'pull-requests: write'],
    check: (r, w) => {
      expect(slackMessages(r, w)).toEqual([
        '📝 Docs pull request opened for <https://github.com/octo/docs/pull/5|Return rate-limit headers>: ' +
          `https://github.com/octo/docs/pull/${AGENT_PR}\nChecks: failure`
      ])
    }
  },
  {
    recipe: 'chat-notify.yml',
    name: 'a merge whose job fails: the channel is told, and where to look',
    service: { created: { finalStatus: 'failed', prLink: null, activePolls: 1 } },
    red: true,
    event: () =>
      pullRequestEvent(6, 'closed', {
        title: 'Drop <b>v1</b> & friends',
        user: { login: 'octocat', type: 'User' }
      }),
    needs: [],
    check: (r, w) => {
      expect(slackMessages(r, w)).toEqual([
        '❌ The docs agent did not update the docs for <https://github.com/octo/docs/pull/6|Drop &lt;b&gt;v1&lt;/b&gt; &amp; friends>' +
          ' (status: failed): https://github.com/octo/docs/actions/runs/4242'
      ])
    }
  },
  {
    recipe: 'chat-notify.yml',
    name: 'Monday’s digest from the report’s file',
    event: () => ({ eventName: 'schedule', event: { schedule: '47 7 * * 1' } }),
    needs: ['issues: write'],
    check: (r, w) => {
      const [digest = ''] = slackMessages(r, w)
      expect(digest).toMatch(/^📊 Docs health \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(acme-docs\)\n/)
      expect(digest).toMatch(
        /\nVisitors: [\d]+ \([+-]?\d+%\) · searches: \d+ · content gaps: \d+ · 👎: \d+\n/
      )
      expect(digest).toMatch(/\n1\. .+\n/)
      expect(digest).toContain(
        `Report and \`/docs-agent fix N\`: ${bots(w.docs, 12).length > 0 ? 'https://github.com/octo/docs/issues/12#issuecomment-' : ''}`
      )
    }
  },
  {
    recipe: 'code-repo-dispatch.yml',
    name: 'a merge in the code repository sends it to the docs repository',
    event: () => codeMerge(),
    needs: ['pull-requests: read'],
    check: (r, w) => expect(w.docs.dispatches.map(d => d.event_type)).toEqual(['code-merged'])
  },
  {
    recipe: 'code-repo-label.yml',
    name: 'the label on a code pull request sends it, then comes off',
    event: w => codeLabel(w),
    needs: ['pull-requests: write'],
    check: (r, w) => {
      expect(w.docs.dispatches.map(d => d.event_type)).toEqual(['docs-needed'])
      expect(w.code.labels.get(57)?.has('Docs/Needed')).toBe(false)
    }
  },
  {
    recipe: 'docs-repo-dispatch.yml',
    name: 'the docs side runs the agent for the dispatch and tells the code pull request',
    after: ['code-repo-dispatch.yml'],
    event: w => ({
      eventName: 'repository_dispatch',
      event: {
        action: 'code-merged',
        client_payload: w.docs.dispatches.at(-1)?.client_payload,
        repository: { full_name: 'octo/docs' }
      }
    }),
    needs: ['issues: write', 'pull-requests: write'],
    check: (r, w) => expect(bots(w.code, 57).join('\n')).toContain(`#${AGENT_PR}`)
  }
]

/** A `pull_request_review_comment` payload, its comment on pull request `n`. */
function reviewComment(w: World, n: number, body: string) {
  const user = { login: 'octocat', type: 'User' }
  const id = 880_000 + n
  return {
    eventName: 'pull_request_review_comment',
    event: {
      action: 'created',
      comment: {
        id,
        body,
        user,
        html_url: `https://github.com/octo/docs/pull/${n}#discussion_r${id}`,
        pull_request_url: `https://api.github.com/repos/octo/docs/pulls/${n}`
      },
      pull_request: {
        number: n,
        html_url: `https://github.com/octo/docs/pull/${n}`,
        user: { login: 'mintlify[bot]', type: 'Bot' },
        head: { sha: headSha(n), repo: { full_name: 'octo/docs' } },
        base: { repo: { full_name: 'octo/docs' } }
      },
      repository: { full_name: 'octo/docs' }
    }
  }
}

const CODE_PULL = {
  title: 'Return rate-limit headers',
  body: 'Every response now carries `X-RateLimit-Remaining`.',
  html_url: 'https://github.com/your-org/api/pull/57',
  merge_commit_sha: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2',
  user: { login: 'octocat', type: 'User' }
}

function codeMerge() {
  return {
    eventName: 'pull_request',
    event: {
      action: 'closed',
      number: 57,
      pull_request: { number: 57, merged: true, ...CODE_PULL },
      repository: { full_name: 'your-org/api' }
    }
  }
}

function codeLabel(w: World) {
  w.code.addLabel(57, 'Docs/Needed')
  return {
    eventName: 'pull_request',
    event: {
      action: 'labeled',
      number: 57,
      label: { name: 'Docs/Needed' },
      pull_request: { number: 57, state: 'open', ...CODE_PULL },
      sender: { login: 'octocat', type: 'User' },
      repository: { full_name: 'your-org/api' }
    }
  }
}

/** The world of one story: the service, octo/docs and your-org/api on one GitHub, a workspace. */
async function withWorld<T>(service: ServiceOptions, body: (w: World) => Promise<T>): Promise<T> {
  const two = await startTwoRepositories({
    // The code repository is the one docs-repo-dispatch.yml names in `notify-repository`.
    codeRepo: 'your-org/api',
    docs: {
      permissions: { octocat: 'write' },
      pulls: { 5: { state: 'closed' }, 9: { state: 'open' } },
      pullFiles: { 5: ['src/limits.ts'], 9: ['api/limits.mdx'] },
      checkRuns: { [headSha(AGENT_PR)]: [BROKEN, STYLE] }
    },
    code: {
      token: CODE_TOKEN,
      owner: 'your-org',
      repo: 'api',
      permissions: { octocat: 'write' },
      pulls: { 57: { state: 'closed', fields: CODE_PULL } },
      pullFiles: { 57: ['src/limits.ts', 'src/headers.ts'] }
    }
  })
  try {
    return await withService(
      {
        projects: ['acme-docs', 'docs-main', 'docs-api', 'docs-sdk'],
        varyByDate: true,
        ...service
      },
      sim => body({ sim, two, docs: two.docs, code: two.code, ws: tempDir('docs-agent-recipe-') })
    )
  } finally {
    await two.close()
  }
}

const BROKEN = {
  name: 'Mintlify: broken links',
  states: [{ status: 'completed' as const, conclusion: 'failure' }],
  annotations: [
    { path: 'api/limits.mdx', line: 12, message: 'Broken link: /api/rate-limits does not exist' }
  ]
}
const STYLE = {
  name: 'Mintlify: style',
  states: [{ status: 'completed' as const, conclusion: 'success' }]
}

const byName = (key: string): Start => {
  const [recipe, name] = key.split(/:(.*)/s)
  const found = STARTS.find(s => s.recipe === recipe && (name === undefined || s.name === name))
  if (!found) throw new Error(`no start ${key}`)
  return found
}

/** Whether a recipe runs in the code repository (its steps `gh`, its GitHub Enterprise Server). */
const onCodeSide = (recipe: Recipe) => recipe.file.startsWith('code-repo-')

/** How a start is changed to see it fail: a permission taken out, the recipe edited, github.com. */
interface Change {
  without?: string
  edit?: (text: string) => string
  /** `github.server_url` for the code side (default: the GitHub Enterprise Server). */
  serverUrl?: string
}

/** A job's run: what it is given (the start's contexts and change) and what it fills in. */
interface JobRun {
  w: World
  change: Change
  code: boolean
  start: { eventName: string; event: Record<string, unknown> }
  run: StartRun
}

/**
 * Runs a start of a recipe in a world: every job in `needs:` order (its `if:`, each matrix leg,
 * each step), the fake GitHub holding the job's `permissions:` (less `change.without`).
 */
async function runStart(w: World, start: Start, change: Change = {}): Promise<StartRun> {
  const shipped = readRecipe(start.recipe)
  const edit = change.edit ?? start.edit
  const recipe = edit ? parseRecipe(shipped.file, edit(shipped.text)) : shipped
  const { eventName, event } = start.event(w)
  const code = onCodeSide(recipe)
  const run: StartRun = { steps: [], refused: [], failed: [] }
  const github = {
    event_name: eventName,
    event,
    token: code ? CODE_TOKEN : SIM_GITHUB_TOKEN,
    server_url: code ? (change.serverUrl ?? `https://${GHES}`) : 'https://github.com',
    repository: code ? 'your-org/api' : 'octo/docs',
    run_id: '4242'
  }
  const results = new Map<string, string>()
  const j: JobRun = { w, change, code, start: { eventName, event }, run }
  for (const job of recipe.jobs) {
    const needsOk = job.needs.every(n => results.get(n) === 'success')
    const base: Contexts = {
      ...{ secrets: SECRETS, vars: VARS, github, inputs: inputsOf(event) },
      ...{ matrix: {}, steps: {}, job: { status: needsOk ? 'success' : 'failure' } }
    }
    if (!runs(job.if, base)) run.steps.push({ step: job.id, kind: 'skipped' })
    else results.set(job.id, await runJob(j, job, base))
  }
  w.code.setTokenPermissions(undefined)
  w.docs.setTokenPermissions(undefined)
  run.failed = failures(run, start.red === true)
  return run
}

/** Each matrix leg of a job, its steps in order: the job's status at the end. */
async function runJob(j: JobRun, job: RecipeJob, base: Contexts): Promise<string> {
  const { w, change, code, run } = j
  let status = 'success'
  for (const leg of job.legs) {
    const granted = grantedBy(job.permissions)
    if (change.without) granted[change.without.split(': ')[0] ?? ''] = 'none'
    w.code.setTokenPermissions(code ? granted : undefined)
    w.docs.setTokenPermissions(code ? undefined : granted)
    const ctx: Contexts = { ...base, matrix: leg, steps: {}, job: { status: 'success' } }
    for (const step of job.steps) {
      const done = await runStep(w, job, step, ctx, j.start)
      run.steps.push(done)
      const outcome = outcomeOf(done)
      if (step.id) ctx.steps[step.id] = { outputs: done.result?.outputs ?? {}, outcome }
      if (outcome === 'failure') ctx.job = { status: 'failure' }
    }
    run.refused.push(...(code ? w.code : w.docs).refused.splice(0))
    if (ctx.job?.status !== 'success') status = 'failure'
  }
  return status
}

/** A step's `outcome`, as `steps.<id>.outcome` reads it. */
function outcomeOf(done: StepRun): string {
  if (done.kind === 'skipped') return 'skipped'
  const exit = done.result ? done.result.code : (done.exit ?? 0)
  return exit === 0 ? 'success' : 'failure'
}

const inputsOf = (event: Record<string, unknown>) =>
  (typeof event.inputs === 'object' && event.inputs !== null ? event.inputs : {}) as Record<
    string,
    unknown
  >

/**
 * What went wrong in a start: a red step, an error annotation, a refused call. A start whose
 * action step is to end red (`red`) is wrong only when it does not, or something else is.
 */
function failures(run: StartRun, red: boolean): string[] {
  const actions = run.steps.filter(s => s.result)
  const redOnes = actions.filter(s => s.result && s.result.code !== 0)
  return [
    ...(red && redOnes.length === 0 ? ['no step of this action ended red'] : []),
    ...run.steps.flatMap(s =>
      s.result && !red && (s.result.code !== 0 || errorsOf(s.result).length > 0)
        ? [`${s.step}: exit ${s.result.code} ${errorsOf(s.result).join(' | ')}`]
        : s.kind === 'script' && s.exit !== 0
          ? [`${s.step}: exit ${s.exit} ${s.stderr ?? ''}`]
          : []
    ),
    ...run.refused.map(q => `refused: ${q.method} ${q.path} (needs ${q.needs.join(' or ')})`)
  ]
}

async function runStep(
  w: World,
  job: RecipeJob,
  step: RecipeStep,
  ctx: Contexts,
  start: { eventName: string; event: Record<string, unknown> }
): Promise<StepRun> {
  const label = step.label
  const uses = step.uses !== undefined ? { uses: step.uses } : {}
  if (!runs(step.if, ctx)) return { step: label, ...uses, kind: 'skipped' }
  const passed = { ...interpolateAll(step.with, ctx) }
  const env = interpolateAll({ ...job.env, ...step.env }, ctx)
  if (step.uses === THIS_ACTION) {
    const result = await runScenario({
      // The service's own address (the `base-url` default) is the simulator's: the one input
      // a recipe does not write that the test gives.
      inputs: { 'base-url': w.sim.url, ...passed },
      env: { ...env, GITHUB_API_URL: w.two.url, GITHUB_WORKSPACE: w.ws },
      ...start
    })
    return { step: label, ...uses, kind: 'action', result }
  }
  if (/^actions\/(upload|download)-artifact@/.test(step.uses ?? '')) {
    playArtifact(w.ws, step.uses ?? '', passed)
    return { step: label, ...uses, kind: 'artifact', passed }
  }
  if (step.run !== undefined && /\b(gh|jq)\b/.test(step.run))
    return { step: label, ...(await runScript(w, step.run, env)) }
  return { step: label, ...uses, kind: 'not run', passed: { ...passed, ...env } }
}

const interpolateAll = (values: Record<string, string>, ctx: Contexts) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, interpolate(v, ctx)]))

/** upload-artifact keeps `path` under its `name`; download-artifact puts them under `path`. */
function playArtifact(ws: string, uses: string, w: Record<string, string>): void {
  const store = path.join(ws, '.artifacts')
  if (uses.startsWith('actions/upload-artifact@')) {
    const from = path.resolve(ws, w.path ?? '')
    const dir = path.join(store, w.name ?? 'artifact')
    fs.mkdirSync(dir, { recursive: true })
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(dir, path.basename(from)))
    return
  }
  const pattern = new RegExp(
    `^${(w.pattern ?? '*').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`
  )
  const to = path.join(ws, w.path ?? '.')
  fs.mkdirSync(to, { recursive: true })
  for (const name of fs.existsSync(store) ? fs.readdirSync(store) : [])
    if (pattern.test(name))
      for (const file of fs.readdirSync(path.join(store, name)))
        fs.copyFileSync(path.join(store, name, file), path.join(to, file))
}

/**
 * A `run:` script that calls `gh` or `jq`: bash in the workspace (as a runner's default working
 * directory), with sim/gh-cli.js as `gh` and only GitHub Enterprise Server's host served (or the
 * host `SERVER_URL` names). Asynchronous: the fake GitHub answering it lives in this process.
 */
async function runScript(
  w: World,
  script: string,
  env: Record<string, string>
): Promise<Omit<StepRun, 'step'>> {
  const bin = tempDir('docs-agent-gh-')
  const cli = JSON.stringify(path.join(ROOT, 'sim', 'gh-cli.js'))
  fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\nexec node ${cli} "$@"\n`, { mode: 0o755 })
  const child = spawn('bash', ['-e', '-c', script], {
    cwd: w.ws,
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: bin,
      ...env,
      SIM_GH_HOSTS: JSON.stringify({
        [hostOf(String(env.SERVER_URL ?? `https://${GHES}`))]: w.two.url
      })
    }
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exit = await new Promise<number>(done => child.on('close', code => done(code ?? 1)))
  return { kind: 'script', exit, stderr }
}

const hostOf = (url: string) => new URL(url).host

/** Runs `start` after the starts its story needs, in a fresh world. */
async function story(start: Start, change: Change = {}): Promise<{ run: StartRun; w: World }> {
  return withWorld(start.service ?? {}, async w => {
    for (const before of start.after ?? []) {
      const first = await runStart(w, byName(before))
      if (first.failed.length > 0) throw new Error(`${before}: ${first.failed.join('\n')}`)
    }
    return { run: await runStart(w, start, change), w }
  })
}

const needsJq = (s: Start) =>
  onCodeSide(readRecipe(s.recipe)) || (s.after ?? []).some(a => a.startsWith('code-repo-'))

describe('every recipe as shipped', () => {
  it('has a start for every recipe of examples/', () => {
    expect(new Set(STARTS.map(s => s.recipe))).toEqual(new Set(recipeFiles()))
  })

  describe.each(STARTS.map(s => [`${s.recipe}: ${s.name}`, s] as const))('%s', (_name, start) => {
    const maybe = needsJq(start) && !hasJq ? it.skip : it
    maybe('runs green with exactly its with:, env: and permissions:', async () => {
      const { run, w } = await story(start)
      expect(run.failed).toEqual([])
      // Something ran: no `if:` left the start with nothing to show.
      expect(
        run.steps.filter(s => s.kind === 'action' || s.kind === 'script').length
      ).toBeGreaterThan(0)
      start.check?.(run, w)
    })

    if (start.needs.length > 0)
      it.each(start.needs.map(p => [p] as const))('fails without `%s`', async permission => {
        if (needsJq(start) && !hasJq) return
        const recipe = readRecipe(start.recipe)
        expect(
          recipe.jobs.some(j =>
            JSON.stringify(j.permissions ?? {}).includes(`"${permission.split(': ')[0]}"`)
          )
        ).toBe(true)
        const { run } = await story(start, { without: permission })
        expect(run.failed).not.toEqual([])
        // It failed for that permission: GitHub refused a call that needs it.
        const scope = `${permission.split(': ')[0]}: `
        expect(run.refused.flatMap(q => q.needs).some(n => n.startsWith(scope))).toBe(true)
      })
  })
})

describe('a 403 says what the call needs', () => {
  it('`fix checks` without `checks: read`: the reply names `checks: read`, not `issues: write`', async () => {
    const { run, w } = await story(
      byName('comment-trigger.yml:`/docs-agent fix checks` on the agent’s pull request'),
      { without: 'checks: read' }
    )
    expect(run.refused.map(q => q.needs)).toContainEqual(['checks: read'])
    const reply = bots(w.docs, AGENT_PR).at(-1) ?? ''
    expect(reply).toMatch(/could not be read/)
    expect(reply).toContain('checks: read')
    expect(reply).not.toContain('issues: write')
    expect(annotationsOf(actionRuns(run)[0]!, 'error')).toEqual([])
  })
})

describe('`gh` on GitHub Enterprise Server (the code side)', () => {
  const merge = byName('code-repo-dispatch.yml')
  const maybe = hasJq ? it : it.skip

  maybe('without GH_HOST, gh talks to github.com: the dispatch never leaves', async () => {
    const noHost = (text: string) => text.replace(/^ +(export )?GH_HOST=.*\n/gm, '')
    const { run, w } = await story(merge, { edit: noHost })
    expect(run.failed.join('\n')).toContain('error connecting to api.github.com')
    expect(w.docs.dispatches).toEqual([])
  })

  maybe('with GH_TOKEN alone, gh has no token for a GitHub Enterprise Server host', async () => {
    const noEnterprise = (text: string) =>
      text
        .replace(/^ +GH_ENTERPRISE_TOKEN: .*\n/gm, '')
        .replace(/ GH_ENTERPRISE_TOKEN="\$DISPATCH_TOKEN"/g, '')
    const { run } = await story(merge, { edit: noEnterprise })
    expect(run.failed.join('\n')).toContain('set the GH_ENTERPRISE_TOKEN environment variable')
  })

  maybe('the same recipe on github.com: GH_HOST is github.com, and gh reads GH_TOKEN', async () => {
    const { run, w } = await story(merge, { serverUrl: 'https://github.com' })
    expect(run.failed).toEqual([])
    expect(w.docs.dispatches.map(d => d.event_type)).toEqual(['code-merged'])
  })
})

// Runs `run()` in this process, with @actions/core mocked (__fixtures__/core.ts), against the
// simulators on loopback, on the simulators' jumping clock (sim/clock.js): the same options and the
// same result as runAction() in sim/run-action.js, so a scenario reads alike in both tiers. What
// only a process shows (INPUT_* variables, output and summary files, exit codes, signals, Node 24)
// stays with runAction().
import { jest } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import * as core from '../__fixtures__/core.js'
import { parseInputs, type RunOptions, type RunResult } from '../sim/run-action.js'
import { SIM_GITHUB_TOKEN } from '../sim/github.js'
import { simClock } from '../sim/clock.js'
import { tempDir as makeTempDir } from './temp-dirs.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../src/main.js')

const DECLARED = parseInputs(
  fs.readFileSync(path.join(import.meta.dirname, '..', 'action.yml'), 'utf8')
)

// One run at a time: the mocked @actions/core records one run. Scenarios that start several runs
// at once (to save time in a child process) simply queue here.
let queue: Promise<unknown> = Promise.resolve()

/** runAction(), in process. Only `inputs`, `env`, `event`, `eventName` are read. */
export function runInProcess(options: RunOptions = {}): Promise<RunResult> {
  const turn = queue.then(() => runOnce(options))
  queue = turn.catch(() => undefined)
  return turn
}

async function runOnce({
  inputs = {},
  env = {},
  event = {},
  eventName = 'workflow_dispatch',
  githubToken = SIM_GITHUB_TOKEN
}: RunOptions): Promise<RunResult> {
  const tempDir = makeTempDir('docs-agent-inproc-')
  const workspace = env.GITHUB_WORKSPACE ?? path.join(tempDir, 'workspace')
  fs.mkdirSync(workspace, { recursive: true })
  const eventPath = path.join(tempDir, 'event.json')
  fs.writeFileSync(eventPath, JSON.stringify(event))
  const runEnv: Record<string, string | undefined> = {
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'octo/docs',
    GITHUB_SERVER_URL: 'https://github.com',
    // Nothing listens on port 9, so an unexpected GitHub call fails fast.
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_ACTOR: 'octocat',
    ...env
  }
  for (const key of Object.keys(runEnv)) if (runEnv[key] === undefined) delete runEnv[key]

  core.resetCore()
  for (const [name, def] of DECLARED)
    core.inputs.set(name, (def ?? '').replace(/^\$\{\{\s*github\.token\s*\}\}$/, githubToken))
  for (const [name, value] of Object.entries(inputs)) core.inputs.set(name, value)
  // As a runner passes them: the action checks every INPUT_* variable against action.yml.
  for (const [name, value] of core.inputs)
    runEnv[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value

  // The simulators' clock: the action's waits (backoff, polls, Retry-After) take no real time,
  // and the simulators see the time the action waited.
  const started = simClock.now()
  simClock.setJumping(true)
  try {
    await run(runEnv, simClock)
  } finally {
    simClock.setJumping(false)
  }
  const read = (p: string): string | undefined =>
    fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined
  return {
    code: core.state.failed ? 1 : 0,
    signal: null,
    stdout: core.printed.join('\n') + '\n',
    stderr: '',
    outputs: { ...core.outputs },
    summary: core.summaryParts.join(''),
    workspace,
    tempDir,
    durationMs: simClock.now() - started,
    timedOut: false,
    files: relPath => read(path.resolve(workspace, relPath))
  }
}

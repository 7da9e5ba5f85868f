// How a scenario runs the action. By default in this process (`run()` with @actions/core mocked:
// __tests__/inprocess.ts), which is fast and needs no build; as the runner does (dist/index.js in
// a child process: sim/run-action.js) when the scenario needs a process (a signal, node
// arguments, INPUT_* variables of its own) or when ACTION_NODE or ACTION_RUNNER=process asks for
// it, as .ci/run does to run every scenario through the built action on Node 24.
import {
  everyScenarioInAProcess,
  runAction,
  type RunOptions,
  type RunResult
} from '../sim/run-action.js'

export type { RunOptions, RunResult } from '../sim/run-action.js'

export function needsProcess(o: RunOptions): boolean {
  if (everyScenarioInAProcess()) return true
  const env = Object.keys(o.env ?? {})
  return (
    o.signalAfterMs !== undefined ||
    o.signalWhen !== undefined ||
    o.nodeArgs !== undefined ||
    o.actionDir !== undefined ||
    o.cwd !== undefined ||
    env.some(name => name.startsWith('INPUT_') || name.startsWith('GITHUB_OUTPUT'))
  )
}

export async function runScenario(o: RunOptions = {}): Promise<RunResult> {
  if (needsProcess(o)) return runAction(o)
  const { runInProcess } = await import('./inprocess.js')
  return runInProcess(o)
}

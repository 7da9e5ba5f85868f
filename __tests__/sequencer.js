// Jest's testSequencer: which of the test files jest found run, and in what order. A group file
// (__tests__/groups.js) runs in place of its members; a member runs alone when no group of it was
// asked for (a file named on the command line, a related test), when DOCS_AGENT_FILE_BY_FILE=1
// (every file in a registry of its own, as jest alone would run them), and a scenario file when
// every scenario runs the built action in a child process (.ci/run's Node 24, ACTION_RUNNER=process):
// there the processes take the time, not the imports, and files alone share the workers evenly.
// The order is jest's: a file that failed last time first, then the longest first; before any time
// is known, the heaviest first (groups.js weightOf), a group weighing what its members weigh.
import TestSequencer from '@jest/test-sequencer'
import path from 'node:path'
import { everyScenarioInAProcess } from '../sim/run-action.js'
import { GROUP_FILE, SCENARIO_FILE, groupsIn, weightOf } from './groups.js'

/** Whether a group file runs in place of its members in this run. */
function grouping(group) {
  if (process.env.DOCS_AGENT_FILE_BY_FILE === '1') return false
  return !(SCENARIO_FILE.test(group) && everyScenarioInAProcess())
}

export default class GroupSequencer extends TestSequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const found = new Set(tests.map(t => t.path))
    const groups = [...groupsIn(import.meta.dirname)].filter(
      ([group, members]) => found.has(group) && members.length > 0 && grouping(group)
    )
    const grouped = new Map(groups)
    const members = new Set(groups.flatMap(([, files]) => files))
    const run = tests.filter(
      t => !members.has(t.path) && (!GROUP_FILE.test(path.basename(t.path)) || grouped.has(t.path))
    )
    const weight = t =>
      (grouped.get(t.path) ?? [t.path]).reduce(
        (sum, p) => sum + weightOf(p, t.context.hasteFS.getSize(p) ?? 0),
        0
      )
    for (const t of run) t.duration = this.time(t)
    return run.sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a))
      if (failed !== 0) return failed
      if ((a.duration === undefined) !== (b.duration === undefined))
        return a.duration === undefined ? -1 : 1
      if (a.duration !== undefined && b.duration !== undefined) return b.duration - a.duration
      return weight(b) - weight(a)
    })
  }
}

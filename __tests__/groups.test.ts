// Unit tier: the groups a whole run hands jest (__tests__/groups.js, __tests__/sequencer.js) lose
// no test file and run none twice, and a file named alone still runs alone.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import type { Test } from '@jest/test-result'
import { groupsIn, runsAlone } from './groups.js'
import GroupSequencer from './sequencer.js'

const HERE = import.meta.dirname
const testFiles = fs
  .readdirSync(HERE)
  .filter(name => name.endsWith('.test.ts') && !/^group-\d+/.test(name))
  .map(name => path.join(HERE, name))
const groups = groupsIn(HERE)

/** What the sequencer runs of `paths`, as file names. */
function sequenced(paths: string[]): string[] {
  const context = { config: { cache: false }, hasteFS: { getSize: () => 1 } }
  const tests = paths.map(p => ({ context, path: p }) as unknown as Test)
  return new GroupSequencer()
    .sort(tests)
    .map(t => path.basename(t.path))
    .sort()
}

describe('test file groups', () => {
  it('hold every test file that can share a registry exactly once, each in its own tier', () => {
    const members = [...groups].flatMap(([group, files]) => {
      for (const file of files)
        expect(file.endsWith('.int.test.ts')).toBe(group.endsWith('.int.test.ts'))
      return files
    })
    expect(new Set(members).size).toBe(members.length)
    const alone = testFiles.filter(f => !members.includes(f))
    for (const file of alone) expect(runsAlone(fs.readFileSync(file, 'utf8'))).toBeDefined()
    expect(members.length + alone.length).toBe(testFiles.length)
    expect(groups.size).toBeGreaterThanOrEqual(2)
  })

  it('leave out a file that mocks a module, has its own environment, hooks, jest settings or `.only`', () => {
    expect(runsAlone("jest.unstable_mockModule('@actions/core', () => ({}))")).toBeDefined()
    expect(runsAlone('/**\n * @jest-environment jsdom\n */')).toBeDefined()
    expect(runsAlone('afterEach(() => undefined)')).toBeDefined()
    expect(runsAlone('jest.useFakeTimers()')).toBeDefined()
    expect(runsAlone("describe('x', () => {\n  it.only('y', () => {})\n})")).toBeDefined()
    expect(runsAlone("describe('x', () => {\n  afterEach(() => undefined)\n})")).toBeUndefined()
  })
})

describe('the sequencer', () => {
  const env = { ...process.env }
  // As a whole run sees it, whatever this run was started with (`DOCS_AGENT_FILE_BY_FILE=1`).
  beforeEach(() => {
    delete process.env.DOCS_AGENT_FILE_BY_FILE
    delete process.env.ACTION_RUNNER
  })
  afterEach(() => {
    process.env = { ...env }
  })
  const everything = [...groups.keys(), ...testFiles]
  const named = (files: string[]) => files.map(f => path.basename(f)).sort()

  it('runs the groups in place of their members, and every other file alone', () => {
    const members = new Set([...groups.values()].flat())
    expect(sequenced(everything)).toEqual(
      named([...groups.keys(), ...testFiles.filter(f => !members.has(f))])
    )
  })

  it('runs a file named alone, alone', () => {
    const file = path.join(HERE, 'groups.test.ts')
    expect(sequenced([file])).toEqual(['groups.test.ts'])
  })

  it('runs every file alone with DOCS_AGENT_FILE_BY_FILE=1', () => {
    process.env.DOCS_AGENT_FILE_BY_FILE = '1'
    expect(sequenced(everything)).toEqual(named(testFiles))
  })

  it('runs the scenario files alone when every scenario runs in a child process', () => {
    process.env.ACTION_RUNNER = 'process'
    const scenarioGroups = [...groups].filter(([g]) => g.endsWith('.int.test.ts'))
    const grouped = new Set(scenarioGroups.flatMap(([, files]) => files))
    const ran = sequenced(everything)
    for (const [group] of scenarioGroups) expect(ran).not.toContain(path.basename(group))
    for (const file of grouped) expect(ran).toContain(path.basename(file))
  })
})

// Test support: the test files a whole run hands jest in groups. Jest gives every test file a module
// registry of its own, so each file imported, compiled and warmed up its own copy of src/ and of
// the dependencies (Octokit, undici, fast-check): about a third of the suite's time went there. A
// group file (group-N.test.ts for the unit tier, group-N.int.test.ts for the scenario tier) imports
// its share of its tier's files in turn, in one registry, as one jest test file. Jest still finds
// every test file; __tests__/sequencer.js runs a group in place of its members, and a member alone
// when no group of it was asked for (`npm test -- __tests__/x.test.ts`). Plain JavaScript: jest
// loads the sequencer outside its transform.
import fs from 'node:fs'
import path from 'node:path'

/**
 * Each test file's time run alone, in seconds (`npm run test:weigh` measures them again): how the
 * groups are balanced, and the order of a run with no times of its own (a fresh clone). A file not
 * listed weighs what its size suggests; a stale figure costs balance, never a test.
 */
const WEIGHTS = JSON.parse(fs.readFileSync(new URL('./weights.json', import.meta.url), 'utf8'))
/** Seconds a kilobyte of test code takes, about, for a file not in weights.json. */
const SECONDS_PER_KB = 0.15

/**
 * The time the test file `file` of `bytes` bytes takes, about.
 * @param {string} file
 * @param {number} bytes
 * @returns {number}
 */
export function weightOf(file, bytes) {
  return WEIGHTS[path.basename(file)] ?? (bytes / 1000) * SECONDS_PER_KB
}

/** A group file's name: group-N.test.ts (unit tier) or group-N.int.test.ts (scenario tier). */
export const GROUP_FILE = /^group-\d+(\.int)?\.test\.ts$/
const TEST_FILE = /\.test\.ts$/
/** A scenario-tier test file's name. */
export const SCENARIO_FILE = /\.int\.test\.ts$/

/**
 * Why a test file must have a module registry of its own, or undefined when it can share one. A
 * module mocked with jest.unstable_mockModule is mocked for the whole registry, as first imported;
 * another test environment is the file's own; top-level beforeEach and afterEach hooks, and
 * top-level jest settings (timers, timeouts, retries, spies), would reach every test of the group;
 * `.only` would skip every other file's tests in it.
 * @param {string} text the test file's source
 * @returns {string | undefined}
 */
export function runsAlone(text) {
  if (/^\s*jest\.unstable_mockModule\(/m.test(text)) return 'it mocks a module'
  if (/^\s*\*\s*@jest-environment\b/m.test(text)) return 'it has its own test environment'
  if (/^(beforeEach|afterEach)\(/m.test(text)) return 'its hooks run around every test'
  if (/^jest\./m.test(text)) return 'its jest settings reach every test'
  if (/^\s*(it|test|describe)\.only\b/m.test(text)) return 'it has `.only`'
  return undefined
}

/**
 * Every group file of `dir` and its members, as absolute paths. Each tier's files that can share a
 * registry are shared out among the tier's group files with about the same weight each
 * (weightOf): the heaviest first, each to the group with the least so far (a stable order: name
 * order among files of one weight).
 * @param {string} dir the folder of the test files
 * @returns {Map<string, string[]>}
 */
export function groupsIn(dir) {
  const names = fs.readdirSync(dir).sort()
  const groups = new Map()
  for (const scenarios of [false, true]) {
    const ofTier = name => SCENARIO_FILE.test(name) === scenarios
    const groupFiles = names.filter(name => GROUP_FILE.test(name) && ofTier(name))
    const members = names
      .filter(name => TEST_FILE.test(name) && !GROUP_FILE.test(name) && ofTier(name))
      .map(name => ({ file: path.join(dir, name), text: fs.readFileSync(path.join(dir, name)) }))
      .filter(m => runsAlone(m.text.toString('utf8')) === undefined)
    // Heaviest first, each into the group with the least weight so far: the heavy files spread.
    const shares = groupFiles.map(() => ({ files: [], weight: 0 }))
    const weighed = members.map(m => ({ file: m.file, weight: weightOf(m.file, m.text.length) }))
    for (const m of weighed.sort((a, b) => b.weight - a.weight)) {
      const least = shares.reduce((min, share) => (share.weight < min.weight ? share : min))
      least.files.push(m.file)
      least.weight += m.weight
    }
    for (const share of shares) share.files.sort()
    groupFiles.forEach((name, i) => groups.set(path.join(dir, name), shares[i]?.files ?? []))
  }
  return groups
}

/**
 * Imports the members of the group file `groupFile`, one after the other, so that jest collects
 * their tests as this file's. A scenario group first sets up the in-process runner, so the mocked
 * @actions/core is the one every member's imports reach, whichever member comes first.
 * @param {string} groupFile
 */
export async function runGroup(groupFile) {
  const members = groupsIn(path.dirname(groupFile)).get(groupFile) ?? []
  if (SCENARIO_FILE.test(groupFile)) await import('./inprocess.js')
  for (const member of members) await import(member)
}

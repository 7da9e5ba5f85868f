// `npm run test:weigh`: runs every test file alone (DOCS_AGENT_FILE_BY_FILE=1) and writes each
// one's time, in seconds, to __tests__/weights.json, which balances the test groups
// (__tests__/groups.js). Run it when files have been added or have grown; commit the result.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'weigh-')), 'results.json')
const run = spawnSync(
  process.execPath,
  [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', `--outputFile=${report}`],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      DOCS_AGENT_FILE_BY_FILE: '1',
      NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning'
    }
  }
)
if (!fs.existsSync(report)) process.exit(run.status ?? 1)
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'))
const weights = Object.fromEntries(
  testResults
    .map(t => [path.basename(t.name), Math.round((t.endTime - t.startTime) / 100) / 10])
    .sort(([a], [b]) => a.localeCompare(b))
)
fs.writeFileSync(
  path.join(ROOT, '__tests__', 'weights.json'),
  `${JSON.stringify(weights, null, 2)}\n`
)
console.log(`__tests__/weights.json: ${testResults.length} files weighed`)
process.exit(run.status ?? 1)

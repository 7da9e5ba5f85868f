// `npm run bench`: runs the built action (dist/index.js) as a runner would, against the service
// simulator on loopback, and checks three figures against their targets. Exits 1 if any misses.
// Node standard library and the simulators only: no build step, no TypeScript.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { runAction } from '../sim/run-action.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const PRELOAD = path.join(HERE, 'report-rss.js')
const PAGE_SIZE = 250
const CONCURRENCY = 4

const results = []
function figure(name, value, target, pass) {
  results.push(pass)
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}: ${value}  (target ${target})`)
}

const seconds = ms => `${(ms / 1000).toFixed(2)} s`

/** One export of the visitors; returns the run, the visitors requests it made and its time. */
async function exportOnce(sim, extra, options = {}) {
  const before = sim.requests.length
  const r = await runAction({
    inputs: {
      command: 'visitors',
      'api-key': SIM_API_KEY,
      'project-id': 'bench',
      'base-url': sim.url,
      summary: 'false',
      ...extra
    },
    ...options
  })
  const requests = sim.requests.slice(before).filter(q => q.kind === 'visitors')
  if (r.code !== 0) {
    fs.rmSync(r.tempDir, { recursive: true, force: true })
    throw new Error(`the action failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`)
  }
  return { r, requests, ms: r.durationMs }
}

async function speedAndRequests() {
  const rows = 10_000
  const latencyMs = 150
  console.log(
    `\n(a, b) ${rows.toLocaleString('en-US')} rows, ${latencyMs} ms latency per request, page-size ${PAGE_SIZE}`
  )
  const sim = await startService({ rows, latencyMs })
  try {
    const parallel = []
    const serial = []
    // Interleaved, so a slow moment on the machine does not favour one side; the faster of two.
    for (let i = 0; i < 2; i++) {
      for (const [list, concurrency] of [
        [parallel, CONCURRENCY],
        [serial, 1]
      ]) {
        const run = await exportOnce(sim, { concurrency: String(concurrency) })
        fs.rmSync(run.r.tempDir, { recursive: true, force: true })
        if (run.r.outputs.rows !== String(rows))
          throw new Error(`expected ${rows} rows, the action exported ${run.r.outputs.rows}`)
        list.push(run)
        console.log(
          `      concurrency ${concurrency}: ${seconds(run.ms)}, ${run.requests.length} requests`
        )
      }
    }
    const best = list => list.reduce((a, b) => (b.ms < a.ms ? b : a))
    const fast = best(parallel)
    const slow = best(serial)
    const ratio = fast.ms / slow.ms
    figure(
      `speed: concurrency ${CONCURRENCY} ${seconds(fast.ms)} / concurrency 1 ${seconds(slow.ms)} = ratio`,
      ratio.toFixed(3),
      '<= 0.4',
      ratio <= 0.4
    )
    const pages = Math.ceil(rows / PAGE_SIZE)
    const counts = parallel.map(run => run.requests.length)
    const worst = Math.max(...counts)
    const fewest = Math.min(...counts)
    figure(
      `requests (concurrency ${CONCURRENCY}, runs: ${counts.join(', ')})`,
      worst,
      `${pages} pages + at most ${CONCURRENCY - 1} past the end = ${pages}..${pages + CONCURRENCY - 1}`,
      fewest >= pages && worst <= pages + CONCURRENCY - 1
    )
  } finally {
    await sim.close()
  }
}

/** Counts the lines of a file without reading it into memory at once. */
async function countLines(file) {
  let lines = 0
  for await (const chunk of fs.createReadStream(file)) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
  }
  return lines
}

async function memory() {
  const rows = 1_000_000
  const limitBytes = 200 * 1024 * 1024
  console.log(`\n(c) ${rows.toLocaleString('en-US')} rows to NDJSON, no latency`)
  const sim = await startService({ rows, latencyMs: 0 })
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-bench-'))
  const reportFile = path.join(reportDir, 'rss.txt')
  let run
  try {
    run = await exportOnce(
      sim,
      { 'output-file': 'out/visitors.ndjson' },
      { nodeArgs: ['--import', PRELOAD], env: { RSS_REPORT_FILE: reportFile }, timeoutMs: 150_000 }
    )
    const peak = Number(fs.readFileSync(reportFile, 'utf8'))
    const written = await countLines(path.join(run.r.workspace, 'out/visitors.ndjson'))
    console.log(
      `      ${written.toLocaleString('en-US')} rows written in ${seconds(run.ms)} ` +
        `(${run.requests.length} requests, ${run.r.outputs.rows} rows reported)`
    )
    figure(
      'rows written',
      written.toLocaleString('en-US'),
      rows.toLocaleString('en-US'),
      written === rows
    )
    figure(
      'memory: peak RSS of the action',
      `${(peak / 1024 / 1024).toFixed(1)} MB`,
      `< ${limitBytes / 1024 / 1024} MB`,
      peak > 0 && peak < limitBytes
    )
  } finally {
    await sim.close()
    fs.rmSync(reportDir, { recursive: true, force: true })
    if (run) fs.rmSync(run.r.tempDir, { recursive: true, force: true })
  }
}

const started = Date.now()
let crashed = false
for (const step of [speedAndRequests, memory]) {
  try {
    await step()
  } catch (err) {
    crashed = true
    console.log(`FAIL  ${step.name}: ${err instanceof Error ? err.message : String(err)}`)
  }
}
const failed = results.filter(pass => !pass).length + (crashed ? 1 : 0)
console.log(
  `\n${failed === 0 ? 'All targets met' : `${failed} target(s) missed`} (${seconds(Date.now() - started)} in all).`
)
process.exit(failed === 0 ? 0 : 1)

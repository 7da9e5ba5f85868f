// `npm run bench`: runs the built action (dist/index.js) as a runner would, against the service
// simulator on loopback with latency on every request, and prints what the visitors export spends
// and how fast it goes, and what the agent's preview costs in GitHub requests (bench-preview.js),
// each figure against its target. Exits 1 if any target is missed.
// Node standard library, the simulators and ncc (a dev dependency) only: no TypeScript.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatedRows, startService, SIM_API_KEY } from '../sim/service.js'
import { runAction } from '../sim/run-action.js'
import { previewCost as previewSteps } from './bench-preview.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PRELOAD = path.join(ROOT, 'scripts', 'report-rss.js')
const PAGE_SIZE = 250
const CONCURRENCY = 4
const TOP = 20
/** Every request waits this long at the simulator: a service across the internet. */
const LATENCY = [50, 150]
const CURRENT = { dateFrom: '2026-03-08', dateTo: '2026-03-15' }
const PREVIOUS = { dateFrom: '2026-03-01', dateTo: '2026-03-08' }

const checks = []
/** Records a figure against its target; the table at the end lists them all. */
function figure(name, value, target, pass) {
  checks.push({ name, value, target, pass })
  console.log(
    `${pass === undefined ? 'INFO' : pass ? 'PASS' : 'FAIL'}  ${name}: ${value}  (${target})`
  )
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`
const seconds = ms => `${(ms / 1000).toFixed(2)} s`
const latencyText = l => (Array.isArray(l) ? `${l[0]}-${l[1]} ms` : `${l} ms`)

/** One visitors run; returns it with the visitors requests the simulator saw during it. */
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
  fs.rmSync(r.tempDir, { recursive: true, force: true })
  if (r.code !== 0) throw new Error(`the action failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`)
  return { r, requests, ms: r.durationMs }
}

/**
 * Past the end, read-ahead may cost 1 request for up to 5 pages, `concurrency - 1` beyond; none
 * for a single page, which is read alone.
 */
const allowance = pages => (pages === 1 ? 0 : pages <= 5 ? 1 : CONCURRENCY - 1)

/**
 * Pages of the previous period that `compare` needs at the least: up to the one holding the
 * last of the shown pages (rows come sorted), or all of them when a shown page is not there.
 */
function previousPagesNeeded(rows) {
  const shown = generatedRows(Math.min(TOP, rows), { dateFrom: CURRENT.dateFrom })
  const previous = generatedRows(rows, { dateFrom: PREVIOUS.dateFrom })
  const index = new Map(previous.map((row, i) => [row.path, i]))
  const positions = shown.map(row => index.get(row.path))
  if (positions.some(p => p === undefined)) return Math.ceil(rows / PAGE_SIZE)
  return Math.floor(Math.max(...positions) / PAGE_SIZE) + 1
}

async function requestsPerExport() {
  console.log(
    `\n(a) Requests per export: page-size ${PAGE_SIZE}, concurrency ${CONCURRENCY}, ` +
      `latency ${latencyText(LATENCY)}, top ${TOP}`
  )
  const table = []
  for (const pages of [1, 2, 5, 40, 400]) {
    const rows = pages * PAGE_SIZE - 100
    const sim = await startService({ rows, latencyMs: LATENCY })
    try {
      const plain = await exportOnce(sim, {})
      const before = sim.requests.length
      const compared = await exportOnce(sim, {
        'date-from': CURRENT.dateFrom,
        'date-to': CURRENT.dateTo,
        compare: 'true'
      })
      const previous = sim.requests
        .slice(before)
        .filter(q => q.kind === 'visitors' && q.query.dateFrom === PREVIOUS.dateFrom).length
      const needed = previousPagesNeeded(rows)
      // Reading past the last needed page of the previous period follows the same rule.
      const compareBound = pages + allowance(pages) + needed + (needed > 1 ? allowance(needed) : 0)
      const row = {
        pages,
        rows,
        plain: plain.requests.length,
        plainMin: pages,
        plainBound: pages + allowance(pages),
        compare: compared.requests.length,
        compareMin: pages + needed,
        compareBound,
        previous,
        // What issue 11 measured before: concurrency - 1 past the end of any multi-page export,
        // and `compare` a second full export.
        before: pages + (pages > 1 ? CONCURRENCY - 1 : 0)
      }
      table.push(row)
      console.log(
        `      ${plural(pages, 'page')} (${rows.toLocaleString('en-US')} rows): ${row.plain} requests ` +
          `(minimum ${row.plainMin}, before ${row.before}); with compare ${row.compare} ` +
          `(minimum ${row.compareMin}, the previous period ${previous}, before ${2 * row.before})`
      )
      figure(
        `requests, ${plural(pages, 'page')}`,
        `${row.plain} = minimum + ${row.plain - row.plainMin}`,
        `at most ${row.plainBound}`,
        row.plain >= row.plainMin && row.plain <= row.plainBound
      )
      figure(
        `requests, ${plural(pages, 'page')} with compare`,
        `${row.compare} = minimum + ${row.compare - row.compareMin}`,
        `at most ${row.compareBound}`,
        row.compare >= row.compareMin && row.compare <= row.compareBound
      )
    } finally {
      await sim.close()
    }
  }
  return table
}

async function speed() {
  const rows = 10_000
  console.log(
    `\n(b) Speed: ${rows.toLocaleString('en-US')} rows, latency ${latencyText(LATENCY)}, ` +
      `concurrency ${CONCURRENCY} against 1`
  )
  const sim = await startService({ rows, latencyMs: LATENCY })
  try {
    const runs = { [CONCURRENCY]: [], 1: [] }
    const exports = { [CONCURRENCY]: [], 1: [] }
    // Interleaved, so a slow moment on the machine does not favour one side; the faster of two.
    for (let i = 0; i < 2; i++) {
      for (const concurrency of [CONCURRENCY, 1]) {
        const run = await exportOnce(sim, { concurrency: String(concurrency) })
        if (run.r.outputs.rows !== String(rows))
          throw new Error(`expected ${rows} rows, the action exported ${run.r.outputs.rows}`)
        runs[concurrency].push(run.ms)
        // The export itself, as the service sees it: first request to last answer.
        const exportMs =
          Math.max(...run.requests.map(q => q.answeredAt ?? q.time)) -
          Math.min(...run.requests.map(q => q.time))
        exports[concurrency].push(exportMs)
        console.log(
          `      concurrency ${concurrency}: export ${seconds(exportMs)}, whole run ` +
            `${seconds(run.ms)}, ${run.requests.length} requests`
        )
      }
    }
    const fast = Math.min(...exports[CONCURRENCY])
    const slow = Math.min(...exports[1])
    const ratio = fast / slow
    figure(
      `speed of the export: concurrency ${CONCURRENCY} ${seconds(fast)} / concurrency 1 ${seconds(slow)}`,
      ratio.toFixed(2),
      'at most 0.4',
      ratio <= 0.4
    )
    const runFast = Math.min(...runs[CONCURRENCY])
    const runSlow = Math.min(...runs[1])
    figure(
      `speed of the whole run, Node's start included: ${seconds(runFast)} / ${seconds(runSlow)}`,
      (runFast / runSlow).toFixed(2),
      'informational',
      undefined
    )
    return { fast, slow, ratio }
  } finally {
    await sim.close()
  }
}

/** Milliseconds from spawning `node file` to its exit. */
function timeProcess(file, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, [file], { env, stdio: 'ignore' })
    child.on('error', reject)
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - started) / 1e6))
  })
}

const median = list => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

/**
 * Cold start: node loading the bundle and running to its first decision (here: `command` is
 * missing, the step fails before any request), against an ncc bundle of @actions/core alone.
 */
async function coldStart() {
  console.log('\n(c) Cold start: dist/index.js against an ncc bundle of @actions/core alone')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-bench-ref-'))
  try {
    const core = fileURLToPath(import.meta.resolve('@actions/core'))
    fs.writeFileSync(
      path.join(dir, 'entry.mjs'),
      `import * as core from ${JSON.stringify(core)}\ncore.info('ready')\n`
    )
    const ncc = path.join(ROOT, 'node_modules', '.bin', 'ncc')
    const built = spawnSync(
      ncc,
      ['build', path.join(dir, 'entry.mjs'), '-o', path.join(dir, 'out')],
      {
        encoding: 'utf8'
      }
    )
    if (built.status !== 0) throw new Error(`ncc failed: ${built.stderr}`)
    const reference = path.join(dir, 'out', 'index.mjs')
    const bundle = path.join(ROOT, 'dist', 'index.js')
    const env = {
      PATH: process.env.PATH,
      GITHUB_OUTPUT: path.join(dir, 'output'),
      GITHUB_WORKSPACE: dir,
      INPUT_COMMAND: ''
    }
    const times = { bundle: [], reference: [] }
    await timeProcess(bundle, env) // warms the file cache for both sides
    await timeProcess(reference, env)
    for (let i = 0; i < 9; i++) {
      times.bundle.push(await timeProcess(bundle, env))
      times.reference.push(await timeProcess(reference, env))
    }
    const a = median(times.bundle)
    const b = median(times.reference)
    const size = file => `${Math.round(fs.statSync(file).size / 1024)} kB`
    console.log(`      dist/index.js ${size(bundle)}, reference ${size(reference)}`)
    figure(
      `cold start: dist/index.js ${a.toFixed(0)} ms / @actions/core alone ${b.toFixed(0)} ms`,
      (a / b).toFixed(2),
      'informational: the cost of everything beyond @actions/core',
      undefined
    )
    return { bundle: a, reference: b, ratio: a / b }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
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
  console.log(`\n(d) Memory: ${rows.toLocaleString('en-US')} rows to NDJSON, no latency`)
  const sim = await startService({ rows, latencyMs: 0 })
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-bench-'))
  const reportFile = path.join(reportDir, 'rss.txt')
  let r
  try {
    const before = sim.requests.length
    r = await runAction({
      inputs: {
        command: 'visitors',
        'api-key': SIM_API_KEY,
        'project-id': 'bench',
        'base-url': sim.url,
        summary: 'false',
        'output-file': 'out/visitors.ndjson',
        // 4,000 pages: more than the 400 a read asks for unless `max-rows` allows more.
        'max-rows': String(rows)
      },
      nodeArgs: ['--import', PRELOAD],
      env: { RSS_REPORT_FILE: reportFile },
      timeoutMs: 150_000
    })
    if (r.code !== 0) throw new Error(`the action failed (exit ${r.code}):\n${r.stdout}`)
    const peak = Number(fs.readFileSync(reportFile, 'utf8'))
    const written = await countLines(path.join(r.workspace, 'out/visitors.ndjson'))
    console.log(
      `      ${written.toLocaleString('en-US')} rows written in ${seconds(r.durationMs)} ` +
        `(${sim.requests.length - before} requests)`
    )
    figure(
      'rows written',
      written.toLocaleString('en-US'),
      rows.toLocaleString('en-US'),
      written === rows
    )
    const mb = peak / 1024 / 1024
    figure(
      'memory: peak RSS of the action',
      `${mb.toFixed(0)} MB`,
      `under ${limitBytes / 1024 / 1024} MB`,
      peak > 0 && peak < limitBytes
    )
    return { mb }
  } finally {
    await sim.close()
    fs.rmSync(reportDir, { recursive: true, force: true })
    if (r) fs.rmSync(r.tempDir, { recursive: true, force: true })
  }
}

/**
 * The action built from git ref `ref` (its src/ with this checkout's node_modules), in a temp
 * folder holding action.yml and dist/ as runAction() wants them.
 */
function buildRef(ref) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-bench-base-'))
  const tree = path.join(dir, 'tree')
  const git = args => {
    const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`)
  }
  git(['worktree', 'add', '--detach', tree, ref])
  try {
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'))
    const ncc = path.join(ROOT, 'node_modules', '.bin', 'ncc')
    const built = spawnSync(ncc, ['build', 'src/index.ts', '-o', path.join(dir, 'dist')], {
      cwd: tree,
      encoding: 'utf8'
    })
    if (built.status !== 0) throw new Error(`ncc failed for ${ref}: ${built.stderr}`)
    fs.copyFileSync(path.join(tree, 'action.yml'), path.join(dir, 'action.yml'))
  } finally {
    git(['worktree', 'remove', '--force', tree])
  }
  return dir
}

/**
 * What the secret search costs an export: 1,000,000 rows to NDJSON with no latency (the action's
 * own work is all there is), this build against the one of `--baseline=<git ref>`, taken in
 * turns, the median of 3 each. Without a baseline, the time alone.
 */
async function exportCost() {
  const rows = 1_000_000
  const ref = process.argv.find(a => a.startsWith('--baseline='))?.slice('--baseline='.length)
  console.log(
    `\n(e) Export time: ${rows.toLocaleString('en-US')} rows to NDJSON, no latency` +
      (ref ? `, this build against ${ref}` : '')
  )
  const base = ref ? buildRef(ref) : undefined
  const sim = await startService({ rows, latencyMs: 0 })
  const once = async actionDir => {
    const { r, ms } = await exportOnce(
      sim,
      { 'output-file': 'out/visitors.ndjson', 'max-rows': String(rows) },
      { timeoutMs: 150_000, ...(actionDir ? { actionDir } : {}) }
    )
    if (r.outputs.rows !== String(rows))
      throw new Error(`expected ${rows} rows, the action exported ${r.outputs.rows}`)
    return ms
  }
  try {
    const times = { current: [], base: [] }
    for (let i = 0; i < 3; i++) {
      times.current.push(await once())
      if (base) times.base.push(await once(base))
    }
    const current = median(times.current)
    console.log(`      this build: ${times.current.map(seconds).join(', ')}`)
    if (!base) {
      figure('export time, 1,000,000 rows', seconds(current), 'informational', undefined)
      return { current }
    }
    const before = median(times.base)
    console.log(`      ${ref}: ${times.base.map(seconds).join(', ')}`)
    const ratio = current / before
    figure(
      `export time, 1,000,000 rows: this build ${seconds(current)} / ${ref} ${seconds(before)}`,
      ratio.toFixed(2),
      'at most 1.10',
      ratio <= 1.1
    )
    return { current, before, ratio, ref }
  } finally {
    await sim.close()
    if (base) fs.rmSync(base, { recursive: true, force: true })
  }
}

function printTable(requests, fast, cold, mem, cost, preview) {
  const lines = [
    '| Pages | Requests | Minimum | Ratio | With `compare` | Minimum | Ratio | Before (issue 11): without / with `compare` |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|'
  ]
  for (const t of requests ?? [])
    lines.push(
      `| ${t.pages} | ${t.plain} | ${t.plainMin} | ${(t.plain / t.plainMin).toFixed(2)} | ` +
        `${t.compare} | ${t.compareMin} | ${(t.compare / t.compareMin).toFixed(2)} | ` +
        `${t.before} / ${2 * t.before} |`
    )
  if (fast)
    lines.push(
      '',
      `Speed, 10,000 rows: the export takes ${seconds(fast.fast)} at concurrency ${CONCURRENCY}, ` +
        `${seconds(fast.slow)} at concurrency 1: ratio ${fast.ratio.toFixed(2)} (target at most 0.4)`
    )
  if (cold)
    lines.push(
      `Cold start: ${cold.bundle.toFixed(0)} ms against ${cold.reference.toFixed(0)} ms for ` +
        `@actions/core alone: ratio ${cold.ratio.toFixed(2)}`
    )
  if (mem)
    lines.push(
      `Peak memory, 1,000,000 rows to NDJSON: ${mem.mb.toFixed(0)} MB (target under 200 MB)`
    )
  if (cost?.ref)
    lines.push(
      `Export time, 1,000,000 rows to NDJSON: ${seconds(cost.current)} against ` +
        `${seconds(cost.before)} for ${cost.ref}: ratio ${cost.ratio.toFixed(2)} (target at most 1.10)`
    )
  if (preview)
    lines.push(
      `Preview of the agent's pull request, \`checks: wait\`: ${preview.own.toFixed(2)} GitHub ` +
        `requests a poll (${preview.more.toFixed(2)} more than without a preview; target at most 2)`
    )
  console.log(`\n${lines.join('\n')}`)
}

const started = Date.now()
const results = {}
let crashed = 0
// `npm run bench -- speed memory` runs only the steps named; `--baseline=<git ref>` gives the
// export time a build to measure against.
const only = process.argv.slice(2).filter(a => !a.startsWith('--'))
/** The preview's GitHub requests (bench-preview.js), through this file's `figure`. */
const previewCost = () => previewSteps(figure)
const steps = { requestsPerExport, speed, coldStart, memory, exportCost, previewCost }
for (const [name, step] of Object.entries(steps)) {
  if (only.length > 0 && !only.includes(name)) continue
  try {
    results[name] = await step()
  } catch (err) {
    crashed++
    console.log(`FAIL  ${name}: ${err instanceof Error ? err.message : String(err)}`)
  }
}
printTable(
  results.requestsPerExport,
  results.speed,
  results.coldStart,
  results.memory,
  results.exportCost,
  results.previewCost
)
const failed = checks.filter(c => c.pass === false).length + crashed
console.log(
  `\n${failed === 0 ? 'All targets met' : `${failed} target(s) missed`} (${seconds(Date.now() - started)} in all).`
)
process.exit(failed === 0 ? 0 : 1)

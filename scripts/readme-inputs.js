// `npm run readme`: writes the README's inputs and outputs tables from action.yml, between the
// markers `<!-- inputs -->`…`<!-- /inputs -->` and `<!-- outputs -->`…`<!-- /outputs -->`, so the
// descriptions live in one place (action.yml). `--check` fails when the README is not up to date
// (a test runs it). Standard library only: action.yml is read with the same line parser as the
// simulators' runner.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The `inputs:` or `outputs:` block of action.yml: name, description, default. */
export function readBlock(yml, block) {
  const lines = yml.split(/\r?\n/)
  const entries = []
  let inBlock = false
  let current
  let key
  for (const line of lines) {
    if (!line.startsWith(' ') && line.trim() !== '') {
      inBlock = line.startsWith(`${block}:`)
      continue
    }
    if (!inBlock) continue
    const name = /^ {2}([\w-]+):\s*$/.exec(line)
    if (name) {
      current = { name: name[1], description: '', default: undefined }
      entries.push(current)
      key = undefined
      continue
    }
    const field = /^ {4}(\w+):\s*(.*)$/.exec(line)
    if (field && current) {
      key = field[1]
      const value = field[2].trim()
      if (key === 'description') current.description = /^[>|]-?$/.test(value) ? '' : unquote(value)
      if (key === 'default') current.default = unquote(value)
      continue
    }
    if (key === 'description' && current && /^ {6}/.test(line))
      current.description += (current.description ? ' ' : '') + line.trim()
  }
  return entries
}

function unquote(value) {
  const v = value.trim()
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'")
  if (v.startsWith('"') && v.endsWith('"')) return JSON.parse(v)
  return v
}

const cell = text => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim()

export function tables(yml) {
  const inputs = readBlock(yml, 'inputs').map(
    i =>
      `| \`${i.name}\` | ${i.default === undefined || i.default === '' ? '' : `\`${cell(i.default)}\``} | ${cell(i.description)} |`
  )
  const outputs = readBlock(yml, 'outputs').map(o => `| \`${o.name}\` | ${cell(o.description)} |`)
  return {
    inputs: ['| Input | Default | What it does |', '|---|---|---|', ...inputs].join('\n'),
    outputs: ['| Output | Value |', '|---|---|', ...outputs].join('\n')
  }
}

export function withTables(readme, yml) {
  const t = tables(yml)
  let out = readme
  for (const name of ['inputs', 'outputs']) {
    const pattern = new RegExp(`(<!-- ${name} -->)[\\s\\S]*?(<!-- /${name} -->)`)
    if (!pattern.test(out)) throw new Error(`README.md has no <!-- ${name} --> markers`)
    out = out.replace(pattern, `$1\n${t[name]}\n$2`)
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readmePath = path.join(ROOT, 'README.md')
  const readme = fs.readFileSync(readmePath, 'utf8')
  const next = withTables(readme, fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8'))
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('README.md is out of date with action.yml: run `npm run readme`.')
      process.exit(1)
    }
  } else fs.writeFileSync(readmePath, next)
}

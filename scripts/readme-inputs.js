// `npm run readme`: writes from action.yml the README's short list of inputs by command (between
// `<!-- inputs -->` and `<!-- /inputs -->`: a few lines whatever the number of inputs), and
// docs/inputs-reference.md's table of every input (`<!-- inputs -->`), workflow with every input
// (`<!-- with -->`) and outputs table (`<!-- outputs -->`), so the descriptions live in one place
// (action.yml). Which command reads an input is the input table's (src/settings/table.js, plain
// JavaScript the action reads too). `--check` fails when a file is not up to date (a test runs
// it). Standard library only: action.yml is read with a line parser.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMMANDS, INPUTS } from '../src/settings/table.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The `inputs:` or `outputs:` block of action.yml: name, description, default, required. */
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
      current = { name: name[1], description: '', default: undefined, required: false }
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
      if (key === 'required') current.required = value === 'true'
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
      `| \`${i.name}\` | ${i.required ? 'yes' : ''} | ${i.default === undefined || i.default === '' ? '' : `\`${cell(i.default)}\``} | ${cell(i.description)} |`
  )
  const outputs = readBlock(yml, 'outputs').map(o => `| \`${o.name}\` | ${cell(o.description)} |`)
  return {
    inputs: ['| Input | Required | Default | What it does |', '|---|---|---|---|', ...inputs].join(
      '\n'
    ),
    outputs: ['| Output | Value |', '|---|---|', ...outputs].join('\n')
  }
}

/** What a recipe passes for the required inputs: the secret and the variable of the README. */
const REQUIRED_VALUES = {
  command: 'check',
  'api-key': '${{ secrets.DOCS_API_KEY }}',
  'project-id': '${{ vars.DOCS_PROJECT_ID }}'
}

/**
 * A workflow that passes every input at its default (the required ones as the recipes do), to
 * copy lines from: it passes actionlint as it is, and runs `command: check`.
 */
export function withWorkflow(yml) {
  const lines = readBlock(yml, 'inputs').map(i => {
    const value = REQUIRED_VALUES[i.name] ?? i.default ?? ''
    const quoted = value.startsWith('${{') ? value : `'${value.replace(/'/g, "''")}'`
    return `          ${i.name}: ${quoted}${i.required ? ' # required' : ''}`
  })
  return [
    '```yaml',
    '# Every input at its default; `command`, `api-key` and `project-id` are required.',
    'name: Docs agent (every input)',
    '',
    'on: workflow_dispatch',
    '',
    'permissions:',
    '  contents: read',
    '  issues: write',
    '  pull-requests: write',
    '',
    'jobs:',
    '  docs:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: your-org/docs-agent-action@v1',
    '        with:',
    ...lines,
    '```'
  ].join('\n')
}

/** The README's list: the required inputs, then the others by the commands that read them. */
export function inputsByCommand(yml, table = INPUTS) {
  const applies = new Map(table.map(input => [input.name, input.commands]))
  const optional = new Map(table.map(input => [input.name, input.optionalFor ?? []]))
  const inputs = readBlock(yml, 'inputs')
  const names = list => list.map(i => `\`${i.name}\``).join(', ')
  const groups = new Map()
  for (const i of inputs.filter(x => !x.required)) {
    const commands = applies.get(i.name)
    const label = commands ? commands.map(c => `\`${c}\``).join(', ') : 'every command'
    groups.set(label, [...(groups.get(label) ?? []), i])
  }
  const order = [...groups.keys()].sort((a, b) =>
    a === 'every command' ? 1 : b === 'every command' ? -1 : 0
  )
  // A required input some command does not read (`project-id`, for `rollup`), or reads only when
  // given (`api-key`, for `rollup`), says which.
  const quoted = list => list.map(c => `\`${c}\``).join(', ')
  const required = inputs
    .filter(i => i.required)
    .map(i => {
      const commands = applies.get(i.name)
      const not = commands ? COMMANDS.filter(c => !commands.includes(c)) : []
      const notes = [
        ...(not.length > 0 ? [`not ${quoted(not)}`] : []),
        ...(optional.get(i.name).length > 0 ? [`optional for ${quoted(optional.get(i.name))}`] : [])
      ]
      return `\`${i.name}\`${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`
    })
  return [
    `- **Required**: ${required.join(', ')}.`,
    ...order.map(label => `- **${label}**: ${names(groups.get(label))}.`)
  ].join('\n')
}

/** `text` with each named block between its markers replaced. */
function between(text, blocks, file) {
  let out = text
  for (const [name, body] of Object.entries(blocks)) {
    const pattern = new RegExp(`(<!-- ${name} -->)[\\s\\S]*?(<!-- /${name} -->)`)
    if (!pattern.test(out)) throw new Error(`${file} has no <!-- ${name} --> markers`)
    out = out.replace(pattern, () => `<!-- ${name} -->\n${body}\n<!-- /${name} -->`)
  }
  return out
}

/** The README's inputs by command (the input table says which command reads which). */
export function withTables(readme, yml, table = INPUTS) {
  return between(readme, { inputs: inputsByCommand(yml, table) }, 'README.md')
}

/** docs/inputs-reference.md: the table of every input, the workflow with every input, the outputs. */
export function withInputsWorkflow(reference, yml) {
  const t = tables(yml)
  const blocks = { inputs: t.inputs, with: withWorkflow(yml), outputs: t.outputs }
  return between(reference, blocks, 'docs/inputs-reference.md')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const yml = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')
  const files = [
    ['README.md', withTables],
    ['docs/inputs-reference.md', withInputsWorkflow]
  ]
  for (const [file, write] of files) {
    const full = path.join(ROOT, file)
    const text = fs.readFileSync(full, 'utf8')
    const next = write(text, yml)
    if (!process.argv.includes('--check')) fs.writeFileSync(full, next)
    else if (next !== text) {
      console.error(
        `${file} is out of date with action.yml or src/settings/table.js: run \`npm run readme\`.`
      )
      process.exitCode = 1
    }
  }
}

// Unit tier: the README's inputs by command, and docs/inputs-reference.md's table and workflow of
// every input and outputs table, are generated from action.yml and the input table
// (src/settings/table.js, which says which command reads which input): one text describes the
// interface, and this test fails when either drifts from it (run `npm run readme`).
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import {
  inputsByCommand,
  readBlock,
  withInputsWorkflow,
  withTables
} from '../scripts/readme-inputs.js'
import { INPUTS } from '../src/settings/table.js'

const readme = fs.readFileSync('README.md', 'utf8')
const reference = fs.readFileSync('docs/inputs-reference.md', 'utf8')
const yml = fs.readFileSync('action.yml', 'utf8')

describe('README', () => {
  it('its inputs by command, and the reference’s tables and workflow, are what action.yml says', () => {
    expect(withTables(readme, yml)).toBe(readme)
    expect(withInputsWorkflow(reference, yml)).toBe(reference)
  })

  it('names every input; the reference lists each with whether it is required, passes each and lists every output', () => {
    const list = readme.slice(readme.indexOf('<!-- inputs -->'), readme.indexOf('<!-- /inputs -->'))
    for (const { name, required } of readBlock(yml, 'inputs')) {
      expect(list).toContain(`\`${name}\``)
      expect(reference).toContain(`| \`${name}\` | ${required ? 'yes' : ''} |`)
      expect(reference).toMatch(new RegExp(`\\n {10}${name}: `))
    }
    for (const { name } of readBlock(yml, 'outputs')) expect(reference).toContain(`| \`${name}\` |`)
    expect(
      readBlock(yml, 'inputs')
        .filter(i => i.required)
        .map(i => i.name)
    ).toEqual(['command', 'api-key', 'project-id'])
  })

  it('keeps its inputs to one line per group, however many inputs action.yml declares', () => {
    const more = yml.replace(
      /\noutputs:/,
      '\n  new-one:\n    description: x\n  new-two:\n    description: y\n\noutputs:'
    )
    expect(inputsByCommand(more).split('\n')).toHaveLength(inputsByCommand(yml).split('\n').length)
    expect(inputsByCommand(more)).toMatch(/every command\*\*: .*`new-one`, `new-two`/)
  })

  it('groups the inputs by the commands the input table says read them', () => {
    const moved = INPUTS.map(i => (i.name === 'top' ? { ...i, commands: ['report' as const] } : i))
    expect(inputsByCommand(yml)).toMatch(/- \*\*`visitors`, `report`\*\*: .*`top`/)
    expect(inputsByCommand(yml, moved)).toMatch(/- \*\*`report`\*\*: .*`top`/)
    expect(inputsByCommand(yml, moved)).not.toMatch(/- \*\*`visitors`, `report`\*\*: .*`top`/)
  })

  it('is a front page: at most 250 lines, Mintlify named at the top, both commands shown', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
    expect(readme.split('\n').slice(0, 3).join(' ')).toContain('Mintlify')
    expect(readme).toContain('npm run demo')
    expect(readme).toContain('npm ci && npm test')
  })

  it('names every secret and variable a recipe uses', () => {
    const used = new Set<string>()
    for (const file of fs.readdirSync('examples'))
      for (const m of fs
        .readFileSync(`examples/${file}`, 'utf8')
        .matchAll(/(?:secrets|vars)\.(\w+)/g))
        used.add(m[1]!)
    for (const name of used) expect(readme).toContain(`\`${name}\``)
  })

  it('installs: a copy, a fork’s Actions, sharing a private copy, the release, the runner', () => {
    const install = readme.slice(
      readme.indexOf('## Install'),
      readme.indexOf('## Before you start')
    )
    for (const words of [
      /fork/,
      /Actions turned off/,
      /Settings → Actions → General →\s+Access/,
      /release `v1\.0\.0`/,
      /2\.327\.1/,
      /GitHub Enterprise Server/
    ])
      expect(install).toMatch(words)
    // The check is the last step before the first recipe, and says where its recipe is.
    expect(readme).toMatch(/## Before you start[\s\S]*\[`check\.yml`\]\(examples\/check\.yml\)/)
  })

  it('says, for every recipe, what it spends of the hourly limits', () => {
    for (const file of fs.readdirSync('examples'))
      expect({
        file,
        spends: /^# Spends: /m.test(fs.readFileSync(`examples/${file}`, 'utf8'))
      }).toEqual({
        file,
        spends: true
      })
  })
})

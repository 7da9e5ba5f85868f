// Unit tier: the README's inputs and outputs tables are generated from action.yml: one text
// describes the interface, and this test fails when the README drifts from it.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import { readBlock, withTables } from '../scripts/readme-inputs.js'

const readme = fs.readFileSync('README.md', 'utf8')
const yml = fs.readFileSync('action.yml', 'utf8')

describe('README', () => {
  it('its inputs and outputs tables are what action.yml says (run `npm run readme`)', () => {
    expect(withTables(readme, yml)).toBe(readme)
  })

  it('lists every input and output of action.yml', () => {
    for (const block of ['inputs', 'outputs'])
      for (const { name } of readBlock(yml, block)) expect(readme).toContain(`| \`${name}\` |`)
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
})

// Unit tier: the input table (src/settings/table.js) is the one list of inputs. action.yml declares
// exactly its inputs, in its order, with its defaults and its required ones; INPUT_NAMES, the
// defaults an empty value falls back to, and the commands an input applies to come from it.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import { readBlock } from '../scripts/readme-inputs.js'
import { SECTIONS } from '../src/analytics/section-names.js'
import {
  appliesTo,
  COMMANDS,
  DEFAULTS,
  INPUT_NAMES,
  INPUTS,
  type InputSpec
} from '../src/settings/names.js'

const yml = fs.readFileSync('action.yml', 'utf8')

/** What action.yml declares of each input, in its order (descriptions aside). */
const declared = (text: string) =>
  readBlock(text, 'inputs').map(i => ({
    name: i.name,
    default: i.default,
    required: i.required
  }))

const tabled = (table: readonly InputSpec[]) =>
  table.map(i => ({ name: i.name, default: i.default, required: i.required === true }))

describe('the input table', () => {
  it('is what action.yml declares: names, order, defaults, required', () => {
    expect(declared(yml)).toEqual(tabled(INPUTS))
    expect(INPUT_NAMES).toEqual(declared(yml).map(i => i.name))
  })

  it('the check fails when action.yml drifts from it (it can fail)', () => {
    const drifted = [
      // a default changed
      yml.replace("default: '30m'", "default: '20m'"),
      // an input the table does not have
      yml.replace(/\noutputs:/, '\n  new-one:\n    description: x\n\noutputs:'),
      // an input gone
      yml.replace(/\n {2}require-pr:\n(?: {4}.*\n)+/, '\n'),
      // two inputs swapped
      yml.replace(/(\n {2}date-from:\n(?: {4,}.*\n)+)(\n? {2}date-to:\n(?: {4,}.*\n)+)/, '$2$1'),
      // required no more
      yml.replace(/(\n {2}project-id:\n(?: {4,}.*\n)*? {4})required: true/, '$1required: false')
    ]
    for (const text of drifted) {
      expect(text).not.toBe(yml)
      expect(declared(text)).not.toEqual(tabled(INPUTS))
    }
  })

  it('derives the defaults an empty input falls back to; the runner evaluates `${{ … }}` ones', () => {
    expect(DEFAULTS).toMatchObject({
      'wait-timeout': '30m',
      'base-url': 'https://api.mintlify.com'
    })
    expect(Object.keys(DEFAULTS)).toHaveLength(
      INPUTS.filter(i => i.default !== undefined).length - 1
    )
    expect(DEFAULTS).not.toHaveProperty('github-token')
    expect(DEFAULTS).not.toHaveProperty('prompt')
    // The default sections are every section, in the order a report shows them.
    expect(DEFAULTS.sections).toBe(SECTIONS.join(','))
  })

  it('says which commands read an input: the listed ones, or every command', () => {
    expect(COMMANDS.filter(c => appliesTo('job-id', c))).toEqual(['message'])
    expect(COMMANDS.filter(c => appliesTo('sections', c))).toEqual(['report'])
    expect(COMMANDS.filter(c => appliesTo('job-path', c))).toEqual(['message', 'create', 'check'])
    expect(COMMANDS.filter(c => appliesTo('wait-timeout', c))).toEqual([...COMMANDS])
  })

  it('marks the key and the tokens secret, and nothing else', () => {
    expect(INPUTS.filter(i => i.secret).map(i => i.name)).toEqual([
      'api-key',
      'github-token',
      'notify-token'
    ])
  })
})

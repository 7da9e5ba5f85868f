// Unit tier: the reader of the recipes' YAML (workflow-yaml.ts) reads what they use as GitHub
// does, reads every recipe of examples/, and throws on what it does not know.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import { readYaml } from './workflow-yaml.js'

const EXAMPLES = path.join(import.meta.dirname, '..', 'examples')

describe('workflow-yaml', () => {
  it('reads mappings, sequences, block scalars, flow sequences, quotes and comments', () => {
    const text = [
      '# a recipe',
      'name: Docs agent (label)',
      'on:',
      '  pull_request:',
      '    types: [closed, labeled]',
      "  schedule:\n    - cron: '17 6 * * 1' # Mondays",
      'permissions:',
      '  contents: read',
      '  pull-requests: write',
      'jobs:',
      '  a:',
      '    if: >-',
      "      github.event.label.name == 'Docs/Needed' &&",
      '      true',
      '    steps:',
      '      - name: Ask',
      '        with:',
      '          prompt: |',
      '            Line one.',
      '',
      '            Line # three.',
      '          empty: ""',
      '      - run: echo "a: b"',
      '      - uses: x@v1',
      '        with: {}'
    ].join('\n')
    expect(readYaml(text)).toEqual({
      name: 'Docs agent (label)',
      on: {
        pull_request: { types: ['closed', 'labeled'] },
        schedule: [{ cron: '17 6 * * 1' }]
      },
      permissions: { contents: 'read', 'pull-requests': 'write' },
      jobs: {
        a: {
          if: "github.event.label.name == 'Docs/Needed' && true",
          steps: [
            { name: 'Ask', with: { prompt: 'Line one.\n\nLine # three.\n', empty: '' } },
            { run: 'echo "a: b"' },
            { uses: 'x@v1', with: {} }
          ]
        }
      }
    })
  })

  it('throws on what it does not know, rather than read it wrongly', () => {
    expect(() => readYaml('a: &x 1')).toThrow(/unsupported/)
    expect(() => readYaml('a: {b: 1}')).toThrow(/unsupported/)
    expect(() => readYaml('a: one\n  two')).toThrow(/plain scalar over several lines/)
    expect(() => readYaml('a: 1\na: 2')).toThrow(/twice/)
  })

  it.each(fs.readdirSync(EXAMPLES).filter(f => f.endsWith('.yml')))('reads examples/%s', f => {
    const y = readYaml(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')) as Record<string, unknown>
    expect(Object.keys(y)).toEqual(expect.arrayContaining(['name', 'on', 'permissions', 'jobs']))
  })
})

// Unit tier: the one debug line of the resolved settings names every input of the table, with the
// value the run will use (after the defaults and the parsing), and never a part of a secret.
import { describe, it, expect } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { INPUT_NAMES, INPUTS } from '../src/settings/names.js'
import { RESOLVED, resolvedInputs, settingsDebugLine } from '../src/settings/debug-line.js'
import { readSettings, type SettingsContext } from '../src/settings/settings.js'
import { GOOD, VALID, getter } from './settings-inputs.js'
import { tempDir } from './temp-dirs.js'

const ctx: SettingsContext = {
  now: new Date('2026-11-18T10:00:00Z'),
  workspace: '/ws',
  commentEvent: false
}
const settingsOf = (over: Record<string, string>, c = ctx) =>
  readSettings(getter({ ...VALID, ...over }), c)

/** The values the line shows, parsed back from it. */
function shown(line: string): Record<string, unknown> {
  return JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>
}

describe('the debug line of the resolved settings', () => {
  it('names every input of the table, in its order, whatever the command', () => {
    // Every input but the secrets, whose line says only whether they were given.
    expect(Object.keys(RESOLVED)).toEqual(
      INPUTS.filter(input => input.secret === undefined).map(input => input.name)
    )
    for (const command of ['message', 'create', 'visitors', 'report', 'check'])
      expect(Object.keys(shown(settingsDebugLine(settingsOf({ command }))))).toEqual(INPUT_NAMES)
  })

  it('shows values as the run uses them: defaults applied, parsed; null where the command does not read it', () => {
    const s = settingsOf({ command: 'visitors', period: 'last-week', 'wait-timeout': '', top: '5' })
    expect(shown(settingsDebugLine(s))).toMatchObject({
      command: 'visitors',
      'project-id': 'proj-1',
      'wait-timeout': '1800s',
      period: 'last-week',
      'date-from': '2026-11-09',
      'date-to': '2026-11-16',
      top: 5,
      compare: false,
      'comment-mode': 'upsert',
      // Read by `message` and `create` only.
      'job-id': null,
      prompt: null,
      // Read by `report` only.
      sections: null
    })
    expect(settingsDebugLine(s)).toMatch(/^Resolved inputs \(null: not read by `command: visitors`/)
    const job = shown(settingsDebugLine(settingsOf({ 'fail-on-status': 'failed, archived' })))
    expect(job).toMatchObject({
      'job-id': 'job-1',
      'fail-on-status': 'failed,archived',
      'settle-time': '60s',
      'poll-interval': '5s',
      top: null,
      'date-from': null
    })
  })

  it('shows the start of a long prompt and its length, and where it was read from', () => {
    const dir = tempDir('settings-debug-')
    mkdirSync(join(dir, 'p'))
    writeFileSync(join(dir, 'p', 'long.md'), 'x'.repeat(1000))
    const s = settingsOf({ prompt: '', 'prompt-file': 'p/long.md' }, { ...ctx, workspace: dir })
    expect(shown(settingsDebugLine(s))).toMatchObject({
      prompt: `${'x'.repeat(80)}… (1000 characters)`,
      'prompt-file': 'p/long.md'
    })
  })

  it('shows a secret as *** when set and empty when not', () => {
    const set = resolvedInputs(
      settingsOf({
        'notify-token': 'ghp_notify',
        'notify-pr': '',
        'notify-repository': 'octo/api'
      })
    )
    expect(set).toMatchObject({ 'api-key': '***', 'github-token': '***', 'notify-token': '***' })
    const unset = resolvedInputs(settingsOf({ 'github-token': '', 'notify-token': '' }))
    expect(unset).toMatchObject({ 'github-token': '', 'notify-token': '' })
    // Not read by the command: null, as any other input.
    expect(resolvedInputs(settingsOf({ command: 'visitors' }))['notify-token']).toBeNull()
  })

  it('never shows a part of a secret, whatever the other inputs', () => {
    const secretPart = fc.stringMatching(/^[A-Z]{16,32}$/)
    let lines = 0
    const others = fc.record(
      Object.fromEntries(
        Object.entries(GOOD)
          .filter(([name]) => !['api-key', 'github-token'].includes(name))
          .map(([name, values]) => [name, fc.constantFrom(...values)])
      )
    )
    fc.assert(
      fc.property(
        others,
        fc.constantFrom('message', 'create', 'visitors', 'report', 'check'),
        secretPart,
        secretPart,
        secretPart,
        (inputs, command, key, token, notify) => {
          let s
          try {
            s = readSettings(
              getter({
                ...VALID,
                ...inputs,
                command,
                'api-key': `mint_${key}`,
                'github-token': `ghs_${token}`,
                'notify-token': `ghp_${notify}`,
                'notify-repository': 'octo/api'
              }),
              { ...ctx, commentEvent: true, triggerPrompt: 'Fix it' }
            )
          } catch {
            return // an input refused: no line is written
          }
          const line = settingsDebugLine(s)
          lines++
          for (const secret of [key, token, notify])
            for (let i = 0; i + 6 <= secret.length; i++)
              expect(line).not.toContain(secret.slice(i, i + 6))
        }
      ),
      { numRuns: 200 }
    )
    // Most generated sets are valid: the property looked at lines, not only at refusals.
    expect(lines).toBeGreaterThan(100)
  })
})

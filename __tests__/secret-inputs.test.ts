// Unit tier: the input table is the one list of secrets. An input the table marks `secret` (here
// one added to it for the test) is masked in the runner's log, redacted from what the action
// publishes (named as the table calls it when withheld) and shown as *** in the debug line, with
// no other change anywhere.
import { describe, it, expect, jest } from '@jest/globals'

const table = await import('../src/settings/table.js')
const EXTRA = { name: 'extra-token', secret: 'the `extra-token`' }
jest.unstable_mockModule('../src/settings/table.js', () => ({
  ...table,
  INPUTS: [...table.INPUTS, EXTRA]
}))
const given: Record<string, string> = {}
const setSecret = jest.fn<(secret: string) => void>()
const getInput = jest.fn((name: string) => given[name] ?? '')
jest.unstable_mockModule('@actions/core', () => ({ setSecret, getInput }))

const { readSecretInputs, readSettings } = await import('../src/settings/settings.js')
const { redact, registerSecrets, withheld } = await import('../src/secrets/redact.js')
const { resolvedInputs } = await import('../src/settings/debug-line.js')
const { VALID, getter } = await import('./settings-inputs.js')

const TOKEN = 'xtok_7Hq2Lm9Vw4Rp8Ns1'

describe('a secret input added to the table', () => {
  it('is masked in the log and redacted, named as the table calls it', () => {
    Object.assign(given, { 'api-key': 'mint_abcdefghijklmnop', [EXTRA.name]: TOKEN })
    registerSecrets(...readSecretInputs())
    expect(setSecret).toHaveBeenCalledWith(TOKEN)
    expect(redact(`denied: ${TOKEN}`)).toBe('denied: ***')
    expect(redact(`denied: ${Buffer.from(`Bearer ${TOKEN}`).toString('base64')}`)).toBe(
      'denied: ***'
    )
    // A form masking cannot reach (a character between each of its letters): withheld whole.
    expect(redact(`denied: ${[...TOKEN].join('\u200b')}`)).toBe(withheld(EXTRA.secret))
    registerSecrets()
  })

  it('is shown as *** in the debug line when given, and empty when not', () => {
    const ctx = { now: new Date('2026-11-18T10:00:00Z'), workspace: '/ws', commentEvent: false }
    const set = readSettings(getter({ ...VALID, [EXTRA.name]: TOKEN }), ctx)
    expect(resolvedInputs(set)[EXTRA.name]).toBe('***')
    expect(JSON.stringify(resolvedInputs(set))).not.toContain(TOKEN.slice(5))
    expect(resolvedInputs(readSettings(getter(VALID), ctx))[EXTRA.name]).toBe('')
  })
})

// Unit tier: the key and the token removed from every echoed text.
import { secretsOf } from '../src/settings/names.js'
import { describe, it, expect, jest, beforeAll } from '@jest/globals'

// setSecret only prints `::add-mask::`; recorded here instead of written to the test's stdout.
const setSecret = jest.fn<(secret: string) => void>()
jest.unstable_mockModule('@actions/core', () => ({ setSecret }))
const { redact, redactDeep, redactParsed, registerSecrets } =
  await import('../src/secrets/redact.js')

const KEY = 'mint_SECRETKEY_do_not_leak_123'
const TOKEN = 'ghs_SECRETTOKEN_do_not_leak_456'

const b64 = (s: string): string => Buffer.from(s).toString('base64')
const b64url = (s: string): string => Buffer.from(s).toString('base64url')

/** Each way a service or proxy could echo the secret back. */
const FORMS: [string, (s: string) => string][] = [
  ['plain', s => s],
  ['URL-encoded', s => encodeURIComponent(s)],
  ['base64', b64],
  ['base64 without padding', s => b64(s).replace(/=+$/, '')],
  ['base64url', b64url],
  ['base64 of "Bearer <secret>"', s => b64(`Bearer ${s}`)],
  ['base64url of "Bearer <secret>"', s => b64url(`Bearer ${s}`)],
  ['base64 inside a longer encoded blob', s => b64(`{"headers":{"authorization":"${s}"}}`)],
  ['base64 at the second alignment', s => b64(`x${s}yz`)],
  ['base64 at the third alignment', s => b64(`xy${s}z`)],
  ['hex', s => Buffer.from(s).toString('hex')],
  ['JSON-escaped', s => JSON.stringify(s).slice(1, -1)]
]

/** Whether any trace of `secret` a reader could decode is left in `text`. */
function leaks(text: string, secret: string): boolean {
  const decodings = [
    text,
    ...text
      .split(/[^A-Za-z0-9+/=_-]+/)
      .flatMap(t => [
        Buffer.from(t, 'base64').toString('latin1'),
        Buffer.from(t, 'base64url').toString('latin1'),
        Buffer.from(t, 'hex').toString('latin1')
      ])
  ]
  let decoded = text
  try {
    decoded = decodeURIComponent(text)
  } catch {
    // not URL-encoded
  }
  return [...decodings, decoded].some(d => d.includes(secret))
}

describe('redact', () => {
  beforeAll(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it.each(FORMS)('removes the key and the token: %s', (_name, encode) => {
    for (const secret of [KEY, TOKEN]) {
      const text = `error: invalid credential ${encode(secret)} (see docs)`
      const clean = redact(text)
      expect(leaks(text, secret)).toBe(true)
      expect(leaks(clean, secret)).toBe(false)
      expect(clean).toContain('***')
      expect(clean.startsWith('error: invalid credential ')).toBe(true)
      expect(clean.endsWith(' (see docs)')).toBe(true)
    }
  })

  it('removes the token in the forms git and Basic auth carry it', () => {
    for (const form of [`token ${TOKEN}`, `x-access-token:${TOKEN}`]) {
      expect(redact(`auth: ${b64(form)}`)).not.toContain(b64(form))
    }
  })

  it('leaves text without secrets as it is', () => {
    const text = 'POST /v2/agent/p/job/j/message failed: 500 Internal Server Error: boom'
    expect(redact(text)).toBe(text)
    expect(redact('')).toBe('')
  })

  it('removes every line of a multi-line secret, each on its own', () => {
    registerSecrets(...secretsOf({ 'api-key': 'mint_first_line_abc\nsecond_line_def\n' }))
    const clean = redact('got second_line_def and mint_first_line_abc')
    expect(clean).toBe('got *** and ***')
    expect(setSecret).toHaveBeenCalledWith('second_line_def')
    expect(setSecret).toHaveBeenCalledWith('mint_first_line_abc')
    registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN }))
  })

  it('redacts a very short value as it is, not its encodings (common strings)', () => {
    registerSecrets(...secretsOf({ 'api-key': 'xyz' }))
    expect(redact('xyz 78797a eHl6 took 78 ms')).toBe('*** 78797a eHl6 took 78 ms')
    registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN }))
  })

  it('masks a value of one or two characters as it is (the finder that rules texts out reads two)', () => {
    for (const value of ['q', 'qz']) {
      registerSecrets(...secretsOf({ 'github-token': value }))
      expect(redact(`a ${value} b`)).toBe('a *** b')
    }
    registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN }))
  })

  it('masks each secret in the log when registered', () => {
    expect(setSecret).toHaveBeenCalledWith(KEY)
    expect(setSecret).toHaveBeenCalledWith(TOKEN)
  })
})

describe('redactDeep', () => {
  beforeAll(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it('cleans every string of a parsed answer, keys included, without changing the input', () => {
    const input = {
      id: 'job-1',
      prLink: `https://example.com/?k=${encodeURIComponent(KEY)}`,
      details: [{ message: `token ${TOKEN}` }, 7, null, true],
      [KEY]: { nested: [b64(`Bearer ${KEY}`)] }
    }
    const copy = JSON.parse(JSON.stringify(input)) as unknown
    const out = redactDeep(input)
    const text = JSON.stringify(out)
    expect(leaks(text, KEY)).toBe(false)
    expect(leaks(text, TOKEN)).toBe(false)
    expect(out.id).toBe('job-1')
    expect(out.details[1]).toBe(7)
    expect(out.details[2]).toBeNull()
    expect(input).toEqual(copy)
  })

  it('walks a value 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = KEY
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let out = redactDeep(deep)
    for (let i = 0; i < 100_000; i++) out = (out as unknown[])[0]
    expect(out).toBe('***')
  })
})

describe('redactParsed', () => {
  beforeAll(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it('finds a key hidden behind JSON escapes (\\u005f for _)', () => {
    const text = `{"echo":"${KEY.replace(/_/g, '\\u005f')}"}`
    const parsed = JSON.parse(text) as { echo: string }
    expect(parsed.echo).toBe(KEY)
    expect(redactParsed(text, parsed).echo).toBe('***')
  })

  it('finds a plain key, and leaves an answer without one untouched (the same object)', () => {
    const text = `{"a":["${KEY}"]}`
    expect(redactParsed(text, JSON.parse(text) as unknown)).toEqual({ a: ['***'] })
    const page = { visitors: [{ path: '/docs/a', total: 1 }] }
    expect(redactParsed(JSON.stringify(page), page)).toBe(page)
  })
})

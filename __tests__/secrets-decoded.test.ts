// Unit tier: redaction that decoding cannot undo: a secret echoed in a form that the plain masking
// does not know (every character escaped, split, interleaved with invisible characters, or clipped)
// is withheld with the whole text, never published in part.
import { secretsOf } from '../src/settings/names.js'
import { isInvisible } from '../src/public-text.js'
import { describe, it, expect, jest, beforeEach } from '@jest/globals'
import fc from 'fast-check'

const setSecret = jest.fn<(secret: string) => void>()
jest.unstable_mockModule('@actions/core', () => ({ setSecret }))
const { redact, redactParsed, registerSecrets, withheld } = await import('../src/secrets/redact.js')

const KEY = 'mint_9fK2LmQ7xW4pR8sT1vB6nZ3cY5hD0j'
const ODD_KEY = 'mint_a+b/c=d:e@f$g,h;i_0123456789'
const TOKEN = 'ghs_Tq8ZpL3vRw7NcY2mKx5HbJ9dFgA4'

const every = (s: string, f: (c: string) => string): string => [...s].map(f).join('')
const hex2 = (c: string): string => c.charCodeAt(0).toString(16).padStart(2, '0')

/** Forms a hostile or careless service could echo a secret in, which plain masking misses. */
const ENCODINGS: Array<[string, (s: string) => string]> = [
  ['every character percent-encoded, lower case', s => every(s, c => `%${hex2(c)}`)],
  ['every character percent-encoded, upper case', s => every(s, c => `%${hex2(c).toUpperCase()}`)],
  ['\\u-escaped', s => every(s, c => `\\u${hex2(c).padStart(4, '0')}`)],
  ['decimal entities', s => every(s, c => `&#${c.charCodeAt(0)};`)],
  ['hex entities', s => every(s, c => `&#x${hex2(c)};`)],
  ['named entity for _', s => s.replaceAll('_', '&#95;')],
  ['split across two lines', s => `${s.slice(0, 15)}\n${s.slice(15)}`],
  ['zero-width characters interleaved', s => every(s, c => `${c}\u200b`)],
  ['word joiners and direction marks', s => every(s, c => `\u2060${c}\u202e`)],
  ['percent-encoded twice', s => encodeURIComponent(every(s, c => `%${hex2(c)}`))]
]

/** Whether a reader could recover 12 or more characters of `secret` from `text`. */
function recoverable(text: string, secret: string): boolean {
  let d = text
  for (let i = 0; i < 3; i++) {
    d = d
      .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/&#([0-9]+);?/g, (_, n: string) => String.fromCodePoint(Number(n)))
      .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  }
  d = [...d]
    .filter(c => !isInvisible(c))
    .join('')
    .replace(/\s+/g, '')
  for (let i = 0; i + 12 <= secret.length; i++) if (d.includes(secret.slice(i, i + 12))) return true
  return false
}

describe('redact: forms that decoding reveals', () => {
  beforeEach(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it.each(ENCODINGS)('withholds a text holding the key or the token %s', (_name, encode) => {
    const secrets: Array<[string, string]> = [
      [KEY, 'the API key'],
      [TOKEN, 'the GitHub token']
    ]
    for (const [secret, name] of secrets) {
      const text = `{"error":"invalid credential ${encode(secret)}"}`
      expect(recoverable(text, secret)).toBe(true)
      const clean = redact(text)
      expect(recoverable(clean, secret)).toBe(false)
      expect(clean).toContain(name)
      expect(clean).toMatch(/^\[withheld: /)
    }
  })

  it('withholds a key with +/=:@$,; characters echoed with lower-case escapes', () => {
    registerSecrets(...secretsOf({ 'api-key': ODD_KEY, 'github-token': TOKEN }))
    const text = `bad key ${encodeURIComponent(ODD_KEY).replace(/%[0-9A-F]{2}/g, m => m.toLowerCase())}`
    expect(recoverable(redact(text), ODD_KEY)).toBe(false)
  })

  it('withholds a key clipped at a length limit (its first characters only)', () => {
    const long = `${'x'.repeat(460)} the key was ${KEY}`
    const clipped = long.slice(0, 500)
    expect(clipped).toContain(KEY.slice(0, 12))
    expect(redact(clipped)).toMatch(/^\[withheld: /)
  })

  it.each([
    ['the first 30 characters in the middle of a text', (k: string) => `x ${k.slice(0, 30)} y`],
    ['the secret part without its prefix', (k: string) => `Unknown key ${k.slice(5)}: refused`],
    ['12 characters from the middle', (k: string) => `seen ${k.slice(9, 21)} here`],
    ['Markdown backslash escapes', (k: string) => `key ${k.replace(/[_+/=]/g, c => `\\${c}`)}`],
    [
      'base64 wrapped at 76 columns',
      (k: string) =>
        Buffer.from(`{"headers":{"authorization":"Bearer ${k}"},"pad":"${'p'.repeat(60)}"}`)
          .toString('base64')
          .replace(/.{76}/g, '$&\n')
    ],
    ['hex of 12 characters', (k: string) => Buffer.from(k.slice(3, 15)).toString('hex')]
  ])('withholds a text holding %s', (_name, form) => {
    for (const key of [KEY, ODD_KEY]) {
      registerSecrets(...secretsOf({ 'api-key': key, 'github-token': TOKEN }))
      const text = form(key)
      expect(redact(text)).toBe(withheld('the API key'))
    }
  })

  it('keeps a text that shares fewer than 12 characters in a row with the key', () => {
    registerSecrets(...secretsOf({ 'api-key': 'mint_sim_0123456789abcdef', 'github-token': TOKEN }))
    const text = 'Fix <!-- docs-agent:route/x sig=0123456789a0123456789a0 --> now 456789abcde'
    expect(redact(text)).toBe(text)
  })

  it('keeps ordinary text, and a plain echo stays masked in place rather than withheld', () => {
    const ordinary = 'GET /v1/analytics/p/visitors failed: 503 Service Unavailable: try again'
    expect(redact(ordinary)).toBe(ordinary)
    expect(redact(`key ${KEY} refused`)).toBe('key *** refused')
    expect(redact('mint_ is the prefix of an admin key')).toBe(
      'mint_ is the prefix of an admin key'
    )
  })

  it('finds an encoded key in a parsed answer with no backslash in its text', () => {
    const encoded = every(KEY, c => `%${hex2(c)}`)
    const text = JSON.stringify({ id: 'j1', model: encoded })
    const value = redactParsed(text, JSON.parse(text) as { id: string; model: string })
    expect(value.id).toBe('j1')
    expect(value.model).toMatch(/^\[withheld: /)
  })

  it('searches a parsed answer field by field: a clip in the middle of one, a key split over two', () => {
    const text = JSON.stringify({
      id: 'j1',
      model: `claude ${KEY.slice(0, 30)}`,
      source: { repository: KEY.slice(0, 18), ref: KEY.slice(18) },
      note: 'fine'
    })
    const value = redactParsed(text, JSON.parse(text) as Record<string, unknown>)
    expect(value).toEqual({
      id: 'j1',
      model: withheld('the API key'),
      source: { repository: withheld('the API key'), ref: withheld('the API key') },
      note: 'fine'
    })
  })

  it('property: no encoding and no clip lets 12 characters of the key through', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENCODINGS.map(([, e]) => e), (s: string) => s),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        (encode, before, after, a, b) => {
          const text = `${before}${encode(KEY)}${after}`
          // The text clipped at its end or at its start, as a length limit leaves it.
          const cut = a % (text.length + 1)
          const clipped = b % 2 === 0 ? text.slice(0, cut) : text.slice(cut)
          return !recoverable(redact(clipped), KEY)
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe('registerSecrets: white space is no secret', () => {
  it('a key of only spaces or line breaks masks nothing, and no text is garbled', () => {
    setSecret.mockClear()
    registerSecrets(...secretsOf({ 'api-key': '   ', 'github-token': '\n' }))
    expect(setSecret).not.toHaveBeenCalled()
    expect(redact('Input `settle-time`: is not a duration')).toBe(
      'Input `settle-time`: is not a duration'
    )
  })
})

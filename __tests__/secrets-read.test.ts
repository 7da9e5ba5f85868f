// Unit tier: the secret search reads as a person or a decoder reads (issue 49 item 7). The key in
// look-alike letters of other scripts (Cyrillic, Greek, small capitals), with separators between
// its characters, reversed, in base32, and these forms stacked (each form alone and a few stacks:
// secrets-hidden.test.ts), is withheld whole, wherever the text is clipped, as the test's own
// detector (leaks.ts) reads it; 11 characters are not; ordinary prose, paths and encoded data that
// hold no secret are kept as they are.
import { secretsOf } from '../src/settings/names.js'
import { describe, it, expect, jest, beforeAll } from '@jest/globals'
import fc from 'fast-check'
import { skeletonOf } from '../src/secrets/skeleton.js'
import { holdsPart } from './leaks.js'
import {
  base32,
  base64,
  between,
  COMBINED_FORMS,
  fullWidth,
  hex,
  lookAlikes,
  marked,
  READING_FORMS,
  reversed,
  smallCapitals,
  tags,
  type Hide
} from './hiding.js'

const setSecret = jest.fn<(secret: string) => void>()
jest.unstable_mockModule('@actions/core', () => ({ setSecret }))
const { redact, registerSecrets, withheld } = await import('../src/secrets/redact.js')
const { oneLine } = await import('../src/public-text.js')

const KEY = 'mint_9fK2LmQ7xW4pR8sT1vB6nZ3cY5hD0j'
const TOKEN = 'ghs_Tq8ZpL3vRw7NcY2mKx5HbJ9dFgA4'

describe('the secret search reads as a person or a decoder reads', () => {
  beforeAll(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it('folds the look-alikes the issue names to Latin: Cyrillic а е о р с х, Greek ο ρ, small capitals ᴀ ʙ ᴄ', () => {
    expect(skeletonOf('аеорсх')).toBe('aeopcx')
    expect(skeletonOf('ΑΒΕΗΚΜΝΟΡΤΧΥΖ οριν')).toBe('abehkmnoptxyzoplv')
    expect(skeletonOf('ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ')).toBe('abcdefghljklmnopqrstuvwyz')
    // The letters and digits alone, in one case; 0 and o, 1, i and l alike.
    expect(skeletonOf('M.I.N.T._0-1')).toBe('mlntol')
  })

  it('withholds 12 characters of the key in any of the forms, and not 11', () => {
    const twelve = KEY.slice(5, 17)
    for (const [name, hide] of [...READING_FORMS, ...COMBINED_FORMS]) {
      expect({ name, out: redact(`see ${hide(twelve)} here`) }).toEqual({
        name,
        out: withheld('the API key')
      })
    }
    const eleven = KEY.slice(5, 16)
    for (const hide of [between('.'), reversed, lookAlikes, smallCapitals])
      expect(redact(`see ${hide(eleven)} here`)).toBe(`see ${hide(eleven)} here`)
  })

  it('the shortest runs that can hold 12 characters of the key are read, alone, in a text, wrapped; 11 are not', () => {
    // Reversed first: no encoded form of the key is looked for as such, the decoded run is read.
    const shortest: Array<[string, (s: string) => string, number]> = [
      ['hex', hex, 24],
      ['hex in upper case', s => hex(s).toUpperCase(), 24],
      ['base64', base64, 16],
      ['base32', s => base32(s).replace(/=+$/, ''), 20]
    ]
    const twelve = reversed(KEY.slice(5, 17))
    for (const [name, encode, length] of shortest) {
      const run = encode(twelve)
      expect({ name, length: run.length }).toEqual({ name, length })
      for (const text of [run, `see ${run} here`, `see ${run.slice(0, 7)}\n  ${run.slice(7)} here`])
        expect({ name, text, out: redact(text) }).toEqual({
          name,
          text,
          out: withheld('the API key')
        })
      const eleven = `see ${encode(reversed(KEY.slice(5, 16)))} here`
      expect(redact(eleven)).toBe(eleven)
    }
  })

  it('a run whose first characters a decoding eats is read as a decoder of the text as it is reads it', () => {
    // Found by the property below: `%6d` is percent-encoding of `m`, and the first byte of the hex.
    const dotted = hex(between('.')(KEY.slice(0, 13)))
    expect(redact(`%${dotted}`)).toBe(withheld('the API key'))
    expect(redact(`see %${dotted} here`)).toBe(withheld('the API key'))
  })

  it('half a surrogate pair between the characters hides none of them', () => {
    for (const half of ['\ud800', '\udbff', '\udc00'])
      expect(redact(`see ${between(half)(KEY.slice(5, 17))} here`)).toBe(withheld('the API key'))
  })

  it('ordinary text is kept as it is: prose in Latin, Cyrillic and Greek, paths, numbers, hashes and encoded data', () => {
    const texts = [
      'The visitors report: 12,345 unique visitors (+4.2%) between Nov 16 and Nov 22.',
      'Как настроить ключ API? Ответ: откройте настройки и создайте новый ключ.',
      'Η τεκμηρίωση του API: ρυθμίσεις, κλειδιά, όρια αιτήσεων.',
      'ᴛʜɪs ɪs ᴀ ʜᴇᴀᴅɪɴɢ ɪɴ sᴍᴀʟʟ ᴄᴀᴘɪᴛᴀʟs',
      '/docs/api-reference/authentication/overview /guides/getting-started/installation',
      'internationalization, counterrevolutionaries, uncharacteristically',
      'd3b07384d113edec49eaa6238ad5ff00 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      '550e8400-e29b-41d4-a716-446655440000',
      Buffer.from('an ordinary JSON blob {"a":1,"b":[2,3]} with no secret').toString('base64'),
      base32('another ordinary text, with no secret in it'),
      'mint_ is the prefix of an admin key; ghs_ starts an installation token.',
      '| /a | 1,234 | 5,678 |\n| /b | 9,012 | 3,456 |'
    ]
    for (const text of texts) expect(redact(text)).toBe(text)
  })

  it('property: the key through any stack of the forms, inside any text, clipped anywhere: no 12 characters pass', () => {
    const form = fc.constantFrom<Hide>(
      between('.'),
      between('-'),
      between(' '),
      reversed,
      lookAlikes,
      smallCapitals,
      fullWidth,
      marked('\u0301'),
      between('\u200b')
    )
    const encoding = fc.constantFrom<Hide | undefined>(undefined, base32, base64, hex, tags)
    fc.assert(
      fc.property(
        fc.array(form, { minLength: 1, maxLength: 3 }),
        encoding,
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        fc.nat(),
        fc.boolean(),
        (forms, encode, before, after, at, fromStart) => {
          const shown = forms.reduce((s, hide) => hide(s), KEY)
          const text = `${before}${encode ? encode(shown) : shown}${after}`
          const cut = at % (text.length + 1)
          const clipped = fromStart ? text.slice(0, cut) : text.slice(cut)
          // As published: redacted, then cleaned as public text (a log line, a table cell).
          const published = redact(clipped)
          return !holdsPart(published, KEY) && !holdsPart(oneLine(published), KEY)
        }
      ),
      { numRuns: 1000 }
    )
  })
})

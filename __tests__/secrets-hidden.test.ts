// Unit tier: a secret hidden the ways an attacker hid the key from the search (issue 41): between
// characters no reader sees but that are not default-ignorable (every format character, the
// braille blank, the object replacement, private-use and unassigned code points), with a
// combining mark after each letter (every mark there is), in full-width or other compatibility
// letters, spelled in tag characters, smuggled in variation selectors; and in the forms a person
// or a decoder reads (issue 49 item 7: secrets-read.test.ts). Whatever the form, and
// wherever the text is clipped, redact() lets no 12 characters of it through once decoded as the
// test's own detector (leaks.ts) decodes, which is written apart from the action's search.
import { secretsOf } from '../src/settings/names.js'
import { describe, it, expect, jest, beforeAll } from '@jest/globals'
import fc from 'fast-check'
import { holdsPart } from './leaks.js'
import {
  between,
  bold,
  COMBINED_FORMS,
  everyCodePoint,
  fullWidth,
  HIDING_FORMS,
  marked,
  NOT_IGNORABLE,
  PRIVATE_USE,
  READING_FORMS,
  smuggled,
  tags,
  UNASSIGNED,
  type Hide
} from './hiding.js'

const setSecret = jest.fn<(secret: string) => void>()
jest.unstable_mockModule('@actions/core', () => ({ setSecret }))
const { redact, registerSecrets, withheld } = await import('../src/secrets/redact.js')
const { oneLine } = await import('../src/public-text.js')

const KEY = 'mint_9fK2LmQ7xW4pR8sT1vB6nZ3cY5hD0j'
const TOKEN = 'ghs_Tq8ZpL3vRw7NcY2mKx5HbJ9dFgA4'

const FORMAT = everyCodePoint(/^\p{Cf}$/u)
const MARKS = everyCodePoint(/^\p{M}$/u)

const FORMS: Array<[string, Hide]> = [
  ...HIDING_FORMS,
  ['tag characters, percent-encoded', s => encodeURIComponent(tags(s))],
  [
    'tag characters as HTML entities',
    s => Array.from(tags(s), c => `&#${c.codePointAt(0)};`).join('')
  ],
  ...READING_FORMS,
  ...COMBINED_FORMS
]

describe('a secret hidden in forms the default-ignorable list misses', () => {
  beforeAll(() => registerSecrets(...secretsOf({ 'api-key': KEY, 'github-token': TOKEN })))

  it.each(FORMS)('withholds the key and the token: %s', (_name, hide) => {
    for (const [secret, name] of [
      [KEY, 'the API key'],
      [TOKEN, 'the GitHub token']
    ] as const) {
      const text = `{"error":"invalid credential ${hide(secret)}"}`
      // The detector can see it: the test can fail.
      expect(holdsPart(text, secret)).toBe(true)
      expect(redact(text)).toBe(withheld(name))
    }
  })

  it('every format character (Cf) between letters, one at a time: withheld', () => {
    expect(FORMAT.length).toBeGreaterThan(150)
    const missed = FORMAT.filter(c => redact(between(c)(KEY)) !== withheld('the API key'))
    expect(missed.map(c => c.codePointAt(0)!.toString(16))).toEqual([])
  })

  it('every combining mark (M) after each letter, one at a time: withheld', () => {
    expect(MARKS.length).toBeGreaterThan(2000)
    const missed = MARKS.filter(m => redact(marked(m)(KEY)) !== withheld('the API key'))
    expect(missed.map(c => c.codePointAt(0)!.toString(16))).toEqual([])
  })

  it('private-use and unassigned code points between letters: withheld', () => {
    for (const c of [...PRIVATE_USE, ...UNASSIGNED])
      expect(redact(between(c)(KEY))).toBe(withheld('the API key'))
  })

  it('ordinary text beyond ASCII is kept as it is', () => {
    for (const text of [
      'Café crème, naïve façade: ａｂｃ and 𝐛𝐨𝐥𝐝',
      'Warum schlägt der Schlüssel fehl? 🔑\ufe0f',
      '日本語のドキュメント',
      'mint_ is the prefix of an admin key'
    ])
      expect(redact(text)).toBe(text)
  })

  it('property: no separator, mark, width or spelling, clipped anywhere, lets 12 characters through', () => {
    const separator = fc.constantFrom(...FORMAT, ...NOT_IGNORABLE, ...PRIVATE_USE, ...UNASSIGNED)
    const mark = fc.constantFrom(...MARKS)
    const form = fc.oneof(
      separator.map(between),
      mark.map(marked),
      fc.constantFrom(fullWidth, tags, smuggled, bold),
      fc.tuple(separator, mark).map(
        ([s, m]) =>
          (k: string) =>
            between(s)(marked(m)(fullWidth(k)))
      )
    )
    fc.assert(
      fc.property(
        form,
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        fc.nat(),
        fc.boolean(),
        (hide, before, after, at, fromStart) => {
          const text = `${before}${hide(KEY)}${after}`
          const cut = at % (text.length + 1)
          const clipped = fromStart ? text.slice(0, cut) : text.slice(cut)
          // As published: redacted, then cleaned as public text (a log line, a table cell).
          const published = redact(clipped)
          return !holdsPart(published, KEY) && !holdsPart(oneLine(published), KEY)
        }
      ),
      { numRuns: 1500 }
    )
  })
})

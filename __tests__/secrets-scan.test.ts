// Unit tier: the secret search's cheap paths read all that its definitions read. The one pass over
// a text (scan.ts) keeps what the patterns keep and makes the skeleton skeletonOf makes, for every
// code point; where it says that no run a decoder takes can be there, decodedRuns finds none, and
// the shortest runs that can hold 12 characters are still seen, wrapped or not, in a stretch of any
// length; a hex run is left undecoded only where no character could begin; the finder, which reads
// a text at every sixth character, finds every 12 characters of a needle wherever they start, and
// never 11.
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { NOTHING_BETWEEN, NOTHING_BUT_LETTERS, scan } from '../src/secrets/scan.js'
import { skeletonOf } from '../src/secrets/skeleton.js'
import { decodedRuns } from '../src/secrets/encodings.js'
import { PartFinder } from '../src/secrets/finder.js'
import { base32, base64, hex, reversed } from './hiding.js'

const KEY = 'mint_9fK2LmQ7xW4pR8sT1vB6nZ3cY5hD0j'
// eslint-disable-next-line no-control-regex -- the ASCII range is what is tested
const BEYOND_ASCII = /[^\u0000-\u007f]/
// eslint-disable-next-line no-misleading-character-class -- variation selectors alone are what is tested
const SPELLING = /[\ufe00-\ufe0f\u{e0020}-\u{e007e}\u{e0100}-\u{e01ef}]/u

/** What the pass must give for `text`, from the patterns and skeletonOf. */
function expectAsPatterns(text: string): void {
  const plain = text.replace(NOTHING_BETWEEN, '')
  const letters = text.replace(NOTHING_BUT_LETTERS, '')
  const read = scan(text)
  expect(read.kept).toBe(plain)
  expect(read.skeleton).toBe(skeletonOf(plain))
  expect(read.wide).toBe(BEYOND_ASCII.test(text))
  expect(read.marks).toBe(letters !== plain)
  expect(read.spells).toBe(SPELLING.test(text))
  if (!read.runs) expect(decodedRuns(text)).toBe('')
  const lettersRead = scan(text, 'letters')
  expect(lettersRead.kept).toBe(letters)
  expect(lettersRead.skeleton).toBe(skeletonOf(letters))
}

/** Pieces of text the pass treats each its own way. */
const PIECES = [
  ...[
    'a',
    'Z',
    'f',
    'F',
    '2',
    '7',
    '9',
    '+',
    '/',
    '=',
    '-',
    '_',
    '.',
    '|',
    '"',
    '\u007f',
    '\u0000'
  ],
  ...[' ', '\t', '\r', '\n', '\r\n', ' \n ', '\v', '\f', '\u0085', '\u00a0', '\u2028', '\u3000'],
  ...['\u200b', '\u2060', '\u202e', '\ufeff', '\u00ad', '\u2800', '\ufffc', '\ue000', '\u0378'],
  ...['\u0301', '\u0308', '\u20dd', 'é', 'e\u0301', 'ｍ', 'ⅰ', '·', '–', 'а', 'ο', 'ᴀ', 'ß'],
  ...['\u{e0061}', '\u{e0041}', '\u{e007f}', '\ufe0f', '\ufe00', '\u{e0100}', '\u{e01ef}'],
  ...['🙂', '\u{1d41a}', '\u{10450}', '\u{1d7ce}', '\u{2fffe}', '\u{f0041}', '\u{1f3fb}'],
  // Halves of a pair alone, and a pair the removal of what stands between them makes.
  ...['\ud800', '\udbff', '\udc00', '\udfff', '\ud835\u200b\udc1a', '\ud801\u0301\udc50']
]
const piece = fc.oneof(
  fc.constantFrom(...PIECES),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.uint8Array({ minLength: 6, maxLength: 30 }).map(b => Buffer.from(b).toString('hex')),
  fc.uint8Array({ minLength: 6, maxLength: 30 }).map(b => Buffer.from(b).toString('base64')),
  fc.string({ minLength: 6, maxLength: 30 }).map(s => base32(s).replace(/=+$/, '')),
  fc.string({ minLength: 6, maxLength: 30 }).map(s => hex(s).toUpperCase())
)

describe('the one pass over a text (scan.ts)', () => {
  it('keeps what the patterns keep and makes the skeleton skeletonOf makes, for every code point', () => {
    const codes: number[] = []
    for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c)
    // Each code point between two letters, so that each is read where it stands.
    const all = codes.map(c => `a${String.fromCodePoint(c)}`).join('')
    expectAsPatterns(all)
  })

  it('property: any text, of any pieces, reads as the patterns read it', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), pieces => {
        expectAsPatterns(pieces.join(''))
      }),
      { numRuns: 2000 }
    )
  })

  it('reads long texts (past the buffers it keeps) as short ones', () => {
    const long = 70_000
    for (const text of [
      `${'x'.repeat(long)} é ${base64('a text of bytes, readable once decoded')}`,
      `${'ab\u200bc '.repeat(long / 5)}${hex('twelve chars, at the end')}`,
      'аb ｍｉｎｔ\u{e0061}\u0301 '.repeat(long / 10),
      'y'.repeat(long)
    ])
      expectAsPatterns(text)
  })
})

describe('what the pass tells of runs: the shortest that hold 12 characters are seen', () => {
  const twelve = reversed(KEY.slice(5, 17))
  const shortest: Array<[string, string]> = [
    ['hex, 24 digits', hex(twelve)],
    ['hex in upper case, 24 digits', hex(twelve).toUpperCase()],
    ['base64, 16 characters', base64(twelve)],
    ['base32, 20 characters', base32(twelve).replace(/=+$/, '')]
  ]

  it.each(shortest)('%s: seen and decoded, alone, in a text, wrapped', (_name, run) => {
    expect(run.length).toBeLessThanOrEqual(24)
    const texts = [run, `see ${run} here`, `"path":"/a","code":"${run}"`]
    for (let at = 1; at < run.length; at++)
      for (const wrap of ['\n', '\r\n', ' \n ', '\t\n'])
        texts.push(`see ${run.slice(0, at)}${wrap}${run.slice(at)} here`)
    for (const text of texts) {
      expect({ text, runs: scan(text).runs }).toEqual({ text, runs: true })
      expect(decodedRuns(text).split('\n')).toContain(twelve)
    }
  })

  it('a run one character shorter, or one a space breaks, is none', () => {
    for (const run of [hex(twelve).slice(1), base64(twelve).slice(1)]) {
      expect(scan(`see ${run} here`).runs).toBe(false)
      expect(scan(`see ${run.slice(0, 9)} ${run.slice(9)}x here`).runs).toBe(false)
    }
    // Inside a longer stretch of one case: 15 characters of base32 and 23 digits of hex are none,
    // 16 and 24 are.
    expect(scan(`/DOCS/${'Z'.repeat(15)}/X`).runs).toBe(false)
    expect(scan(`/docs/${'e'.repeat(23)}/x`).runs).toBe(false)
    expect(scan(`/DOCS/${'Z'.repeat(16)}/X`).runs).toBe(true)
    expect(scan(`/docs/${'e'.repeat(24)}/x`).runs).toBe(true)
  })

  it('a run at either end of a stretch of any length is seen', () => {
    for (const length of [0, 100, 999, 1000, 1001, 5000])
      for (const run of [hex(twelve), base32(twelve).replace(/=+$/, '')]) {
        const filler = 'g'.repeat(length)
        for (const text of [`${filler}${run}`, `${run}${filler}`, `x ${filler}${run}/y`]) {
          expect(scan(text).runs).toBe(true)
          expect(decodedRuns(text).split('\n')).toContain(twelve)
        }
      }
  })

  it('a hex run is decoded unless no character of text could begin in it', () => {
    // Six characters of four bytes (12 UTF-16 units): the least that is read, and is.
    const six = '\u{1f642}'.repeat(6)
    expect(decodedRuns(hex(six))).toBe(six)
    expect(decodedRuns(hex(six).toUpperCase())).toBe(six)
    // Bytes that only continue a character, over and over: nothing to decode.
    for (const digits of ['a', 'b', '8', '9a', 'ab'])
      expect(decodedRuns(digits.repeat(100_000))).toBe('')
  })
})

describe('the finder (finder.ts): a text read at every sixth character', () => {
  const needles = [{ name: 'key', text: KEY, part: 12 }]
  const finder = new PartFinder(needles)

  it('finds any 12 characters of a needle wherever they start in the text, and never 11', () => {
    for (let from = 0; from + 12 <= KEY.length; from++)
      for (let before = 0; before < 12; before++) {
        const pad = '#'.repeat(before)
        expect(finder.find(`${pad}${KEY.slice(from, from + 12)}#`)).toBe('key')
        expect(finder.find(`${pad}${KEY.slice(from, from + 11)}#`)).toBeUndefined()
      }
  })

  it('finds a short needle whole (a part below 12) wherever it starts, and no less of it', () => {
    const short = new PartFinder([{ name: 'short', text: 'q7Zx2Lm', part: 7 }])
    for (let before = 0; before < 8; before++) {
      expect(short.find(`${'#'.repeat(before)}q7Zx2Lm#`)).toBe('short')
      expect(short.find(`${'#'.repeat(before)}q7Zx2L#7Zx2Lm`)).toBeUndefined()
    }
  })

  it('property: finds what a plain search for every 12 characters finds', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.nat(KEY.length - 1),
        fc.nat(KEY.length),
        fc.string({ maxLength: 20 }),
        (before, from, to, after) => {
          const text = `${before}${KEY.slice(from, to)}${after}`
          let holds = false
          for (let i = 0; i + 12 <= KEY.length; i++) holds ||= text.includes(KEY.slice(i, i + 12))
          return (finder.find(text) === 'key') === holds
        }
      ),
      { numRuns: 3000 }
    )
  })
})

// The forms an attacker hid the key in to get it past the secret search (issue 41), for the unit
// and the scenario tests alike: between characters no reader sees that are not default-ignorable
// (the interlinear annotation marks, the hieroglyph format controls, the braille blank, the
// object replacement), private-use and unassigned code points, a combining mark after each
// letter, full-width and mathematical letters, tag characters, variation selectors.

export type Hide = (secret: string) => string

const every = (s: string, f: (c: string) => string): string => Array.from(s, f).join('')

/** Every code point but the surrogates, in order, as one text (built on first use). */
let allCodePoints: string | undefined

function everyCodePointText(): string {
  const blocks: string[] = []
  for (let start = 0; start <= 0x10ffff; start += 0x1000) {
    const codes: number[] = []
    for (let c = start; c < start + 0x1000 && c <= 0x10ffff; c++)
      if (c < 0xd800 || c > 0xdfff) codes.push(c)
    blocks.push(String.fromCodePoint(...codes))
  }
  return blocks.join('')
}

/**
 * Every code point with a property, as strings (surrogates left out). `property` is one property
 * escape, whole (`/^\p{Cf}$/u`): one search of every code point finds them (a test of each of the
 * 1,114,112 alone took a second a file), each then checked against `property` itself.
 */
export function everyCodePoint(property: RegExp): string[] {
  const escape = /^\^(\\p\{[^}]+\})\$$/.exec(property.source)
  if (!escape || !property.unicode) throw new Error(`not one whole property escape: ${property}`)
  allCodePoints ??= everyCodePointText()
  const found: string[] = []
  for (const [c] of allCodePoints.matchAll(new RegExp(escape[1]!, 'gu')))
    if (property.test(c)) found.push(c)
  return found
}

/** Separators that are neither default-ignorable nor white space: what the attacker used. */
export const NOT_IGNORABLE = [
  '\ufff9',
  '\ufffa',
  '\ufffb',
  '\u2800',
  '\ufffc',
  '\u{13430}',
  '\u{1343f}'
]
export const PRIVATE_USE = ['\ue000', '\uf8ff', '\u{f0041}', '\u{10fffd}']
export const UNASSIGNED = ['\u0378', '\u{2fffe}', '\u{e0080}', '\u{10ffff}']

export const between =
  (separator: string): Hide =>
  s =>
    Array.from(s).join(separator)
export const marked =
  (mark: string): Hide =>
  s =>
    every(s, c => `${c}${mark}`)
export const fullWidth: Hide = s =>
  every(s, c => (c >= '!' && c <= '~' ? String.fromCodePoint(c.charCodeAt(0) + 0xfee0) : c))
export const tags: Hide = s => every(s, c => String.fromCodePoint(0xe0000 + c.charCodeAt(0)))
/** An emoji carrying the text's bytes in variation selectors (VS1–16, then VS17–256). */
export const smuggled: Hide = s =>
  `🙂${Array.from(Buffer.from(s), b => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('')}`
/** Mathematical bold letters and digits where there are some (NFKD reads them as ASCII). */
export const bold: Hide = s =>
  every(s, c =>
    /[a-z]/.test(c)
      ? String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 97)
      : /[A-Z]/.test(c)
        ? String.fromCodePoint(0x1d400 + c.charCodeAt(0) - 65)
        : /[0-9]/.test(c)
          ? String.fromCodePoint(0x1d7ce + c.charCodeAt(0) - 48)
          : c
  )

/** The forms of the attack's report, each named for a failure to show. */
export const HIDING_FORMS: Array<[string, Hide]> = [
  ...NOT_IGNORABLE.map((c): [string, Hide] => [
    `U+${c.codePointAt(0)!.toString(16).toUpperCase()} between letters`,
    between(c)
  ]),
  ['a combining acute after each letter', marked('\u0301')],
  ['combining marks stacked after each letter', marked('\u0300\u0336\u20dd')],
  ['full-width letters', fullWidth],
  ['full-width letters with U+2800 between', s => between('\u2800')(fullWidth(s))],
  ['mathematical bold letters', bold],
  ['tag characters', tags],
  ['variation selectors after an emoji', smuggled],
  ['private-use code points between letters', between('\ue000')],
  ['unassigned code points between letters', between('\u0378')]
]

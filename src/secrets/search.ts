// Where a secret hides in a text once a reader decodes it: the readings a person or a decoder
// could make of a text (entities, `\u`, `\x`, JSON and Markdown backslash escapes, percent-
// encoding; what a reader cannot read and white space between the characters; compatibility
// forms such as full-width letters, and combining marks; tag characters and variation selectors
// read as the characters they spell), and a search of those readings for any long enough part of
// a secret, raw, in base64 (wrapped or not, at any alignment) or in hex. Pure: redact.ts decides
// what the secrets are and what to do with a text that holds one.
import { INVISIBLE_CLASS } from '../public-text.js'

/**
 * White space, control characters and what a reader cannot read (the one definition of
 * invisible, public-text.ts): nothing a reader sees between two letters.
 */
const NOTHING_BETWEEN = new RegExp(`[\\s\\p{Cc}${INVISIBLE_CLASS}]+`, 'gu')
/** The same, and combining marks: what is left of a letter once its compatibility form is read. */
const NOTHING_BUT_LETTERS = new RegExp(`[\\s\\p{Cc}\\p{M}${INVISIBLE_CLASS}]+`, 'gu')
// eslint-disable-next-line no-control-regex -- the ASCII range is what is tested
const BEYOND_ASCII = /[^\u0000-\u007f]/
/** Tag characters that tag a printable ASCII character (U+E0020–E007E). */
const TAG = /[\u{e0020}-\u{e007e}]/gu
/**
 * Variation selectors, 256 of them (VS1–16 U+FE00–FE0F, VS17–256 U+E0100–E01EF): a run of them
 * after any character carries bytes, one each, and renders as that character alone.
 */
const SELECTORS = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]+/gu

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  lowbar: '_',
  UnderBar: '_',
  hyphen: '-',
  dash: '-',
  period: '.',
  colon: ':',
  sol: '/',
  bsol: '\\',
  plus: '+',
  equals: '=',
  commat: '@',
  dollar: '$',
  comma: ',',
  semi: ';',
  num: '#',
  percnt: '%',
  excl: '!',
  quest: '?',
  nbsp: ' '
}

/**
 * `text` as a reader could read it. `decoded`: entities, backslash escapes (`\u`, `\x`, JSON's
 * `\n`, and Markdown's `\_`, `\+`, …) and percent-encoding decoded, repeatedly for double
 * encodings. `readings`: that text with white space, control and invisible characters removed (a
 * secret split across lines, a base64 text wrapped at 76 columns, or one interleaved with
 * invisible characters reads whole); where it holds more than ASCII, also its compatibility
 * decomposition (NFKD: full-width and other compatibility letters read as plain ones) without
 * combining marks; and where it holds tag characters or variation selectors, the text they spell
 * (each tag its ASCII character, each run of selectors its bytes), decoded and read again.
 */
export function readingOf(text: string): { decoded: string; readings: string[] } {
  const decoded = decodeAll(text)
  const readings = [decoded.replace(NOTHING_BETWEEN, '')]
  if (!BEYOND_ASCII.test(decoded)) return { decoded, readings }
  readings.push(lettersOf(decoded))
  const spelled = spelledOut(decoded)
  if (spelled !== decoded) readings.push(lettersOf(decodeAll(spelled)))
  return { decoded, readings }
}

/** Entities, escapes and percent-encoding decoded, up to three times (a double encoding). */
function decodeAll(text: string): string {
  let d = text
  for (let round = 0; round < 3; round++) {
    const next = decodePercent(decodeEscapes(decodeEntities(d)))
    if (next === d) break
    d = next
  }
  return d
}

/** The compatibility form of each letter, nothing between them: what a reader recognises. */
function lettersOf(text: string): string {
  return text.normalize('NFKD').replace(NOTHING_BUT_LETTERS, '')
}

/** Tag characters as the ASCII characters they tag, and runs of variation selectors as bytes. */
function spelledOut(text: string): string {
  return text
    .replace(TAG, tag => String.fromCharCode(tag.codePointAt(0)! - 0xe0000))
    .replace(SELECTORS, run => Buffer.from(Array.from(run, selectorByte)).toString('utf8'))
}

function selectorByte(selector: string): number {
  const code = selector.codePointAt(0)!
  return code <= 0xfe0f ? code - 0xfe00 : code - 0xe0100 + 16
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,10});?/g, (m, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body] ?? m
    const code =
      body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : Number(body.slice(1))
    return fromCode(m, code)
  })
}

// One pass, left to right, so `\\u0041` is an escaped backslash before `u0041` (as JSON and
// Markdown read it) and the next round decodes what that leaves.
const ESCAPE =
  /\\(?:u\{([0-9a-fA-F]{1,6})\}|[uU]([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([nrtbfv])|([!-/:-@[-`{-~]))/g

function decodeEscapes(s: string): string {
  if (!s.includes('\\')) return s
  return s.replace(
    ESCAPE,
    (m, braced?: string, u?: string, x?: string, space?: string, punct?: string) => {
      if (punct !== undefined) return punct
      if (space !== undefined) return ' '
      return fromCode(m, parseInt(braced ?? u ?? x ?? '', 16))
    }
  )
}

function fromCode(original: string, code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : original
}

function decodePercent(s: string): string {
  if (!s.includes('%')) return s
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, run => {
    try {
      return decodeURIComponent(run)
    } catch {
      // Not UTF-8: each byte as a Latin-1 character, which is what an ASCII secret is.
      return run.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) =>
        String.fromCharCode(parseInt(h, 16))
      )
    }
  })
}

/** A text to look for, and how many characters of it in a row make a leak. */
interface Needle {
  name: string
  text: string
  part: number
}

/** A part of a secret this long, anywhere, is already worth withholding (a clip leaves one). */
const PART_CHARS = 12

/**
 * The needles of one secret: itself (any PART_CHARS characters of it), its base64 at each of the
 * three byte alignments, standard and URL-safe (any PART_CHARS characters of the part its bytes
 * alone decide, about 9 bytes of the secret: so a part of it inside any longer base64 text, wrapped
 * or not, is found), and its hex in either case (any 2 × PART_CHARS digits).
 */
export function needlesOf(name: string, secret: string): Needle[] {
  const part = Math.min(PART_CHARS, secret.length)
  const needles: Needle[] = [{ name, text: secret, part }]
  const bytes = Buffer.from(secret)
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    const inner = b64.slice(
      Math.ceil((8 * shift) / 6),
      Math.floor((8 * (shift + bytes.length)) / 6)
    )
    if (inner.length < PART_CHARS) continue
    const url = inner.replace(/\+/g, '-').replace(/\//g, '_')
    for (const text of new Set([inner, url])) needles.push({ name, text, part: PART_CHARS })
  }
  const hex = bytes.toString('hex')
  for (const text of new Set([hex, hex.toUpperCase()]))
    needles.push({ name, text, part: Math.min(2 * PART_CHARS, hex.length) })
  return needles
}

/**
 * Finds any `part` characters in a row of any needle, anywhere in a text. Every run of `part`
 * characters of a needle holds one of its anchors (its blocks of `block` characters at multiples
 * of `block`, with 2 × block ≤ part), so one native regular-expression pass looks for the anchors
 * alone; only where one turns up is the match grown to both sides and measured. An export's pages
 * cost one pass each, whatever the number of needles.
 */
export class PartFinder {
  private readonly block: number
  private readonly anchors = new Map<string, Array<{ needle: Needle; at: number }>>()
  private readonly pattern: RegExp | undefined

  constructor(needles: Needle[]) {
    const usable = needles.filter(n => n.part >= 2 && n.text.length >= n.part)
    this.block = Math.max(1, Math.min(6, ...usable.map(n => Math.floor(n.part / 2))))
    for (const needle of usable)
      for (let at = 0; at + this.block <= needle.text.length; at += this.block) {
        const anchor = needle.text.slice(at, at + this.block)
        const list = this.anchors.get(anchor) ?? []
        list.push({ needle, at })
        this.anchors.set(anchor, list)
      }
    const alternatives = [...this.anchors.keys()].map(a => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    // Global: exec walks the text from lastIndex (UTF-16 units, as the anchors were cut).
    this.pattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'g') : undefined
  }

  /** The name of the first needle a part of which `text` holds, or undefined. */
  find(text: string): string | undefined {
    const pattern = this.pattern
    if (pattern === undefined || text.length < this.block) return undefined
    pattern.lastIndex = 0
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const found = this.grow(text, m.index, m[0])
      if (found !== undefined) return found
      // Anchors may overlap: look again one character on.
      pattern.lastIndex = m.index + 1
    }
    return undefined
  }

  /** The needle whose anchor at `start` grows, to both sides, into a part long enough. */
  private grow(text: string, start: number, anchor: string): string | undefined {
    for (const { needle, at } of this.anchors.get(anchor) ?? []) {
      const n = needle.text
      let left = 0
      while (at - left > 0 && start - left > 0 && text[start - left - 1] === n[at - left - 1])
        left++
      let right = 0
      const after = at + this.block
      while (after + right < n.length && text[start + this.block + right] === n[after + right])
        right++
      if (left + this.block + right >= needle.part) return needle.name
    }
    return undefined
  }
}

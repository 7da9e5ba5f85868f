// Where a secret hides in a text once a reader decodes it: the readings a person or a decoder
// could make of a text (entities, `\u`, `\x`, JSON and Markdown backslash escapes, percent-
// encoding; what a reader cannot read and white space between the characters; compatibility
// forms such as full-width letters, and combining marks; tag characters and variation selectors
// read as the characters they spell; look-alike letters of other scripts folded to Latin, with the
// letters and digits alone, whatever separates them; base32, base64 and hex runs decoded and read
// again), and a search of those readings for any long enough part of a secret, forwards or
// reversed, raw, as its look-alike skeleton, or in base64 (wrapped or not, at any alignment),
// base32 or hex. Pure: redact.ts decides what the secrets are and what to do with a text that
// holds one.
import { decodedRuns } from './encodings.js'
import { needlesOf, PartFinder, skeletonNeedlesOf } from './finder.js'
import { scan } from './scan.js'

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
 * encodings. `readings` and `skeletons`: those of that text (readingsOf), and those of what its
 * base32, base64 and hex runs decode to, before and after that decoding (decoded once: an
 * encoding of an encoding is found by the encoded forms searched in the first).
 */
export function readingOf(text: string): {
  decoded: string
  readings: string[]
  skeletons: string[]
} {
  const decoded = decodeAll(text)
  const { readings, skeletons, runs } = readingsOf(decoded)
  // The pass that made the readings saw no stretch a run could come from: decodedRuns finds none.
  // Decoding can eat the first characters of a run (`%6d2e69…` reads `m2e69…`) that a decoder of
  // the text as it is takes: there, the runs of that text too.
  const decodedText = [runs ? decodedRuns(decoded) : '', decoded !== text ? decodedRuns(text) : '']
    .filter(d => d !== '')
    .join('\n')
  if (decodedText !== '') {
    const inRuns = readingsOf(decodeAll(decodedText))
    readings.push(...inRuns.readings)
    skeletons.push(...inRuns.skeletons)
  }
  return { decoded, readings, skeletons }
}

/**
 * A decoded text's readings: with white space, control and invisible characters removed (a
 * secret split across lines, a base64 text wrapped at 76 columns, or one interleaved with
 * invisible characters reads whole); where it holds more than ASCII, also its compatibility
 * decomposition (NFKD: full-width and other compatibility letters read as plain ones) without
 * combining marks; where it holds tag characters or variation selectors, the text they spell
 * (each tag its ASCII character, each run of selectors its bytes), decoded and read again. And the
 * skeleton of each letters' reading (skeletonOf: look-alikes folded to Latin, the letters and
 * digits alone). One pass (scan.ts) makes the first reading and its skeleton, and tells which of
 * the others can differ from it: a reading that would repeat one is not made again. `runs`:
 * whether the text may hold a run a decoder takes (Scan.runs).
 */
function readingsOf(decoded: string): { readings: string[]; skeletons: string[]; runs: boolean } {
  const plain = scan(decoded)
  if (!plain.wide) return { readings: [plain.kept], skeletons: [plain.skeleton], runs: plain.runs }
  // No compatibility form and no combining mark: the letters' reading is the plain one.
  const compatible = decoded.normalize('NFKD')
  const letters = compatible === decoded && !plain.marks ? plain : scan(compatible, 'letters')
  const readings = letters.kept === plain.kept ? [plain.kept] : [plain.kept, letters.kept]
  const skeletons = [letters.skeleton]
  const spelled = plain.spells ? spelledOut(decoded) : decoded
  if (spelled !== decoded) {
    const spelledLetters = scan(decodeAll(spelled).normalize('NFKD'), 'letters')
    readings.push(spelledLetters.kept)
    skeletons.push(spelledLetters.skeleton)
  }
  return { readings, skeletons, runs: plain.runs }
}

/**
 * Whether reading `secret` changes it (decoding, invisible characters, compatibility forms):
 * then a text is searched as it is too, since its readings no longer hold the secret verbatim.
 * The skeleton is left out: the secret's own skeleton is searched for.
 */
export function changedByReading(secret: string): boolean {
  const decoded = decodeAll(secret)
  if (decoded !== secret || scan(decoded).kept !== secret) return true
  return BEYOND_ASCII.test(secret) && scan(secret.normalize('NFKD'), 'letters').kept !== secret
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

/**
 * The search of a text's readings for any long enough part of the secrets: its readings for each
 * secret, its encoded forms and their reversals, its skeletons for each secret's skeleton (a
 * finder each, so that each pass looks for the anchors that can be there only).
 */
export class SecretSearch {
  private readonly inText: PartFinder
  private readonly inSkeleton: PartFinder
  /** A secret holds a character decoding changes or removes: the text as it is is searched too. */
  private readonly odd: boolean

  constructor(secrets: ReadonlyArray<readonly [name: string, value: string]>) {
    this.inText = new PartFinder(secrets.flatMap(([name, value]) => needlesOf(name, value)))
    this.inSkeleton = new PartFinder(
      secrets.flatMap(([name, value]) => skeletonNeedlesOf(name, value))
    )
    this.odd = secrets.some(([, value]) => changedByReading(value))
  }

  /** The name of the secret any long enough part of which `text` reveals once read, if any. */
  find(text: string): string | undefined {
    const { decoded, readings, skeletons } = readingOf(text)
    for (const reading of readings) {
      const found = this.inText.find(reading)
      if (found !== undefined) return found
    }
    for (const skeleton of skeletons) {
      const found = this.inSkeleton.find(skeleton)
      if (found !== undefined) return found
    }
    if (!this.odd) return undefined
    // A secret holding characters that decoding changes or removes: its raw forms too.
    return this.inText.find(text) ?? this.inText.find(decoded)
  }
}

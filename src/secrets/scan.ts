// One pass over a decoded text, for the secret search (search.ts): the text without what a reader
// does not see between letters (its plain reading), the skeleton of that reading (skeleton.ts),
// and what the pass saw on the way, which tells search.ts which other readings could differ or
// hold anything: characters beyond ASCII (compatibility forms, look-alikes), combining marks, tag
// characters and variation selectors (the text they spell), and a run long enough for a decoder
// (base32, base64, hex: encodings.ts). A reading that cannot hold anything new is not made.
// Characters a reader does not see are defined by the patterns below (the one definition of
// invisible, public-text.ts); the pass reads them from a table made from those patterns. Pure.
import { INVISIBLE_CLASS } from '../public-text.js'
import { BASE32, BOTH_CASES, CLASSES, HEX_LOWER, HEX_UPPER, MIN_HEX, MIN_RUN } from './encodings.js'
import { lookAlikeOf, SKELETON_ASCII } from './skeleton.js'

/**
 * White space, control characters and what a reader cannot read (the one definition of
 * invisible, public-text.ts): nothing a reader sees between two letters.
 */
const BETWEEN_CLASS = `[\\s\\p{Cc}${INVISIBLE_CLASS}]`
/** The same, and combining marks: what is left of a letter once its compatibility form is read. */
const LETTERS_CLASS = `[\\s\\p{Cc}\\p{M}${INVISIBLE_CLASS}]`
/** What scan() removes, as patterns: the definitions its tables are made from. */
export const NOTHING_BETWEEN = new RegExp(`${BETWEEN_CLASS}+`, 'gu')
export const NOTHING_BUT_LETTERS = new RegExp(`${LETTERS_CLASS}+`, 'gu')

/** What scan() removes: what NOTHING_BETWEEN matches, or what NOTHING_BUT_LETTERS matches. */
export type Removed = 'between' | 'letters'

/** A text's plain or letters reading, its skeleton, and what the pass over it saw. */
export interface Scan {
  /** The text without what NOTHING_BETWEEN (or NOTHING_BUT_LETTERS) matches. */
  kept: string
  /** skeletonOf(kept). */
  skeleton: string
  /** A character beyond ASCII: compatibility forms and look-alikes can be there. */
  wide: boolean
  /** `kept` holds a character NOTHING_BUT_LETTERS removes (a combining mark). */
  marks: boolean
  /** A tag character or a variation selector: the text spells something (search.ts). */
  spells: boolean
  /**
   * A run a decoder could take may be there (encodings.ts decodedRuns): false when no stretch of
   * base64 characters, the line breaks of a wrapped one and the spaces around them passed over,
   * has 16 characters with letters of both cases, nor one of base32 has 16, nor one of hex in
   * one case 24. Those stretches hold every run decodedRuns reads, so false means it finds none.
   */
  runs: boolean
}

const BETWEEN_BIT = 1
const LETTERS_BIT = 2

/**
 * For each code unit beyond ASCII that is no surrogate: BETWEEN_BIT where NOTHING_BETWEEN matches
 * it, LETTERS_BIT where NOTHING_BUT_LETTERS does. Made from the patterns themselves (so from the
 * Unicode version of the Node that runs), on the first text beyond ASCII.
 */
let bmpTable: Uint8Array | undefined

function bmp(): Uint8Array {
  if (bmpTable !== undefined) return bmpTable
  const table = new Uint8Array(0x10000)
  const codes: number[] = []
  for (let c = 0x80; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c)
  let all = ''
  for (let at = 0; at < codes.length; at += 4096)
    all += String.fromCharCode(...codes.slice(at, at + 4096))
  for (const [pattern, bit] of [
    [NOTHING_BETWEEN, BETWEEN_BIT],
    [NOTHING_BUT_LETTERS, LETTERS_BIT]
  ] as const)
    for (const m of all.matchAll(pattern))
      for (let i = 0; i < m[0].length; i++) table[m[0].charCodeAt(i)]! |= bit
  bmpTable = table
  return table
}

/** The same bits for the code point beyond the BMP at `at`, from the patterns each time. */
const ASTRAL_BETWEEN = new RegExp(BETWEEN_CLASS, 'uy')
const ASTRAL_LETTERS = new RegExp(LETTERS_CLASS, 'uy')

function astralBits(text: string, at: number): number {
  ASTRAL_BETWEEN.lastIndex = at
  ASTRAL_LETTERS.lastIndex = at
  return (
    (ASTRAL_BETWEEN.test(text) ? BETWEEN_BIT : 0) | (ASTRAL_LETTERS.test(text) ? LETTERS_BIT : 0)
  )
}

// eslint-disable-next-line no-control-regex -- the ASCII range is what is tested
const BEYOND_ASCII = /[^\u0000-\u007f]/

/**
 * Texts up to this long are read into buffers kept from one call to the next (an export's
 * pages, a report's fields): no allocation but the strings returned.
 */
const KEPT_UNITS = 1 << 16
const scratch = {
  kept: new Uint16Array(KEPT_UNITS),
  ascii: Buffer.allocUnsafe(KEPT_UNITS),
  skeleton: Buffer.allocUnsafe(KEPT_UNITS)
}
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/**
 * `text` read once: what `removed` names taken out, the skeleton of what is left, and what the
 * pass saw (Scan). Linear: one pass, a table a character.
 */
export function scan(text: string, removed: Removed = 'between'): Scan {
  return BEYOND_ASCII.test(text)
    ? scanWide(text, removed === 'between' ? BETWEEN_BIT : LETTERS_BIT)
    : scanAscii(text)
}

/**
 * What a code unit of ASCII is, for the pass: its skeleton (the low byte: SKELETON_ASCII), its
 * run classes (encodings.ts CLASSES, shifted by CLASS_SHIFT), whether it is kept (not white space
 * or a control character) and whether it is a line break or other white space a wrapped run has.
 */
const CLASS_SHIFT = 8
const KEPT = 1 << 16
const LINE_BREAK = 1 << 17
const SPACE = 1 << 18
const ASCII = ((): Uint32Array => {
  const table = new Uint32Array(128)
  for (let unit = 0; unit < 128; unit++)
    table[unit] =
      SKELETON_ASCII[unit]! |
      (CLASSES[unit]! << CLASS_SHIFT) |
      (unit > 0x20 && unit !== 0x7f ? KEPT : 0) |
      (unit === 0x0a ? LINE_BREAK : 0) |
      (unit === 0x20 || unit === 0x09 || unit === 0x0d ? SPACE : 0)
  return table
})()

/**
 * How many characters of a stretch can be base32 (bits 0–9), lower-case hex (10–19) and upper-case
 * hex (20–29), added up a character at a time: by its run classes, what one character adds.
 */
const COUNTS = ((): Uint32Array => {
  const table = new Uint32Array(64)
  for (let classes = 0; classes < 64; classes++)
    table[classes] =
      ((classes & BASE32) !== 0 ? 1 : 0) |
      ((classes & HEX_LOWER) !== 0 ? 1 << 10 : 0) |
      ((classes & HEX_UPPER) !== 0 ? 1 << 20 : 0)
  return table
})()
/** A stretch this long is read again whatever its counts (which then could overflow). */
const COUNTED = 1000

/**
 * The stretches of Scan.runs, followed a code unit at a time: the current stretch of base64
 * characters (where it starts, how long, the classes it has shown, how many of each kind), white
 * space since it (a line break in it passes over; none ends it). A stretch of 16 with letters of
 * both cases holds a run; one with 16 characters of base32 or 24 of hex in one case is read again
 * for them in a row (stretchHoldsRun).
 */
class Stretches {
  found = false
  private start = 0
  private length = 0
  private classes = 0
  private counts = 0
  /** 0: no white space since the stretch; 1: some, no line break; 2: a line break. */
  private gap = 0

  /** The unit at `at`, `entry` its ASCII entry (0 beyond ASCII: it ends a stretch). */
  next(text: string, at: number, entry: number): void {
    const classes = (entry >>> CLASS_SHIFT) & 0xff
    if (classes !== 0) {
      if (this.gap === 1) this.end(text, at)
      this.gap = 0
      if (this.length === 0) {
        this.start = at
        this.classes = 0
        this.counts = 0
      }
      this.classes |= classes
      if (this.length < COUNTED) this.counts += COUNTS[classes]!
      // A long stretch is read at once: what follows it need not be followed any more.
      else if (this.length === COUNTED && this.holdsRun(text, at)) this.found = true
      this.length++
    } else if ((entry & LINE_BREAK) !== 0) this.gap = 2
    else if ((entry & SPACE) !== 0) this.gap ||= 1
    else {
      this.end(text, at)
      this.gap = 0
    }
  }

  /** The stretch ends before `at` (or the text does). */
  end(text: string, at: number): void {
    if (this.holdsRun(text, at)) this.found = true
    this.length = 0
  }

  /** Whether the stretch up to `at` holds a run: of base64 at once, of the others read again. */
  private holdsRun(text: string, at: number): boolean {
    const counts = this.counts
    return (
      this.length >= MIN_RUN &&
      ((this.classes & BOTH_CASES) === BOTH_CASES ||
        ((this.length >= COUNTED ||
          (counts & 1023) >= MIN_RUN ||
          ((counts >>> 10) & 1023) >= MIN_HEX ||
          counts >>> 20 >= MIN_HEX) &&
          stretchHoldsRun(text, this.start, at)))
    )
  }
}

/** Whether the stretch from `start` to `end` has 16 base32 characters in a row or 24 of hex. */
function stretchHoldsRun(text: string, start: number, end: number): boolean {
  let base32 = 0
  let hexLower = 0
  let hexUpper = 0
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i)
    const bits = unit < 0x80 ? CLASSES[unit]! : 0
    if (bits === 0) continue // white space with a line break in it
    base32 = (bits & BASE32) !== 0 ? base32 + 1 : 0
    hexLower = (bits & HEX_LOWER) !== 0 ? hexLower + 1 : 0
    hexUpper = (bits & HEX_UPPER) !== 0 ? hexUpper + 1 : 0
    if (base32 >= MIN_RUN || hexLower >= MIN_HEX || hexUpper >= MIN_HEX) return true
  }
  return false
}

/** ASCII alone: nothing invisible but white space and control characters, no look-alike. */
function scanAscii(text: string): Scan {
  const length = text.length
  const small = length <= KEPT_UNITS
  const kept = small ? scratch.ascii : Buffer.allocUnsafe(length)
  const skeleton = small ? scratch.skeleton : Buffer.allocUnsafe(length)
  const stretches = new Stretches()
  let n = 0
  let m = 0
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i)
    const entry = ASCII[unit]!
    if ((entry & KEPT) !== 0) {
      kept[n++] = unit
      if ((entry & 0xff) !== 0) skeleton[m++] = entry & 0xff
    }
    if (!stretches.found) stretches.next(text, i, entry)
  }
  stretches.end(text, length)
  return {
    kept: n === length ? text : kept.toString('latin1', 0, n),
    skeleton: skeleton.toString('latin1', 0, m),
    wide: false,
    marks: false,
    spells: false,
    runs: stretches.found
  }
}

/** Any text: a table for each code unit beyond ASCII, a pattern for each beyond the BMP. */
function scanWide(text: string, removeBit: number): Scan {
  const table = bmp()
  const length = text.length
  const small = length <= KEPT_UNITS
  const kept = small ? scratch.kept : new Uint16Array(length)
  const skeleton = small ? scratch.skeleton : Buffer.allocUnsafe(length)
  let n = 0
  let m = 0
  let marks = false
  let spells = false
  const stretches = new Stretches()
  // The skeleton is made of what is kept, as skeletonOf reads it: a high surrogate kept waits
  // for the unit kept after it, which may make a pair with it that the text did not have.
  let high = 0
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i)
    let bits: number
    let units = 1
    if (unit < 0x80) bits = unit <= 0x20 || unit === 0x7f ? BETWEEN_BIT | LETTERS_BIT : 0
    else if (unit < 0xd800 || unit > 0xdfff) {
      bits = table[unit]!
      if (unit >= 0xfe00 && unit <= 0xfe0f) spells = true
    } else {
      const code = text.codePointAt(i)!
      if (code > 0xffff) {
        units = 2
        bits = astralBits(text, i)
        if ((code >= 0xe0020 && code <= 0xe007e) || (code >= 0xe0100 && code <= 0xe01ef))
          spells = true
      } else bits = 0 // half a pair alone: kept, as the patterns keep it
    }
    if (!stretches.found) stretches.next(text, i, unit < 0x80 ? ASCII[unit]! : 0)
    if ((bits & removeBit) === 0) {
      if ((bits & LETTERS_BIT) !== 0) marks = true
      for (let u = 0; u < units; u++) {
        const keptUnit = text.charCodeAt(i + u)
        kept[n++] = keptUnit
        let folded = 0
        if (high !== 0) {
          const pair = keptUnit >= 0xdc00 && keptUnit <= 0xdfff
          if (pair) folded = lookAlikeOf(((high - 0xd800) << 10) + keptUnit - 0xdc00 + 0x10000)
          high = 0
          if (folded !== 0) skeleton[m++] = folded
          if (pair) continue
        }
        if (keptUnit < 0x80) folded = SKELETON_ASCII[keptUnit]!
        else if (keptUnit >= 0xd800 && keptUnit < 0xdc00) high = keptUnit
        else if (keptUnit < 0xdc00 || keptUnit > 0xdfff) folded = lookAlikeOf(keptUnit)
        if (folded !== 0) skeleton[m++] = folded
      }
    }
    i += units - 1
  }
  stretches.end(text, length)
  return {
    kept: n === length ? text : utf16(kept, n),
    skeleton: skeleton.toString('latin1', 0, m),
    wide: true,
    marks,
    spells,
    runs: stretches.found
  }
}

/** The first `n` code units as a string, lone surrogates kept as they are. */
function utf16(units: Uint16Array, n: number): string {
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, 2 * n).toString('utf16le')
  let out = ''
  for (let at = 0; at < n; at += 4096)
    out += String.fromCharCode(...units.subarray(at, Math.min(n, at + 4096)))
  return out
}

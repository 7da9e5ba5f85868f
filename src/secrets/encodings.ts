// base32, base64 and hex, both ways: the encoded forms of a secret that the search looks for (any
// long enough part of them, wherever the secret's bytes fall in a longer encoded text), and the
// runs of a text that a decoder would decode, decoded, so that what they hide is read as text too
// (a look-alike or dotted key in base64 has no fixed encoded form to look for). Pure.

/** A text to look for, and how many characters of it in a row make a leak. */
export interface EncodedForm {
  text: string
  part: number
}

/** Characters of base64 or base32 that the secret's bytes alone decide, about 9 bytes of it. */
const BASE64_PART = 12
/** 16 base32 characters are 10 bytes: any 12 bytes of a secret leave at least 18 of them. */
const BASE32_PART = 16
/** Two digits a byte: 12 bytes. */
const HEX_PART = 24

const BASE32_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/**
 * The secret in base64 (standard and URL-safe) at each of the three byte alignments, in base32 at
 * each of the five, and in hex: of each, the part its bytes alone decide, which any longer encoded
 * text holding the secret contains. base32 and hex in upper case only: they are looked for in
 * skeletons (skeleton.ts), which know no case; base64's case is its meaning.
 */
export function encodedForms(secret: string): { base64: EncodedForm[]; others: EncodedForm[] } {
  const bytes = Buffer.from(secret)
  const base64: EncodedForm[] = []
  const others: EncodedForm[] = []
  const add = (forms: EncodedForm[], text: string, part: number): void => {
    if (text.length >= part && !forms.some(f => f.text === text)) forms.push({ text, part })
  }
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    const inner = b64.slice(
      Math.ceil((8 * shift) / 6),
      Math.floor((8 * (shift + bytes.length)) / 6)
    )
    add(base64, inner, BASE64_PART)
    add(base64, inner.replace(/\+/g, '-').replace(/\//g, '_'), BASE64_PART)
  }
  for (const shift of [0, 1, 2, 3, 4]) {
    const b32 = base32(Buffer.concat([Buffer.alloc(shift), bytes]))
    const inner = b32.slice(
      Math.ceil((8 * shift) / 5),
      Math.floor((8 * (shift + bytes.length)) / 5)
    )
    add(others, inner, BASE32_PART)
  }
  const hex = bytes.toString('hex').toUpperCase()
  others.push({ text: hex, part: Math.min(HEX_PART, hex.length) })
  return { base64, others }
}

/** RFC 4648 base32, without padding. */
function base32(bytes: Buffer): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32_DIGITS[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32_DIGITS[(value << (5 - bits)) & 31]
  return out
}

/** A line break with the spaces around it: what a wrapped encoding has between its lines. */
const WRAP = /[ \t]*\r?\n[ \t]*/g
/**
 * 12 characters or more of text in what bytes decode to as UTF-8: no replacement character (no
 * UTF-8 there), no control character but white space. Less cannot hold 12 characters of a
 * secret; and what a run that was no encoding decodes to (bytes at random, or one byte over and
 * over) is then not read on.
 */
// eslint-disable-next-line no-control-regex -- control characters are what ends a stretch
const READABLE = /[^\ufffd\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]{12,}/g

/**
 * Every run of `text` that a decoder would take for base64, base32 or hex, long enough to hold 12
 * bytes (the lines of a wrapped one joined), decoded at each alignment (a run may start inside an
 * encoding) as UTF-8: its stretches of 12 characters or more of text (READABLE), one a line; ''
 * when there is none. Linear: one scan, and each run decoded a fixed number of times.
 */
export function decodedRuns(text: string): string {
  const decoded: string[] = []
  const keep = (bytes: Buffer): void => {
    for (const piece of bytes.toString().match(READABLE) ?? []) decoded.push(piece)
  }
  for (const { kind, run } of runsOf(text.includes('\n') ? text.replace(WRAP, '') : text)) {
    if (kind === 'base64') {
      const unpadded = run.replace(/=+/g, '')
      for (let at = 0; at < 4; at++) keep(Buffer.from(unpadded.slice(at), 'base64'))
    } else if (kind === 'base32') for (let at = 0; at < 8; at++) keep(fromBase32(run, at))
    else
      for (let at = 0; at < 2; at++)
        if (startsText(run, at)) keep(Buffer.from(run.slice(at), 'hex'))
  }
  return decoded.join('\n')
}

/**
 * Hex digits that, as the first of a byte, can begin a character of READABLE text in UTF-8: `0`
 * (tab, line feed, carriage return), `2`–`7` (the rest of printable ASCII), `c`–`f` (the first
 * byte of a longer character). `1` (control characters) and `8`–`b` (the bytes that continue a
 * character) cannot.
 */
const HEX_STARTS = ((): Uint8Array => {
  const starts = new Uint8Array(128)
  for (const c of '0234567cdefCDEF') starts[c.charCodeAt(0)] = 1
  return starts
})()

/**
 * Whether the bytes of a hex run from digit `at` on can decode to READABLE text: 12 UTF-16 units
 * are 6 characters at the least, so 6 bytes that can begin one. A run of one byte over and over
 * that begins none (`aaaa…`, a hostile answer's padding) is not decoded.
 */
function startsText(run: string, at: number): boolean {
  let starts = 0
  for (let i = at; i < run.length; i += 2)
    if ((starts += HEX_STARTS[run.charCodeAt(i)]!) >= 6) return true
  return false
}

/**
 * What an ASCII character can be part of, as bits (0: no run; every character of a base32 or hex
 * run is one of base64 too). scan.ts reads them to tell, in its pass, whether a text could hold a
 * run at all.
 */
const BASE64 = 1
const UPPER = 2
const LOWER = 4
export const BASE32 = 8
export const HEX_LOWER = 16
export const HEX_UPPER = 32
export const CLASSES = ((): Uint8Array => {
  const classes = new Uint8Array(128)
  const mark = (chars: string, bits: number): void => {
    for (const c of chars) classes[c.charCodeAt(0)]! |= bits
  }
  const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  mark(`${upper}${upper.toLowerCase()}0123456789+/_=-`, BASE64)
  mark(upper, UPPER | BASE32)
  mark(upper.toLowerCase(), LOWER)
  mark('234567', BASE32)
  mark('0123456789abcdef', HEX_LOWER)
  mark('0123456789ABCDEF', HEX_UPPER)
  return classes
})()

type RunKind = 'base64' | 'base32' | 'hex'
export const BOTH_CASES = UPPER | LOWER
/** 16 characters of base64 or base32 hold 12 or 10 bytes; 24 hex digits 12. */
export const MIN_RUN = 16
export const MIN_HEX = 24

/** A run a decoder would take. */
interface Run {
  kind: RunKind
  run: string
}

/**
 * The runs a decoder would take: base64 of 16 characters or more holding letters of both cases
 * (16 characters of base64 almost never lack either, while words and paths, an export's thousands
 * of rows, mostly do), base32 of 16 or more in upper case (as RFC 4648 writes it; lower-case
 * base32 of a secret is found by its encoded forms, and prose is mostly lower case), hex of 24 or
 * more in one case. One pass finds the stretches of base64 characters, which hold every run; one
 * of 16 or more is read again for each kind whose characters it has shown (runsIn).
 */
function runsOf(text: string): Run[] {
  const runs: Run[] = []
  // Where the current stretch started, and the classes its characters have shown.
  let start = 0
  let classes = 0
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 128
    const bits = code < 128 ? CLASSES[code]! : 0
    if (bits !== 0) classes |= bits
    else {
      if (i - start >= MIN_RUN) runsIn(text, start, i, classes, runs)
      start = i + 1
      classes = 0
    }
  }
  return runs
}

/** The runs of the stretch of base64 characters from `start` to `end`, added to `runs`. */
function runsIn(text: string, start: number, end: number, classes: number, runs: Run[]): void {
  if ((classes & BOTH_CASES) === BOTH_CASES)
    runs.push({ kind: 'base64', run: text.slice(start, end) })
  for (const [bit, kind, min] of OTHER_RUNS) {
    if ((classes & bit) === 0) continue
    let from = start
    for (let i = start; i <= end; i++) {
      if (i < end && (CLASSES[text.charCodeAt(i)]! & bit) !== 0) continue
      if (i - from >= min) runs.push({ kind, run: text.slice(from, i) })
      from = i + 1
    }
  }
}

/** The runs inside a stretch of base64 characters: their characters' bit, kind and least length. */
const OTHER_RUNS = [
  [BASE32, 'base32', MIN_RUN],
  [HEX_LOWER, 'hex', MIN_HEX],
  [HEX_UPPER, 'hex', MIN_HEX]
] as const

const BASE32_VALUES = ((): Uint8Array => {
  const values = new Uint8Array(128)
  for (let v = 0; v < 32; v++) values[BASE32_DIGITS.charCodeAt(v)] = v
  return values
})()

/** RFC 4648 base32 (upper case, no padding: a run of runsOf) from character `at` on. */
function fromBase32(run: string, at: number): Buffer {
  const bytes = Buffer.allocUnsafe(Math.floor(((run.length - at) * 5) / 8))
  let bits = 0
  let value = 0
  let n = 0
  for (let i = at; i < run.length; i++) {
    value = ((value << 5) | BASE32_VALUES[run.charCodeAt(i)]!) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes[n++] = (value >>> bits) & 0xff
    }
  }
  return bytes.subarray(0, n)
}

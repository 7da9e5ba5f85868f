// The needles of a secret (the texts whose long enough parts give it away: itself and its encoded
// forms, and their skeletons forwards and reversed) and the one-pass search of a text for any
// part of any of them. Pure: search.ts decides which readings of a text are searched for which
// needles.
import { encodedForms } from './encodings.js'
import { skeletonOf } from './skeleton.js'

/** A text to look for, and how many characters of it in a row make a leak. */
export interface Needle {
  name: string
  text: string
  part: number
}

/** A part of a secret this long, anywhere, is already worth withholding (a clip leaves one). */
const PART_CHARS = 12

/**
 * The needles of one secret in a text's readings, as the secret and its base64 are written (case
 * and symbols count): itself (any PART_CHARS characters of it, forwards and reversed) and its
 * base64 (encodings.ts, the part its bytes alone decide). All else is looked for in skeletons.
 */
export function needlesOf(name: string, secret: string): Needle[] {
  const part = Math.min(PART_CHARS, secret.length)
  return [
    { name, text: secret, part },
    // Reversed as written too: 12 characters of a secret with symbols among them are fewer in its
    // skeleton.
    { name, text: Array.from(secret).reverse().join(''), part },
    ...encodedForms(secret).base64.map(form => ({ name, ...form }))
  ]
}

/**
 * The needles of one secret in a text's skeletons (skeleton.ts): the skeleton of the secret and
 * of each encoded form (base64, base32, hex), forwards and reversed (a reader reads a text
 * backwards as well as forwards). A skeleton knows no case and no separator: one needle finds
 * base32 and hex in either case, and the secret dotted or with look-alike letters.
 */
export function skeletonNeedlesOf(name: string, secret: string): Needle[] {
  const { base64, others } = encodedForms(secret)
  const forms = [{ text: secret, part: Math.min(PART_CHARS, secret.length) }, ...base64, ...others]
  const needles = new Map<string, Needle>()
  for (const { text, part } of forms) {
    const skeleton = skeletonOf(text)
    const length = Math.min(part, skeleton.length)
    for (const t of [skeleton, Array.from(skeleton).reverse().join('')])
      needles.set(t, { name, text: t, part: length })
  }
  return [...needles.values()]
}

/**
 * Finds any `part` characters in a row of any needle, anywhere in a text. A run of `part`
 * characters holds, whatever its start, the `block` characters of the text at a multiple of
 * `block` (2 × block ≤ part): so the text is read at those places only, each block's characters
 * hashed and looked up among every block of every needle (at every offset); only where one turns
 * up is the match checked, grown to both sides and measured. One pass, each character read once
 * (an export's pages cost one pass each, whatever the number of needles), no allocation.
 */
export class PartFinder {
  private readonly block: number
  private readonly gram: number
  /** Per block of a needle (every offset): its needle, its offset, its hash; chained by hash. */
  private readonly needleOf: Int32Array
  private readonly offsetOf: Int32Array
  private readonly hashOf: Int32Array
  private readonly next: Int32Array
  /** The first block of each hash bucket, -1 for none. */
  private readonly heads: Int32Array
  private readonly mask: number
  private readonly needles: Needle[]

  constructor(needles: Needle[]) {
    this.needles = needles.filter(n => n.part >= 2 && n.text.length >= n.part)
    this.block = Math.max(1, Math.min(6, ...this.needles.map(n => Math.floor(n.part / 2))))
    this.gram = Math.min(this.block, 4)
    const count = this.needles.reduce((sum, n) => sum + n.text.length - this.gram + 1, 0)
    let buckets = 16
    while (buckets < 4 * count) buckets *= 2
    this.mask = buckets - 1
    this.heads = new Int32Array(buckets).fill(-1)
    this.needleOf = new Int32Array(count)
    this.offsetOf = new Int32Array(count)
    this.hashOf = new Int32Array(count)
    this.next = new Int32Array(count)
    let k = 0
    this.needles.forEach((needle, index) => {
      for (let at = 0; at + this.gram <= needle.text.length; at++, k++) {
        const hash = blockHash(needle.text, at, this.gram)
        this.needleOf[k] = index
        this.offsetOf[k] = at
        this.hashOf[k] = hash
        this.next[k] = this.heads[hash & this.mask]!
        this.heads[hash & this.mask] = k
      }
    })
  }

  /** The name of the first needle a part of which `text` holds, or undefined. */
  find(text: string): string | undefined {
    if (this.needles.length === 0) return undefined
    const block = this.block
    const gram = this.gram
    const last = text.length - block
    for (let start = 0; start <= last; start += block) {
      const hash = blockHash(text, start, gram)
      for (let k = this.heads[hash & this.mask]!; k !== -1; k = this.next[k]!) {
        if (this.hashOf[k] !== hash) continue
        const needle = this.needles[this.needleOf[k]!]!
        if (grows(text, start, block, needle, this.offsetOf[k]!)) return needle.name
      }
    }
    return undefined
  }
}

/** Math.imul, read once: a global read in a loop is slow in a vm context (jest's). */
const imul = Math.imul

/** A hash of the `block` code units of `text` from `at`. */
function blockHash(text: string, at: number, block: number): number {
  let hash = 0
  for (let i = at; i < at + block; i++) hash = (imul(hash, 0x9e3779b1) + text.charCodeAt(i)) | 0
  return hash ^ (hash >>> 15)
}

/**
 * Whether the `block` units of `text` at `start` are those of the needle at `at`, and the match
 * grown to both sides is `part` long.
 */
function grows(text: string, start: number, block: number, needle: Needle, at: number): boolean {
  const n = needle.text
  for (let i = 0; i < block; i++)
    if (text.charCodeAt(start + i) !== n.charCodeAt(at + i)) return false
  let left = 0
  while (
    at - left > 0 &&
    start - left > 0 &&
    text.charCodeAt(start - left - 1) === n.charCodeAt(at - left - 1)
  )
    left++
  let right = 0
  const after = at + block
  while (
    after + right < n.length &&
    text.charCodeAt(start + block + right) === n.charCodeAt(after + right)
  )
    right++
  return left + block + right >= needle.part
}

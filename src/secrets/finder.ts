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

// The skeleton of a text: what a person reads in its letters, whatever script they are written in
// and whatever stands between them. Look-alikes of other scripts (look-alikes.ts, from Unicode's
// confusables) as the Latin letter or digit they look like, only letters and digits, in one case,
// `0` as `o`, `1` and `i` as `l`. The secret search (search.ts) reads every text so, and looks for
// each secret's skeleton and its encoded forms' (finder.ts). Pure.
import { LOOK_ALIKES } from './look-alikes.js'

/**
 * What each ASCII character is in a skeleton: a letter in lower case, `0` as `o`, `1` and `i` as
 * `l` (confusables.txt reads them alike); 0 for what is left out (all that is not a letter or a
 * digit). Read by scan.ts too, which makes a text's skeleton in the pass that reads it.
 */
export const SKELETON_ASCII = ((): Uint8Array => {
  const table = new Uint8Array(128)
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
    const folded = c === '0' ? 'o' : c === '1' || c === 'i' ? 'l' : c
    table[c.charCodeAt(0)] = folded.charCodeAt(0)
    table[c.toUpperCase().charCodeAt(0)] = folded.charCodeAt(0)
  }
  return table
})()
/** Each look-alike (look-alikes.ts, from Unicode's confusables) and the ASCII code it folds to. */
const LOOK_ALIKE = new Map(
  Object.entries(LOOK_ALIKES).flatMap(([latin, chars]) =>
    Array.from(chars, c => [c.codePointAt(0)!, SKELETON_ASCII[latin.charCodeAt(0)]!] as const)
  )
)

/** What a code point beyond ASCII is in a skeleton: the ASCII code of its look-alike, or 0. */
export function lookAlikeOf(code: number): number {
  return LOOK_ALIKE.get(code) ?? 0
}

/**
 * What a person reads in letters (already in their compatibility form, marks removed): each
 * look-alike of another script as the Latin letter or digit it looks like (Cyrillic `а`, Greek
 * `ο`, small capital `ᴀ`), the letters and digits alone (`m.i.n.t`, `m-i-n-t` read `mint`), in
 * one case, `0` as `o` and `1` and `i` as `l` (which confusables.txt reads alike). Half a
 * surrogate pair alone is no letter, and what follows it is read. Linear: one pass, a table for
 * ASCII and a lookup for the rest. (scan.ts makes the same skeleton in its own pass.)
 */
export function skeletonOf(letters: string): string {
  const out = Buffer.allocUnsafe(letters.length)
  let n = 0
  for (let i = 0; i < letters.length; i++) {
    const unit = letters.charCodeAt(i)
    let folded: number
    if (unit < 128) folded = SKELETON_ASCII[unit]!
    else {
      const code = letters.codePointAt(i)!
      if (code > 0xffff) i++
      folded = lookAlikeOf(code)
    }
    if (folded !== 0) out[n++] = folded
  }
  return out.toString('latin1', 0, n)
}

// The attacks suites' leak detector: everything a run published (each log line and the log as a
// whole, every output, the summary, each comment) decoded as a reader, a copy or a log viewer
// could decode it (percent in either case, `\u` escapes, HTML entities, Markdown backslash
// escapes, invisible characters (every default-ignorable code point, format, private-use and
// unassigned code points, the braille blank, the object replacement), line breaks, base64 wrapped
// or not; full-width and other compatibility letters with their combining marks dropped; tag
// characters and variation selectors read as what they spell; base32 and hex runs decoded too),
// then searched for any 12-character part of the key or the token, forwards or reversed, and read
// as a person reads it (the look-alikes the hiding forms use as the Latin letters they stand for,
// the letters and digits alone, in one case). Written apart from src/secrets/search.ts, so the two
// are checked against each other.
import { LOOK_ALIKE_OF, SMALL_CAPITAL_OF } from './hiding.js'
import type { RunResult } from './runner.js'

// A key with characters that encoders treat differently (+/=:@$,;), and a token.
export const API_KEY = 'mint_Ab3+De/Fg=Hi:Jk@Lm$No,Pq;Rs_leak'
export const TOKEN = 'ghs_T0kenNeverLeavesTheRunner0123456'
/** A part this long of a secret, found anywhere, is a leak: a clip may leave one. */
export const PART = 12

export const pct = (s: string, lower: boolean): string =>
  Array.from(Buffer.from(s, 'utf8'))
    .map(b => `%${b.toString(16).padStart(2, '0')}`)
    .map(x => (lower ? x : x.toUpperCase()))
    .join('')

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** base32 (either case) as bytes, a partial last byte dropped. */
function fromBase32(run: string): Buffer {
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const c of run.toUpperCase()) {
    value = (value << 5) | BASE32.indexOf(c)
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((value >> bits) & 0xff)
      value &= (1 << bits) - 1
    }
  }
  return Buffer.from(bytes)
}

/**
 * Every base64 run of `text` (white space inside it removed) decoded at each of its 4 offsets,
 * every base32 run at each of its 8 and every hex run at each of its 2, as Latin-1 and as UTF-8:
 * each decoding apart, as a reader reads one at a time (joined, a person's reading, which drops
 * what is not a letter, would glue the end of one to the start of the next: 12 characters no
 * decoding shows).
 */
function runsDecoded(text: string): string[] {
  const flat = text.replace(/\s+|\\n/g, '')
  const bytes = [
    ...(flat.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []).flatMap(run =>
      [0, 1, 2, 3].flatMap(offset => [
        Buffer.from(run.slice(offset), 'base64'),
        Buffer.from(run.slice(offset), 'base64url')
      ])
    ),
    ...(flat.match(/[A-Za-z2-7]{16,}/g) ?? []).flatMap(run =>
      [0, 1, 2, 3, 4, 5, 6, 7].map(offset => fromBase32(run.slice(offset)))
    ),
    ...(flat.match(/[0-9a-fA-F]{24,}/g) ?? []).flatMap(run =>
      [0, 1].map(offset => Buffer.from(run.slice(offset), 'hex'))
    )
  ]
  return bytes.flatMap(b => [b.toString('latin1'), b.toString('utf8')])
}

/** The look-alikes the hiding forms use, each as the Latin character it stands for. */
const LATIN_OF = new Map(
  [...Object.entries(LOOK_ALIKE_OF), ...Object.entries(SMALL_CAPITAL_OF)].map(
    ([latin, alike]) => [alike, latin] as const
  )
)

// eslint-disable-next-line no-control-regex -- the ASCII range is what is tested
const ONLY_ASCII = /^[\u0000-\u007f]*$/

/**
 * What a person reads: each look-alike as its Latin letter, the letters and digits alone, in one
 * case, `0` and `o` alike, `1`, `i` and `l` alike.
 */
export const personReads = (t: string): string =>
  // ASCII has no compatibility form and no look-alike: the first two steps would change nothing.
  (ONLY_ASCII.test(t)
    ? t
    : t.normalize('NFKD').replace(/[^\p{ASCII}]/gu, c => LATIN_OF.get(c) ?? c)
  )
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .replace(/0/g, 'o')
    .replace(/[1i]/g, 'l')

/** What no reader sees between two letters: the test's own list, not the action's. */
const UNSEEN =
  /[\s\p{Cc}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\u2800\ufffc\ufff9-\ufffb\u{13430}-\u{1343f}]/gu

/** Each letter in its compatibility form (full-width `ｍ` is `m`), accents and marks dropped. */
const plainLetters = (t: string): string =>
  t.normalize('NFKD').replace(/\p{M}/gu, '').replace(UNSEEN, '')

/** Tag characters as the ASCII they tag; variation selectors as the bytes they smuggle. */
function spelled(t: string): string {
  const tags = Array.from(t, c => {
    const code = c.codePointAt(0)!
    return code >= 0xe0020 && code <= 0xe007e ? String.fromCharCode(code - 0xe0000) : c
  }).join('')
  return tags.replace(/[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]+/gu, run =>
    Buffer.from(
      Array.from(run, c => {
        const code = c.codePointAt(0)!
        return code < 0xe0100 ? code - 0xfe00 : code - 0xe0100 + 16
      })
    ).toString('latin1')
  )
}

/** Everything decoded that a reader, a copy or a log viewer could decode. */
export function decodings(text: string): string[] {
  const entities = (t: string) =>
    t
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
      .replace(/&amp;/g, '&')
  const unicode = (t: string) =>
    t.replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
  const markdown = (t: string) => t.replace(/\\([!-/:-@[-`{-~])/g, '$1')
  const percent = (t: string) => {
    try {
      return decodeURIComponent(t.replace(/%(?![0-9a-f]{2})/gi, '%25'))
    } catch {
      return t
    }
  }
  const invisible = (t: string) => t.replace(/\p{Default_Ignorable_Code_Point}/gu, '')
  const joined = (t: string) => t.replace(/\r?\n|\\n/g, '')
  const all = invisible(joined(percent(markdown(markdown(unicode(entities(text)))))))
  return [
    text,
    entities(text),
    unicode(text),
    markdown(text),
    percent(text),
    invisible(text),
    all,
    plainLetters(all),
    plainLetters(spelled(percent(markdown(unicode(entities(text)))))),
    ...runsDecoded(text),
    // An encoding written backwards, turned round and decoded.
    ...runsDecoded(Array.from(text).reverse().join(''))
  ]
}

/**
 * What a search for PART characters of `text`, forwards or reversed, looks for: the parts
 * themselves, and the blocks of PART / 2 at multiples of PART / 2 of each direction, one of which
 * every part holds (a text holding none of them holds no part: most texts are ruled out by a few
 * searches, not one a part).
 */
interface Parts {
  parts: string[]
  blocks: string[]
}

function partsOf(text: string): Parts {
  const backwards = Array.from(text).reverse().join('')
  const half = PART / 2
  return {
    parts: [text, backwards].flatMap(t =>
      Array.from({ length: Math.max(0, t.length - PART + 1) }, (_, i) => t.slice(i, i + PART))
    ),
    blocks:
      text.length < PART
        ? []
        : [text, backwards].flatMap(t =>
            Array.from({ length: Math.floor(t.length / half) }, (_, k) =>
              t.slice(k * half, (k + 1) * half)
            )
          )
  }
}

/** Whether `text` holds one of the parts. */
function holdsOneOf(text: string, { parts, blocks }: Parts): boolean {
  return blocks.some(block => text.includes(block)) && parts.some(part => text.includes(part))
}

/** Each secret's parts, as it is and as a person reads it, made once: a run has two secrets. */
const partsBySecret = new Map<string, { parts: Parts; personParts: Parts }>()

function secretParts(secret: string): { parts: Parts; personParts: Parts } {
  let found = partsBySecret.get(secret)
  if (found === undefined) {
    found = { parts: partsOf(secret), personParts: partsOf(personReads(secret)) }
    partsBySecret.set(secret, found)
  }
  return found
}

/**
 * Whether `text`, decoded, holds any PART characters of `secret`, forwards or reversed, as it is
 * or as a person reads it.
 */
export function holdsPart(text: string, secret: string): boolean {
  return holding(readings(text), secret)
}

/** A text's decodings, each also as a person reads it: made once, searched for every secret. */
function readings(text: string): { decoded: string; person: string }[] {
  // Most decodings of most texts are the text itself: each distinct one is read once.
  return [...new Set(decodings(text))].map(decoded => ({ decoded, person: personReads(decoded) }))
}

/** Whether any of `read` holds PART characters of `secret`, as it is or as a person reads it. */
function holding(read: { decoded: string; person: string }[], secret: string): boolean {
  const { parts, personParts } = secretParts(secret)
  return read.some(r => holdsOneOf(r.decoded, parts) || holdsOneOf(r.person, personParts))
}

/** Every place a secret, or a long part of one, shows once decoded: "where: which". */
export function leaks(r: RunResult, comments: string[]): string[] {
  const found: string[] = []
  const look = (where: string, text: string) => {
    const read = readings(text)
    for (const [name, secret] of [
      ['api key', API_KEY],
      ['token', TOKEN]
    ] as const)
      if (holding(read, secret)) found.push(`${where}: ${name}`)
  }
  const lines = r.stdout.split(/\r?\n/).filter(l => !l.startsWith('::add-mask::'))
  // Each log line alone, and the log as a whole (a secret split across two lines).
  lines.forEach((line, i) => look(`log line ${i + 1}`, line))
  look('log', lines.join('\n'))
  look('stderr', r.stderr)
  for (const [name, value] of Object.entries(r.outputs)) look(`output ${name}`, value)
  look('summary', r.summary)
  comments.forEach((body, i) => look(`comment ${i + 1}`, body))
  return [...new Set(found)]
}

/** The inputs every attack scenario starts from (the attacks' key, quick polls), plus `extra`. */
export const attackInputs = (
  url: string,
  extra: Record<string, string> = {}
): Record<string, string> => ({
  'api-key': API_KEY,
  'project-id': 'proj-1',
  'base-url': url,
  'poll-interval': '0.2',
  'wait-timeout': '20s',
  ...extra
})

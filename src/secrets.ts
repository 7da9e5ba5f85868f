// The API key and the GitHub token: the one place that knows them. They are masked for the
// runner's log at start, and every text that came from the service or from GitHub passes
// redact() before it can reach a log line, an output, the summary, a file or a comment. Runner
// masking covers the log only, and a comment escapes `_` as `&#95;`, which hides a key from the
// runner's literal scan: so the outputs, the summary and comments need redaction of their own.
import * as core from '@actions/core'

const MASK = '***'
// A line of a multi-line value this short is no secret on its own, and replacing it everywhere
// would garble ordinary text.
const MIN_PIECE = 4
// Shorter values are redacted as they are, not in their encodings.
const MIN_ENCODED = 8
// The middle of a base64 text at an unknown alignment must be long enough to be the secret's.
const MIN_SHIFTED_CORE = 8

let pattern: RegExp | undefined
/** The secrets as given (trimmed), with their names, for the decoding check. */
let known: Array<{ name: string; value: string }> = []

/**
 * Registers the secrets: masks them in the runner's log at once, and makes redact() remove them.
 * Call before anything can print; a second call replaces the first.
 */
export function registerSecrets(apiKey: string, githubToken: string): void {
  const forms = new Set<string>()
  for (const [secret, prefixes] of [
    [apiKey, ['Bearer ']],
    [githubToken, ['token ', 'Bearer ', 'x-access-token:', 'Basic ']]
  ] as const) {
    for (const piece of piecesOf(secret)) {
      core.setSecret(piece)
      for (const form of encodedForms(piece)) forms.add(form)
    }
    const whole = secret.trim()
    if (whole.length >= MIN_ENCODED)
      for (const prefix of prefixes) for (const f of base64Forms(prefix + whole)) forms.add(f)
  }
  forms.delete('')
  known = [
    { name: 'the API key', value: apiKey.trim() },
    { name: 'the GitHub token', value: githubToken.trim() }
  ].filter(k => k.value.length >= MIN_ENCODED)
  // Longest first, so a form that contains a shorter one is removed whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length)
  pattern = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined
}

/**
 * `text` with every known secret, in every encoding below, replaced by `***`. A text that still
 * holds a secret once decoded (percent, `\u`, HTML entities, split lines, invisible characters
 * interleaved), or a long part of one (as a clip leaves it), is withheld whole: see withheld().
 * Call it before clipping or escaping: both can turn a known form into one it does not know.
 */
export function redact(text: string): string {
  if (pattern === undefined || text === '') return text
  const masked = text.replace(pattern, MASK)
  const found = hiddenSecret(masked)
  return found === undefined ? masked : withheld(found)
}

/** What stands in for a text that held a secret in a form masking cannot reach. */
export function withheld(secretName: string): string {
  return `[withheld: this text contained ${secretName} in an encoded form]`
}

/**
 * The name of the secret that `text` reveals once decoded, if any: its whole value, or a clipped
 * part of it, as a length limit leaves one: the text ends with the secret's first PART_CHARS or
 * more characters (perhaps with an ellipsis), or starts with its last ones.
 */
function hiddenSecret(text: string): string | undefined {
  if (known.length === 0) return undefined
  const decoded = decodeForms(text)
  for (const { name, value } of known) {
    const part = Math.min(PART_CHARS, value.length)
    for (const d of decoded) {
      if (d.includes(value)) return name
      // A clip may also cut an escape in two: a few characters of it stay undecoded at the cut.
      const end = d.replace(/(?:…|\.\.\.)$/, '')
      for (let cut = 0; cut <= MAX_ESCAPE_CHARS; cut++) {
        const head = end.slice(0, end.length - cut)
        const tail = d.slice(cut)
        for (let n = value.length - 1; n >= part; n--)
          if (head.endsWith(value.slice(0, n)) || tail.startsWith(value.slice(value.length - n)))
            return name
      }
    }
  }
  return undefined
}

// A clip at a length limit keeps a secret's start; this much of it is already worth withholding.
const PART_CHARS = 12
// The longest escape of one character (`&#x10ffff;`), which a clip may leave half of.
const MAX_ESCAPE_CHARS = 9
/** Characters that render as nothing (or only steer direction): stripped before the check. */
const INVISIBLE_RANGES: ReadonlyArray<[number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0]
]

export function isInvisible(c: string): boolean {
  const code = c.codePointAt(0) ?? 0
  return INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to)
}

function removeInvisible(s: string): string {
  let out = ''
  for (const c of s) if (!isInvisible(c)) out += c
  return out
}
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
 * The readings of `text` a person or a renderer could make: as it is, and with entities, `\u`
 * and `\x` escapes and percent-encoding decoded (repeatedly, for double encodings), then with
 * invisible characters and all white space removed (a secret split across lines or interleaved
 * with zero-width characters reads whole again).
 */
function decodeForms(text: string): string[] {
  let d = text
  for (let round = 0; round < 3; round++) {
    const next = decodePercent(decodeEscapes(decodeEntities(d)))
    if (next === d) break
    d = next
  }
  const joined = removeInvisible(d).replace(/\s+/g, '')
  return d === text ? [joined] : [d, joined]
}

function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,10});?/g, (m, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body] ?? m
    const code =
      body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : Number(body.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : m
  })
}

function decodeEscapes(s: string): string {
  return s
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}/g, (m, hex: string) => fromCode(m, parseInt(hex, 16)))
    .replace(/\\[uU]([0-9a-fA-F]{4})/g, (m, hex: string) => fromCode(m, parseInt(hex, 16)))
    .replace(/\\x([0-9a-fA-F]{2})/g, (m, hex: string) => fromCode(m, parseInt(hex, 16)))
}

function fromCode(original: string, code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : original
}

function decodePercent(s: string): string {
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
 * A parsed JSON value with redact() applied to every string in it, keys included. Iterative, so
 * depth alone can never exhaust the stack.
 */
export function redactDeep<T>(value: T): T {
  if (pattern === undefined) return value
  const root: { v: unknown } = { v: value }
  const stack: Array<[Record<string | number, unknown>, string | number]> = [[root, 'v']]
  while (stack.length > 0) {
    const [holder, key] = stack.pop()!
    const v = holder[key]
    if (typeof v === 'string') holder[key] = redact(v)
    else if (Array.isArray(v)) {
      const copy = [...(v as unknown[])]
      holder[key] = copy
      for (let i = 0; i < copy.length; i++)
        stack.push([copy as unknown as Record<number, unknown>, i])
    } else if (typeof v === 'object' && v !== null) {
      const copy: Record<string, unknown> = {}
      for (const [k, inner] of Object.entries(v)) copy[redact(k)] = inner
      holder[key] = copy
      for (const k of Object.keys(copy)) stack.push([copy, k])
    }
  }
  return root.v as T
}

/**
 * `value`, parsed from the JSON `text`, with redactDeep applied when it could hold a secret. Without
 * a backslash in `text` every parsed string is a literal slice of it, so one scan of the text
 * settles it (an export's pages, thousands of strings each, then cost one regex pass).
 */
export function redactParsed<T>(text: string, value: T): T {
  if (pattern === undefined) return value
  pattern.lastIndex = 0
  if (!text.includes('\\') && !pattern.test(text) && hiddenSecret(text) === undefined) return value
  return redactDeep(value)
}

/** The whole value, trimmed, and each line of a multi-line value. */
function piecesOf(secret: string): string[] {
  // A value of nothing but white space is no secret: masking it would garble every line.
  const pieces = new Set<string>(secret.trim() === '' ? [] : [secret, secret.trim()])
  for (const line of secret.split(/\r?\n|\r/)) {
    const piece = line.trim()
    if (piece.length >= MIN_PIECE) pieces.add(piece)
  }
  pieces.delete('')
  return [...pieces]
}

function encodedForms(piece: string): string[] {
  // The encodings of a value this short are common strings ("78", "eA"): only the value itself.
  if (piece.length < MIN_ENCODED) return [piece]
  const json = JSON.stringify(piece).slice(1, -1)
  const hex = Buffer.from(piece).toString('hex')
  return [
    piece,
    encodeURIComponent(piece),
    new URLSearchParams({ v: piece }).toString().slice(2),
    json,
    hex,
    hex.toUpperCase(),
    ...base64Forms(piece)
  ]
}

/**
 * base64 and base64url, padded and not, of `text` alone, and the part of its encoding that any
 * longer base64 text holding it must contain whatever bytes come before it (at each of the three
 * alignments): so a key inside an encoded JSON blob or header is found too.
 */
function base64Forms(text: string): string[] {
  const bytes = Buffer.from(text)
  const forms: string[] = []
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    const first = Math.ceil((8 * shift) / 6)
    const end = Math.floor((8 * (shift + bytes.length)) / 6)
    const middle = b64.slice(first, end)
    if (shift === 0) forms.push(b64, b64.replace(/=+$/, ''))
    if (middle.length >= MIN_SHIFTED_CORE || shift === 0) forms.push(middle)
  }
  return [...forms, ...forms.map(toBase64Url)]
}

function toBase64Url(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

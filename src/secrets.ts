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
  // Longest first, so a form that contains a shorter one is removed whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length)
  pattern = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined
}

/** `text` with every known secret, in every encoding below, replaced by `***`. */
export function redact(text: string): string {
  if (pattern === undefined || text === '') return text
  return text.replace(pattern, MASK)
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
  if (!text.includes('\\') && !pattern.test(text)) return value
  return redactDeep(value)
}

/** The whole value, trimmed, and each line of a multi-line value. */
function piecesOf(secret: string): string[] {
  const pieces = new Set<string>([secret, secret.trim()])
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

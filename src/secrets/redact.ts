// The secrets (the inputs the input table marks `secret`: the API key and the GitHub tokens),
// the one place that knows their values. They are masked for the runner's log at start, and every
// text that came from the service or from GitHub passes redact() before it can reach a log line,
// an output, the summary, a file or a comment. Runner masking covers the log only, and a comment
// escapes `_` as `&#95;`, which hides a key from the runner's literal scan: so the outputs, the
// summary and comments need redaction of their own.
import * as core from '@actions/core'
import { PartFinder } from './finder.js'
import { SecretSearch } from './search.js'

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
 * Whether a text holds any of the pattern's forms whole, in one pass (finder.ts): most texts hold
 * none, and an alternation of some fifty long forms is a slow regular expression to run on each.
 * Undefined with a form of one character: the pattern is run on every text.
 */
let formsFinder: PartFinder | undefined
/** Finds a long enough part of a secret in a text, once read as a person or a decoder reads. */
let search: SecretSearch | undefined

/** A secret's value, and what a text withheld for holding it calls it ("the API key"). */
export interface Secret {
  called: string
  value: string
}

/**
 * How a secret is sent in a header (`Authorization: Bearer …`, `token …`, Basic credentials): a
 * service or proxy that echoes the header base64-encoded shows the secret with one of these
 * before it. Every secret is searched behind each, whichever client sends it.
 */
const HEADER_PREFIXES = ['token ', 'Bearer ', 'x-access-token:', 'Basic ']

/**
 * Registers the secrets (settings/settings.ts readSecretInputs: each input the table marks
 * `secret`): masks them in the runner's log at once, and makes redact() remove them. Call before
 * anything can print; a second call replaces the first.
 */
export function registerSecrets(...secrets: readonly Secret[]): void {
  const forms = new Set<string>()
  for (const { value } of secrets) {
    for (const piece of piecesOf(value)) {
      core.setSecret(piece)
      for (const form of encodedForms(piece)) forms.add(form)
    }
    const whole = value.trim()
    if (whole.length >= MIN_ENCODED)
      for (const prefix of HEADER_PREFIXES)
        for (const f of base64Forms(prefix + whole)) forms.add(f)
  }
  forms.delete('')
  // The whole value and each line of a broken one, as a reader would find them.
  const searched = secrets.flatMap(({ called, value }) =>
    piecesOf(value)
      .map(piece => piece.trim())
      .filter(piece => piece.length >= MIN_ENCODED)
      .map(piece => [called, piece] as const)
  )
  search = searched.length > 0 ? new SecretSearch(searched) : undefined
  // Longest first, so a form that contains a shorter one is removed whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length)
  pattern = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined
  // The finder reads two characters at the least: a shorter form leaves the pattern alone to tell.
  formsFinder = sorted.every(form => form.length >= 2)
    ? new PartFinder(sorted.map(form => ({ name: form, text: form, part: form.length })))
    : undefined
}

/**
 * `text` with every known secret, in every encoding below, replaced by `***`. A text that still
 * holds any 12 characters in a row of a secret once decoded (percent, `\u`, entities, JSON and
 * Markdown escapes, split lines, invisible characters interleaved, look-alike letters, separators
 * between the characters, reversed, base64 wrapped or not, base32, hex), anywhere in it, is
 * withheld whole: see withheld(). Call it before clipping or escaping: both can turn a known form
 * into one it does not know.
 */
export function redact(text: string): string {
  if (pattern === undefined || text === '') return text
  const masked = holdsForm(text) ? text.replace(pattern, MASK) : text
  const found = hiddenSecret(masked)
  return found === undefined ? masked : withheld(found)
}

/** Whether `text` holds one of the forms masking replaces. */
function holdsForm(text: string): boolean {
  return formsFinder === undefined || formsFinder.find(text) !== undefined
}

/** What stands in for a text that held a secret in a form masking cannot reach. */
export function withheld(secretName: string): string {
  return `[withheld: this text contained ${secretName} in an encoded form]`
}

/** The name of the secret any long enough part of which `text` reveals once read, if any. */
function hiddenSecret(text: string): string | undefined {
  return search?.find(text)
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
 * `value`, parsed from the JSON `text`, with redactDeep applied when it could hold a secret: then
 * every string is searched on its own (field by field: a part of a secret in the middle of one
 * field is found, and a secret split over two fields is withheld in both). Without a backslash in
 * `text` every parsed string is a literal slice of it, so one search of the whole text settles
 * that none does (an export's pages, thousands of strings each, then cost one pass).
 */
export function redactParsed<T>(text: string, value: T): T {
  if (pattern === undefined) return value
  if (!text.includes('\\') && !holdsForm(text) && hiddenSecret(text) === undefined) return value
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

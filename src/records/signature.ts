// Signing and verifying the hidden markers that carry the action's records (kinds.ts says what
// each one means). Anyone can type an HTML comment, so a marker counts only when its HMAC
// verifies: keyed with a secret no commenter has (the API key), over the thread (owner/repo#n),
// the login that wrote the comment, the time the marker was written, and the key. A marker
// pasted into a comment by anyone else (copied from the action's comment or from its public edit
// history, in a new comment or edited into an old one) names another writer, and does not verify.
//
// Why the time and not the comment id: a marker that binds the id can only be written after the
// comment exists, which costs a create and then an edit. A marker bound to its time is complete in
// the create itself, and "the newest marker" (by its signed time) is the action's latest word.
//
// Two older formats are still read, so that records written before an upgrade keep working, but
// only in comments whose author is the action's own login (records.ts learns it from GitHub,
// never from a comment): markers signed over the time without the login, and those of version
// 1.0.0, signed over the comment's id (the oldest of all: time 0).
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface Place {
  owner: string
  repo: string
  issueNumber: number
}

/** A verified marker: its key, and when it was written (ms since the epoch). */
export interface Marker {
  key: string
  at: number
}

const SIG_HEX = 32
// encodeURIComponent never emits whitespace, '<' or '>', so an encoded key cannot end the marker.
const KEY = "([A-Za-z0-9\\-_.!~*'()%]+)"
const MARKER_PATTERN = new RegExp(
  `<!-- docs-agent:${KEY} v=2 t=([0-9]{1,15}) sig=([0-9a-f]+) -->`,
  'g'
)
const TIMED_PATTERN = new RegExp(`<!-- docs-agent:${KEY} t=([0-9]{1,15}) sig=([0-9a-f]+) -->`, 'g')
const LEGACY_PATTERN = new RegExp(`<!-- docs-agent:${KEY} sig=([0-9a-f]+) -->`, 'g')
/** Any line shaped like a marker, whatever its format and whether it verifies. */
const MARKER_LINE = /^<!-- docs-agent:[^\n]* -->$/
const SHAPED_KEY = /^<!-- docs-agent:(\S+) /

const thread = (place: Place): string => `${place.owner}/${place.repo}#${place.issueNumber}`
/** Logins are case-insensitive on GitHub: signed and compared in lower case. */
const normalLogin = (login: string): string => login.toLowerCase()

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex').slice(0, SIG_HEX)
}

function signature(key: string, secret: string, place: Place, writer: string, at: number): string {
  if (secret === '') throw new Error('A secret is required to sign comment markers')
  if (writer === '') throw new Error("The writer's login is required to sign comment markers")
  return hmac(secret, `v2\n${thread(place)}\nby=${normalLogin(writer)}\nt=${at}\n${key}`)
}

/** A marker for `key`, written by `writer` (the login GitHub will show as the comment's author). */
export function makeMarker(
  key: string,
  secret: string,
  place: Place,
  writer: string,
  at: number
): string {
  const sig = signature(key, secret, place, writer, at)
  return `<!-- docs-agent:${encodeURIComponent(key)} v=2 t=${at} sig=${sig} -->`
}

/** The markers for `keys`, all stamped `at`, one per line. */
export function markersFor(
  keys: string[],
  secret: string,
  place: Place,
  writer: string,
  at: number
): string {
  return keys.map(key => makeMarker(key, secret, place, writer, at)).join('\n')
}

function sameSignature(actual: string, expected: string): boolean {
  // Constant time, so the signature cannot be guessed byte by byte from response timing.
  return (
    actual.length === expected.length && timingSafeEqual(Buffer.from(actual), Buffer.from(expected))
  )
}

function decodeKey(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}

/** Who wrote the comment a body comes from, and whether that is the action's own login. */
export interface Writer {
  /** The comment's author, as GitHub shows it. */
  author: string
  /** The author is the action's own login (learned from GitHub): older formats count too. */
  own: boolean
  /** The comment's id, which version 1.0.0 signed. */
  commentId?: number
}

/** The markers in body whose signature verifies for its writer, in order of appearance. */
export function verifiedMarkers(body: string, secret: string, place: Place, by: Writer): Marker[] {
  // With no secret nothing can be told apart from a forgery; with no author, no writer to bind.
  if (secret === '' || typeof body !== 'string' || by.author === '') return []
  const text = trailingMarkers(body)
  const found: Marker[] = []
  if (by.own && by.commentId !== undefined)
    for (const match of text.matchAll(LEGACY_PATTERN)) {
      const key = decodeKey(match[1] ?? '')
      if (key === undefined) continue
      const expected = hmac(secret, `${thread(place)}\n${by.commentId}\n${key}`)
      if (sameSignature(match[2] ?? '', expected)) found.push({ key, at: 0 })
    }
  const timed = (pattern: RegExp, sign: (key: string, at: number) => string) => {
    for (const match of text.matchAll(pattern)) {
      const key = decodeKey(match[1] ?? '')
      const at = Number(match[2])
      if (key === undefined || !Number.isSafeInteger(at)) continue
      if (sameSignature(match[3] ?? '', sign(key, at))) found.push({ key, at })
    }
  }
  if (by.own) timed(TIMED_PATTERN, (key, at) => hmac(secret, `${thread(place)}\nt=${at}\n${key}`))
  timed(MARKER_PATTERN, (key, at) => signature(key, secret, place, by.author, at))
  return found
}

/**
 * The keys that the trailing marker lines of body name, as written, whether or not they verify
 * (undecodable ones left out): what a comment claims, for telling a rotated key from no record.
 */
export function claimedKeys(body: string): string[] {
  if (typeof body !== 'string') return []
  const text = trailingMarkers(body)
  if (text === '') return []
  return text.split('\n').flatMap(line => {
    const key = decodeKey(SHAPED_KEY.exec(line)?.[1] ?? '')
    return key === undefined || key === '' ? [] : [key]
  })
}

/** Where the marker lines that end `lines` begin. */
function markersStart(lines: readonly string[]): number {
  let first = lines.length
  while (first > 0 && MARKER_LINE.test(lines[first - 1] ?? '')) first--
  return first
}

/** The body without the marker lines that end it: the text a reader sees. */
export function textAboveMarkers(body: string): string {
  const lines = body.trimEnd().split('\n')
  return lines.slice(0, markersStart(lines)).join('\n')
}

/**
 * The lines of marker comments that end the body: the action writes its markers there, after the
 * text. Text above them (an instruction shown verbatim in a code block, say) may hold a copy of
 * a real marker; it is never read as one. Nor are marker lines that a code block left open above
 * them swallows: a copy pasted after an unclosed fence is code, not a marker.
 */
function trailingMarkers(body: string): string {
  const lines = body.trimEnd().split('\n')
  const first = markersStart(lines)
  if (fenceLeftOpen(lines.slice(0, first))) return ''
  return lines.slice(first).join('\n')
}

/**
 * Whether a fenced code block (CommonMark: three or more backticks or tildes, indented at most 3
 * spaces) is still open after `lines`: closed only by a fence of the same character, at least as
 * long, with nothing after it.
 */
function fenceLeftOpen(lines: string[]): boolean {
  let open: { char: string; length: number } | undefined
  for (const line of lines) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line)
    if (!m) continue
    const run = m[1] ?? ''
    const rest = m[2] ?? ''
    if (open === undefined) {
      // A backtick fence's info string holds no backtick (else it is an inline code span).
      if (!(run[0] === '`' && rest.includes('`'))) open = { char: run[0] ?? '', length: run.length }
    } else if (run[0] === open.char && run.length >= open.length && rest.trim() === '')
      open = undefined
  }
  return open !== undefined
}

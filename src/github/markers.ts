// Hidden markers that let the action find its own comments again. An installation token cannot ask
// who it is (GET /user is refused) and anyone can type an HTML comment, so a marker only counts
// when its HMAC verifies: keyed with a secret no commenter has (the API key), over this repository,
// the issue or pull request, the key, and the time the marker was written.
//
// Why the time and not the comment id: a marker that binds the id can only be written after the
// comment exists, which costs a create and then an edit for every new comment. A marker bound to
// its time is complete in the create itself. What the id protected still holds: a copy of a real
// marker pasted into another comment carries the original's time, never a later one, so "the
// newest marker" (by its signed time, the original first on a tie) is always the action's latest
// word, and a copy can never route a trigger to an older job. On another issue, pull request or
// repository a copy does not verify at all.
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

const MARKER_PREFIX = 'docs-agent:'
const SIG_HEX = 32
// encodeURIComponent never emits whitespace, '<' or '>', so an encoded key cannot end the marker.
const MARKER_PATTERN =
  /<!-- docs-agent:([A-Za-z0-9\-_.!~*'()%]+) t=([0-9]{1,15}) sig=([0-9a-f]+) -->/g

/** Builds a key from parts such as ('job', projectId, jobId); parts are encoded so '/' inside an id stays unambiguous. */
export function markerKey(...parts: string[]): string {
  return parts.map(part => encodeURIComponent(part)).join('/')
}

function signature(key: string, secret: string, place: Place, at: number): string {
  if (secret === '') throw new Error('A secret is required to sign comment markers')
  return createHmac('sha256', secret)
    .update(`${place.owner}/${place.repo}#${place.issueNumber}\nt=${at}\n${key}`)
    .digest('hex')
    .slice(0, SIG_HEX)
}

export function makeMarker(key: string, secret: string, place: Place, at: number): string {
  const sig = signature(key, secret, place, at)
  return `<!-- ${MARKER_PREFIX}${encodeURIComponent(key)} t=${at} sig=${sig} -->`
}

function sameSignature(actual: string, expected: string): boolean {
  // Constant time, so the signature cannot be guessed byte by byte from response timing.
  return (
    actual.length === expected.length && timingSafeEqual(Buffer.from(actual), Buffer.from(expected))
  )
}

export function decodeKey(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}

// Version 1.0.0 signed over the comment's id instead of a time: still read, so the routes recorded
// before an upgrade keep working, as the oldest markers of all (time 0).
const LEGACY_PATTERN = /<!-- docs-agent:([A-Za-z0-9\-_.!~*'()%]+) sig=([0-9a-f]+) -->/g

function legacySignature(key: string, secret: string, place: Place, commentId: number): string {
  return createHmac('sha256', secret)
    .update(`${place.owner}/${place.repo}#${place.issueNumber}\n${commentId}\n${key}`)
    .digest('hex')
    .slice(0, SIG_HEX)
}

/**
 * The markers in body whose signature verifies, in order of appearance; `commentId` lets the
 * markers of version 1.0.0 verify too.
 */
export function verifiedMarkers(
  body: string,
  secret: string,
  place: Place,
  commentId?: number
): Marker[] {
  // With no secret nothing can be told apart from a forgery.
  if (secret === '' || typeof body !== 'string') return []
  body = trailingMarkers(body)
  const found: Marker[] = []
  if (commentId !== undefined)
    for (const match of body.matchAll(LEGACY_PATTERN)) {
      const key = decodeKey(match[1] ?? '')
      if (key === undefined) continue
      const expected = legacySignature(key, secret, place, commentId)
      if (sameSignature(match[2] ?? '', expected)) found.push({ key, at: 0 })
    }
  for (const match of body.matchAll(MARKER_PATTERN)) {
    const key = decodeKey(match[1] ?? '')
    const at = Number(match[2])
    if (key === undefined || !Number.isSafeInteger(at)) continue
    if (sameSignature(match[3] ?? '', signature(key, secret, place, at))) found.push({ key, at })
  }
  return found
}

/**
 * The lines of marker comments that end the body: the action writes its markers there, after the
 * text. Text above them (an instruction shown verbatim in a code block, say) may hold a copy of
 * a real marker; it is never read as one. Nor are marker lines that a code block left open above
 * them swallows: a copy pasted after an unclosed fence is code, not a marker.
 */
function trailingMarkers(body: string): string {
  const lines = body.trimEnd().split('\n')
  let first = lines.length
  while (first > 0 && /^<!-- docs-agent:[^\n]* -->$/.test(lines[first - 1] ?? '')) first--
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

/** The markers for `keys`, all stamped `at`, one per line. */
export function markersFor(keys: string[], secret: string, place: Place, at: number): string {
  return keys.map(key => makeMarker(key, secret, place, at)).join('\n')
}

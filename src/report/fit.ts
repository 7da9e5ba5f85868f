// Fitting a body into its room: a comment (GitHub counts its 65,536 in characters) or the job
// summary (1 MiB, in bytes). A report that can fold rows renders to the room itself (fitRows); a
// body that still does not fit is cut at a line, its open blocks closed, with one note saying so.
import { Buffer } from 'node:buffer'
import { cutAt } from './markdown.js'

/** A body's size in UTF-8 bytes. */
function size(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

/**
 * How much a body may hold, in the unit its place counts: GitHub limits a comment in characters
 * (counted here as UTF-16 units, never fewer) and a job summary in bytes.
 */
export interface Room {
  max: number
  unit: 'chars' | 'bytes'
}

export const chars = (max: number): Room => ({ max, unit: 'chars' })
export const bytes = (max: number): Room => ({ max, unit: 'bytes' })

/** GitHub's limit on a comment's body, in characters: a longer one is refused. */
export const COMMENT_MAX_CHARS = 65_536

/**
 * GitHub's limit on a step's job summary, in bytes (1 MiB): a larger one is not shown at all. The
 * limit is per step and the action writes its step's summary once (main.ts publish), so the
 * whole of it is the room; no other step's summary shares it.
 */
const SUMMARY_MAX_BYTES = 1024 * 1024

/** The room of the job summary, for every command. */
export const SUMMARY_ROOM: Room = bytes(SUMMARY_MAX_BYTES)

/** The length of `s` in the room's unit. */
function lengthIn(s: string, room: Room): number {
  return room.unit === 'chars' ? s.length : size(s)
}

export function fitsIn(s: string, room: Room): boolean {
  return lengthIn(s, room) <= room.max
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/

/** The fence that is still open at the end of the Markdown, if any (e.g. "```"). */
function openFence(markdown: string): string | undefined {
  let open: string | undefined
  for (const line of markdown.split('\n')) {
    const match = FENCE_LINE.exec(line)
    if (!match) continue
    const [, fence = '', rest = ''] = match
    if (open === undefined) {
      // A backtick fence's info string may not contain backticks, else it is inline code.
      if (!(fence.startsWith('`') && rest.includes('`'))) open = fence
    } else if (fence[0] === open[0] && fence.length >= open.length && rest.trim() === '') {
      open = undefined
    }
  }
  return open
}

/** `<details>` blocks left open at the end of the Markdown. */
function openDetails(markdown: string): number {
  const opened = markdown.match(/^<details[ >]/gm)?.length ?? 0
  const closed = markdown.match(/^<\/details>/gm)?.length ?? 0
  return Math.max(0, opened - closed)
}

/** The longest start of `s` whose UTF-8 form fits in maxBytes, never splitting a character. */
function cutToBytes(s: string, maxBytes: number): string {
  let bytes = 0
  let i = 0
  while (i < s.length) {
    const cp = s.codePointAt(i) ?? 0
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
    if (bytes + n > maxBytes) break
    bytes += n
    i += cp > 0xffff ? 2 : 1
  }
  return s.slice(0, i)
}

/** Cuts at the last line break within `max` of the room's unit (or mid-line, if there is none). */
function cutAtLine(s: string, max: number, unit: Room['unit']): string {
  const cut = unit === 'chars' ? cutAt(s, max) : cutToBytes(s, max)
  if (cut.length === s.length) return cut
  const lastBreak = cut.lastIndexOf('\n')
  return lastBreak > 0 ? cut.slice(0, lastBreak) : cut
}

/** What closes the blocks a cut left open: a code fence, then collapsed blocks. */
function closing(cut: string): string {
  const fence = openFence(cut)
  return (fence ? `\n${fence}` : '') + '\n\n</details>'.repeat(openDetails(cut))
}

/** How the note that ends a body cut to fit begins (a body's own last line then: isCutNote). */
const CUT_NOTICE = '_… cut to fit a GitHub comment; the full report is in '

/** Whether `line` is the note fitMarkdown ends a cut body with (its footer was cut away). */
export function isCutNote(line: string): boolean {
  return line.startsWith(CUT_NOTICE) && line.endsWith('._')
}

/**
 * Last resort for a body longer than its room: cut at a line boundary, close an open code fence
 * or collapsed block and say where the full report is. The result fits the room, in its unit.
 */
export function fitMarkdown(body: string, room: Room, note = 'the job summary'): string {
  if (fitsIn(body, room)) return body
  const len = (text: string): number => lengthIn(text, room)
  const notice = `\n\n${CUT_NOTICE}${note}._\n`
  let budget = room.max - len(notice)
  // Cutting shorter can only close blocks, so a second pass with room for the closing fits.
  for (let attempt = 0; attempt < 3 && budget > 0; attempt++) {
    const cut = cutAtLine(body, budget, room.unit)
    const end = closing(cut)
    if (len(cut) + len(end) + len(notice) <= room.max) return cut + end + notice
    budget = room.max - len(notice) - len(end)
  }
  const last = notice.trim()
  return room.unit === 'chars' ? cutAt(last, room.max) : cutToBytes(last, room.max)
}

/**
 * The one way a report fits its room: the most table rows with which `render(rows)` stays
 * within it (found by bisection; more rows never make a report shorter), and only when not even
 * 0 rows fit, the report cut as a last resort.
 */
export function fitRows(
  render: (rows: number) => string,
  rowCount: number,
  room: Room,
  note?: string
): string {
  const full = render(rowCount)
  if (fitsIn(full, room)) return full
  let fits = -1
  let low = 0
  let high = rowCount - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (fitsIn(render(mid), room)) {
      fits = mid
      low = mid + 1
    } else high = mid - 1
  }
  return fits >= 0 ? render(fits) : fitMarkdown(render(0), room, note)
}

// What others observed of the real service's analytics (shared field notes), as faults of the
// simulator: cursors served opaque, as ULIDs or inside a whole URL, and long; a 414 on a URL too
// long for the server; a gateway's 504 on pages above a size or on long ranges; short and empty
// pages that still say more exist. Standard library only, like the rest of sim/.

/**
 * @typedef {object} FieldOptions
 * @property {'opaque'|'ulid'|'url'} [cursorForm] how `nextCursor` is served, by every cursor
 *   operation: opaque, a ULID, or a whole URL whose `cursor` parameter is the cursor (observed by
 *   one fetcher; the URL itself is no cursor: sent back as one, it is refused as invalid). By
 *   default as the reference documents each: the assistant's a ULID, the others opaque
 * @property {number} [cursorChars] pad every cursor to at least this many characters
 * @property {number} [maxUrlChars] answer 414 "Pagination URL exceeded server limit" to an
 *   analytics request whose path and query are longer (observed with long cursors)
 * @property {number} [timeoutAbove] answer 504 (after `timeoutMs`) to an analytics request that
 *   asks for more rows (`limit`) than this
 * @property {number} [timeoutDays] answer 504 (after `timeoutMs`) to an analytics request whose
 *   range is longer than this many days, or unbounded
 * @property {number} [timeoutMs] how long the gateway waits before its 504 (default 10 s)
 * @property {{ kind: string, offset: number, keep: number }[]} [thinPages] the page of `kind`
 *   starting at `offset` holds only its first `keep` rows (the service filtered the others out of
 *   it) while `hasMore` or `nextCursor` still say more exist, as PostHog's tests model
 * @property {number} [maxPageRows] serve at most this many rows a page whatever `limit` asks,
 *   saying more exist as long as they do (a service with a lower page cap than documented)
 * @property {number} [repeatAfter] offset pages (`visitors`, `views`) past this many rows serve
 *   the same rows again from the start, with `hasMore` for ever (a broken or hostile service)
 */

/** Crockford's base32, the alphabet of a ULID. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A well-formed ULID: `time` (ms) as its time part (10 characters) and `n` as its random part
 * (16 characters), so that distinct `n` give distinct ULIDs.
 * @param {number} time
 * @param {number} n
 */
export function ulid(time, n) {
  // No `Math` in the loop: a global read there is slow in jest's vm context, and the simulators
  // make a ULID a row.
  const digits = (/** @type {number} */ value, /** @type {number} */ length) => {
    let out = ''
    for (let v = value, i = 0; i < length; i++, v = (v - (v % 32)) / 32)
      out = CROCKFORD[v % 32] + out
    return out
  }
  return digits(time, 10) + digits(n * 7919, 16)
}

/**
 * The `n`th cursor ULID a simulator serves (2026-11), each distinct.
 * @param {number} n
 */
const ulidOf = n => ulid(Date.UTC(2026, 10, 16), n)

/** @param {FieldOptions} options */
export function createField(options) {
  // A cursor encodes its window (kind, offset, range), so a page asked with the cursor and
  // `limit` alone reads the same rows; served opaque, as a ULID or inside a whole URL.
  const ulids = new Map()
  const encodeCursor = (kind, offset, q, projectId, limit) => {
    // The feedback export's filters belong to the window too: its next page keeps them.
    const filters = {
      ...(q.source ? { source: q.source } : {}),
      ...(q.status ? { status: q.status } : {})
    }
    const window = { kind, offset, dateFrom: q.dateFrom, dateTo: q.dateTo, ...filters }
    const opaque = Buffer.from(JSON.stringify(window)).toString('base64url')
    const cursor = opaque.padEnd(options.cursorChars ?? 0, '.')
    const form = options.cursorForm ?? (kind === 'assistant' ? 'ulid' : 'opaque')
    if (form === 'ulid') {
      const ulid = ulidOf(ulids.size + 1)
      ulids.set(ulid, window)
      return ulid
    }
    if (form === 'url') {
      const query = new URLSearchParams({ limit: String(limit), cursor })
      return `https://api.mintlify.com/v1/analytics/${encodeURIComponent(projectId ?? '')}/${kind}?${query}`
    }
    return cursor
  }
  /** The window a cursor stands for, or undefined when it is not one of ours. */
  const decodeCursor = (kind, cursor) => {
    let c = ulids.get(cursor)
    if (!c) {
      try {
        c = JSON.parse(Buffer.from(cursor.replace(/\.+$/, ''), 'base64url').toString('utf8'))
      } catch {
        return undefined
      }
    }
    return c && c.kind === kind && Number.isInteger(c.offset) && c.offset >= 0 ? c : undefined
  }

  /** The offset and range a cursor stands for (the request's own range first), or undefined. */
  const cursorWindow = (kind, q) => {
    if (q.cursor === undefined) return { offset: 0, range: q }
    const c = decodeCursor(kind, q.cursor)
    if (!c) return undefined
    const dates = q.dateFrom || q.dateTo ? q : { dateFrom: c.dateFrom, dateTo: c.dateTo }
    const source = q.source ?? c.source
    const status = q.status ?? c.status
    const range = { ...dates, ...(source ? { source } : {}), ...(status ? { status } : {}) }
    return { offset: c.offset, range }
  }

  /** How many rows the page of `kind` at `offset` keeps (thinPages), of `count`. */
  const kept = (kind, offset, count) => {
    const thin = (options.thinPages ?? []).find(t => t.kind === kind && t.offset === offset)
    return thin ? Math.min(count, thin.keep) : count
  }

  /** The gateway's 504, after its wait, for a page too large or a range too long (faults). */
  const gatewayTimeout = (kind, q) => {
    const tooMany = options.timeoutAbove !== undefined && +(q.limit ?? 0) > options.timeoutAbove
    // A page asked by its cursor alone covers the cursor's window.
    const range = q.cursor ? (cursorWindow(kind, q)?.range ?? q) : q
    const days =
      range.dateFrom && range.dateTo
        ? (Date.parse(range.dateTo) - Date.parse(range.dateFrom)) / 86_400_000
        : Infinity
    const tooLong = options.timeoutDays !== undefined && days > options.timeoutDays
    if (!tooMany && !tooLong) return undefined
    return { status: 504, body: 'Gateway Timeout', delayMs: options.timeoutMs ?? 10_000 }
  }

  /** A URL the server refuses with 414 (maxUrlChars). */
  const urlTooLong = url => options.maxUrlChars !== undefined && url.length > options.maxUrlChars

  /** The rows a page may hold: `limit`, or fewer under `maxPageRows`. */
  const pageRows = limit => Math.min(limit, options.maxPageRows ?? Infinity)

  /**
   * The positions of the rows the offset page of `kind` at `offset` serves, of `count` rows, and
   * whether it says more exist: thin pages, `maxPageRows` and `repeatAfter` applied.
   * @returns {{ positions: number[], hasMore: boolean }}
   */
  const offsetPage = (kind, offset, limit, count) => {
    const take = pageRows(limit)
    const repeat = options.repeatAfter
    if (repeat !== undefined) {
      const n = kept(kind, offset, take)
      return {
        positions: Array.from({ length: n }, (_, i) => (offset + i) % repeat),
        hasMore: true
      }
    }
    const n = kept(kind, offset, Math.max(0, Math.min(offset + take, count) - offset))
    const positions = Array.from({ length: n }, (_, i) => offset + i)
    // A capped service says more exist while they do; otherwise as documented, by `limit`.
    const hasMore = options.maxPageRows !== undefined ? offset + n < count : offset + limit < count
    return { positions, hasMore }
  }

  return { encodeCursor, cursorWindow, kept, pageRows, offsetPage, gatewayTimeout, urlTooLong }
}

// One offset page as the service's gateway lets it through: whole, or, once the gateway has timed
// out (502, 504) on pages of `limit`, in consecutive smaller pieces (down to 25 rows a request)
// joined into one page, every later page in pieces of the size that got through.
import { canNarrow, halved, isGatewayTimeout, type Narrowing } from './timeouts.js'

/**
 * Retries transient failures itself; a rejection fails the read. `signal` fires when the page is
 * no longer wanted (past the end, after a stop, a failure or the deadline): no retry then.
 * `halvable`: a gateway timeout (502, 504) is to be thrown at once, not retried at this size,
 * since the reader asks for the same rows in smaller pages (only with `joinPages`).
 */
export type FetchOffsetPage<Page> = (
  offset: number,
  limit: number,
  signal: AbortSignal,
  halvable: boolean
) => Promise<Page>

export interface PieceOptions<Page extends { hasMore: boolean }, Row> {
  fetchPage: FetchOffsetPage<Page>
  rowsOf: (page: Page) => Row[]
  /** Makes one page of consecutive pieces; without it, a timeout fails the read like any error. */
  joinPages?: (parts: Page[]) => Page
}

export class PageFetcher<Page extends { hasMore: boolean }, Row> {
  /** The page size that gets through the gateway: `limit` until a page times out. */
  private partSize: number
  /** Set when the gateway timed out on pages of `limit` and smaller ones got through. */
  narrowed: Narrowing | undefined
  /** Requests beyond each page's first: the pieces and the timed-out tries. */
  extra = 0

  constructor(
    private readonly o: PieceOptions<Page, Row>,
    private readonly limit: number
  ) {
    this.partSize = limit
  }

  fetch(offset: number, signal: AbortSignal): Promise<Page> {
    return this.o.joinPages
      ? this.inPieces(offset, signal, this.o.joinPages)
      : this.o.fetchPage(offset, this.limit, signal, false)
  }

  private async inPieces(
    offset: number,
    signal: AbortSignal,
    join: (parts: Page[]) => Page
  ): Promise<Page> {
    const parts: Page[] = []
    const end = offset + this.limit
    let calls = 0
    for (let at = offset; at < end;) {
      const n = Math.min(this.partSize, end - at)
      const halvable = canNarrow(n)
      if (calls++ > 0) this.extra++
      let part: Page
      try {
        part = await this.o.fetchPage(at, n, signal, halvable)
      } catch (err) {
        if (!halvable || signal.aborted || !isGatewayTimeout(err)) throw err
        this.partSize = Math.min(this.partSize, halved(n))
        this.narrowed = { from: this.limit, to: this.partSize }
        continue
      }
      parts.push(part)
      at += n
      // A short piece makes a short page: the reader asks for the next one where its rows end.
      if (!part.hasMore || this.o.rowsOf(part).length < n) break
    }
    return parts.length === 1 ? parts[0]! : join(parts)
  }
}

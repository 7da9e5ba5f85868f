// What an offset read checks of the pages it is handed, in offset order: totals that changed while
// it read (data moved), and each path once. Rows whose path was read before are dropped (after a
// short page, the next one starts where the rows received end and may repeat some), and a page
// whose rows were all read before is what a service that says `hasMore` forever sends.
import { HashSet64 } from './path-set.js'

export class PageChecks<Row extends { path: string }> {
  private firstTotals: string | undefined
  private totalsWarned = false
  private readonly seen = new HashSet64()
  private duplicateWarned = false
  /** Rows dropped so far because their path had been read before. */
  dropped = 0

  constructor(
    private readonly onWarning: (message: string) => void,
    private readonly where: string
  ) {}

  totals(totals: unknown, offset: number): void {
    const text = JSON.stringify(totals)
    if (this.firstTotals === undefined) this.firstTotals = text
    else if (!this.totalsWarned && text !== this.firstTotals) {
      this.totalsWarned = true
      this.onWarning(
        `The totals changed while the pages were read (data moved during the export): the first ` +
          `page said ${this.firstTotals}, the page at ${this.where} ${offset} says ` +
          `${text}. The export keeps the first page's totals; rows may be missing or repeated.`
      )
    }
  }

  /** Whether the page's first row was read before: a service repeating itself (read-ahead stops). */
  repeats(rows: readonly Row[]): boolean {
    return rows.length > 0 && this.seen.has(rows[0]!.path)
  }

  /** The rows whose path was not read before (the same array when there is none). */
  fresh(rows: Row[]): Row[] {
    let kept: Row[] | undefined
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      if (this.seen.add(row.path)) {
        kept?.push(row)
        continue
      }
      kept ??= rows.slice(0, i)
      this.dropped++
      if (this.duplicateWarned) continue
      this.duplicateWarned = true
      this.onWarning(
        `The path ${JSON.stringify(row.path)} came more than once (a page that started where the ` +
          `rows received ended, or data moving during the export); each path is kept once.`
      )
    }
    return kept ?? rows
  }
}

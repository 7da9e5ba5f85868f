// The pages table, shared by the visitors report and the health report's visitors and views
// sections: one page cell (clipped, escaped, linked to the docs site), one set of columns, one row.
import type { VisitorRow } from '../service/schema.js'
import { clipPath, escapeText, link, pageUrl, tableRow, type Column } from './markdown.js'
import { formatNumber, formatPercentChange } from './numbers.js'

/**
 * Page paths wider than this (display columns) are clipped in the middle: both ends of a path say
 * the most, and a pages table with its numbers stays on one line at a comment's 760 px.
 */
const PATH_MAX_COLUMNS = 40
/** Beside human, AI, total and the change (the visitors report): four number columns. */
const PATH_BESIDE_FOUR_COLUMNS = 32

/** A page path clipped in the middle, escaped, linked to the docs site with `site-url`. */
export function pageCell(
  path: string,
  siteUrl: string | undefined,
  maxColumns = PATH_MAX_COLUMNS
): string {
  if (path === '') return '_(empty path)_'
  const text = escapeText(clipPath(path, maxColumns))
  const url = siteUrl ? pageUrl(siteUrl, path) : undefined
  return url ? link(text, url) : text
}

/**
 * A page's change as a percentage alone ("+22.0%", "new"): short, so the table does not wrap at
 * a comment's 760 px, and one unit down the column.
 */
export function pageChange(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return now === 0 ? '0' : 'new'
  return formatPercentChange(now, before) ?? '–'
}

/** Rank, page, human, AI, total, and the change of the total when there is a period before. */
export function pageColumns(withChange: boolean): Column[] {
  return [
    { header: '#', align: 'right' },
    { header: 'Page' },
    { header: 'Human', align: 'right' },
    { header: 'AI', align: 'right' },
    { header: 'Total', align: 'right' },
    ...(withChange ? [{ header: 'Change', align: 'right' as const }] : [])
  ]
}

/** One page's row; `before` is its total in the period before, when there is one. */
export function pageRow(
  row: VisitorRow,
  rank: number,
  siteUrl: string | undefined,
  previous?: { before: number | undefined }
): string {
  return tableRow([
    String(rank),
    pageCell(row.path, siteUrl, previous ? PATH_BESIDE_FOUR_COLUMNS : PATH_MAX_COLUMNS),
    formatNumber(row.human),
    formatNumber(row.ai),
    formatNumber(row.total),
    ...(previous ? [pageChange(row.total, previous.before)] : [])
  ])
}

// The `visitors` and `views` sections: the same offset pages, read whole as `command: visitors`
// does; the service's totals and the top pages. With `compare`, the previous period's totals
// from a one-row page.
import { readOffsetPages } from '../../service/pages.js'
import type { VisitorCounts, VisitorRow, VisitorsPage } from '../../service/schema.js'
import { TopPages } from '../top.js'
import type { DateRange } from '../../period.js'
import type { SectionInput } from './section.js'

export interface PagesSection {
  name: 'visitors' | 'views'
  ok: true
  totals: VisitorCounts
  previous?: VisitorCounts
  /** Page rows read. */
  rows: number
  /** Most `total` first, at most `top`. */
  top: VisitorRow[]
  maxRowsReached: boolean
}

type FetchPage = (offset: number, limit: number, signal?: AbortSignal) => Promise<VisitorsPage>

export async function readVisitors(input: SectionInput): Promise<PagesSection> {
  const { api, range } = input
  const fetchPage: FetchPage = (offset, limit, signal) => api.visitors(range, limit, offset, signal)
  const section = await readPages('visitors', input, fetchPage)
  if (input.previous) section.previous = await api.visitorsTotals(input.previous)
  return section
}

export async function readViews(input: SectionInput): Promise<PagesSection> {
  const { api, range } = input
  const fetchPage: FetchPage = async (offset, limit, signal) => {
    const page = await api.views(range, limit, offset, signal)
    return { totals: page.totals, visitors: page.views, hasMore: page.hasMore }
  }
  const section = await readPages('views', input, fetchPage)
  if (input.previous) section.previous = await viewsTotals(input, input.previous)
  return section
}

async function viewsTotals(input: SectionInput, range: DateRange): Promise<VisitorCounts> {
  return (await input.api.views(range, 1, 0)).totals
}

/**
 * Every page of one offset operation, keeping only the top rows. The one place that knows how
 * offset pages are read, so the pagination room can be swapped in here alone.
 */
async function readPages(
  name: PagesSection['name'],
  input: SectionInput,
  fetchPage: FetchPage
): Promise<PagesSection> {
  const top = new TopPages(input.top)
  const result = await readOffsetPages<VisitorsPage, VisitorRow>({
    fetchPage,
    rowsOf: page => page.visitors,
    pageSize: input.pageSize,
    maxRows: input.maxRows,
    concurrency: input.concurrency,
    deadline: input.deadline,
    onPage: rows => top.add(rows),
    onWarning: line => input.onWarning(`Section ${name}: ${line}`)
  })
  return {
    name,
    ok: true,
    totals: result.first.totals,
    rows: result.rows,
    top: top.list(),
    maxRowsReached: result.maxRowsReached
  }
}

// The `visitors` and `views` sections: the same offset pages, read whole as `command: visitors`
// does; the service's totals and the top pages. The report shows one pages table with visitors
// and views side by side, so the views section also keeps the rows of the pages the visitors
// section shows. With `compare`, the previous period's totals; for visitors (the column the
// pages are ranked by) also the previous values of the shown pages, read as `command: visitors`
// reads them: one request when the service's order lets the read stop early. Views keep to the
// one request for their totals: a second per-page read could cost a large site dozens of the
// hourly quota's requests, for a column beside the one that already shows the change.
import { readPreviousValues } from '../compare.js'
import { readOffsetPages, type OffsetPagesOptions } from '../../service/pages.js'
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
  /** Most `total` first, at most `top`, each path once. */
  top: VisitorRow[]
  /** Rows of the pages another section shows (`SectionInput.shownPaths`) that `top` lacks. */
  shown?: VisitorRow[]
  /** With `compare`: the previous period's rows of the pages in `top` and `shown` it had. */
  previousRows?: VisitorRow[]
  maxRowsReached: boolean
}

type FetchPage = (offset: number, limit: number, signal?: AbortSignal) => Promise<VisitorsPage>

export async function readVisitors(input: SectionInput): Promise<PagesSection> {
  const { api } = input
  const fetchPage =
    (range: DateRange): FetchPage =>
    (offset, limit, signal) =>
      api.visitors(range, limit, offset, signal)
  return readPagesSection('visitors', input, fetchPage)
}

export async function readViews(input: SectionInput): Promise<PagesSection> {
  const { api } = input
  const fetchPage =
    (range: DateRange): FetchPage =>
    async (offset, limit, signal) => {
      const page = await api.views(range, limit, offset, signal)
      return { totals: page.totals, visitors: page.views, hasMore: page.hasMore }
    }
  return readPagesSection('views', input, fetchPage)
}

async function readPagesSection(
  name: PagesSection['name'],
  input: SectionInput,
  fetchPage: (range: DateRange) => FetchPage
): Promise<PagesSection> {
  const options = (range: DateRange, what: string) => ({
    fetchPage: fetchPage(range),
    rowsOf: (page: VisitorsPage) => page.visitors,
    pageSize: input.pageSize,
    maxRows: input.maxRows,
    concurrency: input.concurrency,
    deadline: input.deadline,
    onWarning: (line: string) => input.onWarning(`Section ${name}${what}: ${line}`)
  })
  const section = await readPages(name, input, options(input.range, ''))
  if (!input.previous) return section
  if (name === 'views') {
    section.previous = await input.api.viewsTotals(input.previous)
    return section
  }
  const paths = [...section.top, ...(section.shown ?? [])].map(row => row.path)
  const { read, byPath } = await readPreviousValues(
    paths,
    options(input.previous, ', the period before')
  )
  section.previous = read.first.totals
  section.previousRows = [...byPath].map(([path, counts]) => ({ path, ...counts }))
  return section
}

/**
 * Every page of one offset operation, keeping only the top rows and the rows of the pages
 * another section shows. The one place that knows how a section reads offset pages.
 */
async function readPages(
  name: PagesSection['name'],
  input: SectionInput,
  options: Omit<OffsetPagesOptions<VisitorsPage, VisitorRow>, 'onPage'>
): Promise<PagesSection> {
  const top = new TopPages(input.top)
  const wanted = new Set(input.shownPaths ?? [])
  const shown = new Map<string, VisitorRow>()
  const result = await readOffsetPages<VisitorsPage, VisitorRow>({
    ...options,
    onPage: rows => {
      top.add(rows)
      for (const row of rows)
        if (wanted.has(row.path) && !shown.has(row.path)) shown.set(row.path, row)
    }
  })
  const list = top.list()
  for (const row of list) shown.delete(row.path)
  return {
    name,
    ok: true,
    totals: result.first.totals,
    rows: result.rows,
    top: list,
    ...(shown.size > 0 ? { shown: [...shown.values()] } : {}),
    maxRowsReached: result.maxRowsReached
  }
}

// The one reader of the `visitors` and `views` offset pages, used by the report's sections and by
// `command: visitors` alike: the pages read whole, the service's totals, the top pages, and with
// `compare` the period before. The report shows one pages table with visitors and views side by
// side, so the views section also keeps the rows of the pages the visitors section shows. With
// `compare`, visitors (the column the pages are ranked by) also reads the previous values of the
// shown pages: one request when the service's order lets the read stop early. Views keep to the
// one request for their totals: a second per-page read could cost a large site dozens of the
// hourly quota's requests, for a column beside the one that already shows the change.
import { readPreviousValues } from '../compare.js'
import {
  readOffsetPages,
  type OffsetPagesOptions,
  type OffsetPagesResult
} from '../../service/pages.js'
import type { VisitorCounts, VisitorRow, VisitorsPage } from '../../service/schema.js'
import { TopPages } from '../top.js'
import type { DateRange } from '../../period.js'
import { caveats, type ReadCaveats, type SectionInput } from './section.js'
import { narrowingNote } from '../../service/timeouts.js'

export interface PagesSection extends ReadCaveats {
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

/** How the pages were read: what the log says of a read, beside what the section shows. */
export interface PagesRead {
  section: PagesSection
  read: OffsetPagesResult<VisitorsPage>
  /** With `compare`: the read of the period before, and whether its rows came sorted. */
  previousRead?: { read: OffsetPagesResult<VisitorsPage>; sorted: boolean }
}

export interface PagesReadOptions {
  /** Each page's rows as they come, in order (the export writes them to its file here). */
  onPage?: (rows: VisitorRow[], page: VisitorsPage) => void | Promise<void>
  /** Where a warning about the data says it comes from; default "Section <name>", '' for none. */
  label?: string
}

type FetchPage = (
  offset: number,
  limit: number,
  signal: AbortSignal,
  halvable: boolean
) => Promise<VisitorsPage>

export async function readVisitors(input: SectionInput): Promise<PagesSection> {
  return (await readPages('visitors', input)).section
}

export async function readViews(input: SectionInput): Promise<PagesSection> {
  return (await readPages('views', input)).section
}

/** The range's pages, then (with `compare`) the period before: one section's whole read. */
async function readPages(
  name: PagesSection['name'],
  input: SectionInput,
  o: PagesReadOptions = {}
): Promise<PagesRead> {
  const current = await readRangePages(name, input, o)
  if (!input.previous) return current
  const label = o.label === undefined ? undefined : `${o.label}, the period before`
  return readPreviousPages(current, input, input.previous, label)
}

/**
 * The period before, for a read of the range: its totals, and for visitors the previous values
 * of the pages shown (for views, the totals alone: one request).
 */
export async function readPreviousPages(
  current: PagesRead,
  input: SectionInput,
  range: Required<DateRange>,
  label?: string
): Promise<PagesRead> {
  const { section } = current
  if (section.name === 'views') {
    const previous = input.known?.views ?? (await input.api.viewsTotals(range))
    return { ...current, section: { ...section, previous } }
  }
  const paths = [...section.top, ...(section.shown ?? [])].map(row => row.path)
  const where = label ?? `Section ${section.name}, the period before`
  const { read, byPath, sorted } = await readPreviousValues(
    paths,
    pageOptions(section.name, input, range, where)
  )
  const previousRows = [...byPath].map(([path, counts]) => ({ path, ...counts }))
  return {
    ...current,
    section: { ...section, previous: read.first.totals, previousRows },
    previousRead: { read, sorted }
  }
}

/** The page reader's options for one range of the operation `name`. */
function pageOptions(
  name: PagesSection['name'],
  input: SectionInput,
  range: DateRange,
  label: string
) {
  const { api } = input
  const fetchPage: FetchPage =
    name === 'visitors'
      ? (offset, limit, signal, halvable) =>
          api.visitors(range, limit, offset, { signal, halvable })
      : async (offset, limit, signal, halvable) => {
          const page = await api.views(range, limit, offset, { signal, halvable })
          return { totals: page.totals, visitors: page.views, hasMore: page.hasMore }
        }
  return {
    fetchPage,
    rowsOf: (page: VisitorsPage) => page.visitors,
    // The pieces of a page the gateway timed out on, as one page: the first piece's totals.
    joinPages: (parts: VisitorsPage[]) => ({
      totals: parts[0]!.totals,
      visitors: parts.flatMap(part => part.visitors),
      hasMore: parts[parts.length - 1]!.hasMore
    }),
    pageSize: input.pageSize,
    maxRows: input.maxRows,
    ...(input.maxPages !== undefined ? { maxPages: input.maxPages } : {}),
    concurrency: input.concurrency,
    deadline: input.deadline,
    onWarning: (line: string) => input.onWarning(label === '' ? line : `${label}: ${line}`)
  } satisfies Omit<OffsetPagesOptions<VisitorsPage, VisitorRow>, 'onPage'>
}

/**
 * Every page of the range, keeping only the top rows and the rows of the pages another section
 * shows, and handing each page on to `onPage`.
 */
export async function readRangePages(
  name: PagesSection['name'],
  input: SectionInput,
  { onPage, label = `Section ${name}` }: PagesReadOptions = {}
): Promise<PagesRead> {
  const top = new TopPages(input.top)
  const wanted = new Set(input.shownPaths ?? [])
  const shown = new Map<string, VisitorRow>()
  const read = await readOffsetPages<VisitorsPage, VisitorRow>({
    ...pageOptions(name, input, input.range, label),
    onPage: (rows, page) => {
      top.add(rows)
      for (const row of rows)
        if (wanted.has(row.path) && !shown.has(row.path)) shown.set(row.path, row)
      return onPage?.(rows, page)
    }
  })
  const list = top.list()
  for (const row of list) shown.delete(row.path)
  const section: PagesSection = {
    name,
    ok: true,
    totals: read.first.totals,
    rows: read.rows,
    top: list,
    ...(shown.size > 0 ? { shown: [...shown.values()] } : {}),
    maxRowsReached: read.maxRowsReached,
    ...caveats(
      readNotes(input.pageSize, read),
      pagesIncomplete(name, read),
      read.narrowed !== undefined
    )
  }
  return { section, read }
}

/** What the reading had to do: pages narrowed, pages that came short, paths that came again. */
function readNotes(pageSize: number, read: OffsetPagesResult<VisitorsPage>): string[] {
  const { shortPages, dropped } = read
  return [
    ...(read.narrowed ? [narrowingNote('rows', read.narrowed)] : []),
    ...(shortPages > 0
      ? [
          `${shortPages} ${shortPages === 1 ? 'page' : 'pages'} came short (fewer rows than the ` +
            `${pageSize} asked for, while the service said more exist): each next page started ` +
            'where the rows received ended.'
        ]
      : []),
    ...(dropped > 0
      ? [
          `${dropped} ${dropped === 1 ? 'row was' : 'rows were'} dropped: each path is counted once.`
        ]
      : [])
  ]
}

/** Why a read of pages is incomplete, or undefined when it is not. */
function pagesIncomplete(
  name: PagesSection['name'],
  read: OffsetPagesResult<VisitorsPage>
): string | undefined {
  const title = name === 'visitors' ? 'Visitors' : 'Views'
  if (read.endedShort) return pagesEndedShort(name, read.rows)
  if (read.repeated)
    return (
      `${title}: the service sent a page of rows it had sent before while saying more exist, ` +
      `so the reading stopped after ${read.rows} rows, which may not be all of them.`
    )
  if (read.capped)
    return (
      `${title}: the service still said more rows exist after ${read.pages} pages ` +
      `(${read.rows} rows), the most a read asks for unless \`max-rows\` or \`max-requests\` ` +
      'allow more; the rows read are not all of them.'
    )
  return undefined
}

/** Why a read of pages is incomplete: it stopped at empty pages that still said more exist. */
function pagesEndedShort(name: PagesSection['name'], rows: number): string {
  const title = name === 'visitors' ? 'Visitors' : 'Views'
  return (
    `${title}: the service sent 3 empty pages in a row while saying more rows exist, so the ` +
    `reading stopped after ${rows} rows, which are not all of them.`
  )
}

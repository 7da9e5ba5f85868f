// Writes the visitor rows to a file as they arrive, page by page, so memory stays flat however many
// rows the export has. Every row is written as {path, human, ai, total} only: unknown extra fields
// the service may add are dropped so the file's schema stays stable.

import { constants, rmSync, type WriteStream } from 'node:fs'
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname, extname } from 'node:path'
import { finished } from 'node:stream/promises'
import { stringify, type Options as CsvOptions } from 'csv-stringify/sync'
import type { VisitorCounts, VisitorRow } from '../service/schema.js'
import { tempPathBeside } from '../workspace/files.js'
import type { DateRange } from '../period.js'
import { messageOf } from '../errors.js'

export type FileFormat = 'json' | 'csv' | 'ndjson'

const FORMATS: readonly FileFormat[] = ['json', 'csv', 'ndjson']

/** The format named by the file's extension (.json, .csv, .ndjson, any case), if any. */
export function formatFromPath(path: string): FileFormat | undefined {
  const ext = extname(path).slice(1).toLowerCase()
  return FORMATS.find(format => format === ext)
}

export interface Sink {
  /** Appends rows; waits while the file lags behind (backpressure). Await each call in turn. */
  write(rows: VisitorRow[]): Promise<void>
  /** Finishes the document and resolves once everything is flushed and the file is closed. */
  close(): Promise<void>
  /** After a failed export: stops writing and removes the partial file, so none is mistaken for a whole export. */
  abort(): Promise<void>
}

// A new file only, never through a symlink (O_NOFOLLOW, where the platform has it).
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

// RFC 4180: CRLF between records, and quotes around fields holding a comma, a quote or a line
// break. csv-stringify quotes a field holding the record delimiter "\r\n" but not a lone "\n" or
// "\r", hence quoted_match; and a field holding a `;` or a tab is quoted too, so that a reader in a
// `;` locale, or one reading tabs, takes the whole cell as one (contract: "Gates that cannot be
// fooled").
const CSV_OPTIONS: CsvOptions = { record_delimiter: '\r\n', quoted_match: /[;\t\r\n]/ }
const CSV_HEADER = 'path,human,ai,total\r\n'

/**
 * Where a spreadsheet could start reading a formula (OWASP's list: `=`, `+`, `-`, `@`, a tab, a
 * carriage return): at the start of the cell, and at the start of every piece that a reader
 * splitting on `;` or tabs (or on line breaks, ignoring the quotes) would take for a cell of its
 * own. Zero-width, so that a `'` goes in before each such piece.
 */
const FORMULA_START = /(?<=^|[;\t\r\n])(?=[=+\-@\t\r])/g

/**
 * A path as a CSV cell: a `'` before each piece that starts like a formula (`=HYPERLINK(…)`,
 * `/x;=1+1`, `/y\t@SUM(…)`), which spreadsheets read as "text" and hide; the README says so.
 */
const csvCell = (text: string): string => text.replace(FORMULA_START, "'")

const rowObject = (r: VisitorRow): VisitorRow => ({
  path: r.path,
  human: r.human,
  ai: r.ai,
  total: r.total
})

/**
 * Opens `filePath` for writing (creating its parent folders) in `format`.
 *
 * `totals` are asked for at open time, not at close, because the JSON document puts them before the
 * visitors and the rows are streamed without being buffered; the export has them as soon as the
 * first page arrives (readOffsetPages hands it to onPage). For .json the document is
 * `{"range": {"dateFrom", "dateTo"}, "totals": {...}, "visitors": [...]}`, range values being the
 * dates requested or null when unbounded. .csv and .ndjson hold the rows only.
 */
export async function openSink(
  filePath: string,
  format: FileFormat,
  range: DateRange,
  totals: VisitorCounts
): Promise<Sink> {
  const file = await ExportFile.open(filePath)
  const encoding = ENCODINGS[format]
  let rowsWritten = 0
  let state: 'open' | 'closing' | 'closed' | 'aborted' = 'open'
  const ensureOpen = (): void => {
    if (state !== 'open') throw new Error(`The visitors file ${filePath} is already ${state}`)
  }
  const discard = (): Promise<void> => {
    state = 'aborted'
    return file.discard()
  }
  await file.put(encoding.head(range, totals))

  return {
    async write(rows) {
      ensureOpen()
      await file.put(encoding.rows(rows, rowsWritten === 0))
      rowsWritten += rows.length
    },

    async close() {
      ensureOpen()
      state = 'closing'
      try {
        await file.put(encoding.end(rowsWritten))
        // A function, not a comparison, because abort() changes `state` while close() awaits.
        await file.publish(() => state === 'aborted')
      } catch (error) {
        // A file that could not be finished is no export: nothing is left behind.
        await discard()
        throw error
      }
      state = 'closed'
    },

    async abort() {
      // A file that was closed in full is a whole export: keep it.
      if (state === 'aborted' || state === 'closed') return
      await discard()
    }
  }
}

/** A format's text: what opens the file, a page of rows, what ends it. */
interface Encoding {
  head(range: DateRange, totals: VisitorCounts): string
  rows(rows: VisitorRow[], first: boolean): string
  end(rowsWritten: number): string
}

const nullable = (date: string | undefined): string | null =>
  date === undefined || date === '' ? null : date

const jsonLines = (rows: VisitorRow[]): string[] => rows.map(r => JSON.stringify(rowObject(r)))

const ENCODINGS: Record<FileFormat, Encoding> = {
  json: {
    head: (range, totals) => {
      const head = {
        range: { dateFrom: nullable(range.dateFrom), dateTo: nullable(range.dateTo) },
        totals: { human: totals.human, ai: totals.ai, total: totals.total }
      }
      return `${JSON.stringify(head).slice(0, -1)},"visitors":[`
    },
    // One row a line so that the file diffs and greps well; still one document.
    rows: (rows, first) =>
      rows.length === 0 ? '' : (first ? '\n' : ',\n') + jsonLines(rows).join(',\n'),
    end: rowsWritten => (rowsWritten === 0 ? ']}\n' : '\n]}\n')
  },
  csv: {
    head: () => CSV_HEADER,
    rows: rows =>
      rows.length === 0
        ? ''
        : stringify(
            rows.map(r => [csvCell(r.path), r.human, r.ai, r.total]),
            CSV_OPTIONS
          ),
    end: () => ''
  },
  ndjson: {
    head: () => '',
    rows: rows => (rows.length === 0 ? '' : jsonLines(rows).join('\n') + '\n'),
    end: () => ''
  }
}

/**
 * The file an export is written to. The rows go to a new file beside the target, renamed onto it
 * once whole: a reader never sees half an export, a failed one leaves nothing, and rename replaces
 * a symlink at the target instead of writing through it. A device or pipe (/dev/stdout, a FIFO) is
 * written in place: renaming onto it would replace it.
 */
class ExportFile {
  /** Kept so a later write or close reports it. */
  private failure: unknown

  private constructor(
    private readonly filePath: string,
    private readonly stream: WriteStream,
    private readonly tempPath: string | undefined
  ) {
    // The listener also keeps an 'error' event from crashing the process between two calls.
    stream.on('error', error => (this.failure ??= error))
    process.once('exit', this.removeOnExit)
  }

  static async open(filePath: string): Promise<ExportFile> {
    try {
      await mkdir(dirname(filePath), { recursive: true })
      const existing = await lstat(filePath).catch(() => undefined)
      if (existing?.isDirectory()) throw new Error('it is a folder')
      const inPlace = existing !== undefined && (existing.isCharacterDevice() || existing.isFIFO())
      const tempPath = inPlace ? undefined : tempPathBeside(filePath)
      const handle = tempPath
        ? await open(tempPath, CREATE_FLAGS, 0o644)
        : await open(filePath, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0))
      return new ExportFile(filePath, handle.createWriteStream(), tempPath)
    } catch (error) {
      throw cannotWrite(filePath, error)
    }
  }

  /** Writes `text`, waiting while the file lags behind (backpressure). */
  async put(text: string): Promise<void> {
    if (this.failure !== undefined) throw cannotWrite(this.filePath, this.failure)
    if (text === '') return
    try {
      if (!this.stream.write(text)) await waitFor(this.stream, 'drain')
    } catch (error) {
      throw cannotWrite(this.filePath, error)
    }
  }

  /** Flushes and closes the file, then puts it in place, unless `aborted` says otherwise by then. */
  async publish(aborted: () => boolean): Promise<void> {
    this.stream.end()
    await finished(this.stream).catch(error => {
      throw cannotWrite(this.filePath, this.failure ?? error)
    })
    if (this.failure !== undefined) throw cannotWrite(this.filePath, this.failure)
    // abort() may have come while the last bytes were flushed: then nothing is published.
    if (aborted()) throw new Error(`The visitors file ${this.filePath} is already aborted`)
    if (this.tempPath)
      await rename(this.tempPath, this.filePath).catch(error => {
        throw cannotWrite(this.filePath, error)
      })
    process.off('exit', this.removeOnExit)
  }

  /** Stops writing and removes the partial file. */
  async discard(): Promise<void> {
    process.off('exit', this.removeOnExit)
    this.stream.destroy()
    // Wait for the handle to be released (removing an open file fails on Windows).
    await finished(this.stream).catch(() => undefined)
    if (this.tempPath) await rm(this.tempPath, { force: true }).catch(() => undefined)
  }

  // A run that exits mid-export (process.exit on cancellation) runs no more awaits: the temp
  // file is removed synchronously on the way out.
  private readonly removeOnExit = (): void => {
    if (this.tempPath) rmSync(this.tempPath, { force: true })
  }
}

const cannotWrite = (filePath: string, error: unknown): Error =>
  new Error(`Cannot write the visitors file ${filePath}: ${messageOf(error)}`, { cause: error })

/** Resolves on `event`; rejects on 'error', or on 'close' first (a destroyed stream never drains). */
function waitFor(stream: WriteStream, event: 'open' | 'drain'): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      stream.off(event, onEvent)
      stream.off('error', onError)
      stream.off('close', onClose)
    }
    const onEvent = (): void => {
      cleanup()
      resolve()
    }
    const onError = (error: Error): void => {
      cleanup()
      reject(error)
    }
    const onClose = (): void => {
      cleanup()
      reject(new Error('the file was closed before the data was written'))
    }
    stream.on(event, onEvent)
    stream.on('error', onError)
    stream.on('close', onClose)
  })
}

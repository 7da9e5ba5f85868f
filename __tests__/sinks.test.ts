// Unit tier: the export file writers: json, csv, ndjson, streamed and atomic.
import { afterAll, beforeAll, describe, it, expect } from '@jest/globals'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatFromPath, openSink } from '../src/analytics/sinks.js'
import type { VisitorCounts, VisitorRow } from '../src/service/schema.js'
import { readCsv } from './csv-read.js'

const TOTALS: VisitorCounts = { human: 40, ai: 7, total: 45 }

const HOSTILE_PATHS = [
  '/plain',
  '/with,comma',
  '/with"quote"',
  '/line\nbreak',
  '/carriage\rreturn',
  '/crlf\r\nbreak',
  '=HYPERLINK("http://x")',
  '+1',
  '-1',
  '@sum',
  ' spaced ',
  '',
  '/ünïcødé/日本語/😀',
  '","\r\n""'
]

const rowsFor = (paths: string[]): VisitorRow[] =>
  paths.map((path, i) => ({ path, human: i, ai: i % 2, total: i + (i % 2) }))

/** A strict RFC 4180 reader: CRLF after every record, line breaks only inside quotes. */
const parseCsv = (text: string): string[][] => readCsv(text, ',', true)

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sinks-test-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('formatFromPath', () => {
  it('reads the extension, whatever its case', () => {
    expect(formatFromPath('out/visitors.json')).toBe('json')
    expect(formatFromPath('VISITORS.CSV')).toBe('csv')
    expect(formatFromPath('a.b/visitors.NdJson')).toBe('ndjson')
    expect(formatFromPath('visitors.txt')).toBeUndefined()
    expect(formatFromPath('visitors.json.gz')).toBeUndefined()
    expect(formatFromPath('json')).toBeUndefined()
    expect(formatFromPath('dir.csv/visitors')).toBeUndefined()
  })
})

describe('openSink', () => {
  it('writes one JSON document: range, totals, then the rows without extra fields', async () => {
    const file = join(dir, 'out.json')
    const rows = rowsFor(HOSTILE_PATHS)
    const withExtra = rows.map(r => ({ ...r, extra: 'dropped' }))
    const sink = await openSink(file, 'json', { dateFrom: '2024-01-01' }, {
      ...TOTALS,
      extra: 1
    } as VisitorCounts)
    await sink.write(withExtra.slice(0, 5))
    await sink.write([])
    await sink.write(withExtra.slice(5))
    await sink.close()

    const text = await readFile(file, 'utf8')
    const doc = JSON.parse(text)
    expect(Object.keys(doc)).toEqual(['range', 'totals', 'visitors'])
    expect(doc.range).toEqual({ dateFrom: '2024-01-01', dateTo: null })
    expect(Object.keys(doc.range)).toEqual(['dateFrom', 'dateTo'])
    expect(doc.totals).toEqual(TOTALS)
    expect(doc.visitors).toEqual(rows)
    expect(Object.keys(doc.visitors[0])).toEqual(['path', 'human', 'ai', 'total'])
    expect(text.endsWith('\n')).toBe(true)
  })

  it('writes a JSON document with no rows', async () => {
    const file = join(dir, 'empty.json')
    const sink = await openSink(
      file,
      'json',
      { dateFrom: '2024-01-01', dateTo: '2024-02-01' },
      TOTALS
    )
    await sink.close()
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      range: { dateFrom: '2024-01-01', dateTo: '2024-02-01' },
      totals: TOTALS,
      visitors: []
    })
  })

  it('writes one JSON row a line in NDJSON', async () => {
    const file = join(dir, 'out.ndjson')
    const rows = rowsFor(HOSTILE_PATHS)
    const sink = await openSink(file, 'ndjson', {}, TOTALS)
    await sink.write(rows.slice(0, 3).map(r => ({ ...r, extra: true })))
    await sink.write(rows.slice(3))
    await sink.close()

    const text = await readFile(file, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const lines = text.slice(0, -1).split('\n')
    expect(lines.map(line => JSON.parse(line) as unknown)).toEqual(rows)
  })

  it('writes RFC 4180 CSV in which hostile paths round-trip, a formula-like one behind a leading quote', async () => {
    const file = join(dir, 'out.csv')
    const rows = rowsFor(HOSTILE_PATHS)
    const sink = await openSink(file, 'csv', {}, TOTALS)
    await sink.write(rows.slice(0, 4))
    await sink.write([])
    await sink.write(rows.slice(4).map(r => ({ ...r, extra: 'dropped' })))
    await sink.close()

    const text = await readFile(file, 'utf8')
    expect(text.startsWith('path,human,ai,total\r\n')).toBe(true)
    expect(parseCsv(text)).toEqual([
      ['path', 'human', 'ai', 'total'],
      ...rows.map(r => [
        /^[=+\-@\t\r]/.test(r.path) ? `'${r.path}` : r.path,
        String(r.human),
        String(r.ai),
        String(r.total)
      ])
    ])
    // A spreadsheet would run these: each is written as text.
    expect(text).toContain(`"'=HYPERLINK(""http://x"")",`)
    expect(text).toMatch(/\r\n'\+1,/)
    expect(text).toMatch(/\r\n'-1,/)
    expect(text).toMatch(/\r\n'@sum,/)
  })

  it('writes a cell starting with a tab or a carriage return behind a leading quote too', async () => {
    const file = join(dir, 'tab.csv')
    const sink = await openSink(file, 'csv', {}, TOTALS)
    await sink.write(rowsFor(['\t=1+1', '\r=1+1', '/a=b', 'a-b@c']))
    await sink.close()
    expect(parseCsv(await readFile(file, 'utf8')).map(r => r[0])).toEqual([
      'path',
      // The piece after the tab or carriage return is marked too (csv-formulas.test.ts).
      "'\t'=1+1",
      "'\r'=1+1",
      '/a=b',
      'a-b@c'
    ])
  })

  it('writes only the header for a CSV with no rows', async () => {
    const file = join(dir, 'empty.csv')
    const sink = await openSink(file, 'csv', {}, TOTALS)
    await sink.close()
    expect(await readFile(file, 'utf8')).toBe('path,human,ai,total\r\n')
  })

  it('creates the parent folders', async () => {
    const file = join(dir, 'a', 'b', 'c', 'visitors.ndjson')
    const sink = await openSink(file, 'ndjson', {}, TOTALS)
    await sink.write(rowsFor(['/x']))
    await sink.close()
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(rowsFor(['/x'])[0])
  })

  it('streams 200,000 rows', async () => {
    const file = join(dir, 'big.json')
    const rows = rowsFor(Array.from({ length: 200_000 }, (_, i) => `/docs/page-${i}`))
    const sink = await openSink(file, 'json', {}, TOTALS)
    for (let i = 0; i < rows.length; i += 250) await sink.write(rows.slice(i, i + 250))
    await sink.close()
    const doc = JSON.parse(await readFile(file, 'utf8'))
    expect(doc.visitors).toHaveLength(200_000)
    expect(doc.visitors[199_999]).toEqual(rows[199_999])
  })

  it('rejects, naming the file, when the path is a folder', async () => {
    const folder = join(dir, 'is-a-folder.json')
    await mkdir(folder)
    await expect(openSink(folder, 'json', {}, TOTALS)).rejects.toThrow(folder)
  })

  it('rejects, naming the file, when a parent is a file', async () => {
    const parent = join(dir, 'plain-file')
    await writeFile(parent, 'x')
    const file = join(parent, 'visitors.csv')
    await expect(openSink(file, 'csv', {}, TOTALS)).rejects.toThrow(file)
  })

  const onLinux = existsSync('/dev/full') ? it : it.skip
  onLinux('rejects, naming the file, when writing fails (disk full)', async () => {
    const sink = await openSink('/dev/full', 'ndjson', {}, TOTALS)
    const rows = rowsFor(Array.from({ length: 2000 }, (_, i) => `/p${i}`))
    const attempt = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await sink.write(rows)
      await sink.close()
    }
    await expect(attempt()).rejects.toThrow(/\/dev\/full.*ENOSPC/)
  })

  it('refuses writes after close, and keeps a closed file on abort', async () => {
    const file = join(dir, 'closed.ndjson')
    const sink = await openSink(file, 'ndjson', {}, TOTALS)
    await sink.close()
    await expect(sink.write(rowsFor(['/late']))).rejects.toThrow(/closed/)
    await sink.abort()
    expect(existsSync(file)).toBe(true)
  })

  it('removes the partial file on abort', async () => {
    const file = join(dir, 'aborted.json')
    const sink = await openSink(file, 'json', {}, TOTALS)
    await sink.write(rowsFor(['/a', '/b']))
    await sink.abort()
    expect(existsSync(file)).toBe(false)
    await expect(sink.write(rowsFor(['/c']))).rejects.toThrow(/aborted/)
  })
})

describe('openSink: no half file, no write through a symlink', () => {
  const bigRows = rowsFor(Array.from({ length: 20_000 }, (_, i) => `/docs/${'x'.repeat(40)}-${i}`))

  /** Every entry of `folder`: the temp file must be gone whatever happened. */
  const entries = (folder: string): Promise<string[]> => readdir(folder)

  it('shows nothing at the path until the file is whole, and leaves no temp file', async () => {
    const folder = await mkdtemp(join(dir, 'whole-'))
    const file = join(folder, 'v.ndjson')
    const sink = await openSink(file, 'ndjson', {}, TOTALS)
    await sink.write(rowsFor(['/a']))
    expect(existsSync(file)).toBe(false)
    await sink.close()
    expect(await readFile(file, 'utf8')).toBe('{"path":"/a","human":0,"ai":0,"total":0}\n')
    expect(await entries(folder)).toEqual(['v.ndjson'])
  })

  it('abort during a write that waits for the disk leaves no file at all', async () => {
    const folder = await mkdtemp(join(dir, 'abort-'))
    const file = join(folder, 'v.csv')
    const sink = await openSink(file, 'csv', {}, TOTALS)
    // 1.5 MB in one write: far past the stream's buffer, so it waits for 'drain'.
    const pending = sink.write(bigRows)
    await sink.abort()
    await expect(pending).rejects.toThrow()
    expect(await entries(folder)).toEqual([])
  })

  it('an aborted export keeps the earlier whole file as it was', async () => {
    const folder = await mkdtemp(join(dir, 'keep-'))
    const file = join(folder, 'v.json')
    await writeFile(file, 'earlier export')
    const sink = await openSink(file, 'json', {}, TOTALS)
    await sink.write(rowsFor(['/a']))
    await sink.abort()
    expect(await readFile(file, 'utf8')).toBe('earlier export')
    expect(await entries(folder)).toEqual(['v.json'])
  })

  it('replaces a symlink at the path instead of writing through it', async () => {
    const folder = await mkdtemp(join(dir, 'link-'))
    const outside = join(dir, `outside-${Date.now()}.txt`)
    await writeFile(outside, 'must stay')
    const file = join(folder, 'v.ndjson')
    await symlink(outside, file)
    const sink = await openSink(file, 'ndjson', {}, TOTALS)
    await sink.write(rowsFor(['/a']))
    await sink.close()
    expect(await readFile(outside, 'utf8')).toBe('must stay')
    expect((await lstat(file)).isSymbolicLink()).toBe(false)
    expect(await readFile(file, 'utf8')).toContain('"/a"')
  })
})

describe('openSink: a process that exits mid-export', () => {
  it('removes its temp file on exit, and stops listening once closed or aborted', async () => {
    const folder = await mkdtemp(join(dir, 'exit-'))
    const before = process.listeners('exit')
    const added = (): NodeJS.ExitListener[] =>
      process.listeners('exit').filter(l => !before.includes(l))
    const sink = await openSink(join(folder, 'v.ndjson'), 'ndjson', {}, TOTALS)
    await sink.write(rowsFor(['/a']))
    expect(added()).toHaveLength(1)
    expect(await readdir(folder)).toHaveLength(1)
    // What process.exit (a cancellation handler) would run on the way out.
    added()[0]!.call(process, 1)
    expect(await readdir(folder)).toEqual([])
    await sink.abort()
    expect(added()).toEqual([])

    const closed = await openSink(join(folder, 'w.ndjson'), 'ndjson', {}, TOTALS)
    await closed.close()
    expect(added()).toEqual([])
  })
})

// Unit tier: CSV cells no reader turns into formulas (issue 49 item 5). A visitor path such as
// `/x;=1+1;` is one cell to a `,` reader, but a spreadsheet in a `;` locale, or a reader of tabs,
// splits it, and a piece starting with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula
// there. The export file is read back with `,`, `;` and tab as delimiters, by a reader that honours
// quotes (as spreadsheets do) and, for `;` and tabs, by one that splits every line blindly: no
// piece starts a formula, and the `,` reader gets each path back behind its `'` marks.
import { afterAll, beforeAll, describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSink } from '../src/analytics/sinks.js'
import type { VisitorRow } from '../src/service/schema.js'
import { readCsv } from './csv-read.js'

/** What a spreadsheet reads as a formula at the start of a cell (OWASP's list). */
const FORMULA = /^[=+\-@\t\r]/

const ATTACKS = [
  '/x;=1+1;',
  "/y;=cmd|'/C calc'!A0;",
  '/z\t=1+1',
  '/w\t@SUM(A1:A9)',
  ';+1',
  '\t\t=1',
  '/a;\r=1',
  '/b;-2;+3',
  '/c,=d',
  '/d\n=e',
  '=HYPERLINK("http://x";"y")',
  '"=1";"@2"',
  '/plain'
]

/** A reader of `delimiter`-separated text that honours double quotes, as spreadsheets do. */
const readQuoted = (text: string, delimiter: string): string[][] => readCsv(text, delimiter)

/** A reader that knows no quotes: every line break ends a row, every delimiter a cell. */
const readBlindly = (text: string, delimiter: string): string[][] =>
  text
    .split(/\r\n|\r|\n/)
    .filter(line => line !== '')
    .map(line => line.split(delimiter))

/** Every cell any of the five readers takes that a spreadsheet would run. */
function formulasIn(text: string): string[] {
  const readings = [
    readQuoted(text, ','),
    readQuoted(text, ';'),
    readQuoted(text, '\t'),
    readBlindly(text, ';'),
    readBlindly(text, '\t')
  ]
  return readings.flatMap(rows => rows.flat().filter(cell => FORMULA.test(cell)))
}

const rowsFor = (paths: string[]): VisitorRow[] =>
  paths.map((path, i) => ({ path, human: i, ai: 0, total: i }))

/** The path with a `'` before each piece that starts like a formula, as the test reads the rule. */
function marked(path: string): string {
  let out = ''
  let pieceStarts = true
  for (const c of path) {
    if (pieceStarts && '=+-@\t\r'.includes(c)) out += "'"
    out += c
    pieceStarts = ';\t\r\n'.includes(c)
  }
  return out
}

let dir = ''
let files = 0
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'csv-formulas-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function csvOf(paths: string[]): Promise<string> {
  const file = join(dir, `v${files++}.csv`)
  const sink = await openSink(file, 'csv', {}, { human: 0, ai: 0, total: 0 })
  await sink.write(rowsFor(paths))
  await sink.close()
  return readFile(file, 'utf8')
}

describe('CSV cells no reader turns into formulas', () => {
  it('the attack paths: no piece starts a formula, read with `,`, `;` or tabs, with or without quotes', async () => {
    const text = await csvOf(ATTACKS)
    expect(formulasIn(text)).toEqual([])
    // The one-formula-per-piece marks: a `'` before each piece a `;` or tab reader splits off.
    const cells = readQuoted(text, ',').map(r => r[0])
    expect(cells).toEqual([
      'path',
      "/x;'=1+1;",
      "/y;'=cmd|'/C calc'!A0;",
      "/z\t'=1+1",
      "/w\t'@SUM(A1:A9)",
      ";'+1",
      "'\t'\t'=1",
      "/a;'\r'=1",
      "/b;'-2;'+3",
      '/c,=d',
      "/d\n'=e",
      '\'=HYPERLINK("http://x";"y")',
      '"=1";"@2"',
      '/plain'
    ])
  })

  it('quotes every cell holding a `;`, a tab, a comma, a quote or a line break, and no other', async () => {
    const text = await csvOf(['/a;b', '/a\tb', '/a,b', '/a"b', '/a\nb', '/a\rb', '/a b', '/a'])
    const lines = text.split('\r\n')
    expect(lines.slice(1, -1)).toEqual([
      '"/a;b",0,0,0',
      '"/a\tb",1,0,1',
      '"/a,b",2,0,2',
      '"/a""b",3,0,3',
      '"/a\nb",4,0,4',
      '"/a\rb",5,0,5',
      '/a b,6,0,6',
      '/a,7,0,7'
    ])
  })

  it('property: any path of separators, quotes and formula characters reads back safe, and whole to a `,` reader', async () => {
    const char = fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      ';',
      ',',
      '"',
      "'",
      'a',
      '/',
      ' '
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: char, maxLength: 12 }), { maxLength: 6 }),
        async paths => {
          const text = await csvOf(paths)
          if (formulasIn(text).length > 0) return false
          // The `,` reader has every path as it was, behind its marks.
          const back = readQuoted(text, ',')
            .slice(1)
            .map(r => r[0])
          return JSON.stringify(back) === JSON.stringify(paths.map(marked))
        }
      ),
      { numRuns: 300 }
    )
  })
})

// Unit tier: CONTRIBUTING.md's layout names every source file, so a maintainer finds each one
// where the map says. A file is named in the entry of its folder (`src/commands/ … job.ts …`), or
// for a file at the top of src/, anywhere in the layout.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dirname, '..')
const SRC = path.join(ROOT, 'src')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return /\.(ts|js)$/.test(entry.name) ? [path.relative(SRC, full).split(path.sep).join('/')] : []
  })
}

/** The layout's code block, as entries: the head (`src/commands/`) and the text under it. */
function layoutEntries(text: string): Map<string, string> {
  const start = text.indexOf('```\naction.yml')
  const block = text.slice(start + 4, text.indexOf('\n```', start + 4))
  const entries = new Map<string, string>()
  let head = ''
  for (const line of block.split('\n')) {
    const m = /^(\S+)\s*(.*)$/.exec(line)
    if (m) head = m[1] ?? ''
    entries.set(head, `${entries.get(head) ?? ''} ${m ? (m[2] ?? '') : line}`)
  }
  return entries
}

/** The source files the layout does not name. */
function unnamed(files: string[], contributing: string): string[] {
  const entries = layoutEntries(contributing)
  const all = [...entries.entries()].map(([head, body]) => `${head} ${body}`).join(' ')
  const names = (text: string, name: string): boolean =>
    new RegExp(`(^|[\\s(/])${name.replace(/[.]/g, '\\.')}($|[\\s),.;:])`).test(text)
  return files.filter(file => {
    const parts = file.split('/')
    if (parts.length === 1) return !names(all, file)
    const entry = entries.get(`src/${parts[0]}/`) ?? ''
    return !names(entry, parts.at(-1) ?? '')
  })
}

describe("CONTRIBUTING.md's layout", () => {
  const contributing = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8')

  it('names every source file, in the entry of its folder', () => {
    const files = sources(SRC)
    expect(files.length).toBeGreaterThan(100)
    expect(unnamed(files, contributing)).toEqual([])
  })

  it('finds a file it does not name (the check can fail)', () => {
    expect(unnamed(['commands/job.ts', 'commands/nowhere.ts', 'nowhere.ts'], contributing)).toEqual(
      ['commands/nowhere.ts', 'nowhere.ts']
    )
    // A name in another folder's entry does not count for this one.
    expect(unnamed(['check/job-grow.ts'], contributing)).toEqual(['check/job-grow.ts'])
  })
})

// Unit tier: the floors of src/ (a folder, or a file at the top) import one way only. No file
// takes part in an import cycle, and no floor imports one that imports it back: the data flows
// from main down to the service and the report, never up. And what the action believes is read in
// one room: outside src/records/ no file builds or parses a record's key, or reads a record by its
// kind (it asks records/ a named question instead).
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'

const SRC = path.join(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

/** Each source file and the source files it imports (types included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8')
    const targets = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(m =>
      path.relative(SRC, path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')))
    )
    graph.set(path.relative(SRC, file), targets)
  }
  return graph
}

/** The floor of a file: its top folder, or the file itself at the top of src/. */
const floorOf = (file: string): string => file.split(path.sep)[0]!.replace(/\.ts$/, '')

/** A cycle in `graph`, as the path that closes it, or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node]
    state.set(node, 'open')
    trail.push(node)
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    trail.pop()
    state.set(node, 'done')
    return undefined
  }
  for (const node of graph.keys()) {
    const cycle = visit(node)
    if (cycle) return cycle
  }
  return undefined
}

/**
 * What reads a record by its kind or builds or splits a key: the key functions and the thread's
 * readers by kind (kinds.ts, thread.ts), which only src/records/ may call.
 */
const RECORD_READS: readonly RegExp[] = [
  /from '[^']*records\/kinds\.js'/,
  /\b(?:recordKey|parseRecord|claimOf)\(/,
  /\.(?:newest|newestWith|marked|counted|holdsUnreadable)\(/
]

/** Each use of RECORD_READS outside src/records/, as `file: what`. */
function recordReadsOutside(texts: ReadonlyMap<string, string>): string[] {
  return [...texts].flatMap(([file, text]) =>
    file.split(path.sep)[0] === 'records'
      ? []
      : RECORD_READS.flatMap(pattern => {
          const found = pattern.exec(text)
          return found ? [`${file}: ${found[0]}`] : []
        })
  )
}

describe('what the action believes, read in one room', () => {
  it('nothing outside src/records/ builds a record key or reads a record by its kind', () => {
    const texts = new Map(
      sources(SRC).map(file => [path.relative(SRC, file), fs.readFileSync(file, 'utf8')])
    )
    expect(texts.size).toBeGreaterThan(50)
    expect(recordReadsOutside(texts)).toEqual([])
  })

  it('finds such a read when there is one (the check can fail)', () => {
    const texts = new Map([
      ['commands/job-target.ts', "const route = await thread.newest('route', { project })"],
      ['gate.ts', "import { recordKey } from './records/kinds.js'\nrecordKey('opened', x)"],
      ['records/job.ts', "return (await thread.newest('route', { project }))?.job"]
    ])
    expect(recordReadsOutside(texts)).toEqual([
      'commands/job-target.ts: .newest(',
      "gate.ts: from './records/kinds.js'",
      'gate.ts: recordKey('
    ])
  })
})

describe('the floors of src/', () => {
  const files = importGraph()

  it('no file is part of an import cycle', () => {
    expect(findCycle(files)).toBeUndefined()
  })

  it('no floor imports a floor that imports it back', () => {
    const floors = new Map<string, string[]>()
    for (const [file, targets] of files) {
      const from = floorOf(file)
      const to = targets.map(floorOf).filter(t => t !== from)
      floors.set(from, [...new Set([...(floors.get(from) ?? []), ...to])])
    }
    expect(floors.size).toBeGreaterThan(5)
    expect(findCycle(floors)).toBeUndefined()
  })

  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['report', ['github']],
      ['github', ['report']]
    ])
    expect(findCycle(graph)).toEqual(['report', 'github', 'report'])
  })
})

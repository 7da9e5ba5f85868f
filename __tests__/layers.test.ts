// Unit tier: the floors of src/ (a folder, or a file at the top) import one way only. No file
// takes part in an import cycle, and no floor imports one that imports it back: the data flows
// from main down to the service and the report, never up.
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

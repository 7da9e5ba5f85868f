// Unit tier: every link in README.md, docs/, CONTRIBUTING.md and SECURITY.md resolves: a relative
// link names a file of the repository, and an anchor names a heading of the page it points at
// (as GitHub makes anchors of headings). Links to other sites are not fetched (no network).
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dirname, '..')
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).map(f => `docs/${f}`)
].filter(f => f.endsWith('.md'))

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a Markdown page: one per heading (outside code fences), repeats numbered. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced
    const heading = /^#{1,6} (.+)$/.exec(line)
    if (fenced || !heading) continue
    const base = anchorOf(heading[1]!)
    let name = base
    for (let n = 1; found.has(name); n++) name = `${base}-${n}`
    found.add(name)
  }
  return found
}

/** Inline links `[text](target)` outside code, with their line numbers. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = []
  let fenced = false
  markdown.split('\n').forEach((line, i) => {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) return
    const text = line.replace(/`[^`]*`/g, '')
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) found.push({ target: m[1]!, line: i + 1 })
  })
  return found
}

describe('links', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Before you start')).toBe('before-you-start')
    expect(anchorOf('`command: check` — the set-up')).toBe('command-check--the-set-up')
    expect([...anchors('# A\n## A\n```\n# not\n```\n')]).toEqual(['a', 'a-1'])
  })

  it.each(PAGES)('every link in %s resolves', page => {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8')
    const broken: string[] = []
    for (const { target, line } of links(text)) {
      if (/^[a-z]+:/i.test(target)) continue
      const [file, anchor] = target.split('#') as [string, string | undefined]
      const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), file))
      const full = path.join(ROOT, resolved)
      if (!fs.existsSync(full)) {
        broken.push(`${page}:${line} ${target}: no such file`)
        continue
      }
      if (anchor === undefined || !resolved.endsWith('.md')) continue
      if (!anchors(fs.readFileSync(full, 'utf8')).has(anchor))
        broken.push(`${page}:${line} ${target}: no such heading in ${resolved}`)
    }
    expect(broken).toEqual([])
  })

  it('every page of docs/ is linked from the README or another page', () => {
    const all = PAGES.map(p => fs.readFileSync(path.join(ROOT, p), 'utf8')).join('\n')
    for (const page of PAGES.filter(p => p.startsWith('docs/')))
      expect({
        page,
        linked: all.includes(`(${page})`) || all.includes(`(${path.basename(page)})`)
      }).toEqual({ page, linked: true })
  })
})

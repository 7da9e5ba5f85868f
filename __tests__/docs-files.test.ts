// Unit tier: where the docs are (docs-root) and which file a page comes from; `stale-after`.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it, expect, afterAll } from '@jest/globals'
import { findDocsRoot, pageFile, readStaleAfter } from '../src/workspace/docs-files.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-files-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const write = (file: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  fs.writeFileSync(path.join(root, file), 'x')
}

describe('docs files', () => {
  it('finds the folder of docs.json or mint.json, the shallowest first, never in node_modules', () => {
    write('node_modules/pkg/docs.json')
    expect(findDocsRoot(root)).toBeUndefined()
    write('site/docs/mint.json')
    expect(findDocsRoot(root)).toBe('site/docs')
    write('docs/docs.json')
    expect(findDocsRoot(root)).toBe('docs')
  })

  it('maps /a/b to a/b.mdx, a/b.md or a/b/index.mdx, the first that is there; nothing else', () => {
    write('docs/guides/auth.md')
    write('docs/guides/auth/index.mdx')
    write('docs/api/keys.mdx')
    write('docs/index.mdx')
    write('secret.mdx')
    expect(pageFile(root, 'docs', '/api/keys')).toBe('docs/api/keys.mdx')
    expect(pageFile(root, 'docs', '/guides/auth')).toBe('docs/guides/auth.md')
    expect(pageFile(root, 'docs', '/guides/auth/?tab=1#top')).toBe('docs/guides/auth.md')
    expect(pageFile(root, 'docs', '/')).toBe('docs/index.mdx')
    expect(pageFile(root, 'docs', '/missing')).toBeUndefined()
    // Paths are typed by anyone: no way out of the docs root.
    expect(pageFile(root, 'docs', '/../secret')).toBeUndefined()
    expect(pageFile(root, 'docs', '/.git/config')).toBeUndefined()
    expect(pageFile(root, 'docs', '/api\\..\\..\\secret')).toBeUndefined()
  })

  it('reads stale-after as days, 0 for never', () => {
    expect(readStaleAfter('90d')).toBe(90 * 86_400_000)
    expect(readStaleAfter('0')).toBe(0)
    expect(() => readStaleAfter('3 months')).toThrow(/stale-after.*not a number of days/)
  })
})

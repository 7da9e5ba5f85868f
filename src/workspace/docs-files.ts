// Where the docs live in this repository, and which file a page comes from: `docs-root` (default:
// the folder of `docs.json` or `mint.json` in the workspace, else the workspace itself) and
// `stale-after`. A page's path is text from the public: it maps to a file only by plain segments
// under the docs root (no `..`, no absolute path, no hidden folder), and only to a file that is
// there. The file's age comes from GitHub's history (github/history.ts), never from the checkout,
// which is usually shallow.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { InputError, quote } from '../errors.js'
import { insideWorkspace } from './files.js'

const DAY_MS = 86_400_000
/** How deep the default docs root is looked for, and the folders never looked in. */
const SEARCH_DEPTH = 3
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'vendor'])
const CONFIG_FILES = ['docs.json', 'mint.json']

export interface DocsFiles {
  /** The workspace's absolute path: the checkout the files are looked for in. */
  workspace: string
  /** Workspace-relative, `''` for the workspace itself, `/` as separator. */
  docsRoot: string
  /** 0: never stale. */
  staleAfterMs: number
}

/** `stale-after`: days (`90d`), or `0` for never. */
export function readStaleAfter(text: string): number {
  const m = /^(\d{1,5})\s*d?$/.exec(text.trim())
  if (!m)
    throw new InputError(
      'stale-after',
      `${quote(text)} is not a number of days; expected e.g. \`90d\`, or \`0\` for never`
    )
  return Number(m[1]) * DAY_MS
}

export function readDocsFiles(get: (name: string) => string, workspace: string): DocsFiles {
  const given = get('docs-root').trim()
  const staleAfterMs = readStaleAfter(get('stale-after'))
  if (given !== '') {
    const absolute = insideWorkspace('docs-root', given, workspace)
    return { workspace, docsRoot: toPosix(relative(workspace, absolute)), staleAfterMs }
  }
  return { workspace, docsRoot: findDocsRoot(workspace) ?? '', staleAfterMs }
}

/** The shallowest folder holding `docs.json` or `mint.json`, workspace-relative. */
export function findDocsRoot(workspace: string): string | undefined {
  let level = ['']
  for (let depth = 0; depth <= SEARCH_DEPTH && level.length > 0; depth++) {
    const found = level.find(dir => CONFIG_FILES.some(f => isFile(join(workspace, dir, f))))
    if (found !== undefined) return found
    level = level.flatMap(dir => subfolders(workspace, dir))
  }
  return undefined
}

function subfolders(workspace: string, dir: string): string[] {
  try {
    return readdirSync(join(workspace, dir), { withFileTypes: true })
      .filter(e => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name))
      .map(e => (dir === '' ? e.name : `${dir}/${e.name}`))
      .sort()
  } catch {
    return []
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

const toPosix = (path: string): string => path.split(sep).join('/')

/**
 * The repository file a page comes from (repository-relative): `/a/b` is `a/b.mdx`, `a/b.md` or
 * `a/b/index.mdx` under the docs root, the first that is there; `/` is `index.mdx`. Undefined when
 * none is, or when the path is not plain segments.
 */
export function pageFile(workspace: string, docsRoot: string, path: string): string | undefined {
  const segments = path
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
  if (segments.some(s => s.startsWith('.') || s.includes('\\') || /[\p{Cc}]/u.test(s)))
    return undefined
  const base = [docsRoot, ...segments].filter(Boolean).join('/')
  const candidates =
    segments.length === 0
      ? [[docsRoot, 'index.mdx'].filter(Boolean).join('/')]
      : [`${base}.mdx`, `${base}.md`, `${base}/index.mdx`]
  return candidates.find(file => existsSync(join(workspace, file)) && isFile(join(workspace, file)))
}

// A list of paths and globs inside the workspace (`report-files`), expanded to the files it names,
// under the rule every user-given path follows (files.ts): a literal path, and the folder a
// glob starts from, must stay inside the workspace (no `..`, no absolute path elsewhere, no
// symlink leading out); a glob holds no `..`; a file a glob finds that is a symlink leading out
// is refused too. Globs know `*` and `?` (within a name) and `**` (any folders); a name starting
// with `.` is matched only by a pattern that starts it with `.`; symlinked folders are not
// entered. The search is bounded: a workspace is a checkout, and a `**` must not read all of it.
import { readdirSync, type Dirent } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { InputError, quote } from '../errors.js'
import { insideWorkspace } from './files.js'

export interface WorkspaceFile {
  /** As the list gives it, or as the glob found it (relative to the workspace, with `/`). */
  path: string
  absolute: string
}

export interface FileList {
  /** Each file once, in the list's order (a glob's finds sorted by path). */
  files: WorkspaceFile[]
  /** Globs that found no file. */
  unmatched: string[]
}

/** The most files a list may name, and the most folder entries a glob may look at. */
const MAX_LISTED_FILES = 500
const MAX_ENTRIES_SEEN = 100_000
const MAX_DEPTH = 24

const isGlob = (text: string): boolean => /[*?]/.test(text)

/** The files of a comma (or line) list of paths and globs, each inside the workspace. */
export function readFileList(name: string, text: string, workspace: string): FileList {
  const entries = text
    .split(/[,\n]/)
    .map(x => x.trim())
    .filter(Boolean)
  const seen = new Set<string>()
  const files: WorkspaceFile[] = []
  const unmatched: string[] = []
  for (const entry of entries) {
    const found = isGlob(entry)
      ? globFiles(name, entry, workspace)
      : [{ path: entry, absolute: insideWorkspace(name, entry, workspace) }]
    if (found.length === 0) unmatched.push(entry)
    for (const file of found.filter(f => !seen.has(f.absolute))) {
      seen.add(file.absolute)
      files.push(file)
    }
    if (files.length > MAX_LISTED_FILES)
      throw new InputError(name, `names more than ${MAX_LISTED_FILES} files; name fewer`)
  }
  return { files, unmatched }
}

/** The parts of a glob relative to the workspace: the folder it starts from, and the rest. */
function splitGlob(name: string, glob: string, workspace: string) {
  const root = resolve(workspace)
  const refuse = (why: string): never => {
    throw new InputError(
      name,
      `${quote(glob)} ${why}; expected a path relative to the workspace, inside it`
    )
  }
  const relativeGlob = isAbsolute(glob) ? relative(root, glob) : glob
  const parts = relativeGlob.split(/[\\/]+/).filter(p => p !== '' && p !== '.')
  if (parts.includes('..') || isAbsolute(relativeGlob)) refuse('leads outside the workspace')
  const fixed = parts.findIndex(isGlob)
  const base = parts.slice(0, fixed)
  insideWorkspace(name, base.join('/') || '.', workspace)
  return { base, pattern: parts.slice(fixed) }
}

/** What a glob finds: the files whose path below its folder the pattern matches, by path. */
function globFiles(name: string, glob: string, workspace: string): WorkspaceFile[] {
  const { base, pattern } = splitGlob(name, glob, workspace)
  const matcher = patternRegExp(pattern)
  const deep = pattern.includes('**')
  // Hidden folders and files (`.git`) are not looked at unless the pattern names one.
  const dotted = pattern.some(part => part.startsWith('.'))
  const found: string[] = []
  let seen = 0
  const walk = (dir: string[], depth: number): void => {
    for (const entry of listFolder(resolve(workspace, ...dir))) {
      if (entry.name.startsWith('.') && !dotted) continue
      seen += 1
      if (seen > MAX_ENTRIES_SEEN)
        throw new InputError(name, `${quote(glob)} searches too many files; narrow it`)
      const path = [...dir, entry.name]
      const below = path.slice(base.length).join('/')
      if (entry.isDirectory() && depth < (deep ? MAX_DEPTH : pattern.length - 1))
        walk(path, depth + 1)
      else if (!entry.isDirectory() && matcher.test(below)) found.push(path.join('/'))
    }
  }
  walk(base, 0)
  return found.sort().map(path => ({ path, absolute: insideWorkspace(name, path, workspace) }))
}

function listFolder(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/** A glob's pattern (its names after the fixed folder) as one expression over `a/b/c`. */
function patternRegExp(pattern: readonly string[]): RegExp {
  // A name starting with `.` is hidden from a wildcard (`.git`), as in a shell.
  const visible = '(?!\\.)'
  const name = (part: string): string => {
    const body = part
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
    return part.startsWith('.') ? body : `${visible}${body}`
  }
  const last = pattern.length - 1
  const source = pattern.map((part, i) => {
    if (part === '**')
      return i === last ? `(?:${visible}[^/]+/)*${visible}[^/]+` : `(?:${visible}[^/]+/)*`
    return i === last ? name(part) : `${name(part)}/`
  })
  return new RegExp(`^${source.join('')}$`)
}

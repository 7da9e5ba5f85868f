// The workspace: every file the action reads or writes by a user-given path stays inside
// GITHUB_WORKSPACE, and every file it writes appears whole or not at all.
import { randomBytes } from 'node:crypto'
import { lstatSync, realpathSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { InputError, quote } from '../errors.js'

/**
 * The absolute path of a workspace-relative file, refused unless it stays inside the workspace:
 * no `..` escape, no absolute path elsewhere, and no symlink (of the file or any folder above it)
 * that leads out.
 */
export function insideWorkspace(name: string, text: string, workspace: string): string {
  const refuse = (why: string): never => {
    throw new InputError(
      name,
      `${quote(text)} ${why}; expected a path relative to the workspace, inside it`
    )
  }
  const root = resolve(workspace)
  const absolute = resolve(root, text)
  if (!within(root, absolute)) refuse('leads outside the workspace')
  const realRoot = realPathOf(root) ?? root
  // The deepest part of the path that exists decides where it really leads.
  let existing = absolute
  while (realPathOf(existing) === undefined && existing !== root) existing = dirname(existing)
  const real = realPathOf(existing)
  if (real !== undefined && !within(realRoot, real))
    refuse('leads outside the workspace through a symlink')
  // A dangling symlink resolves nowhere but would still be written through.
  if (isDanglingLink(absolute)) refuse('is a symlink to nothing')
  return absolute
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && realPathOf(path) === undefined
  } catch {
    return false
  }
}

/**
 * Where a file is written before it is renamed onto `path`: beside it (a rename within one folder
 * is atomic), hidden, and unique.
 */
export function tempPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.partial`)
}

/**
 * Writes `text` to `path` whole or not at all: into a new file beside it (created exclusively, so
 * no symlink is followed), then renamed onto it, which replaces a symlink at `path` instead of
 * writing through it.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempPathBeside(path)
  try {
    await writeFile(temp, text, { flag: 'wx', mode: 0o644 })
    await rename(temp, path)
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined)
    throw err
  }
}

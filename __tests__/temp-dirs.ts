// Test support: the temporary folders the tests make (a run's workspace, a folder outside it),
// removed after each test file by __tests__/cleanup.ts, so a run of the tests leaves none in /tmp.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const made = new Set<string>()

/** A new folder in the system's temporary folder, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.add(dir)
  return dir
}

/** Removes every folder tempDir() made so far. */
export function removeTempDirs(): void {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
  made.clear()
}

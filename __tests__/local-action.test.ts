// Unit tier: `@github/local-action` (README: Debug locally) runs src/main.ts's run() with a
// stand-in @actions/core that has only the functions below: anything else is undefined there, and
// the action would crash locally while passing every other test (core.ExitCode once did).
import { describe, it, expect } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')

/** The keys of CORE_STUBS in @github/local-action 7 (src/stubs/core/core.ts). */
const LOCAL_ACTION_CORE = new Set([
  'addPath',
  'debug',
  'endGroup',
  'error',
  'exportVariable',
  'getBooleanInput',
  'getIDToken',
  'getInput',
  'getMultilineInput',
  'getState',
  'group',
  'info',
  'isDebug',
  'notice',
  'platform',
  'saveState',
  'setCommandEcho',
  'setFailed',
  'setOutput',
  'setSecret',
  'startGroup',
  'summary',
  'toPlatformPath',
  'toPosixPath',
  'toWin32Path',
  'warning'
])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : []
  )
}

/** `core.x` uses in a source, by the name `@actions/core` is imported as. */
export function coreMembers(text: string): string[] {
  const alias = /import \* as (\w+) from '@actions\/core'/.exec(text)?.[1]
  if (!alias) return []
  return [...text.matchAll(new RegExp(`\\b${alias}\\.(\\w+)`, 'g'))].map(m => m[1] ?? '')
}

describe('@github/local-action compatibility', () => {
  const used = sources(SRC).flatMap(file =>
    coreMembers(readFileSync(file, 'utf8')).map(member => ({
      file: path.relative(SRC, file),
      member
    }))
  )

  it('src/ uses @actions/core (so the check below checks something)', () => {
    expect(used.map(u => u.member)).toEqual(expect.arrayContaining(['getInput', 'setFailed']))
  })

  it('src/ uses only what the local stand-in of @actions/core provides', () => {
    expect(used.filter(u => !LOCAL_ACTION_CORE.has(u.member))).toEqual([])
  })

  it('would catch a member the stand-in lacks', () => {
    const text =
      "import * as core from '@actions/core'\nif (process.exitCode === core.ExitCode.Failure) core.info('x')"
    expect(coreMembers(text).filter(m => !LOCAL_ACTION_CORE.has(m))).toEqual(['ExitCode'])
  })

  it('main.ts exports run(), which local-action calls', async () => {
    const main = await import('../src/main.js')
    expect(typeof main.run).toBe('function')
  })
})

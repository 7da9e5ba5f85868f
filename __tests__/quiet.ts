// Test support: a unit test that calls src/ directly (no mocked @actions/core) makes the toolkit
// write workflow commands (`::debug::`, `::warning::`, `::add-mask::`) to stdout, which jest prints
// among its own lines. quietWorkflowCommands() keeps them, for a test to read, instead.
import { afterAll, beforeAll, jest } from '@jest/globals'

/** Every workflow command written while a file that called quietWorkflowCommands() ran. */
export const workflowCommands: string[] = []

export function quietWorkflowCommands(): void {
  let restore = (): void => undefined
  beforeAll(() => {
    const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: unknown, ...rest: unknown[]) => {
        const text = String(chunk)
        if (!text.startsWith('::')) return write(chunk, ...rest)
        workflowCommands.push(...text.split('\n').filter(Boolean))
        return true
      })
    restore = () => spy.mockRestore()
  })
  afterAll(() => restore())
}

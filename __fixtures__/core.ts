// A stand-in for @actions/core, as the official action template mocks it: typed jest.fns that
// record what run() asks of the runner. `inputs` plays the INPUT_* variables; `stdout` holds the
// workflow commands a real run would print, in the same format, so tests read both alike.
import { jest } from '@jest/globals'
import type * as core from '@actions/core'

/** What this run printed, as the runner would see it on stdout. */
export const printed: string[] = []
/** Inputs by their action.yml name, as a runner passes them (already with defaults). */
export const inputs = new Map<string, string>()
export const outputs: Record<string, string> = {}
export const summaryParts: string[] = []
export const state = { failed: false }

// @actions/core escapes a command's message this way; annotations() in sim/run-action.js undoes it.
const escape = (s: string): string =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const command = (name: string, message: unknown): void => {
  printed.push(`::${name}::${escape(message instanceof Error ? message.message : String(message))}`)
}

export const getInput = jest.fn<typeof core.getInput>((name, options) => {
  const value = inputs.get(name) ?? ''
  return options?.trimWhitespace === false ? value : value.trim()
})
export const setOutput = jest.fn<typeof core.setOutput>((name, value) => {
  outputs[name] = typeof value === 'string' ? value : JSON.stringify(value)
})
export const setFailed = jest.fn<typeof core.setFailed>(message => {
  state.failed = true
  command('error', message)
})
export const setSecret = jest.fn<typeof core.setSecret>(secret => command('add-mask', secret))
export const info = jest.fn<typeof core.info>(message => printed.push(message))
export const debug = jest.fn<typeof core.debug>(message => command('debug', message))
export const warning = jest.fn<typeof core.warning>(message => command('warning', message))
export const notice = jest.fn<typeof core.notice>(message => command('notice', message))
export const error = jest.fn<typeof core.error>(message => command('error', message))
export const startGroup = jest.fn<typeof core.startGroup>(name => printed.push(`::group::${name}`))
export const endGroup = jest.fn<typeof core.endGroup>(() => printed.push('::endgroup::'))

/** Makes the next `summary.write()` fail (kept across resetCore), to test that only a warning follows. */
export const summaryFailure: { next?: Error } = {}
export const summary = {
  addRaw(text: string) {
    summaryParts.push(text)
    return summary
  },
  write: jest.fn(() => {
    const failure = summaryFailure.next
    summaryFailure.next = undefined
    if (!failure) return Promise.resolve(summary)
    summaryParts.length = 0
    return Promise.reject(failure)
  })
}

/** Forgets what the last run recorded. */
export function resetCore(): void {
  printed.length = 0
  inputs.clear()
  for (const key of Object.keys(outputs)) delete outputs[key]
  summaryParts.length = 0
  state.failed = false
  jest.clearAllMocks()
}

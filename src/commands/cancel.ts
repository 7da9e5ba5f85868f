// The runner cancels a step with SIGINT, then SIGTERM. Node's default would end the process at
// once, running no cleanup: a live comment would say "working…" forever and an export would leave
// its temp file. A command says what became of its work first; the process then ends.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'

/**
 * Calls `write(signal)` once on the first SIGINT or SIGTERM, then ends the process with exit code
 * 1 (at the latest after 5 s). Returns the function that removes the handlers.
 */
export function onCancel(write: (signal: NodeJS.Signals) => Promise<void>): () => void {
  let done = false
  const handler = (signal: NodeJS.Signals): void => {
    if (done) return
    done = true
    const exit = (): never => process.exit(1)
    setTimeout(exit, 5_000).unref()
    write(signal)
      .catch((err: unknown) => core.warning(messageOf(err)))
      .finally(exit)
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}

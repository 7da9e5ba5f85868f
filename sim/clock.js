// The simulators' clock, shared with a scenario that runs the action in this process: a wait of
// seconds takes no real time. `sleep` resolves at once, and time jumps to the earliest wake-up of
// the waits pending then, so the simulators (a job that stays active 3 s, a follow-up processed
// late, the hourly quota window) see the time the action waited. Real time still passes as it
// does: a request's own time limit is a real timer, so a service that hangs still takes as long
// as the action allows it. With nothing asleep, the clock is real time plus what was jumped.
// Standard library only, like the other simulators.

import { setImmediate } from 'node:timers'

export class JumpingClock {
  constructor() {
    /** Milliseconds jumped so far: only grows, so what the simulators remember stays in order. */
    this.offset = 0
    /** @type {{ at: number, wake: () => void }[]} */
    this.sleepers = []
    this.scheduled = false
  }

  now() {
    return Date.now() + this.offset
  }

  /**
   * @param {number} ms
   * @param {AbortSignal} [signal] ends the wait at once, without a jump
   * @returns {Promise<void>}
   */
  sleep(ms, signal) {
    return new Promise(resolve => {
      if (signal?.aborted) return resolve()
      const sleeper = {
        at: this.now() + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }
      }
      const onAbort = () => {
        this.sleepers = this.sleepers.filter(s => s !== sleeper)
        sleeper.wake()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.sleepers.push(sleeper)
      this.schedule()
    })
  }

  /** @private On the next turn of the event loop: the waits started in this one are all known. */
  schedule() {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.tick())
  }

  /** @private */
  tick() {
    this.scheduled = false
    if (this.sleepers.length === 0) return
    const next = Math.min(...this.sleepers.map(s => s.at))
    const now = this.now()
    if (next > now) this.offset += next - now
    const due = this.sleepers.filter(s => s.at <= this.now())
    this.sleepers = this.sleepers.filter(s => s.at > this.now())
    for (const s of due) s.wake()
    if (this.sleepers.length > 0) this.schedule()
  }
}

/** The one clock of this process's simulators (real time plus what in-process runs jumped). */
export const simClock = new JumpingClock()

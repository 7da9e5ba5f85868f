// The simulators' clock, shared with a scenario that runs the action in this process, so that a
// wait of seconds takes no real time. While `jumping` (an in-process run is under way), time
// jumps ahead to the next thing due whenever nothing is being answered: a wait of the action (a
// backoff, a poll's delay), a delay of the simulators (latency, a slow answer), or the time limit
// of a call the simulators hold without answering (a hang). The simulators' scheduled events (a
// refusal that ends) and the action's alarms (its pager's guard at the deadline) fire as time
// passes them, but are no reason to jump. Real time passes as ever and every timer also fires on
// it, so nothing can stall; with `jumping` off (a run in a child process) this is real time plus
// what was jumped before. Standard library only.

/** Timers cannot wait longer than about 24.8 days. */
const MAX_TIMER_MS = 2 ** 31 - 1

export class JumpingClock {
  constructor() {
    /** Milliseconds jumped so far: only grows, so what the simulators remember stays in order. */
    this.offset = 0
    /** Jump only while an in-process run is under way. */
    this.jumping = false
    /** @type {Set<{ at: number, fire: () => void }>} waits of the action and the simulators */
    this.sleepers = new Set()
    /** @type {Set<{ at: number, fire: () => void }>} time limits of calls in flight */
    this.limits = new Set()
    /** @type {Set<{ at: number, fire: () => void }>} the simulators' scheduled events, the action's alarms */
    this.events = new Set()
    /** Calls the simulators hold without answering (hung, or delayed by a sleep). */
    this.held = 0
    /** Held calls whose time limit this clock fired: their release is on its way. */
    this.releasing = 0
    /** Each in-process run is one; holds of an earlier one do not count in a later one. */
    this.generation = 0
    /** The counts seen by the tick that found a time limit next; a later tick must see the same. */
    this.steady = undefined
    this.scheduled = false
  }

  now() {
    return Date.now() + this.offset
  }

  /**
   * @param {number} ms
   * @param {AbortSignal} [signal] ends the wait at once
   * @returns {Promise<void>}
   */
  sleep(ms, signal) {
    return new Promise(resolve => {
      if (signal?.aborted) return resolve()
      const entry = this.add(this.sleepers, ms, () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      })
      const onAbort = () => entry.cancel()
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /**
   * A guard on work under way (the action's pager at its deadline): resolves once `ms` have
   * passed on this clock, by real time or by a jump made for another reason, or at once when
   * `signal` aborts. Like the simulators' events it is never a reason to jump: the work it guards
   * (a page being answered, a file being written) decides what happens next.
   * @param {number} ms
   * @param {AbortSignal} [signal]
   * @returns {Promise<void>}
   */
  alarm(ms, signal) {
    return new Promise(resolve => {
      if (signal?.aborted) return resolve()
      const cancel = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      })
      const onAbort = () => {
        cancel()
        resolve()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /**
   * A time limit on one call: aborts after `ms` of real time, or when this clock jumps to it.
   * @param {number} ms
   */
  limit(ms) {
    const controller = new AbortController()
    const entry = this.add(this.limits, ms, () => controller.abort())
    return { signal: controller.signal, end: () => entry.cancel() }
  }

  /**
   * Runs `fn` once `ms` have passed on this clock (real time, or jumped): never a reason to jump.
   * @param {number} ms
   * @param {() => void} fn
   * @returns {() => void} cancels it
   */
  after(ms, fn) {
    return this.add(this.events, ms, fn).cancel
  }

  /**
   * A call the simulators hold without answering (until `release`): while every call in flight is
   * held, the clock may jump to their time limits. `release('closed')` when the caller gave up.
   * @returns {(how: 'answered' | 'closed') => void}
   */
  hold() {
    const generation = this.generation
    this.held++
    this.schedule()
    let released = false
    return how => {
      if (released) return
      released = true
      // A call an earlier run left behind (a page read ahead, abandoned) no longer counts.
      if (generation !== this.generation) return
      this.held--
      if (how === 'closed' && this.releasing > 0) this.releasing--
      this.schedule()
    }
  }

  /**
   * @private
   * @param {Set<{ at: number, fire: () => void }>} set
   * @param {number} ms
   * @param {() => void} fn
   */
  add(set, ms, fn) {
    const wait = Math.max(0, ms)
    const isLimit = set === this.limits
    let done = false
    const entry = {
      at: this.now() + wait,
      fire: () => {
        if (done) return
        done = true
        clearTimeout(timer)
        set.delete(entry)
        fn()
        this.schedule()
      }
    }
    // Past what a timer can wait (about 24.8 days; Node would fire it at once), only a jump or a
    // cancel ends it: an alarm of a deadline that is not set.
    const timer = wait <= MAX_TIMER_MS ? setTimeout(entry.fire, wait) : undefined
    // A call's time limit must not keep the process alive; a wait or an event must.
    if (isLimit) timer?.unref?.()
    set.add(entry)
    this.schedule()
    return {
      cancel: () => {
        if (done) return
        done = true
        clearTimeout(timer)
        set.delete(entry)
        this.schedule()
      }
    }
  }

  /**
   * Jumping on (an in-process run starts) or off (it ended). A run starts a new generation: calls
   * held for an earlier run (its pages read ahead and abandoned) are released on their own
   * time and never count as this run's.
   */
  setJumping(on) {
    if (on && !this.jumping) {
      this.generation++
      this.held = 0
      this.releasing = 0
    }
    this.jumping = on
    this.schedule()
  }

  /** @private The counts a jump to a time limit relies on, as one comparable value. */
  counts() {
    return `${this.limits.size}/${this.held}/${this.releasing}/${this.generation}`
  }

  /** @private On the next turn of the event loop: what this one started is all known by then. */
  schedule() {
    if (this.scheduled || !this.jumping) return
    this.scheduled = true
    setImmediate(() => this.tick())
  }

  /** @private */
  tick() {
    this.scheduled = false
    if (!this.jumping) return
    for (const e of [...this.events]) if (e.at <= this.now()) e.fire()
    // A call being answered decides what happens next: no jump until it has its answer.
    const callsHeld = this.limits.size <= this.held - this.releasing
    if (!callsHeld) return
    const candidates = [...this.sleepers, ...this.limits].filter(e => e.at !== Infinity)
    if (candidates.length === 0) return
    const next = Math.min(...candidates.map(e => e.at))
    // Firing a time limit needs the counts to hold over two turns of the event loop: a call its
    // client just gave up on is released by the simulator one poll phase later.
    const limitFirst = [...this.limits].some(e => e.at === next)
    if (limitFirst && this.steady !== this.counts()) {
      this.steady = this.counts()
      this.schedule()
      return
    }
    this.steady = undefined
    if (next > this.now()) this.offset += next - this.now()
    const now = this.now()
    for (const e of [...this.events]) if (e.at <= now) e.fire()
    for (const e of [...this.limits])
      if (e.at <= now) {
        this.releasing++
        e.fire()
      }
    for (const e of [...this.sleepers]) if (e.at <= now) e.fire()
  }
}

/** The one clock of this process's simulators (real time plus what in-process runs jumped). */
export const simClock = new JumpingClock()

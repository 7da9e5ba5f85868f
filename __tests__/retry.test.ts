// Unit tier: when to retry and how long to wait.
import { describe, it, expect } from '@jest/globals'
import {
  backoffDelay,
  isRetryable,
  mayHaveBeenDelivered,
  networkCode,
  parseRetryAfter,
  type Outcome
} from '../src/service/retry.js'
import { pollDelays } from '../src/agent/wait.js'

const answer = (status: number): Outcome => ({ kind: 'answer', status })
const malformed: Outcome = { kind: 'malformed' }
const network = (code: 'refused' | 'unreachable' | 'reset' | 'timeout' | 'other'): Outcome => ({
  kind: 'network',
  code
})

describe('isRetryable', () => {
  it.each([
    [answer(429), true],
    [answer(500), true],
    [answer(502), true],
    [answer(503), true],
    [answer(400), false],
    [answer(401), false],
    [answer(404), false],
    [network('reset'), true],
    [network('timeout'), true],
    [network('refused'), true],
    [malformed, true]
  ])('GET %j -> %s', (outcome, want) => expect(isRetryable('GET', outcome)).toBe(want))

  it.each([
    [answer(429), true],
    [answer(503), true],
    [network('refused'), true],
    [answer(500), false],
    [answer(502), false],
    [answer(504), false],
    [answer(400), false],
    [network('reset'), false],
    [network('timeout'), false],
    [network('other'), false],
    [malformed, false]
  ])('POST %j -> %s (never sent twice)', (outcome, want) =>
    expect(isRetryable('POST', outcome)).toBe(want)
  )

  it.each([301, 302, 303, 307, 308])('a %i is retried for neither method', status => {
    const redirect: Outcome = { kind: 'redirect', status }
    expect(isRetryable('GET', redirect)).toBe(false)
    expect(isRetryable('POST', redirect)).toBe(false)
    // Whoever answered may have acted on the POST first.
    expect(mayHaveBeenDelivered(redirect)).toBe(true)
  })

  it('says a POST may have been delivered after a reset, a timeout or a 500, not after a refusal', () => {
    expect(mayHaveBeenDelivered(network('reset'))).toBe(true)
    expect(mayHaveBeenDelivered(network('timeout'))).toBe(true)
    expect(mayHaveBeenDelivered(answer(500))).toBe(true)
    expect(mayHaveBeenDelivered(answer(503))).toBe(false)
    expect(mayHaveBeenDelivered(network('refused'))).toBe(false)
    // A 2xx whose body is odd still means the service took the message.
    expect(mayHaveBeenDelivered(malformed)).toBe(false)
  })
})

describe('backoffDelay', () => {
  it('grows exponentially, capped, with jitter inside [exp/2, exp]', () => {
    expect(backoffDelay(1, 1000, 30_000, () => 0)).toBe(500)
    expect(backoffDelay(1, 1000, 30_000, () => 1)).toBe(1000)
    expect(backoffDelay(3, 1000, 30_000, () => 1)).toBe(4000)
    expect(backoffDelay(10, 1000, 30_000, () => 1)).toBe(30_000)
    expect(backoffDelay(10, 1000, 30_000, () => 0)).toBe(15_000)
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T10:00:00Z')
  it('reads seconds', () => expect(parseRetryAfter('7', now)).toBe(7000))
  it('reads an HTTP date', () =>
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000))
  it('a date in the past means now', () =>
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0))
  it.each([undefined, '', 'soon', '-1', '1.5'])('ignores %j', v =>
    expect(parseRetryAfter(v, now)).toBeUndefined()
  )
})

describe('networkCode', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'refused'],
    [{ code: 'ENOTFOUND' }, 'unreachable'],
    [{ code: 'ECONNRESET' }, 'reset'],
    [{ code: 'ETIMEDOUT' }, 'timeout'],
    [{ message: 'Request timeout: /x' }, 'timeout'],
    [{ code: 'EWHATEVER' }, 'other']
  ])('%j -> %s', (err, want) => expect(networkCode(err)).toBe(want))
})

describe('pollDelays', () => {
  const take = (interval: number, n: number, random = () => 0.5) => {
    const out: number[] = []
    for (const d of pollDelays(interval, random)) {
      out.push(d)
      if (out.length === n) break
    }
    return out
  }

  it('starts at poll-interval and grows', () => {
    const d = take(5000, 6)
    expect(d[0]).toBe(5000)
    for (let i = 1; i < d.length; i++) expect(d[i]!).toBeGreaterThan(d[i - 1]!)
  })

  it('never exceeds max(poll-interval, 30s), whatever the jitter', () => {
    expect(Math.max(...take(5000, 40, () => 1))).toBe(30_000)
    expect(Math.max(...take(60_000, 10, () => 1))).toBe(60_000)
  })

  it('jitters later delays', () => {
    expect(take(5000, 3, () => 0)[2]).not.toBe(take(5000, 3, () => 1)[2])
  })
})

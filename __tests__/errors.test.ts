// Unit tier: the one deadline and the one "time is up" error, on a hand-moved clock; what a
// refusal of the service asks to change.
import { describe, it, expect } from '@jest/globals'
import { messageOf, TimeUpError } from '../src/errors.js'
import { Deadline } from '../src/deadline.js'
import { statusHint } from '../src/service/hints.js'
import { requestFailure, type FailedAttempt } from '../src/service/errors.js'
import { operationOf } from '../src/service/operations.js'
import { handClock } from './clock.js'

describe('the one deadline and the one "time is up" error', () => {
  it('says which limit ran out, what the run waited for, how far it got and why', () => {
    const err = new TimeUpError(
      'the next page (offset 500)',
      new Error('503 Service Unavailable.'),
      {
        rows: 500,
        pages: 2
      }
    )
    expect(err.message).toBe(
      'The time allowed (`wait-timeout`) ran out after reading 500 rows (2 pages) while waiting ' +
        'for the next page (offset 500); it had failed: 503 Service Unavailable.'
    )
  })

  it('a deadline knows what is left, and fails with the one "time is up" error', () => {
    const clock = handClock(1_000)
    const d = new Deadline(clock)
    expect(d.left()).toBe(Infinity)
    d.limit(500)
    expect(d.left()).toBe(500)
    expect(d.allows(499)).toBe(true)
    expect(d.allows(500)).toBe(false)
    expect(() => d.check('the job')).not.toThrow()
    clock.t = 1_500
    expect(d.passed()).toBe(true)
    expect(d.left()).toBe(0)
    expect(() => d.check('the job')).toThrow(
      'The time allowed (`wait-timeout`) ran out while waiting for the job.'
    )
  })

  it('counts from the start of the run, then again from the answer; waits on its clock', async () => {
    const clock = handClock(10_000)
    const d = new Deadline(clock)
    d.limit(90_000)
    expect(d.startedAt).toBe(10_000)
    await d.sleep(30_000)
    expect(d.left()).toBe(60_000)
    expect(d.elapsed()).toBe(30_000)
    d.restartFrom(clock.now())
    expect(d.left()).toBe(90_000)
    expect(d.startedAt).toBe(10_000)
    // A call's time limit: its own, or what is left, but at least the floor.
    expect(d.clamp(30_000, 5_000)).toBe(30_000)
    clock.t += 88_000
    expect(d.clamp(30_000, 5_000)).toBe(5_000)
    expect(d.clamp(30_000)).toBe(2_000)
  })

  it('messageOf never gives a stack', () => {
    expect(messageOf(new Error('boom'))).toBe('boom')
    expect(messageOf('text')).toBe('text')
  })
})

describe('what a refusal asks to change (statusHint)', () => {
  it('a 403 is worded by the cause its words name', () => {
    expect(statusHint(403, '403 Forbidden: Requests from this IP address are not allowed')).toMatch(
      /IP allowlist .*self-hosted runner/
    )
    expect(statusHint(403, '403 Forbidden: This API key is read-only')).toMatch(/lacks the scope/)
    expect(
      statusHint(403, '403 Forbidden: Searches analytics is not available on your plan')
    ).toMatch(/plan does not include/)
    expect(statusHint(403, '403 Forbidden: key has no access to this project')).toMatch(
      /another organisation than `project-id`/
    )
  })

  it('a 403 whose words name no cause lists every cause, the other organisation first', () => {
    const hint = statusHint(403, '403 Forbidden: Forbidden') ?? ''
    expect(hint).toMatch(/another organisation than `project-id`.*IP allowlist.*scope.*plan/)
  })

  it('a 400 or 404 saying the project id is invalid or unknown names `project-id`', () => {
    expect(statusHint(400, '400 Bad Request: Invalid project id')).toMatch(
      /^the project was not found: check `project-id`.*variable.*not a secret/
    )
    expect(statusHint(404, '404 Not Found: Project not found')).toMatch(/check `project-id`/)
    // Any 404 of an analytics operation: the project is its only id.
    expect(statusHint(404, '404 Not Found', 'GET /v1/analytics/p/views')).toMatch(
      /^the project was not found/
    )
    // A 404 of a job may be the job: both ids are named.
    expect(statusHint(404, '404 Not Found: Agent job not found', 'GET /v2/agent/p/job/x')).toMatch(
      /`project-id` and `job-id`/
    )
    expect(statusHint(400, '400 Bad Request: Invalid request body')).toBeUndefined()
  })
})

describe('a request named in words, for the run page’s annotations', () => {
  it('names each operation without its API path', () => {
    expect(
      operationOf('GET', '/v1/analytics/my%20proj/searches?dateFrom=2026-11-09&limit=100')
    ).toBe('reading the searches analytics')
    expect(operationOf('GET', '/v1/analytics/p/feedback/by-page')).toBe(
      'reading the feedback by page analytics'
    )
    expect(operationOf('GET', '/v2/agent/p/job/j')).toBe('reading the job')
    expect(operationOf('POST', '/v2/agent/p/job')).toBe('starting a job')
    expect(operationOf('POST', '/v2/agent/p/job/j/message')).toBe('sending the follow-up')
  })

  it('a failure says the operation, never the path', () => {
    const failed: FailedAttempt = { outcome: { kind: 'answer', status: 404 }, why: '404 Not Found' }
    const request = 'GET /v1/analytics/acme/searches?limit=100'
    const err = requestFailure(request, failed, 1, 'GET', undefined, {
      operation: 'reading the searches analytics'
    })
    expect(err.message).toMatch(/^Reading the searches analytics failed: 404 Not Found/)
    expect(err.message).not.toContain('/v1/analytics')
  })
})

// Unit tier: what a poll means (a final status believed only on evidence) and the wait, on a hand-
// moved clock.
import { describe, it, expect } from '@jest/globals'
import { TimeUpError } from '../src/errors.js'
import {
  jobChanged,
  noPullRequestNote,
  noteSeen,
  readPoll,
  type Evidence
} from '../src/agent/completion.js'
import { waitForJob } from '../src/agent/wait.js'
import { ServiceError } from '../src/service/errors.js'
import type { AgentJob } from '../src/service/schema.js'
import { handClock } from './clock.js'

const OLD: AgentJob = { id: 'j', status: 'completed', prLink: 'https://x/pull/1', archivedAt: null }
const job = (over: Partial<AgentJob>): AgentJob => ({ ...OLD, ...over })

function evidence(over: Partial<Evidence> = {}): Evidence {
  return {
    isNew: false,
    before: OLD,
    seenWorking: false,
    answeredAt: 1_000,
    settleTimeMs: 60_000,
    ...over
  }
}

describe('readPoll', () => {
  it('doubts a final status equal to the one before the POST, until settle-time', () => {
    expect(readPoll(OLD, evidence(), 2_000)).toEqual({ kind: 'doubted', believeAt: 61_000 })
    expect(readPoll(OLD, evidence(), 60_999)).toMatchObject({ kind: 'doubted' })
    expect(readPoll(OLD, evidence(), 61_000)).toEqual({ kind: 'final', why: 'settled' })
  })

  it.each([
    ['status', job({ status: 'failed' })],
    ['prLink', job({ prLink: 'https://x/pull/2' })],
    ['prLink gone', job({ prLink: null })],
    ['archivedAt', job({ status: 'completed', archivedAt: '2026-11-22T00:00:00Z' })]
  ])('believes it at once when %s differs from before', (_what, now) => {
    expect(readPoll(now, evidence(), 2_000)).toEqual({ kind: 'final', why: 'changed' })
  })

  it('believes it once the job was seen working after the POST', () => {
    expect(readPoll(OLD, evidence({ seenWorking: true }), 2_000)).toEqual({
      kind: 'final',
      why: 'seen working'
    })
  })

  it('never doubts a new job, even with no GET before', () => {
    const e = evidence({ isNew: true, before: undefined })
    expect(readPoll(OLD, e, 1_001)).toEqual({ kind: 'final', why: 'new job' })
  })

  it('without a GET before, only seeing it work or settle-time decide', () => {
    const e = evidence({ before: undefined })
    expect(readPoll(job({ prLink: 'https://x/pull/9' }), e, 2_000)).toMatchObject({
      kind: 'doubted'
    })
  })

  it('active is working; a status added later is not final either', () => {
    expect(readPoll(job({ status: 'active' }), evidence(), 2_000)).toEqual({ kind: 'working' })
    expect(readPoll(job({ status: 'queued' }), evidence(), 2_000)).toEqual({
      kind: 'unknown-status'
    })
  })

  it('noteSeen: only a status that is not final counts as seen working', () => {
    const e = evidence()
    noteSeen(e, OLD)
    noteSeen(e, undefined)
    expect(e.seenWorking).toBe(false)
    noteSeen(e, job({ status: 'queued' }))
    expect(e.seenWorking).toBe(true)
  })

  it('jobChanged treats a missing and a null field alike', () => {
    const withoutArchivedAt: AgentJob = { id: OLD.id, status: OLD.status, prLink: OLD.prLink }
    expect(jobChanged(OLD, withoutArchivedAt)).toBe(false)
  })

  it('the no-pull-request note gives both explanations', () => {
    const note = noPullRequestNote('j')
    expect(note).toMatch(/changed nothing/)
    expect(note).toMatch(/committed directly/)
  })
})

describe('waitForJob', () => {
  /** A fake clock: sleeping advances it, so the loop runs instantly and deterministically. */
  function harness(answers: (AgentJob | Error)[]) {
    const clock = handClock(1_000)
    const lines: string[] = []
    const warnings: string[] = []
    let calls = 0
    const service = {
      getJob: (): Promise<AgentJob> => {
        const next = answers[Math.min(calls++, answers.length - 1)]
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next as AgentJob)
      }
    }
    return {
      lines,
      warnings,
      calls: () => calls,
      clock,
      options: {
        service,
        path: '/v2/agent/p/job/j',
        jobId: 'j',
        pollIntervalMs: 1_000,
        deadline: clock.deadline(120_000),
        random: () => 0.5,
        log: (l: string) => lines.push(l),
        warn: (w: string) => warnings.push(w)
      }
    }
  }

  it('polls past the old state and returns the new result', async () => {
    const h = harness([
      OLD,
      OLD,
      job({ status: 'active', prLink: null }),
      job({ prLink: 'https://x/pull/2' })
    ])
    const r = await waitForJob({ ...h.options, evidence: evidence() })
    expect(r).toMatchObject({ timedOut: false, job: { prLink: 'https://x/pull/2' } })
    expect(h.calls()).toBe(4)
    expect(h.lines.filter(l => /as before the instruction/.test(l))).toHaveLength(1)
  })

  it('a job that never changes times out as doubted when settle-time exceeds the wait', async () => {
    const h = harness([OLD])
    const r = await waitForJob({
      ...h.options,
      deadline: h.clock.deadline(10_000),
      evidence: evidence({ settleTimeMs: 60_000 })
    })
    expect(r).toMatchObject({ timedOut: true, doubted: true })
  })

  it('warns once per unknown status and keeps polling', async () => {
    const queued = job({ status: 'queued', prLink: null })
    const h = harness([queued, queued, queued, job({ status: 'active' }), OLD])
    const changes: string[] = []
    const r = await waitForJob({
      ...h.options,
      evidence: evidence(),
      onChange: j => {
        changes.push(j.status)
      }
    })
    expect(r.timedOut).toBe(false)
    expect(r.job?.status).toBe('completed')
    expect(h.warnings).toHaveLength(1)
    expect(h.warnings[0]).toContain('`queued`')
    // The final status is not reported as a change: the ending writes it right away.
    expect(changes).toEqual(['queued', 'active'])
  })

  it('a pull request named while the job works is a change: heard at once, not only at the end', async () => {
    const working = job({ status: 'active', prLink: null })
    const opened = job({ status: 'active', prLink: 'https://x/pull/9' })
    const h = harness([working, opened, opened, OLD])
    const seen: Array<string | null> = []
    await waitForJob({
      ...h.options,
      evidence: evidence(),
      onChange: j => void seen.push(j.prLink)
    })
    expect(seen).toEqual([null, 'https://x/pull/9'])
  })

  it('a transient poll failure is survived; one that is not ends the wait', async () => {
    const flaky = harness([new ServiceError('503', 503), job({ status: 'active' }), OLD])
    const ok = await waitForJob({ ...flaky.options, evidence: evidence() })
    expect(ok.timedOut).toBe(false)
    expect(flaky.warnings[0]).toMatch(/will poll again/)
    const gone = harness([new ServiceError('404 Not Found', 404)])
    await expect(waitForJob({ ...gone.options, evidence: evidence() })).rejects.toThrow('404')
  })

  it('a poll the deadline overtakes (a busy runner starts it late) is a timeout, not a failure', async () => {
    const late = harness([
      job({ status: 'active' }),
      new TimeUpError('GET /v2/agent/p/job/j to start: it was not sent')
    ])
    const r = await waitForJob({ ...late.options, evidence: evidence() })
    expect(r.timedOut).toBe(true)
    expect(r.job?.status).toBe('active')
    expect(late.warnings).toEqual([])
  })

  it('sends no request once the deadline has passed', async () => {
    const h = harness([job({ status: 'active' })])
    const r = await waitForJob({
      ...h.options,
      deadline: h.clock.deadline(500),
      evidence: evidence()
    })
    expect(r.timedOut).toBe(true)
    expect(h.calls()).toBe(0)
  })
})

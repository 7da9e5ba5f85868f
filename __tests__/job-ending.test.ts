// Unit tier: how a job run ended is decided once (agent/ending.ts) and worded in three places: the
// log (the step's failure message, or a note), the comment and the job summary. For each kind of
// ending, the three say the same thing.
import { describe, it, expect } from '@jest/globals'
import {
  afterWait,
  cancelledAt,
  endingNote,
  noJob,
  stepFailure,
  stoppedAt,
  type EndingSettings,
  type JobEnding
} from '../src/agent/ending.js'
import type { WaitResult } from '../src/agent/wait.js'
import { renderJobReport } from '../src/report/job.js'
import { ServiceError } from '../src/service/errors.js'
import type { AgentJob } from '../src/service/schema.js'
import { agentJob, jobReport } from './report-scenarios.js'

const SETTINGS: EndingSettings = {
  wait: true,
  waitTimeoutMs: 30 * 60_000,
  failOnStatus: ['failed'],
  requirePr: false
}
const active = agentJob({ status: 'active', prLink: null })
const noPr = agentJob({ prLink: null })
const ended = (job: AgentJob | undefined, over: Partial<WaitResult> = {}): WaitResult => ({
  job,
  timedOut: false,
  doubted: false,
  ...over
})
const POST_RESET = new ServiceError(
  'POST /agent/x/job: connection reset',
  undefined,
  undefined,
  'maybe'
)

interface Case {
  ending: JobEnding
  /** The job the report shows. */
  job: AgentJob | undefined
  /** Whether the step fails: said here, not derived, so the test can disagree with the code. */
  fails: boolean
  /** The comment's headline (after `### `), up to the elapsed time. */
  headline: string
}

const CASES: Record<string, Case> = {
  'opened a pull request': {
    ending: afterWait(ended(agentJob()), SETTINGS),
    job: agentJob(),
    fails: false,
    headline: '✅ Opened [#42]'
  },
  'completed without a pull request': {
    ending: afterWait(ended(noPr), SETTINGS),
    job: noPr,
    fails: false,
    headline: '✅ Completed without a pull request'
  },
  'completed without a pull request, require-pr': {
    ending: afterWait(ended(noPr), { ...SETTINGS, requirePr: true }),
    job: noPr,
    fails: true,
    headline: '❌ Completed without a pull request'
  },
  'failed, fail-on-status lists it': {
    ending: afterWait(ended(agentJob({ status: 'failed', prLink: null })), SETTINGS),
    job: agentJob({ status: 'failed', prLink: null }),
    fails: true,
    headline: '❌ The job failed'
  },
  'failed, fail-on-status empty': {
    ending: afterWait(ended(agentJob({ status: 'failed', prLink: null })), {
      ...SETTINGS,
      failOnStatus: []
    }),
    job: agentJob({ status: 'failed', prLink: null }),
    fails: false,
    headline: '❌ The job failed'
  },
  archived: {
    ending: afterWait(ended(agentJob({ status: 'archived' })), SETTINGS),
    job: agentJob({ status: 'archived' }),
    fails: false,
    headline: '📦 The job was archived'
  },
  'archived, fail-on-status lists it': {
    ending: afterWait(ended(agentJob({ status: 'archived' })), {
      ...SETTINGS,
      failOnStatus: ['failed', 'archived']
    }),
    job: agentJob({ status: 'archived' }),
    fails: true,
    headline: '📦 The job was archived'
  },
  // The POST's answer may be the job's state from before the instruction: it decides nothing.
  'not waited for, the answer showing an old failure': {
    ending: afterWait(ended(agentJob({ status: 'failed' })), { ...SETTINGS, wait: false }),
    job: agentJob({ status: 'failed' }),
    fails: false,
    headline: '📨 Instruction sent · not waited for'
  },
  'timed out': {
    ending: afterWait(ended(active, { timedOut: true }), SETTINGS),
    job: active,
    fails: true,
    headline: '⌛ Stopped waiting after'
  },
  'timed out, the last poll failing': {
    ending: afterWait(
      ended(active, {
        timedOut: true,
        lastPollError: new ServiceError('GET /x: 503', 503, '503 Service Unavailable', 'no', {
          problem: '503 Service Unavailable'
        })
      }),
      SETTINGS
    ),
    job: active,
    fails: true,
    headline: '⌛ Stopped waiting after'
  },
  'timed out, still doubted': {
    ending: afterWait(ended(agentJob(), { timedOut: true, doubted: true }), SETTINGS),
    job: agentJob(),
    fails: true,
    headline: '⌛ Stopped waiting after'
  },
  'stopped before sending': {
    ending: stoppedAt('preparing', new Error('403 Forbidden')),
    job: undefined,
    fails: true,
    headline: '⚠️ The instruction was not sent'
  },
  'stopped while sending, maybe delivered': {
    ending: stoppedAt('sending', POST_RESET),
    job: undefined,
    fails: true,
    headline: '⚠️ The instruction may or may not have been delivered'
  },
  'stopped while waiting': {
    ending: stoppedAt('waiting', new ServiceError('GET /x: 404', 404, '404 Not Found')),
    job: active,
    fails: true,
    headline: '⚠️ Sent, but this run lost track of the job'
  },
  'cancelled before sending': {
    ending: cancelledAt('preparing', 'SIGINT'),
    job: undefined,
    fails: true,
    headline: '🚫 Run cancelled before the instruction was sent'
  },
  'cancelled while sending': {
    ending: cancelledAt('sending', 'SIGTERM'),
    job: undefined,
    fails: true,
    headline: '🚫 Run cancelled · the instruction may or may not have been delivered'
  },
  'cancelled while waiting': {
    ending: cancelledAt('waiting', 'SIGINT'),
    job: active,
    fails: true,
    headline: '🚫 Run cancelled · the job keeps running'
  },
  'no job to follow up': {
    ending: noJob('`job-id`: no job is recorded here'),
    job: undefined,
    fails: true,
    headline: '⚠️ No job to follow up'
  },
  // A reply where the job takes no instructions: the words of the answer the gate's skip writes
  // (gate/route.ts, as an unknown `fix N` is skipped). Whether it fails is the gate's to say: it
  // never reaches a job run's ending.
  'no job here: the agent’s pull request takes the replies': {
    ending: noJob('`job-id` is empty, and this pull request takes no instructions', {
      number: 21,
      url: 'https://github.com/octo/docs/pull/21'
    }),
    job: undefined,
    fails: true,
    headline: '⚠️ No job to follow up'
  }
}

const headlineOf = (body: string): string => body.split('\n')[0]!.replace(/^### /, '')

function render(c: Case): { comment: string; summary: string; failure?: string } {
  const r = jobReport({ ending: c.ending, job: c.job, prNumber: 42 })
  const failure = stepFailure(c.ending, 'job_7Hq2mX')
  return {
    comment: renderJobReport(r, 'comment'),
    summary: renderJobReport(r, 'summary'),
    ...(failure !== undefined ? { failure } : {})
  }
}

describe('one ending, worded alike in the log, the comment and the summary', () => {
  it.each(Object.keys(CASES))('%s', name => {
    const c = CASES[name]!
    const { comment, summary, failure } = render(c)
    // The comment and the summary name the same outcome.
    expect(headlineOf(comment).startsWith(c.headline)).toBe(true)
    expect(headlineOf(summary)).toBe(headlineOf(comment))
    // The failure message is set exactly when the ending fails the step; a note only when not.
    expect(failure !== undefined).toBe(c.fails)
    if (c.fails) expect(endingNote(c.ending, 'job_7Hq2mX')).toBeUndefined()
  })

  it('what the log says about delivery, the comment says too', () => {
    for (const c of Object.values(CASES)) {
      const { comment, failure = '' } = render(c)
      const maybe = /may or may not have been delivered/i
      expect(maybe.test(failure)).toBe(maybe.test(comment))
      if (/nothing was sent/i.test(failure)) expect(comment).toMatch(/not sent|Nothing was sent/)
      if (/keeps running/.test(failure)) expect(comment).toContain('keeps running')
    }
  })

  it('require-pr: the log and both bodies say that it failed the step', () => {
    const { comment, summary, failure } = render(
      CASES['completed without a pull request, require-pr']!
    )
    expect(failure).toContain('`require-pr` is `true`')
    for (const body of [comment, summary])
      expect(body).toContain('`require-pr` is `true`, so the step failed.')
    // With fail-on-status listing `completed` too, require-pr is still the reason named.
    const both = afterWait(ended(noPr), {
      ...SETTINGS,
      requirePr: true,
      failOnStatus: ['completed']
    })
    expect(stepFailure(both, 'j')).toContain('`require-pr` is `true`')
    expect(renderJobReport(jobReport({ ending: both, job: noPr }))).toContain('so the step failed')
    // Without it, neither says so, and the log's note is the one the comment words.
    const plain = render(CASES['completed without a pull request']!)
    expect(plain.comment).not.toContain('require-pr')
    expect(plain.comment).toContain('No pull request was opened')
    expect(endingNote(CASES['completed without a pull request']!.ending, 'j')).toEqual({
      level: 'notice',
      text: expect.stringContaining('completed without opening a pull request')
    })
  })

  it('the log names the status fail-on-status lists, the one the comment shows', () => {
    const { comment, failure } = render(CASES['archived, fail-on-status lists it']!)
    expect(failure).toBe(
      'Job job_7Hq2mX ended with status `archived`, which `fail-on-status` lists.'
    )
    expect(comment).toContain('- **Status:** archived')
    // Not listed: a warning in the log, and the same word in the comment.
    expect(endingNote(CASES.archived!.ending, 'j')).toEqual({
      level: 'warning',
      text: 'Job j was archived.'
    })
  })

  it('a timeout: the log gives the whole poll error, the comment its words for readers', () => {
    const { comment, failure } = render(CASES['timed out, the last poll failing']!)
    expect(failure).toContain('the last poll failed: GET /x: 503')
    expect(comment).toContain('**Last poll:** 503 Service Unavailable')
    expect(comment).not.toContain('GET /x')
  })
})

describe('endings that say how to go on', () => {
  it('a job the service does not know: check `job-id`, no retry advice', () => {
    const said = '404 Not Found: Agent job not found'
    const notFound = new ServiceError('GET /x: 404', 404, said, 'no', { problem: said })
    const { comment, summary } = render({
      ending: stoppedAt('preparing', notFound),
      job: undefined,
      fails: true,
      headline: ''
    })
    for (const text of [comment, summary]) {
      expect(text).toContain('check `job-id`')
      expect(text).not.toMatch(/To try again/)
    }
  })

  it('an archived job: how to start a new one', () => {
    const { comment } = render(CASES.archived!)
    expect(comment).toMatch(/`command: create`.*`when-no-job: create`/s)
  })
})

// Scenario tier (in this process by default; `.ci/run` runs it through the built dist/index.js):
// written feedback the team resolved or dismissed in the dashboard is not quoted again. The one
// request for written comments carries `status=pending,in_progress` (no request more than
// before); a service that ignores the filter still has its resolved rows left out; one that
// refuses it costs the report only the quotes. A reader's contact address is never shown. And
// `command: check` says whether the service takes the filter, in one line.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { errorsOf, withService, type RunResult, type Service } from './support.js'

const PAGE = '/guides/webhooks'
const comment = (id: string, status: string, text: string) => ({
  id,
  path: PAGE,
  comment: text,
  createdAt: '2026-11-12T10:00:00Z',
  source: 'contextual' as const,
  status: status as 'pending',
  helpful: false,
  contact: `${id}@readers.example`
})
const COMMENTS = [
  comment('a', 'pending', 'No example of verifying the signature.'),
  comment('b', 'resolved', 'RESOLVED-ALREADY: the retry header is wrong.'),
  comment('c', 'in_progress', 'Which events are sent?'),
  comment('d', 'dismissed', 'DISMISSED-SPAM buy followers'),
  {
    id: 'e',
    path: PAGE,
    comment: 'CODE-SNIPPET: this curl fails',
    createdAt: '2026-11-12T10:00:00Z',
    source: 'code_snippet' as const,
    status: 'pending' as const,
    code: 'curl …',
    filename: null,
    lang: 'bash'
  }
]
const FEEDBACK = [{ path: PAGE, thumbsUp: 1, thumbsDown: 12, code: 0, total: 13 }]

function report(sim: Service): Promise<RunResult> {
  return runScenario({
    inputs: {
      command: 'report',
      'api-key': SIM_API_KEY,
      'project-id': 'proj-1',
      'base-url': sim.url,
      sections: 'feedback',
      'date-from': '2026-11-09',
      'date-to': '2026-11-16'
    }
  })
}

/** The comments a report quotes (its feedback section in the `report` output). */
function quoted(r: RunResult): string[] {
  const doc = JSON.parse(r.outputs.report!) as {
    sections: Array<{ name: string; comments?: Array<{ comment: string }> }>
  }
  return (doc.sections.find(x => x.name === 'feedback')?.comments ?? []).map(c => c.comment)
}

const OPEN = ['No example of verifying the signature.', 'Which events are sent?']

describe('written feedback the team resolved or dismissed is left out', () => {
  it('the request carries `status=pending,in_progress`; the simulator honours it; two requests, as before', async () => {
    await withService({ feedback: FEEDBACK, comments: COMMENTS }, async sim => {
      const r = await report(sim)
      expect({ code: r.code, errors: errorsOf(r) }).toEqual({ code: 0, errors: [] })
      expect(sim.requests.map(q => q.kind)).toEqual(['feedback', 'feedback-comments'])
      const asked = sim.requests[1]!.query
      expect(asked.status).toBe('pending,in_progress')
      expect(asked.source).toBe('contextual')
      expect(quoted(r)).toEqual(OPEN)
      // Nothing resolved, dismissed or from a code snippet, and no reader's address, anywhere.
      for (const text of [r.summary, r.outputs.report!, r.stdout])
        expect(text).not.toMatch(/RESOLVED-ALREADY|DISMISSED-SPAM|CODE-SNIPPET|readers\.example/)
      expect(r.summary).toContain('No example of verifying the signature.')
    })
  })

  it('a service that ignores the filter: its resolved and dismissed rows are still left out, no request more', async () => {
    await withService(
      { feedback: FEEDBACK, comments: COMMENTS, statusFilter: 'ignored' },
      async sim => {
        const r = await report(sim)
        expect(r.code).toBe(0)
        expect(sim.requests).toHaveLength(2)
        expect(quoted(r)).toEqual(OPEN)
      }
    )
  })

  it('a service that refuses the filter: the report goes on without quotes, and says so', async () => {
    await withService(
      { feedback: FEEDBACK, comments: COMMENTS, statusFilter: 'refused' },
      async sim => {
        const r = await report(sim)
        expect(r.code).toBe(0)
        expect(sim.requests).toHaveLength(2)
        expect(quoted(r)).toEqual([])
        expect(r.summary).toContain('Written comments not read (status 400)')
      }
    )
  })
})

describe('`command: check` says whether the service takes the filter', () => {
  const check = (sim: Service, extra: Record<string, string> = {}) =>
    runScenario({
      inputs: {
        command: 'check',
        'api-key': SIM_API_KEY,
        'project-id': 'proj-1',
        'base-url': sim.url,
        ...extra
      }
    })
  const filterLine = (r: RunResult): string =>
    r.summary
      .split('\n')
      .find(l => l.includes('| Analytics: written feedback, `status` filter |')) ?? ''
  const FEW = COMMENTS.slice(0, 4)

  it.each([
    [
      'honoured',
      /^\| ✅ .*takes `status=pending,in_progress`: the written comments it sent are all pending or in progress/,
      0
    ],
    ['ignored', /^\| ➖ .*ignores `status=pending,in_progress`: .*leaves them out itself/, 0],
    [
      'refused',
      /^\| ❌ .*refuses `status=pending,in_progress`: 400 Bad Request: Invalid query parameters/,
      1
    ]
  ] as const)('a service that %s it: the line says so', async (statusFilter, line, code) => {
    await withService({ comments: FEW, statusFilter }, async sim => {
      const r = await check(sim)
      expect(r.code).toBe(code)
      expect(filterLine(r)).toMatch(line)
      // One request for it, the last: within the check's 8.
      expect(sim.requests).toHaveLength(8)
      expect(sim.requests.at(-1)?.query.status).toBe('pending,in_progress')
      const profile = JSON.parse(r.outputs['service-profile']!) as {
        operations: Array<{ operation: string; statusFilter?: string }>
      }
      const asked = profile.operations.find(o => o.operation === 'feedback-comments')
      if (statusFilter !== 'refused') expect(asked?.statusFilter).toBe(statusFilter)
    })
  })

  it('no written comment in the last 7 days: accepted, not called working', async () => {
    await withService({ comments: [] }, async sim => {
      const r = await check(sim)
      expect(r.code).toBe(0)
      expect(filterLine(r)).toMatch(
        /^\| ➖ .*accepts `status=pending,in_progress`; no written comment/
      )
    })
  })

  it('`max-requests: 7`: the other probes are all sent, the filter is not checked', async () => {
    await withService({ comments: FEW }, async sim => {
      const r = await check(sim, { 'max-requests': '7' })
      expect(sim.requests.map(q => q.kind)).not.toContain('feedback-comments')
      expect(sim.requests.at(-1)?.kind).toBe('job')
      expect(filterLine(r)).toMatch(
        /^\| ➖ .*not checked: the requests this check may send were spent/
      )
    })
  })
})

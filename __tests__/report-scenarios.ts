// Every report body in every state, as plain data: the renderer tests walk it (each Mermaid
// block is parsed by the real mermaid), and `npm run preview` draws it as GitHub would.
// A new report (e.g. the `report` command's sections) adds its scenarios to SCENARIOS.

import type { AgentJob, VisitorCounts, VisitorRow } from '../src/service/schema.js'
import { renderJobReport, type JobReport } from '../src/report/job.js'
import { renderVisitorsReport, type VisitorsReport } from '../src/report/visitors.js'

export interface Scenario {
  /** Heading of the group in the preview, e.g. "Job report". */
  group: string
  name: string
  /** Where the body goes, which decides its size limit. */
  target: 'comment' | 'summary'
  render: () => string
}

export const COMMENT_MAX_CHARS = 65_536 - 200
export const SUMMARY_MAX_BYTES = 512 * 1024

const STARTED = Date.UTC(2026, 10, 23, 14, 5, 12)
const MINUTE = 60_000
const RUN_URL = 'https://github.com/acme/docs/actions/runs/123456789'
const PROMPT =
  'Document the new `rateLimit` option on the client:\n\n' +
  '- what it defaults to\n- how it interacts with retries\n\nKeep the examples short.'

export const agentJob = (overrides: Partial<AgentJob> = {}): AgentJob => ({
  id: 'job_7Hq2mX',
  status: 'completed',
  source: { repository: 'acme/docs', ref: 'main' },
  model: 'claude-sonnet-4',
  prLink: 'https://github.com/acme/docs/pull/42',
  createdAt: '2026-11-23T14:05:13Z',
  ...overrides
})

export const jobReport = (overrides: Partial<JobReport> = {}): JobReport => ({
  command: 'message',
  projectId: 'acme-docs',
  jobId: 'job_7Hq2mX',
  phase: 'done',
  job: agentJob(),
  prompt: PROMPT,
  startedAt: STARTED,
  endedAt: STARTED + 4 * MINUTE + 10_000,
  waited: true,
  runUrl: RUN_URL,
  requests: 7,
  ...overrides
})

const active = agentJob({ status: 'active', prLink: null })

export const JOB_STATES: Record<string, Partial<JobReport>> = {
  'sending (message)': { phase: 'sending', job: undefined, endedAt: undefined, requests: 0 },
  'sending (create)': {
    command: 'create',
    jobId: undefined,
    phase: 'sending',
    job: undefined,
    endedAt: undefined
  },
  'waiting, active': { phase: 'waiting', job: active, endedAt: undefined },
  'waiting, a status added later (queued)': {
    phase: 'waiting',
    job: { ...active, status: 'queued' as AgentJob['status'] },
    endedAt: undefined
  },
  'waiting, still showing the status from before': {
    phase: 'waiting',
    job: agentJob(),
    endedAt: undefined
  },
  'done with a pull request of this repository': { prNumber: 42 },
  'done with a pull request elsewhere': {
    job: agentJob({ prLink: 'https://github.com/acme/website/pull/311' })
  },
  'done without a pull request': { job: agentJob({ prLink: null }) },
  failed: {
    job: agentJob({ status: 'failed', prLink: null }),
    error: 'The agent could not check out ref `docs-v2`: not found'
  },
  archived: { job: agentJob({ status: 'archived', prLink: null }) },
  'not waited for (wait: false)': { waited: false, job: active },
  'timed out': { phase: 'timed-out', job: active, endedAt: STARTED + 30 * MINUTE + 2_000 },
  'cancelled while waiting': { phase: 'cancelled', job: active, delivered: 'yes' },
  'cancelled before sending': {
    phase: 'cancelled',
    job: undefined,
    delivered: 'no',
    endedAt: STARTED + 3_000
  },
  'error, maybe delivered': {
    phase: 'error',
    job: agentJob({ status: 'completed' }),
    delivered: 'maybe',
    error:
      'POST /v2/agent/acme-docs/job/job_7Hq2mX/message: 502 Bad Gateway: upstream reset; ' +
      'the instruction may or may not have been delivered'
  },
  'error, not sent': {
    phase: 'error',
    job: undefined,
    delivered: 'no',
    error: 'GET /v2/agent/acme-docs/job/job_7Hq2mX: 404 Not Found: Agent job not found'
  },
  'no job to follow up': { phase: 'no-job', jobId: undefined, job: undefined, requests: 0 },
  'routed: replies go to this job': { prNumber: 42, routedHere: true, trigger: '/docs-agent' },
  'create, done': { command: 'create', prNumber: 42 },
  'hostile service text': {
    phase: 'error',
    delivered: 'yes',
    jobId: '<!-- docs-agent:route/x --> @octocat',
    job: agentJob({
      status: 'frozen <img src=x>' as AgentJob['status'],
      model: '`model` | [x](javascript:alert(1))',
      source: { repository: 'evil/#1', ref: '**main**' },
      prLink: 'javascript:alert(1)'
    }),
    error: 'boom <script>alert(1)</script> @octocat #1 https://evil.example',
    prompt: '<details open>\n```\n@octocat please\n    indented'
  }
}

const counts = (human: number, ai: number, total: number): VisitorCounts => ({ human, ai, total })

const PAGES = [
  '/quickstart',
  '/api-reference/authentication',
  '/guides/webhooks',
  '/api-reference/endpoints/create-user',
  '/concepts/rate-limits',
  '/sdks/typescript',
  '/guides/migrating-from-v1',
  '/changelog',
  '/sdks/python',
  '/api-reference/errors',
  '/guides/pagination',
  '/concepts/environments',
  '/integrations/slack',
  '/api-reference/endpoints/list-invoices',
  '/guides/testing-in-sandbox'
]

/** Realistic, uneven counts: a long tail, and AI share varying by page. */
export function visitorRows(n: number, paths: readonly string[] = PAGES): VisitorRow[] {
  const totals = Array.from({ length: n }, (_, i) =>
    Math.round(3400 / (1 + i * 0.55) + ((i * 37) % 23))
  ).sort((a, b) => b - a)
  return totals.map((total, i) => {
    const ai = Math.round(total * (0.08 + ((i * 13) % 29) / 100))
    const human = total - ai + Math.round(total * 0.03)
    const path = paths[i] ?? `/guides/topic-${i + 1}`
    return { path, human, ai, total }
  })
}

const WEEK = { dateFrom: '2026-11-16', dateTo: '2026-11-23' }
const WEEK_BEFORE = { dateFrom: '2026-11-09', dateTo: '2026-11-16' }

export const visitorsReport = (overrides: Partial<VisitorsReport> = {}): VisitorsReport => ({
  projectId: 'acme-docs',
  range: WEEK,
  period: { kind: 'last-week' },
  totals: counts(10_412, 2_496, 12_000),
  rows: 1_234,
  top: visitorRows(20),
  file: 'reports/visitors.csv',
  runUrl: RUN_URL,
  generatedAt: Date.UTC(2026, 10, 23, 9, 0, 4),
  requests: 5,
  ...overrides
})

function previousOf(top: readonly VisitorRow[]): NonNullable<VisitorsReport['previous']> {
  const byPath = new Map<string, VisitorCounts>()
  top.forEach((row, i) => {
    if (i === 6) return // a page that is new this week
    const factor = [0.82, 1.07, 0.95, 0.61, 1.3, 0.88, 1, 0.99, 1.42, 0.77][i % 10] ?? 1
    const total = Math.round(row.total * factor)
    byPath.set(row.path, counts(Math.round(total * 0.85), Math.round(total * 0.2), total))
  })
  return { range: WEEK_BEFORE, totals: counts(8_771, 1_802, 10_000), byPath }
}

const HUGE_PATH =
  '/api-reference/v2/organizations/{organizationId}/projects/{projectId}/environments/' +
  '{environmentId}/deployments/{deploymentId}/logs'

export const VISITORS_STATES: Record<string, () => VisitorsReport> = {
  plain: () => visitorsReport({ period: undefined }),
  'compare with the week before': () =>
    visitorsReport({ previous: previousOf(visitorsReport().top) }),
  'max-rows reached': () => visitorsReport({ rows: 500, maxRowsReached: true, file: undefined }),
  'site-url links': () => visitorsReport({ siteUrl: 'https://docs.acme.dev', top: visitorRows(8) }),
  'huge and hostile paths': () =>
    visitorsReport({
      siteUrl: 'https://docs.acme.dev',
      top: visitorRows(50, [
        HUGE_PATH,
        '/x|y\n<!-- docs-agent -->`@octocat`[a](javascript:b)#1',
        '/search?q=<script>alert(1)</script>',
        '/docs/' + 'very-long-segment-'.repeat(12) + 'end',
        '/文档/快速开始/安装指南/' + '页面'.repeat(30),
        '',
        ...PAGES
      ])
    }),
  'human and AI short of the total': () =>
    visitorsReport({ totals: counts(7_000, 2_000, 12_000), top: visitorRows(5) }),
  'no overlap': () => visitorsReport({ totals: counts(9_000, 3_000, 12_000), top: visitorRows(3) }),
  'all time, no rows': () =>
    visitorsReport({ range: {}, period: undefined, rows: 0, top: [], totals: counts(0, 0, 0) }),
  '100,000 rows in a comment': () =>
    visitorsReport({ rows: 100_000, top: visitorRows(100_000), file: undefined })
}

const visitorsRender = (report: VisitorsReport, target: Scenario['target']) =>
  renderVisitorsReport(report, {
    maxChars: target === 'comment' ? COMMENT_MAX_CHARS : SUMMARY_MAX_BYTES,
    fullDataHint: report.file ? `\`${report.file}\`` : 'the job summary'
  })

export const SCENARIOS: Scenario[] = [
  ...Object.entries(JOB_STATES).map(([name, overrides]) => ({
    group: 'Job report (live comment and summary)',
    name,
    target: 'comment' as const,
    render: () => renderJobReport(jobReport(overrides))
  })),
  ...Object.entries(VISITORS_STATES).map(([name, make]) => ({
    group: 'Visitors report (comment)',
    name,
    target: 'comment' as const,
    render: () => visitorsRender(make(), 'comment')
  }))
]

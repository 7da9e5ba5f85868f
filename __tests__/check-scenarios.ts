// The set-up check's summary in each state a first day meets: the lines come from the check's own
// line logic (checkLines, rightsLine) over probes as the simulator answers them, so the preview
// shows what a run prints. Read by report-scenarios.ts (npm run preview) and the check's tests.
import { ANALYTICS, checkLines } from '../src/check/lines.js'
import { rightsLine } from '../src/check/comment-rights.js'
import type { Probe } from '../src/check/probes.js'
import { renderCheck, type CheckReport, type ProfileEntry } from '../src/report/check.js'
import { SUMMARY_ROOM } from '../src/report/fit.js'
import { reachLine } from '../src/check/reach.js'
import { UnreachedError, type NetworkCause } from '../src/network.js'

const NOW = Date.UTC(2026, 10, 23, 9, 0)
const RANGE = { dateFrom: '2026-11-16', dateTo: '2026-11-23' }
const KEY = 'mint_0123456789abcdef'
const OPERATIONS = ANALYTICS

const ok = (entry: ProfileEntry): Probe => ({ entry })
const refused = (operation: ProfileEntry['operation'], status: number, said: string): Probe => ({
  entry: { operation, status, ms: 95 },
  error: new Error(`GET … failed: ${said}`),
  said
})

const healthy = (rateLimit?: Record<string, string>): Probe[] => [
  ok({
    operation: 'visitors',
    status: 200,
    ms: 412,
    rows: 10,
    sorted: true,
    ...(rateLimit ? { rateLimit } : {})
  }),
  ok({ operation: 'views', status: 200, ms: 388, rows: 10, sorted: true }),
  ok({
    operation: 'searches',
    status: 200,
    ms: 251,
    rows: 10,
    cursor: 'url',
    ctr: 'percent',
    sorted: true
  }),
  ok({ operation: 'feedback', status: 200, ms: 173, rows: 10 }),
  ok({ operation: 'assistant', status: 200, ms: 902, rows: 1, cursor: 'ulid' }),
  ok({ operation: 'caller-stats', status: 200, ms: 120 }),
  refused('agent', 404, '404 Not Found: Agent job not found')
]

function report(probes: Probe[], extra: Partial<CheckReport> = {}): CheckReport {
  return {
    projectId: 'acme-docs',
    baseUrl: 'https://api.mintlify.com',
    range: RANGE,
    lines: [
      ...checkLines(KEY, 'acme-docs', probes),
      rightsLine({ ok: true }, 12, { isPullRequest: false })
    ],
    profile: probes.map(p => p.entry),
    requests: probes.length,
    maxRequests: 8,
    generatedAt: NOW,
    ...extra
  }
}

/** Every request kept away by a corporate proxy that wants credentials (407). */
function behindProxy(): CheckReport {
  const proxy = {
    url: new URL('http://proxy.corp.example:8080'),
    hostPort: 'proxy.corp.example:8080'
  }
  const cause = (target: string): NetworkCause => ({
    kind: 'proxy-status',
    proxy: proxy.hostPort,
    variable: 'HTTPS_PROXY',
    target,
    status: 407
  })
  const probes: Probe[] = [...OPERATIONS, 'agent' as const].map(operation => ({
    entry: { operation, ms: 40 },
    error: new UnreachedError(cause('api.mintlify.com:443'))
  }))
  const reach = reachLine({
    proxies: { service: { proxy }, github: { proxy } },
    answered: { service: false, github: false },
    baseUrl: 'https://api.mintlify.com',
    service: cause('api.mintlify.com:443'),
    github: cause('api.github.com:443')
  })
  return {
    ...report(probes, { requests: 0 }),
    lines: [
      reach,
      ...checkLines(KEY, 'acme-docs', probes, reach.check),
      {
        check: 'GitHub token may comment',
        verdict: 'fail',
        seen: `not reached: GitHub's API at https&#58;⁠//api.github.com (through the proxy ${proxy.hostPort})`,
        because: reach.check
      }
    ]
  }
}

/** [name, render] of each state. */
export function checkStates(): [string, () => string][] {
  const plan = OPERATIONS.map(op =>
    op === 'caller-stats'
      ? refused(op, 403, '403 Forbidden: Assistant analytics is not available on your plan')
      : refused(
          op,
          403,
          `403 Forbidden: ${op[0]!.toUpperCase()}${op.slice(1)} analytics is not available on your plan`
        )
  )
  const states: [string, CheckReport][] = [
    [
      'ready, with rate-limit headers',
      report(healthy({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '93' }))
    ],
    [
      'a revoked key',
      report([refused('visitors', 401, '401 Unauthorized: Invalid or missing API key')])
    ],
    [
      'a key of another organisation',
      report([
        ...OPERATIONS.map(op => refused(op, 403, '403 Forbidden: Forbidden')),
        refused('agent', 403, '403 Forbidden: Forbidden')
      ])
    ],
    ['a wrong project id', report([refused('visitors', 404, '404 Not Found: Project not found')])],
    [
      'a plan without analytics',
      report([...plan, refused('agent', 404, '404 Not Found: Agent job not found')])
    ],
    ['behind a proxy that wants credentials (407)', behindProxy()],
    [
      'a token without pull-requests: write',
      {
        ...report(healthy()),
        lines: [
          ...checkLines(KEY, 'acme-docs', healthy()),
          rightsLine(
            { ok: false, status: 403, said: '403 Resource not accessible by integration' },
            42,
            { isPullRequest: true }
          )
        ]
      }
    ]
  ]
  return states.map(([name, r]) => [name, () => renderCheck(r, SUMMARY_ROOM)])
}

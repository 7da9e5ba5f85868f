// Scenario tier: the fault matrix. The action runs against the service simulator with one fault
// injected per run (in this process, on the simulators' jumping clock, by default; `.ci/run` runs
// every cell through the built dist/index.js on Node 24, as a runner does). Rows: the three
// request kinds (the follow-up POST, the job poll, a visitors page); columns: the network and HTTP
// faults a real service shows. Every cell states what a user must see. docs/reliability.md is this
// matrix written out.
//
// All cells run in beforeAll (a small pool, which matters when they run as child processes), then
// each cell is checked in its own test.
import { describe, it, expect, beforeAll } from '@jest/globals'
import http from 'node:http'
import net from 'node:net'
import { startService, SIM_API_KEY, generatedRow, generatedTotals } from '../sim/service.js'
import { simClock } from '../sim/clock.js'
import { runScenario, type RunResult } from './runner.js'
import { annotationsOf, errorsOf, expectNoStack } from './support.js'

type Service = Awaited<ReturnType<typeof startService>>
type Fault = NonNullable<NonNullable<Parameters<typeof startService>[0]>['faults']>[number]

type Kind = 'message' | 'job' | 'visitors'
type FaultName =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'timeout-30s'
  | '429'
  | '429-date'
  | '500'
  | '502'
  | '503'
  | 'html'
  | 'wrong-shape'
  | 'truncated'
/**
 * recovers: a GET retried to success, exit 0, correct results.
 * once: the POST was refused by the service and retried: delivered exactly once, exit 0.
 * maybe: the POST may have been taken: exit 1, "may or may not have been delivered", one POST.
 * taken: a 2xx with an odd body: the service took the POST; exit 0, one POST, no resend.
 * fails: exit 1 in bounded time, a message naming the request, the status and the service's words.
 */
type Expected = 'recovers' | 'once' | 'maybe' | 'taken' | 'fails'

interface Cell {
  kind: Kind
  fault: FaultName
  persistent: boolean
  expected: Expected
}

const PROJECT = 'proj-1'
const JOB = 'job-1'
const PROMPT = 'Document the new rate limits'
const ROWS = 600
const PAGE = 100
const FAULT_OFFSET = 200 // a page in the middle, answered while later pages are in flight
const MESSAGE_PATH = `/v2/agent/${PROJECT}/job/${JOB}/message`
const JOB_PATH = `/v2/agent/${PROJECT}/job/${JOB}`
const VISITORS_PATH = `/v1/analytics/${PROJECT}/visitors`
const REQUEST: Record<Kind, string> = {
  message: `POST ${MESSAGE_PATH}`,
  job: `GET ${JOB_PATH}`,
  visitors: `GET ${VISITORS_PATH}`
}
/** The request in words, as the run page's annotations name it (the log keeps the request). */
const OPERATION: Record<Kind, RegExp> = {
  message: /sending the follow-up/i,
  job: /reading the job/i,
  visitors: /reading the visitors analytics/i
}

const ALL_FAULTS: FaultName[] = [
  'refused',
  'reset',
  'timeout',
  '429',
  '429-date',
  '500',
  '502',
  '503',
  'html',
  'wrong-shape',
  'truncated'
]

/** The outcome users need for one transient fault (`times: 1`). */
const TRANSIENT: Record<Kind, Partial<Record<FaultName, Expected>>> = {
  message: {
    refused: 'once',
    reset: 'maybe',
    timeout: 'maybe',
    '429': 'once',
    '429-date': 'once',
    '500': 'maybe',
    '502': 'maybe',
    '503': 'once',
    html: 'taken',
    'wrong-shape': 'taken',
    truncated: 'taken'
  },
  job: {},
  visitors: {}
}
for (const kind of ['job', 'visitors'] as const) {
  for (const fault of ALL_FAULTS) TRANSIENT[kind][fault] = 'recovers'
  // With `wait-timeout: 3s` a hung request uses up all the time there is: a bounded failure.
  TRANSIENT[kind].timeout = 'fails'
  // With time to spare the hung attempt is abandoned after 30 s and retried.
  TRANSIENT[kind]['timeout-30s'] = 'recovers'
  // A well-formed answer of the wrong shape would come again: refused, naming the field, and not
  // retried (a poll after the instruction was sent polls again later instead).
  TRANSIENT[kind]['wrong-shape'] = 'fails'
}

const CELLS: Cell[] = [
  ...(['message', 'job', 'visitors'] as const).flatMap(kind =>
    Object.entries(TRANSIENT[kind]).map(([fault, expected]) => ({
      kind,
      fault: fault as FaultName,
      persistent: false,
      expected: expected
    }))
  ),
  // Persistent faults: the GETs give up in bounded time; the POST's retryable faults too.
  ...(['job', 'visitors'] as const).flatMap(kind =>
    ALL_FAULTS.map(fault => ({ kind, fault, persistent: true, expected: 'fails' as const }))
  ),
  ...(['refused', '429', '503'] as const).map(fault => ({
    kind: 'message' as const,
    fault,
    persistent: true,
    expected: 'fails' as const
  }))
]

const nameOf = (c: Cell): string =>
  `${c.kind} × ${c.fault}${c.persistent ? ' (persistent)' : ''} → ${c.expected}`

const isHang = (f: FaultName): boolean => f === 'timeout' || f === 'timeout-30s'

function waitTimeout(c: Cell): string {
  if (c.fault === 'timeout') return '3s'
  if (c.fault === 'timeout-30s') return '45s'
  return c.persistent ? '6s' : '20s'
}

/** Upper bound of a run's duration: what the wait allows plus the last attempt and start-up. */
function durationBound(c: Cell): number {
  if (c.fault === 'timeout-30s') return 40_000
  if (c.fault === 'timeout') return 8_000
  return c.persistent ? 12_000 : 15_000
}

/** The service's own `error` text in each HTTP fault, which the failure must repeat. */
const SERVICE_TEXT: Partial<Record<FaultName, string>> = {
  '429': 'Rate limit exceeded',
  '429-date': 'Rate limit exceeded',
  '500': 'Database connection lost',
  '503': 'Service temporarily unavailable'
}

/** What the failure message must say about each fault, beyond the request. */
const SAYS: Record<FaultName, RegExp[]> = {
  refused: [/connection was refused/],
  reset: [/connection was reset/],
  timeout: [/no answer in time/],
  'timeout-30s': [/no answer in time/],
  '429': [/\b429\b/, /Rate limit exceeded/],
  '429-date': [/\b429\b/, /Rate limit exceeded/],
  '500': [/\b500\b/, /Database connection lost/],
  '502': [/\b502\b/],
  '503': [/\b503\b/, /Service temporarily unavailable/],
  // A 2xx whose body is unusable: the status is part of what the user needs to know.
  html: [/\b200\b/, /not JSON/],
  'wrong-shape': [/\b200\b/, /Unexpected response/],
  truncated: [/\b200\b/, /cut off/]
}

function faultRule(c: Cell): Fault | undefined {
  const base: Fault = {
    kind: c.kind,
    times: c.persistent ? Infinity : 1,
    ...(c.kind === 'visitors' ? { offset: FAULT_OFFSET } : {}),
    // A 2xx with an odd body to the POST: the service did take the message.
    ...(c.kind === 'message' ? { processed: true } : {})
  }
  const error = (status: number): Fault => ({
    ...base,
    status,
    body: { error: SERVICE_TEXT[c.fault] ?? `unused ${status}` },
    ...(c.kind === 'message' ? { processed: false } : {})
  })
  switch (c.fault) {
    case 'refused':
      // The polls are refused, not the POST: the service goes down right after answering it.
      return c.kind === 'job'
        ? { kind: 'message', passThrough: true, thenRefuseFor: c.persistent ? 60_000 : 1500 }
        : undefined
    case 'reset':
      return { ...base, reset: 'after-read' }
    case 'timeout':
    case 'timeout-30s':
      return { ...base, hang: true }
    case '429':
      return { ...error(429), headers: { 'retry-after': '1' } }
    case '429-date':
      return {
        ...error(429),
        headers: { 'retry-after': new Date(simClock.now() + 1000).toUTCString() }
      }
    case '500':
      return error(500)
    case '502':
      // What a gateway sends: HTML, no service text.
      return {
        ...base,
        ...(c.kind === 'message' ? { processed: false } : {}),
        status: 502,
        body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
        headers: { 'content-type': 'text/html' }
      }
    case '503':
      return error(503)
    case 'html':
      return { ...base, html: true }
    case 'wrong-shape':
      return { ...base, wrongShape: true }
    case 'truncated':
      return { ...base, truncate: true }
  }
}

/** A port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

interface CellRun {
  r: RunResult
  sim: Service
}

async function runCell(c: Cell): Promise<CellRun> {
  const rule = faultRule(c)
  const sim = await startService({
    jobs: [{ id: JOB, activePolls: 1 }],
    rows: ROWS,
    faults: rule ? [rule] : []
  })
  try {
    let url = sim.url
    // Always refused, before any request could reach the service: nothing listens there.
    if (c.fault === 'refused' && c.persistent && c.kind !== 'job')
      url = `http://127.0.0.1:${await closedPort()}`
    const common = {
      'api-key': SIM_API_KEY,
      'project-id': PROJECT,
      'base-url': url,
      'poll-interval': '0.2',
      'wait-timeout': waitTimeout(c),
      comment: 'false'
    }
    const inputs =
      c.kind === 'visitors'
        ? {
            ...common,
            command: 'visitors',
            'page-size': String(PAGE),
            concurrency: '4',
            'output-file': 'rows.ndjson'
          }
        : {
            ...common,
            command: 'message',
            'job-id': JOB,
            prompt: PROMPT,
            // Without waiting there is no GET before the POST: the refusal meets the POST.
            ...(c.kind === 'message' && c.fault === 'refused' ? { wait: 'false' } : {})
          }
    // Long enough that a slow start on a loaded machine still meets the refusal; short enough
    // that the retries (backoff from 1 s, 5 attempts) outlast it.
    // A POST is sent at most 3 times: its refusal is short enough for the third attempt.
    if (c.fault === 'refused' && !c.persistent && c.kind !== 'job')
      await sim.refuseFor(c.kind === 'message' ? 1000 : 4000)
    return { r: await runScenario({ inputs, timeoutMs: 60_000 }), sim }
  } finally {
    await sim.close()
  }
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker))
}

const results = new Map<Cell, CellRun | Error>()

beforeAll(async () => {
  const run = async (c: Cell): Promise<void> => {
    try {
      results.set(c, await runCell(c))
    } catch (err) {
      results.set(c, err instanceof Error ? err : new Error(String(err)))
    }
  }
  // A refusal frees the simulator's port for a few seconds, and a simulator starting meanwhile
  // may be given it and answer in its place: those cells run alone, after the others.
  const alone = (c: Cell): boolean => c.fault === 'refused' && !c.persistent
  // Longest first, so the 30 s hangs overlap everything else.
  const order = CELLS.filter(c => !alone(c)).sort((a, b) => durationBound(b) - durationBound(a))
  await pool(order, 10, run)
  for (const c of CELLS.filter(alone)) await run(c)
}, 170_000)

function resultOf(c: Cell): CellRun {
  const res = results.get(c)
  if (res === undefined) throw new Error('cell did not run')
  if (res instanceof Error) throw res
  return res
}

const posts = (sim: Service) => sim.requests.filter(q => q.kind === 'message')
const polls = (sim: Service) => sim.requests.filter(q => q.kind === 'job')
const pages = (sim: Service) => sim.requests.filter(q => q.kind === 'visitors')
const faulted = (sim: Service) => sim.requests.filter(q => q.fault !== null)

/** Proof that the fault really happened, so a green cell is not a run that missed it. */
function expectFaultHit(c: Cell, run: CellRun): void {
  if (c.fault === 'refused') {
    if (c.persistent && c.kind !== 'job') expect(run.sim.requests).toHaveLength(0)
    else expect(run.r.stdout).toMatch(/connection was refused/)
  } else {
    expect(faulted(run.sim).length).toBeGreaterThanOrEqual(1)
    expect(faulted(run.sim).every(q => q.kind === c.kind)).toBe(true)
  }
}

/**
 * The failure names the operation in words, the status and the service's own words; the log (not
 * the annotation on the run's page) names the request.
 */
function expectClearFailure(c: Cell, r: RunResult): string {
  const errors = errorsOf(r)
  expect(errors.length).toBeGreaterThan(0)
  const text = errors.join('\n')
  expect(text).toMatch(OPERATION[c.kind])
  expect(text).not.toContain(REQUEST[c.kind])
  expect(r.stdout).toContain(REQUEST[c.kind])
  // Matched without the request line, whose query (`limit=100&offset=200`) holds numbers too.
  const said = text.replace(/\b(GET|POST) \S+/g, '')
  for (const pattern of SAYS[c.fault]) expect(said).toMatch(pattern)
  expect(text).not.toMatch(/<html/i)
  return text
}

const expectedRows = Array.from({ length: ROWS }, (_, i) => generatedRow(i))
// The service's deduplicated totals, as it answers them: not the sum of the rows.
const expectedTotals = generatedTotals(ROWS)

function checkRecovers(c: Cell, { r, sim }: CellRun): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.code).toBe(0)
  if (c.kind === 'job') {
    expect(r.outputs.status).toBe('completed')
    expect(posts(sim)).toHaveLength(1)
    expect(sim.jobs.get(JOB)?.messages).toEqual([PROMPT])
    expect(polls(sim).length).toBeGreaterThanOrEqual(2)
    return
  }
  // Visitors: every row, once, in service order; the totals as the service gave them.
  const file = r.files('rows.ndjson')
  expect(file).toBeDefined()
  const lines = (file ?? '').split('\n').filter(line => line !== '')
  expect(lines.map(line => JSON.parse(line) as unknown)).toEqual(expectedRows)
  expect(r.outputs.rows).toBe(String(ROWS))
  expect(JSON.parse(r.outputs.totals ?? 'null')).toEqual(expectedTotals)
  // A gateway's 502 is answered by asking for half the rows (contract: what the real service is
  // reported to do), and the later pages come in pieces of that size too.
  const sizes = c.fault === '502' ? [PAGE, PAGE / 2] : [PAGE]
  for (const q of pages(sim)) expect(sizes).toContain(q.limit)
  // The page that got the 502 is never asked again at the size that failed.
  if (c.fault === '502')
    expect(pages(sim).filter(q => q.offset === FAULT_OFFSET && q.limit === PAGE)).toHaveLength(1)
  for (let offset = 0; offset < ROWS; offset += PAGE)
    expect(pages(sim).some(q => q.offset === offset && q.fault === null)).toBe(true)
}

function checkOnce(c: Cell, { r, sim }: CellRun): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.code).toBe(0)
  expect(sim.jobs.get(JOB)?.messages).toEqual([PROMPT])
  // 429/503 reached the service and were refused by it; refused connections never did.
  expect(posts(sim)).toHaveLength(c.fault === 'refused' ? 1 : 2)
  // The refused cell does not wait (see runCell): its status is the POST's answer.
  expect(r.outputs.status).toBe(c.fault === 'refused' ? 'active' : 'completed')
  if (c.fault === '429') {
    expect(r.stdout).toMatch(/429 Too Many Requests: Rate limit exceeded; retrying in 1 s/)
    const [first, second] = posts(sim)
    expect(second!.time - first!.time).toBeGreaterThanOrEqual(900)
  }
}

function checkMaybe(c: Cell, { r, sim }: CellRun): void {
  expect(r.code).toBe(1)
  expect(posts(sim)).toHaveLength(1)
  // Only the GET before the POST: nothing polls an instruction that may not have arrived.
  expect(polls(sim)).toHaveLength(1)
  expect(polls(sim)[0]!.time).toBeLessThanOrEqual(posts(sim)[0]!.time)
  const text = expectClearFailure(c, r)
  expect(text).toMatch(/may or may not have been delivered/)
}

function checkTaken(c: Cell, { r, sim }: CellRun): void {
  expect(errorsOf(r)).toEqual([])
  expect(r.code).toBe(0)
  expect(posts(sim)).toHaveLength(1)
  expect(sim.jobs.get(JOB)?.messages).toEqual([PROMPT])
  expect(r.outputs.status).toBe('completed')
  // Said plainly, and not contradicted: a 2xx means the service took the message.
  expect(r.stdout).toMatch(/The service took the follow-up/)
  expect(r.stdout).not.toMatch(/may or may not have been delivered/)
}

function checkFails(c: Cell, { r, sim }: CellRun): void {
  expect(r.code).toBe(1)
  expect(r.timedOut).toBe(false)
  const text = expectClearFailure(c, r)
  if (c.kind === 'message') {
    // Only faults that prove the message was not taken are retried, so it was not delivered.
    expect(sim.jobs.get(JOB)?.messages).toEqual([])
    expect(text).not.toMatch(/may or may not have been delivered/)
  } else {
    expect(posts(sim).length).toBeLessThanOrEqual(1)
  }
  if (c.kind === 'visitors') {
    // A partial file could be mistaken for a whole export.
    expect(r.files('rows.ndjson')).toBeUndefined()
    expect(r.outputs.rows).toBeUndefined()
  }
}

const CHECKS: Record<Expected, (c: Cell, run: CellRun) => void> = {
  recovers: checkRecovers,
  once: checkOnce,
  maybe: checkMaybe,
  taken: checkTaken,
  fails: checkFails
}

function checkCell(c: Cell): void {
  const run = resultOf(c)
  expectNoStack(run.r)
  // Every request the service received is counted, retries included; refused ones never arrived.
  // An export's read-ahead pages cancelled in flight may or may not have arrived: counted, they
  // make the output an upper bound, at most concurrency - 1 above what the service saw.
  const spent = Number(run.r.outputs.requests)
  expect(spent).toBeGreaterThanOrEqual(run.sim.requests.length)
  expect(spent).toBeLessThanOrEqual(run.sim.requests.length + (c.kind === 'visitors' ? 3 : 0))
  expectFaultHit(c, run)
  expect(run.r.durationMs).toBeLessThan(durationBound(c))
  if (isHang(c.fault) && c.expected === 'fails') expect(run.r.durationMs).toBeGreaterThan(2_500)
  CHECKS[c.expected](c, run)
}

describe.each([
  ['single fault (times: 1)', CELLS.filter(c => !c.persistent)],
  ['persistent fault (times: Infinity)', CELLS.filter(c => c.persistent)]
])('fault matrix: %s', (_title, cells) => {
  it.each(cells.map(c => [nameOf(c), c] as const))('%s', (_name, c) => checkCell(c))
})

// ---------------------------------------------------------------------------------------------
// A hostile network: redirects, a 429 that asks to wait too long, deep and huge job fields.

type Target = 'other-port' | 'other-host' | 'same-url'
interface RedirectCell {
  kind: Kind
  status: 301 | 302 | 303 | 307 | 308
  target: Target
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const
const REDIRECT_CELLS: RedirectCell[] = [
  ...(['message', 'job', 'visitors'] as const).flatMap(kind =>
    REDIRECT_STATUSES.map(status => ({ kind, status, target: 'other-port' as const }))
  ),
  ...(['message', 'job', 'visitors'] as const).flatMap(kind =>
    (['other-host', 'same-url'] as const).map(target => ({ kind, status: 307 as const, target }))
  )
]

/** A second loopback server: it must never see a request, let alone the key. */
async function startWitness(): Promise<{
  port: number
  seen: string[]
  close: () => Promise<void>
}> {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    seen,
    close: () => new Promise<void>(resolve => server.close(() => resolve()))
  }
}

interface RedirectRun extends CellRun {
  witnessSeen: string[]
  location: string
}

async function runRedirect(c: RedirectCell): Promise<RedirectRun> {
  const witness = await startWitness()
  const path =
    c.kind === 'message'
      ? MESSAGE_PATH
      : c.kind === 'job'
        ? JOB_PATH
        : `${VISITORS_PATH}?limit=${PAGE}&offset=${FAULT_OFFSET}`
  // Persistent: a client that retried or followed would hit it again, or the witness.
  const rule: Fault = {
    kind: c.kind,
    times: Infinity,
    status: c.status,
    processed: false,
    ...(c.kind === 'visitors' ? { offset: FAULT_OFFSET } : {})
  }
  const sim = await startService({ jobs: [{ id: JOB, activePolls: 1 }], rows: ROWS, faults: [] })
  const host =
    c.target === 'same-url'
      ? sim.url
      : `http://${c.target === 'other-host' ? 'localhost' : '127.0.0.1'}:${witness.port}`
  const location = `${host}${path}`
  sim.setFaults([{ ...rule, headers: { location } }])
  try {
    const common = {
      'api-key': SIM_API_KEY,
      'project-id': PROJECT,
      'base-url': sim.url,
      'poll-interval': '0.2',
      'wait-timeout': '6s',
      comment: 'false'
    }
    const inputs =
      c.kind === 'visitors'
        ? {
            ...common,
            command: 'visitors',
            'page-size': String(PAGE),
            concurrency: '4',
            'output-file': 'rows.ndjson'
          }
        : { ...common, command: 'message', 'job-id': JOB, prompt: PROMPT }
    const r = await runScenario({ inputs, timeoutMs: 60_000 })
    return { r, sim, witnessSeen: witness.seen, location }
  } finally {
    await sim.close()
    await witness.close()
  }
}

interface HostileCase {
  name: string
  service: NonNullable<Parameters<typeof startService>[0]>
  inputs: Record<string, string>
  check: (run: CellRun) => void
}

const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`
const HUGE_LINK = `https://github.com/octo/docs/pull/7?${'a'.repeat(10_000_000)}`
const messageInputs = (extra: Record<string, string> = {}): Record<string, string> => ({
  command: 'message',
  'job-id': JOB,
  prompt: PROMPT,
  'poll-interval': '0.2',
  'wait-timeout': '20s',
  comment: 'false',
  ...extra
})
const allOutputsBytes = (r: RunResult): number =>
  Object.values(r.outputs).reduce((n, v) => n + Buffer.byteLength(v), 0)
const resetPattern = /resets at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/

const HOSTILE: HostileCase[] = [
  {
    name: 'a completed job carrying a field 5,000 levels deep ends cleanly',
    service: {
      jobs: [{ id: JOB, activePolls: 0 }],
      faults: [
        {
          // Past the GET before the POST: the deep job arrives once the instruction is taken.
          kind: 'job',
          after: 1,
          times: Infinity,
          status: 200,
          body: `{"id":"${JOB}","status":"completed","prLink":null,"deep":${DEEP}}`
        }
      ]
    },
    inputs: messageInputs({ 'wait-timeout': '6s' }),
    check: ({ r, sim }) => {
      expect(r.code).toBe(1)
      expect(r.timedOut).toBe(false)
      expect(r.stdout).toMatch(/nested too deeply/)
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/call stack/i)
      expect(posts(sim)).toHaveLength(1)
    }
  },
  {
    name: 'a 10 MB prLink and a 2 MB field: pr-link empty with a warning, outputs bounded',
    service: {
      jobs: [{ id: JOB, activePolls: 1, prLink: HUGE_LINK, extra: { transcript: 'x'.repeat(2e6) } }]
    },
    inputs: messageInputs(),
    check: ({ r }) => {
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      expect(r.outputs['pr-link']).toBe('')
      expect(r.stdout).toMatch(/::warning::The job's prLink is 100\d{5} characters long/)
      expect(Buffer.byteLength(r.outputs.job ?? '')).toBeLessThanOrEqual(256 * 1024)
      expect(allOutputsBytes(r)).toBeLessThan(300 * 1024)
      expect(Buffer.byteLength(r.summary)).toBeLessThan(1024 * 1024)
    }
  },
  {
    name: 'a status the service added later is accepted and polled on',
    service: {
      jobs: [{ id: JOB, activePolls: 2 }],
      faults: [{ kind: 'job', times: 1, status: 200, body: { id: JOB, status: 'queued' } }]
    },
    inputs: messageInputs(),
    check: ({ r, sim }) => {
      expect(errorsOf(r)).toEqual([])
      expect(r.code).toBe(0)
      expect(r.outputs.status).toBe('completed')
      expect(polls(sim).length).toBeGreaterThanOrEqual(2)
    }
  },
  {
    name: '429 with Retry-After 900 on the POST, wait-timeout 60s: ends at once, one request',
    service: {
      jobs: [{ id: JOB }],
      faults: [
        {
          kind: 'message',
          times: Infinity,
          status: 429,
          body: { error: 'Rate limit exceeded' },
          headers: { 'retry-after': '900' }
        }
      ]
    },
    inputs: messageInputs({ 'wait-timeout': '60s' }),
    check: ({ r, sim }) => {
      expect(r.code).toBe(1)
      expect(r.durationMs).toBeLessThan(20_000)
      // The GET before the POST, then the POST once: nothing after the 429.
      expect(sim.requests.map(q => q.method)).toEqual(['GET', 'POST'])
      const text = errorsOf(r).join('\n')
      expect(text).toMatch(resetPattern)
      expect(text).toMatch(/Rate limit exceeded/)
      // The reset time is the answer's time plus 900 s, to the second (shown rounded down).
      const said = resetPattern.exec(text)![0].slice(10, 29).replace(' ', 'T')
      const at = Date.parse(`${said}Z`)
      const answered = sim.startedAt + (sim.requests[1]?.answeredAt ?? NaN)
      expect(at).toBeGreaterThan(answered + 900_000 - 2_000)
      expect(at).toBeLessThan(answered + 900_000 + 1_000)
      expect(r.outputs.requests).toBe('2')
    }
  },
  {
    name: '429 with Retry-After 900 on a page, wait-timeout 60s: no page requested after it',
    service: {
      rows: ROWS,
      faults: [
        {
          kind: 'visitors',
          offset: FAULT_OFFSET,
          times: Infinity,
          status: 429,
          body: { error: 'Rate limit exceeded' },
          headers: { 'retry-after': '900' }
        }
      ]
    },
    inputs: {
      command: 'visitors',
      'page-size': String(PAGE),
      concurrency: '1',
      'wait-timeout': '60s',
      'output-file': 'rows.ndjson'
    },
    check: ({ r, sim }) => {
      expect(r.code).toBe(1)
      expect(r.durationMs).toBeLessThan(20_000)
      expect(errorsOf(r).join('\n')).toMatch(resetPattern)
      expect(pages(sim).filter(q => q.offset === FAULT_OFFSET)).toHaveLength(1)
      expect(pages(sim).filter(q => (q.offset ?? 0) > FAULT_OFFSET)).toEqual([])
      expect(r.files('rows.ndjson')).toBeUndefined()
      expect(r.outputs.requests).toBe(String(sim.requests.length))
    }
  }
]

async function runHostile(h: HostileCase): Promise<CellRun> {
  const sim = await startService(h.service)
  try {
    const r = await runScenario({
      inputs: { 'api-key': SIM_API_KEY, 'project-id': PROJECT, 'base-url': sim.url, ...h.inputs },
      timeoutMs: 60_000
    })
    return { r, sim }
  } finally {
    await sim.close()
  }
}

const redirectResults = new Map<RedirectCell, RedirectRun | Error>()
const hostileResults = new Map<HostileCase, CellRun | Error>()

describe('a hostile network', () => {
  beforeAll(async () => {
    const jobs: (() => Promise<void>)[] = [
      ...REDIRECT_CELLS.map(c => async () => {
        redirectResults.set(c, await runRedirect(c).catch((e: Error) => e))
      }),
      ...HOSTILE.map(h => async () => {
        hostileResults.set(h, await runHostile(h).catch((e: Error) => e))
      })
    ]
    await pool(jobs, 6, job => job())
  }, 170_000)

  it.each(REDIRECT_CELLS.map(c => [`${c.kind} × ${c.status} to ${c.target}`, c] as const))(
    'redirect: %s → fails at once, not followed, not retried',
    (_name, c) => {
      const res = redirectResults.get(c)
      if (res === undefined || res instanceof Error) throw res ?? new Error('did not run')
      const { r, sim, witnessSeen, location } = res
      expectNoStack(r)
      expect(r.code).toBe(1)
      expect(r.timedOut).toBe(false)
      expect(r.durationMs).toBeLessThan(15_000)
      // The key goes to the base-url origin and nowhere else.
      expect(witnessSeen).toEqual([])
      // One request met the redirect; the client neither retried it nor followed it.
      expect(faulted(sim)).toHaveLength(1)
      expect(r.stdout).not.toMatch(/retrying in/)
      const text = [...errorsOf(r), ...annotationsOf(r, 'warning')].join('\n')
      expect(text).toMatch(OPERATION[c.kind])
      expect(r.stdout).toContain(`${REQUEST[c.kind]}`)
      expect(text).toContain(`failed: ${c.status}`)
      expect(text).toContain(`to ${location}`)
      expect(text).toContain('check `base-url`')
      if (c.kind === 'visitors') {
        // Pages read ahead and cancelled may or may not have reached the service: the output
        // counts them, an upper bound on what was spent (at most concurrency - 1 more).
        const spent = Number(r.outputs.requests)
        expect(spent).toBeGreaterThanOrEqual(sim.requests.length)
        expect(spent).toBeLessThanOrEqual(sim.requests.length + 3)
      } else expect(r.outputs.requests).toBe(String(sim.requests.length))
      if (c.kind === 'message') {
        expect(posts(sim)).toHaveLength(1)
        // The one GET allowed is the check before the POST (contract: Completion); none after.
        // In the order the service received them (two may share a millisecond).
        const posted = sim.requests.findIndex(q => q.kind === 'message')
        expect(sim.requests.slice(0, posted).filter(q => q.kind === 'job')).toHaveLength(1)
        expect(sim.requests.slice(posted).filter(q => q.kind === 'job')).toHaveLength(0)
        expect(text).toMatch(/may or may not have been delivered/)
      } else {
        expect(text).not.toMatch(/may or may not have been delivered/)
      }
      if (c.kind === 'visitors') {
        expect(r.files('rows.ndjson')).toBeUndefined()
        expect(r.outputs.rows).toBeUndefined()
      }
    }
  )

  it.each(HOSTILE.map(h => [h.name, h] as const))('%s', (_name, h) => {
    const res = hostileResults.get(h)
    if (res === undefined || res instanceof Error) throw res ?? new Error('did not run')
    expectNoStack(res.r)
    h.check(res)
  })
})

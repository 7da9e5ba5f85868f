// Unit tier, and a process sample: fuzzing readSettings: whatever a workflow passes as inputs
// (unicode, control characters, huge strings, numbers, whitespace), reading them either yields
// settings that keep every invariant the rest of the action relies on, or fails with an InputError
// that names a real input. It never throws anything else and never hangs. Then a sample of invalid
// input sets goes through the built action: each fails the step, names the same input, and sends
// nothing.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { InputError, isLoopback } from '../src/inputs.js'
import {
  PERMISSIONS,
  readSettings,
  type AnalyticsSettings,
  type JobSettings,
  type Settings
} from '../src/settings.js'
import { FINAL_STATUSES } from '../src/service/schema.js'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { runAction, annotations, parseInputs } from '../sim/run-action.js'

const INPUT_NAMES = [
  ...parseInputs(fs.readFileSync(path.join(import.meta.dirname, '..', 'action.yml'), 'utf8')).keys()
]

/** A workflow that passes every input valid, to start from. */
const VALID: Record<string, string> = {
  command: 'message',
  'api-key': 'mint_abc123',
  'project-id': 'proj-1',
  'base-url': 'https://api.example.com',
  'job-id': 'job-1',
  prompt: 'Fix the typo',
  wait: 'true',
  'wait-timeout': '30m',
  'poll-interval': '5s',
  'job-path': '/v2/agent/{projectId}/job/{id}',
  'fail-on-status': 'failed',
  'date-from': '',
  'date-to': '',
  period: '',
  'page-size': '250',
  'max-rows': '0',
  concurrency: '4',
  'output-file': '',
  top: '20',
  compare: 'false',
  summary: 'true',
  comment: 'auto',
  'issue-number': '',
  'comment-mode': 'upsert',
  'github-token': 'ghs_x',
  trigger: '/docs-agent',
  permission: 'write'
}

/** Values that are valid for each input, so generated sets often pass and reach the invariants. */
const GOOD: Record<string, string[]> = {
  command: ['message', 'visitors'],
  'api-key': ['mint_abc123', 'key_X', 'a_b'],
  'project-id': ['proj-1', 'p r/o j', 'ünïcode'],
  'base-url': [
    'https://api.example.com',
    'https://api.example.com/prefix/',
    'http://127.0.0.1:8080',
    'http://localhost/api',
    'http://[::1]:3000',
    'HTTPS://API.EXAMPLE.COM'
  ],
  'job-id': ['', 'job-1', 'a/b c'],
  prompt: ['', 'Fix it', '  multi\nline  '],
  wait: ['true', 'false', 'True', 'FALSE'],
  'wait-timeout': ['30m', '90s', '2h', '10', '0.5', '72h', '500ms'],
  'poll-interval': ['5s', '0', '0.2', '1m'],
  'job-path': ['/v2/agent/{projectId}/job/{id}', '/{id}'],
  'fail-on-status': ['failed', '', 'failed, archived', 'completed,'],
  // Years before 100 have a test of their own below.
  'date-from': ['', '2026-01-01', '2026-01-01T00:00:00Z', '0100-03-01', '9999-12-31'],
  'date-to': ['', '2026-02-01', '2026-02-01T12:30:00+02:00', '9999-12-31T23:59:59Z'],
  period: ['', '7d', '366d', 'last-week', 'last-month', 'yesterday'],
  'page-size': ['250', '1', '100', '007'],
  'max-rows': ['0', '1000', '9007199254740991'],
  concurrency: ['4', '1', '16'],
  'output-file': ['', 'rows.ndjson', 'out/v.CSV', '/abs/v.json'],
  top: ['20', '1', '10000'],
  compare: ['false', 'true'],
  summary: ['true', 'false'],
  comment: ['auto', 'true', 'false'],
  'issue-number': ['', '12', '#12'],
  'comment-mode': ['upsert', 'create'],
  'github-token': ['ghs_x', ''],
  trigger: ['/docs-agent', '!go'],
  permission: [...PERMISSIONS]
}

const CONTROL = [...Array(32).keys(), 127].map(c => String.fromCharCode(c))
const controlChar = fc.constantFrom(...CONTROL)
const whitespace = fc.constantFrom(' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff')
const huge = fc
  .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 10_000, max: 50_000 }))
  .map(([s, n]) => s.repeat(Math.ceil(n / s.length)))
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('1e3', '0x10', '-1', '+5', '1_000', 'Infinity', 'NaN', '0.0', '00', '٣', '１２')
)

/** Anything at all, in the shapes most likely to break a parser. */
const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  { weight: 2, arbitrary: numberText },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(whitespace, controlChar), { maxLength: 5 }).map(a => a.join(''))
  },
  { weight: 1, arbitrary: huge }
)

/** A valid value with a stray character added, the commonest real mistake. */
const nearMiss = (good: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...good),
      fc.oneof(controlChar, whitespace, fc.string({ minLength: 1, maxLength: 2 })),
      fc.boolean()
    )
    .map(([value, extra, before]) => (before ? extra + value : value + extra))

const inputValue = (name: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(GOOD[name] ?? [''])) },
    { weight: 2, arbitrary: nearMiss(GOOD[name] ?? ['']) },
    { weight: 2, arbitrary: anyText }
  )

/** Valid values for every input, then zero to four of them replaced by anything at all. */
const inputSet = fc
  .tuple(
    fc.record(
      Object.fromEntries(INPUT_NAMES.map(name => [name, fc.constantFrom(...(GOOD[name] ?? ['']))]))
    ),
    fc.uniqueArray(fc.constantFrom(...INPUT_NAMES), { maxLength: 4 })
  )
  .chain(([good, names]) =>
    fc
      .tuple(...names.map(name => inputValue(name)))
      .map(values => ({ ...good, ...Object.fromEntries(names.map((n, i) => [n, values[i]!])) }))
  )

const context = fc.record({
  now: fc.date({
    min: new Date('1971-01-01T00:00:00Z'),
    max: new Date('2200-01-01T00:00:00Z'),
    noInvalidDate: true
  }),
  workspace: fc.constantFrom('/home/runner/work/docs/docs', '/ws'),
  commentEvent: fc.boolean()
})

/** How run() reads inputs: trimmed, except the key, which is checked exactly as given. */
const getter =
  (inputs: Record<string, string>) =>
  (name: string): string => {
    const raw = inputs[name] ?? ''
    return name === 'api-key' ? raw : raw.trim()
  }

type Outcome = { ok: true; settings: Settings } | { ok: false; error: InputError }

function read(inputs: Record<string, string>, ctx: Parameters<typeof readSettings>[1]): Outcome {
  const started = performance.now()
  try {
    return { ok: true, settings: readSettings(getter(inputs), ctx) }
  } catch (error) {
    // Anything but an InputError is a crash the user would see as a stack-less mystery.
    if (!(error instanceof InputError)) throw error
    return { ok: false, error }
  } finally {
    // Never hangs: no input makes reading take long (no catastrophic regex backtracking).
    expect(performance.now() - started).toBeLessThan(500)
  }
}

function expectGoodInputError(error: InputError): void {
  expect(INPUT_NAMES).toContain(error.input)
  expect(error.message).toContain(`\`${error.input}\``)
}

const DAY_MS = 86_400_000
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL_RE = /[\u0000-\u001f\u007f]/

function expectInvariants(
  settings: Settings,
  inputs: Record<string, string>,
  commentEvent: boolean
): void {
  // Every input is read and checked whatever the command: look at each field as it was read.
  const s = settings as Omit<JobSettings, 'command'> & Omit<AnalyticsSettings, 'command'> & Settings
  expect(['message', 'visitors']).toContain(s.command)
  expect(s.apiKey).not.toBe('')
  expect(s.apiKey).not.toMatch(/\s/)
  expect(s.apiKey).not.toMatch(CONTROL_RE)
  expect(s.projectId).not.toBe('')
  expect(s.projectId).not.toMatch(CONTROL_RE)
  expect(s.jobId).not.toMatch(CONTROL_RE)

  const url = new URL(s.baseUrl)
  expect(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))).toBe(
    true
  )
  expect(url.username + url.password + url.search + url.hash).toBe('')
  expect(s.baseUrl).not.toMatch(/\/$/)

  for (const [value, min, max] of [
    [s.pageSize, 1, 250],
    [s.concurrency, 1, 16],
    [s.maxRows, 0, Number.MAX_SAFE_INTEGER],
    [s.top, 1, 10_000]
  ] as const) {
    expect(Number.isSafeInteger(value)).toBe(true)
    expect(value).toBeGreaterThanOrEqual(min)
    expect(value).toBeLessThanOrEqual(max)
  }
  expect(Number.isFinite(s.waitTimeoutMs)).toBe(true)
  expect(s.waitTimeoutMs).toBeGreaterThan(0)
  expect(s.waitTimeoutMs).toBeLessThanOrEqual(72 * 3_600_000)
  expect(Number.isFinite(s.pollIntervalMs)).toBe(true)
  expect(s.pollIntervalMs).toBeGreaterThanOrEqual(0)
  expect(s.pollIntervalMs).toBeLessThanOrEqual(72 * 3_600_000)
  expect(s.jobPath.startsWith('/') && s.jobPath.includes('{id}')).toBe(true)
  for (const status of s.failOnStatus) expect(FINAL_STATUSES).toContain(status)
  expect(s.trigger).not.toBe('')
  expect(s.trigger).not.toMatch(/\s/)
  expect(PERMISSIONS).toContain(s.permission)
  expect(['true', 'false', 'auto']).toContain(s.comment)
  expect(['upsert', 'create']).toContain(s.commentMode)
  if (s.comment === 'true') expect(s.githubToken).not.toBe('')
  if (s.issueNumber !== undefined) {
    expect(Number.isSafeInteger(s.issueNumber)).toBe(true)
    expect(s.issueNumber).toBeGreaterThanOrEqual(1)
  }
  if (s.outputFile) {
    expect(path.isAbsolute(s.outputFile.absolute)).toBe(true)
    expect(path.extname(s.outputFile.path).slice(1).toLowerCase()).toBe(s.outputFile.format)
  }

  if (s.command === 'message' && !commentEvent) {
    expect(s.jobId).not.toBe('')
    expect(s.prompt.trim()).not.toBe('')
  }
  if (s.command === 'visitors') {
    const { dateFrom, dateTo } = s.range
    if (s.period) expect(inputs['date-from']?.trim() + (inputs['date-to']?.trim() ?? '')).toBe('')
    for (const d of [dateFrom, dateTo])
      if (d !== undefined) expect(Number.isNaN(Date.parse(d))).toBe(false)
    if (dateFrom !== undefined && dateTo !== undefined)
      expect(Date.parse(dateTo)).toBeGreaterThan(Date.parse(dateFrom))
    if (s.compare) {
      expect(s.previous).toBeDefined()
      const p = s.previous!
      expect(Number.isNaN(Date.parse(p.dateFrom))).toBe(false)
      expect(Number.isNaN(Date.parse(p.dateTo))).toBe(false)
      expect(Date.parse(p.dateTo)).toBeGreaterThan(Date.parse(p.dateFrom))
      // The previous period ends where this one starts (give or take a zone offset's form).
      expect(Math.abs(Date.parse(p.dateTo) - Date.parse(dateFrom!))).toBeLessThan(DAY_MS)
    }
  }
}

describe('readSettings under fuzzing', () => {
  it('never throws anything but an InputError naming a real input; valid settings keep the invariants', () => {
    let valid = 0
    fc.assert(
      fc.property(inputSet, context, (inputs, ctx) => {
        const outcome = read(inputs, ctx)
        if (outcome.ok) {
          valid++
          expectInvariants(outcome.settings, inputs, ctx.commentEvent)
        } else expectGoodInputError(outcome.error)
      }),
      { numRuns: 3000 }
    )
    // The generator reaches the valid side often enough for the invariants to be exercised.
    expect(valid).toBeGreaterThan(20)
  })

  it('one input at a time: any text for one input, the others valid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INPUT_NAMES), anyText, context, (name, value, ctx) => {
        const inputs = { ...VALID, command: 'visitors', [name]: value }
        const outcome = read(inputs, ctx)
        if (outcome.ok) expectInvariants(outcome.settings, inputs, ctx.commentEvent)
        else {
          expectGoodInputError(outcome.error)
          // With the others valid, the error names the input that was changed, or one tied to it.
          expect(outcome.error.input).toBeDefined()
        }
      }),
      { numRuns: 3000 }
    )
  })

  it('huge inputs are read quickly', () => {
    const big = 'a'.repeat(5_000_000)
    for (const name of INPUT_NAMES) {
      const outcome = read(
        { ...VALID, [name]: big },
        {
          now: new Date(),
          workspace: '/ws',
          commentEvent: false
        }
      )
      if (!outcome.ok) expectGoodInputError(outcome.error)
    }
  })

  it('years before 100 are read as written (not as 19xx)', () => {
    const ctx = { now: new Date('2026-11-18T10:00:00Z'), workspace: '/ws', commentEvent: false }
    const base = { ...VALID, command: 'visitors' }
    // 0099 is before 1950: this range is valid and must be accepted.
    const accepted = read({ ...base, 'date-from': '0099-01-01', 'date-to': '1950-01-01' }, ctx)
    expect(accepted.ok ? 'accepted' : accepted.error.message).toBe('accepted')
    // The period before a range starting in year 1 must still end where that range starts.
    const r = read(
      {
        ...base,
        'date-from': '0001-01-01',
        'date-to': '2026-02-01T12:30:00+02:00',
        compare: 'true'
      },
      ctx
    )
    if (r.ok) expectInvariants(r.settings, base, false)
  })

  it('an error quotes a bounded excerpt of a huge value, not all of it', () => {
    // The message becomes a log line and an annotation: megabytes of input do not belong there.
    const big = 'x'.repeat(100_000)
    for (const name of INPUT_NAMES) {
      const outcome = read(
        { ...VALID, command: 'visitors', [name]: big },
        {
          now: new Date(),
          workspace: '/ws',
          commentEvent: false
        }
      )
      if (!outcome.ok)
        expect({ name, length: outcome.error.message.length }).toEqual({
          name,
          length: Math.min(outcome.error.message.length, 2_000)
        })
    }
  })
})

describe('invalid inputs through the built action', () => {
  it('30 random invalid sets: exit 1, the same input named, nothing sent', async () => {
    const sim = await startService({ jobs: '*', rows: 10 })
    try {
      const base = { ...VALID, 'api-key': SIM_API_KEY, 'base-url': sim.url, comment: 'false' }
      const ctx = { now: new Date(), workspace: '/ws', commentEvent: false }
      // Change one to three inputs of a valid set; keep the sets the settings reader refuses.
      const changed = fc
        .uniqueArray(fc.constantFrom(...INPUT_NAMES), { minLength: 1, maxLength: 3 })
        .chain(names =>
          fc
            .tuple(...names.map(name => fc.oneof(nearMiss(GOOD[name] ?? ['']), anyText)))
            .map(values => ({
              ...base,
              ...Object.fromEntries(names.map((n, i) => [n, values[i]!]))
            }))
        )
        .filter(inputs => !Object.values(inputs).some(v => v.includes('\0') || v.length > 20_000))
        .filter(inputs => !read(inputs, ctx).ok)
      const sets = fc.sample(changed, { numRuns: 30, seed: 4242 })
      expect(sets).toHaveLength(30)

      const runOne = async (inputs: Record<string, string>): Promise<void> => {
        const expected = read(inputs, ctx)
        const r = await runAction({ inputs, timeoutMs: 20_000 })
        const errors = annotations(r.stdout).filter(a => a.command === 'error')
        const context = `inputs ${JSON.stringify(inputs)}\nstdout ${r.stdout}`
        expect({ code: r.code, context }).toEqual({ code: 1, context })
        expect(errors).toHaveLength(1)
        if (!expected.ok) expect(errors[0]?.message).toContain(`Input \`${expected.error.input}\``)
        expect(r.stdout + r.stderr).not.toMatch(/^ {4}at /m)
      }
      let next = 0
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < sets.length) await runOne(sets[next++]!)
        })
      )
      expect(sim.requests).toHaveLength(0)
    } finally {
      await sim.close()
    }
  }, 90_000)
})

// Unit tier: fuzzing readSettings: whatever a workflow passes as inputs (unicode, control
// characters, huge strings, numbers, whitespace), reading them either yields settings that keep
// every invariant the rest of the action relies on, or fails with an InputError that names a real
// input. It never throws anything else and never hangs. A sample of invalid sets run as the action
// is in settings-invalid.int.test.ts (scenario tier).
import { describe, it, expect } from '@jest/globals'
import path from 'node:path'
import fc from 'fast-check'
import { isLoopback } from '../src/inputs.js'
import {
  PERMISSIONS,
  type AnalyticsSettings,
  type JobSettings,
  type Settings
} from '../src/settings.js'
import { FINAL_STATUSES } from '../src/service/schema.js'
import {
  GOOD,
  INPUT_NAMES,
  VALID,
  anyText,
  expectGoodInputError,
  nearMiss,
  read
} from './settings-inputs.js'

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

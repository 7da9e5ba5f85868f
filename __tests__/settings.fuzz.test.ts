// Unit tier: fuzzing readSettings: whatever a workflow passes as inputs (unicode, control
// characters, huge strings, numbers, whitespace), reading them either yields settings that keep
// every invariant the rest of the action relies on, or fails with an InputError that names a real
// input. It never throws anything else and never hangs. A sample of invalid sets run as the action
// is in settings-invalid.int.test.ts (scenario tier).
import { describe, it, expect } from '@jest/globals'
import path from 'node:path'
import fc from 'fast-check'
import { isLoopback } from '../src/proxy.js'
import {
  PERMISSIONS,
  type AnalyticsSettings,
  type JobSettings,
  type Settings
} from '../src/settings/settings.js'
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

/**
 * The invariants a valid read keeps, each checked by name: the ones it breaks are returned, and
 * the property expects none (one `expect` a run: jest's costs about 50 µs a call, and 6,000 runs
 * of some 40 checks each made this file the slowest of the unit tier).
 */
function brokenInvariants(
  settings: Settings,
  inputs: Record<string, string>,
  commentEvent: boolean
): string[] {
  const broken: string[] = []
  const keep = (ok: boolean, invariant: string): void => {
    if (!ok) broken.push(invariant)
  }
  // Every input is read and checked whatever the command: look at each field as it was read.
  const s = settings as Omit<JobSettings, 'command'> & Omit<AnalyticsSettings, 'command'> & Settings
  keep(['message', 'visitors'].includes(s.command), 'command is message or visitors')
  keep(s.apiKey !== '' && !/\s/.test(s.apiKey) && !CONTROL_RE.test(s.apiKey), 'apiKey is one word')
  keep(
    s.projectId !== '' && !CONTROL_RE.test(s.projectId),
    'projectId is set, no control characters'
  )
  keep(!CONTROL_RE.test(s.jobId), 'jobId has no control characters')

  const url = new URL(s.baseUrl)
  keep(
    url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)),
    'baseUrl is https, or http on loopback'
  )
  keep(
    url.username + url.password + url.search + url.hash === '',
    'baseUrl has no credentials, query, fragment'
  )
  keep(!s.baseUrl.endsWith('/'), 'baseUrl has no trailing slash')

  for (const [name, value, min, max] of [
    ['pageSize', s.pageSize, 1, 250],
    ['concurrency', s.concurrency, 1, 16],
    ['maxRows', s.maxRows, 0, Number.MAX_SAFE_INTEGER],
    ['top', s.top, 1, 10_000]
  ] as const)
    keep(Number.isSafeInteger(value) && value >= min && value <= max, `${name} in ${min}..${max}`)
  keep(
    Number.isFinite(s.waitTimeoutMs) && s.waitTimeoutMs > 0 && s.waitTimeoutMs <= 72 * 3_600_000,
    'waitTimeoutMs in (0, 72 h]'
  )
  keep(
    Number.isFinite(s.pollIntervalMs) &&
      s.pollIntervalMs >= 0 &&
      s.pollIntervalMs <= 72 * 3_600_000,
    'pollIntervalMs in [0, 72 h]'
  )
  keep(
    s.jobPath.startsWith('/') && s.jobPath.includes('{id}'),
    'jobPath starts with / and has {id}'
  )
  keep(
    s.failOnStatus.every(status => FINAL_STATUSES.includes(status)),
    'failOnStatus are final statuses'
  )
  keep(s.trigger !== '' && !/\s/.test(s.trigger), 'trigger is one word')
  keep(PERMISSIONS.includes(s.permission), 'permission is a permission')
  keep(['true', 'false', 'auto'].includes(s.comment), 'comment is true, false or auto')
  keep(['upsert', 'create'].includes(s.commentMode), 'commentMode is upsert or create')
  keep(s.comment !== 'true' || s.githubToken !== '', 'comment true has a githubToken')
  if (s.issueNumber !== undefined)
    keep(Number.isSafeInteger(s.issueNumber) && s.issueNumber >= 1, 'issueNumber is 1 or more')
  if (s.outputFile) {
    keep(path.isAbsolute(s.outputFile.absolute), 'outputFile.absolute is absolute')
    const ext = path.extname(s.outputFile.path).slice(1).toLowerCase()
    keep(ext === s.outputFile.format, 'outputFile.format is its extension')
  }

  if (s.command === 'message' && !commentEvent)
    keep(s.jobId !== '' && s.prompt.trim() !== '', 'a message has a jobId and a prompt')
  if (s.command === 'visitors') broken.push(...brokenRange(s, inputs))
  return broken
}

/** The invariants of a visitors range, and of the period before it (`compare`). */
function brokenRange(
  s: Omit<AnalyticsSettings, 'command'>,
  inputs: Record<string, string>
): string[] {
  const broken: string[] = []
  const keep = (ok: boolean, invariant: string): void => {
    if (!ok) broken.push(invariant)
  }
  const { dateFrom, dateTo } = s.range
  if (s.period)
    keep(
      inputs['date-from']?.trim() + (inputs['date-to']?.trim() ?? '') === '',
      'period has no dates'
    )
  for (const d of [dateFrom, dateTo])
    if (d !== undefined) keep(!Number.isNaN(Date.parse(d)), 'range dates parse')
  if (dateFrom !== undefined && dateTo !== undefined)
    keep(Date.parse(dateTo) > Date.parse(dateFrom), 'range ends after it starts')
  if (s.compare) {
    const p = s.previous
    keep(p !== undefined, 'compare has a previous period')
    if (!p) return broken
    keep(
      !Number.isNaN(Date.parse(p.dateFrom)) && !Number.isNaN(Date.parse(p.dateTo)),
      'previous dates parse'
    )
    keep(Date.parse(p.dateTo) > Date.parse(p.dateFrom), 'previous ends after it starts')
    // The previous period ends where this one starts (give or take a zone offset's form).
    keep(
      Math.abs(Date.parse(p.dateTo) - Date.parse(dateFrom!)) < DAY_MS,
      'previous ends where the range starts'
    )
  }
  return broken
}

describe('readSettings under fuzzing', () => {
  it('never throws anything but an InputError naming a real input; valid settings keep the invariants', () => {
    let valid = 0
    fc.assert(
      fc.property(inputSet, context, (inputs, ctx) => {
        const outcome = read(inputs, ctx)
        if (outcome.ok) {
          valid++
          expect(brokenInvariants(outcome.settings, inputs, ctx.commentEvent)).toEqual([])
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
        if (outcome.ok)
          expect(brokenInvariants(outcome.settings, inputs, ctx.commentEvent)).toEqual([])
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
    if (r.ok) expect(brokenInvariants(r.settings, base, false)).toEqual([])
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

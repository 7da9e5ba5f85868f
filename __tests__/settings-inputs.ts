// Test support: the inputs a workflow may pass, valid and not, for the settings fuzz test (unit
// tier) and the sample of invalid sets run as the action (scenario tier,
// settings-invalid.int.test.ts): one generator, so both tiers refuse the same shapes.
import { expect } from '@jest/globals'
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { InputError } from '../src/errors.js'
import { PERMISSIONS, readSettings, type Settings } from '../src/settings/settings.js'
import { parseInputs } from '../sim/run-action.js'
export const INPUT_NAMES = [
  ...parseInputs(fs.readFileSync(path.join(import.meta.dirname, '..', 'action.yml'), 'utf8')).keys()
]

/** A workflow that passes every input valid, to start from. */
export const VALID: Record<string, string> = {
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
export const GOOD: Record<string, string[]> = {
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

export const CONTROL = [...Array(32).keys(), 127].map(c => String.fromCharCode(c))
export const controlChar = fc.constantFrom(...CONTROL)
export const whitespace = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff'
)
export const huge = fc
  .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 10_000, max: 50_000 }))
  .map(([s, n]) => s.repeat(Math.ceil(n / s.length)))
export const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('1e3', '0x10', '-1', '+5', '1_000', 'Infinity', 'NaN', '0.0', '00', '٣', '１２')
)

/** Anything at all, in the shapes most likely to break a parser. */
export const anyText = fc.oneof(
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
export const nearMiss = (good: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...good),
      fc.oneof(controlChar, whitespace, fc.string({ minLength: 1, maxLength: 2 })),
      fc.boolean()
    )
    .map(([value, extra, before]) => (before ? extra + value : value + extra))

/** How run() reads inputs: trimmed, except the key, which is checked exactly as given. */
export const getter =
  (inputs: Record<string, string>) =>
  (name: string): string => {
    const raw = inputs[name] ?? ''
    return name === 'api-key' ? raw : raw.trim()
  }

export type Outcome = { ok: true; settings: Settings } | { ok: false; error: InputError }

export function read(
  inputs: Record<string, string>,
  ctx: Parameters<typeof readSettings>[1]
): Outcome {
  const started = performance.now()
  try {
    return { ok: true, settings: readSettings(getter(inputs), ctx) }
  } catch (error) {
    // Anything but an InputError is a crash the user would see as a stack-less mystery.
    if (!(error instanceof InputError)) throw error
    return { ok: false, error }
  } finally {
    // Never hangs: no input makes reading take long (no catastrophic regex backtracking). A
    // linear read of 5 MB takes milliseconds even on a busy machine; backtracking takes minutes,
    // so the bound is far from both (no race with a slow runner).
    // The matcher only when the check fails: in a fuzz of thousands of reads, expect() itself
    // (a matcher object and an Error each call) cost more than the read.
    const took = performance.now() - started
    if (!(took < 10_000)) expect(took).toBeLessThan(10_000)
  }
}

export function expectGoodInputError(error: InputError): void {
  // The matchers only when a check fails, as in read().
  const named = `\`${error.input}\``
  if (!INPUT_NAMES.includes(error.input)) expect(INPUT_NAMES).toContain(error.input)
  if (!error.message.includes(named)) expect(error.message).toContain(named)
}

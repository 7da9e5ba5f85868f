// Scenario tier (__tests__/runner.ts): a sample of invalid input sets, drawn by the settings fuzz
// test's generators, run as the action: each fails the step with one error naming the input the
// settings reader names, shows no stack, and sends nothing. In process by default; through the
// built action (a child process each) with ACTION_RUNNER=process, hence a small sample.
import { describe, it, expect } from '@jest/globals'
import fc from 'fast-check'
import { startService, SIM_API_KEY } from '../sim/service.js'
import { annotations } from '../sim/run-action.js'
import { runScenario } from './runner.js'

// The in-process runner mocks @actions/core for src/: it must load before anything imports src/
// (settings-inputs.ts reads settings with src/settings/settings.ts), or src/ would keep the real module.
await import('./inprocess.js')
const { GOOD, INPUT_NAMES, VALID, anyText, nearMiss, read } = await import('./settings-inputs.js')

const SAMPLE = 12

describe('invalid inputs run as the action', () => {
  it(`${SAMPLE} random invalid sets: exit 1, the same input named, nothing sent`, async () => {
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
      const sets = fc.sample(changed, { numRuns: SAMPLE, seed: 4242 })
      expect(sets).toHaveLength(SAMPLE)

      for (const inputs of sets) {
        const expected = read(inputs, ctx)
        const r = await runScenario({ inputs, timeoutMs: 20_000 })
        const errors = annotations(r.stdout).filter(a => a.command === 'error')
        const context = `inputs ${JSON.stringify(inputs)}\nstdout ${r.stdout}`
        expect({ code: r.code, context }).toEqual({ code: 1, context })
        expect(errors).toHaveLength(1)
        if (!expected.ok) expect(errors[0]?.message).toContain(`Input \`${expected.error.input}\``)
        expect(r.stdout + r.stderr).not.toMatch(/^ {4}at /m)
      }
      expect(sim.requests).toHaveLength(0)
    } finally {
      await sim.close()
    }
  }, 90_000)
})

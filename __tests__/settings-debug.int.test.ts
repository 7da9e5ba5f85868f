// Scenario tier (__tests__/runner.ts): a run writes the settings it resolved once, as one debug
// line (shown with step debugging on), before any request: every input by name, with the value
// the run uses, and the key and the tokens only as `***`.
import fs from 'node:fs'
import { describe, it, expect, afterAll } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { SIM_GITHUB_TOKEN } from '../sim/github.js'
import { INPUT_NAMES } from '../src/settings/names.js'
import { runScenario } from './runner.js'
import { holdsPart } from './leaks.js'
import { annotationsOf, withService } from './support.js'

const tempDirs: string[] = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

describe('the resolved settings in the log', () => {
  it('one debug line: every input, as resolved, secrets masked', async () => {
    await withService({}, async sim => {
      const r = await runScenario({
        inputs: {
          command: 'visitors',
          'api-key': SIM_API_KEY,
          'project-id': 'proj-1',
          'base-url': sim.url,
          period: '7d',
          'notify-token': 'ghp_notifytoken0123456789'
        }
      })
      tempDirs.push(r.tempDir)
      const lines = annotationsOf(r, 'debug').filter(m => m.startsWith('Resolved inputs'))
      expect(lines).toHaveLength(1)
      const shown = JSON.parse(lines[0]!.slice(lines[0]!.indexOf('{'))) as Record<string, unknown>
      expect(Object.keys(shown)).toEqual(INPUT_NAMES)
      expect(shown).toMatchObject({
        command: 'visitors',
        'api-key': '***',
        'github-token': '***',
        // `notify-token` is read by the job commands and `check` only.
        'notify-token': null,
        'base-url': sim.url,
        period: '7d',
        'wait-timeout': '1800s',
        'page-size': 250
      })
      for (const secret of [SIM_API_KEY, SIM_GITHUB_TOKEN, 'ghp_notifytoken0123456789'])
        expect(holdsPart(lines[0]!, secret)).toBe(false)
    })
  })
})

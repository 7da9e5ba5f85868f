// Unit tier: run() in process, @actions/core mocked as the official template does: what it
// publishes, and that it publishes each thing once, whatever the command and however it ends.
import { describe, it, expect } from '@jest/globals'
import * as core from '../__fixtures__/core.js'
import { runInProcess } from './inprocess.js'
import { messageInputs, withService } from './support.js'

const jobInputs = (url: string, extra: Record<string, string> = {}): Record<string, string> =>
  messageInputs(url, {
    prompt: 'Fix the typo',
    'poll-interval': '0.1',
    'wait-timeout': '10s',
    ...extra
  })

describe('run(): one place publishes', () => {
  it('a job that fails: setFailed once, with the verdict; status, job and requests set once each', async () => {
    await withService(
      { jobs: [{ id: 'job-1', activePolls: 1, finalStatus: 'failed' }] },
      async sim => {
        const r = await runInProcess({ inputs: jobInputs(sim.url) })
        expect(r.code).toBe(1)
        expect(core.setFailed).toHaveBeenCalledTimes(1)
        expect(core.setFailed.mock.calls[0]?.[0]).toMatch(/^Job job-1 ended with status `failed`/)
        for (const name of ['status', 'job', 'pr-link', 'requests', 'job-id']) {
          const calls = core.setOutput.mock.calls.filter(([n]) => n === name)
          expect(calls).toHaveLength(1)
        }
        expect(r.outputs.status).toBe('failed')
        expect(Number(r.outputs.requests)).toBe(sim.requests.length)
        expect(core.summary.write).toHaveBeenCalledTimes(1)
      }
    )
  })

  it('a summary that cannot be written only warns: the run still succeeds', async () => {
    await withService({ jobs: '*' }, async sim => {
      core.summaryFailure.next = new Error('EACCES: the summary file is read-only')
      const r = await runInProcess({ inputs: jobInputs(sim.url) })
      expect(r.code).toBe(0)
      expect(core.setFailed).not.toHaveBeenCalled()
      expect(core.warning).toHaveBeenCalledWith(
        'Could not write the job summary: EACCES: the summary file is read-only'
      )
    })
  })

  it('bad input: one failure naming the input, no request, no summary', async () => {
    await withService({ jobs: '*' }, async sim => {
      const r = await runInProcess({ inputs: jobInputs(sim.url, { 'wait-timeout': 'soon' }) })
      expect(r.code).toBe(1)
      expect(core.setFailed).toHaveBeenCalledTimes(1)
      expect(core.setFailed.mock.calls[0]?.[0]).toMatch(/^Input `wait-timeout`: /)
      expect(sim.requests).toHaveLength(0)
      expect(core.summary.write).not.toHaveBeenCalled()
    })
  })

  it('a visitors export that succeeds: no setFailed, totals and requests once', async () => {
    await withService({ rows: 30 }, async sim => {
      const r = await runInProcess({
        inputs: { ...jobInputs(sim.url), command: 'visitors', 'job-id': '', prompt: '' }
      })
      expect(r.code).toBe(0)
      expect(core.setFailed).not.toHaveBeenCalled()
      expect(core.setOutput.mock.calls.filter(([n]) => n === 'requests')).toHaveLength(1)
      expect(r.outputs.rows).toBe('30')
    })
  })
})

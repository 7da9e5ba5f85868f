// Scenario tier (__tests__/runner.ts): `checks` on the job's pull request. The docs platform's
// broken-link check runs on the agent's pull request (#21) and finishes failed on the second
// read: `require` fails the step with `checks=failure` and the annotation in the answer; `show`
// reads once and passes; `/docs-agent fix checks` sends that annotation to the job as data.
import { describe, it, expect } from '@jest/globals'
import { headSha, triggerComment } from '../sim/github.js'
import { botComments, errorsOf, expectNoStack, withAgentJob } from './support.js'

const BROKEN = {
  name: 'Mintlify: broken links',
  states: [
    { status: 'in_progress' as const },
    { status: 'completed' as const, conclusion: 'failure' }
  ],
  annotations: [
    { path: 'api/limits.mdx', line: 12, message: 'Broken link: /api/rate-limits does not exist' }
  ]
}
const STYLE = {
  name: 'Mintlify: style',
  states: [{ status: 'completed' as const, conclusion: 'success' }]
}

const checkReads = (gh: { requests: { method: string; path: string }[] }) =>
  gh.requests.filter(q => q.path.endsWith('/check-runs'))

describe('checks', () => {
  it('`require`: the broken-link check fails on the second poll: exit 1, checks=failure, the annotation shown', async () => {
    const checkRuns = { [headSha(21)]: [BROKEN, STYLE] }
    await withAgentJob(
      { checkRuns, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, sim, create }) => {
        const r = await create({ checks: 'require' })
        expectNoStack(r)
        expect(r.code).toBe(1)
        expect(r.outputs.checks).toBe('failure')
        expect(r.outputs.status).toBe('completed')
        // One read a poll: the first found the link check running, the second its failure.
        expect(checkReads(gh)).toHaveLength(2)
        const errors = errorsOf(r)
        expect(errors).toHaveLength(1)
        expect(errors[0]).toContain('"Mintlify: broken links" (failure)')
        const [answer, ...more] = botComments(gh, 5)
        expect(more).toEqual([])
        for (const text of [answer ?? '', r.summary]) {
          expect(text).toContain('❌ 1 failed · ✅ 1 passed')
          expect(text).toContain('`api/limits.mdx:12` Broken link: /api/rate-limits does not exist')
          expect(text).toContain('`checks` is `require`, so the step failed.')
          expect(text).not.toMatch(/✅ Opened/)
        }
        expect(answer).toContain('`/docs-agent fix checks`')
        // The service was asked nothing more for the checks.
        expect(sim.requests.filter(q => q.kind === 'create')).toHaveLength(1)
      }
    )
  })

  it('`show`: one read, the running check listed as still running, the step passes', async () => {
    const checkRuns = { [headSha(21)]: [BROKEN, STYLE] }
    await withAgentJob(
      { checkRuns, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, create }) => {
        const r = await create({ checks: 'show' })
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        expect(r.outputs.checks).toBe('pending')
        expect(checkReads(gh)).toHaveLength(1)
        expect(r.summary).toContain('Mintlify: broken links')
        expect(r.summary).toContain('still running')
      }
    )
  })

  it('`checks` off (the default): no check run is read and no `checks` output', async () => {
    const checkRuns = { [headSha(21)]: [BROKEN] }
    await withAgentJob(
      { checkRuns, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, create }) => {
        const r = await create()
        expect(r.code).toBe(0)
        expect(checkReads(gh)).toHaveLength(0)
        expect(r.outputs.checks ?? '').toBe('')
      }
    )
  })

  it("`/docs-agent fix checks` on the agent's pull request sends the failing annotation to its job; with none failing, a reply and nothing sent", async () => {
    const checkRuns = { [headSha(21)]: [BROKEN, STYLE] }
    const permissions = { octocat: 'write' as const }
    await withAgentJob(
      { checkRuns, permissions, pulls: { 5: { state: 'open' as const } } },
      async ({ gh, sim, create }) => {
        // The job opens #21 (its route recorded there); its link check fails.
        const first = await create({ checks: 'wait' })
        expect(first.code).toBe(0)
        expect(first.outputs.checks).toBe('failure')
        const before = sim.requests.length
        const r = await create(
          { command: 'message', prompt: '' },
          triggerComment(gh, 21, '/docs-agent fix checks, and keep the old anchor')
        )
        expect(errorsOf(r)).toEqual([])
        expect(r.code).toBe(0)
        if (sim.requests.length === before) throw new Error(r.stdout)
        const sent = sim.requests.slice(before).filter(q => q.kind === 'message')
        expect(sent).toHaveLength(1)
        expect(sent[0]?.path).toContain('created-1')
        const prompt = String((JSON.parse(sent[0]?.body ?? '{}') as { prompt?: string }).prompt)
        expect(prompt).toMatch(/^Fix what the failing checks of this pull request report/)
        expect(prompt).toContain('\n\nand keep the old anchor\n\n--- Context from GitHub')
        expect(prompt).toContain('Check run: "Mintlify: broken links" (failure)')
        expect(prompt).toContain(
          '- api/limits.mdx:12 "Broken link: /api/rate-limits does not exist"\n--- End of context ---'
        )
        expect(prompt).not.toContain('Mintlify: style')

        // Fixed: nothing fails now, so a reply and no request to the service.
        gh.setCheckRuns(headSha(21), [STYLE])
        const after = sim.requests.length
        const again = await create(
          { command: 'message', prompt: '' },
          triggerComment(gh, 21, '/docs-agent fix checks')
        )
        expect(again.code).toBe(0)
        expect(again.outputs.skipped).toBe('true')
        expect(sim.requests.length).toBe(after)
        expect(botComments(gh, 21).at(-1)).toBe(
          'No check run on #21 has failed, so nothing was sent to the job.'
        )
      }
    )
  })
})

// Scenario tier (__tests__/runner.ts): `comment-mode: minimize` on the weekly issue. Each report is a
// new comment (a notification) and the project's previous report is hidden as outdated through
// GraphQL `minimizeComment`; only the action's own comments are hidden, a failure to hide is a
// warning, and an incomplete report hides nothing.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { runScenario } from './runner.js'
import { annotationsOf, withGitHub, withService, type GitHub, type Service } from './support.js'

const ISSUE = 12
const WEEKS = {
  one: { 'date-from': '2026-11-02', 'date-to': '2026-11-09' },
  two: { 'date-from': '2026-11-09', 'date-to': '2026-11-16' },
  three: { 'date-from': '2026-11-16', 'date-to': '2026-11-23' }
}

function report(
  sim: Service,
  gh: GitHub,
  week: Record<string, string>,
  extra: Record<string, string> = {}
) {
  return runScenario({
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': 'acme-docs',
      'base-url': sim.url,
      command: 'report',
      'issue-number': String(ISSUE),
      'comment-mode': 'minimize',
      ...week,
      ...extra
    },
    env: { GITHUB_API_URL: gh.url }
  })
}

const reportIds = (gh: GitHub): number[] =>
  (gh.comments.get(ISSUE) ?? []).filter(c => c.body.startsWith('## Docs health')).map(c => c.id)
const hides = (gh: GitHub) =>
  gh.requests.filter(q => JSON.stringify(q.body ?? '').includes('minimizeComment'))

describe('comment-mode: minimize', () => {
  it('each week is a new comment; the previous report is hidden as outdated, once', async () => {
    await withService({}, sim =>
      withGitHub({}, async gh => {
        expect((await report(sim, gh, WEEKS.one)).code).toBe(0)
        // Nothing to hide yet: no GraphQL request at all.
        expect(gh.minimized).toEqual([])
        expect((await report(sim, gh, WEEKS.two)).code).toBe(0)
        const [first, second] = reportIds(gh)
        expect(gh.minimized).toEqual([{ id: first, classifier: 'OUTDATED' }])
        const r = await report(sim, gh, WEEKS.three)
        expect(r.code).toBe(0)
        // The newest hides the one before it; the first was hidden already.
        expect(gh.minimized).toEqual([
          { id: first, classifier: 'OUTDATED' },
          { id: second, classifier: 'OUTDATED' }
        ])
        // Hidden, not deleted: every week's report is still there, each a comment of its own.
        expect(reportIds(gh)).toHaveLength(3)
        expect(annotationsOf(r, 'warning')).toEqual([])
      })
    )
  })

  it("another project's report and a reader's copy of a report are never hidden", async () => {
    await withService({ projects: ['acme-docs', 'acme-api'] }, sim =>
      withGitHub({}, async gh => {
        expect((await report(sim, gh, WEEKS.one, { 'project-id': 'acme-api' })).code).toBe(0)
        const other = reportIds(gh)[0]
        // A reader pastes the report's text, markers and all, into a comment of her own.
        const pasted = gh.comments.get(ISSUE)?.find(c => c.id === other)?.body ?? ''
        gh.addComment(ISSUE, pasted, { login: 'passer-by', type: 'User' })
        expect((await report(sim, gh, WEEKS.two)).code).toBe(0)
        expect(gh.minimized).toEqual([])
        expect(hides(gh)).toHaveLength(0)
      })
    )
  })

  it('a failure to hide is a warning; the new report stands', async () => {
    await withService({}, sim =>
      withGitHub({ minimizeFails: true }, async gh => {
        expect((await report(sim, gh, WEEKS.one)).code).toBe(0)
        const r = await report(sim, gh, WEEKS.two)
        expect(r.code).toBe(0)
        expect(reportIds(gh)).toHaveLength(2)
        const warnings = annotationsOf(r, 'warning')
        expect(warnings).toHaveLength(1)
        expect(warnings[0]).toMatch(/could not be hidden as outdated, so both show/)
        expect(warnings[0]).toContain('Resource not accessible by integration')
      })
    )
  })

  it('a re-run of the same week hides the comment it replaces', async () => {
    await withService({}, sim =>
      withGitHub({}, async gh => {
        expect((await report(sim, gh, WEEKS.one)).code).toBe(0)
        expect((await report(sim, gh, WEEKS.one)).code).toBe(0)
        const [first] = reportIds(gh)
        expect(reportIds(gh)).toHaveLength(2)
        expect(gh.minimized).toEqual([{ id: first, classifier: 'OUTDATED' }])
      })
    )
  })
})

// Unit tier: the set-up check's summary: what to change said once per fix, the service's words
// escaped, each state renders within its room.
import { describe, it, expect } from '@jest/globals'
import { joinChecks, renderCheck, toChange, type CheckLine } from '../src/report/check.js'
import { SUMMARY_ROOM } from '../src/report/fit.js'
import { checkStates } from './check-scenarios.js'

const line = (over: Partial<CheckLine>): CheckLine => ({
  check: 'Analytics: views',
  verdict: 'fail',
  seen: 'refused',
  ...over
})

describe('the set-up check summary', () => {
  it('lists each fix once, with the checks that want it; lines that follow from another are not fixes', () => {
    const fixes = toChange([
      line({ check: 'Analytics: views', fix: 'Upgrade' }),
      line({ check: 'Analytics: searches', fix: 'Upgrade' }),
      line({ check: 'Agent API', because: 'API key accepted' }),
      line({ check: 'API key form', verdict: 'pass' })
    ])
    expect(fixes).toEqual([{ checks: ['Analytics: views', 'Analytics: searches'], fix: 'Upgrade' }])
    expect(joinChecks(fixes[0]!.checks)).toBe('Analytics: views, searches')
    expect(joinChecks(['API key accepted', 'Agent API'])).toBe('API key accepted, Agent API')
  })

  it('says each probe’s facts once: in the profile table, not again in the result column', () => {
    const [, render] = checkStates().find(([name]) => name.startsWith('ready'))!
    const md = render()
    const checks = md.slice(0, md.indexOf('### What the service answered'))
    const rows = checks.split('\n').filter(l => l.includes('| Analytics: '))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).toMatch(/\| answers(, with no rows in the last 7 days)? \|$/)
      expect(row).not.toMatch(/\bms\b|\brows?\b(?! in the last)|cursor|sorted|ctr/)
    }
    // The profile table still holds the facts.
    expect(md).toMatch(/\| `searches` \| 200 \| 251\u00a0ms \| 10 \| url \| percent \| yes \|/)
  })

  it('shows the service’s words as inert text', () => {
    const md = renderCheck(
      {
        projectId: 'p',
        baseUrl: 'https://api.mintlify.com',
        range: { dateFrom: '2026-11-16', dateTo: '2026-11-23' },
        lines: [
          line({
            said: '403 Forbidden: <img src=x onerror=alert(1)> | [x](javascript:1) @team',
            fix: 'Fix it'
          })
        ],
        profile: [],
        requests: 1,
        maxRequests: 8,
        generatedAt: Date.UTC(2026, 10, 23)
      },
      SUMMARY_ROOM
    )
    expect(md).toMatch(/^## Set-up check · ❌ 1 to fix\n/)
    expect(md).not.toMatch(/<img|\]\(javascript|(^|[^`\\])@team/)
    // The cell stays one cell: the pipe is escaped.
    const row = md.split('\n').find(l => l.includes('Analytics: views'))!
    expect(row.split(/(?<!\\)\|/).length).toBe(5)
  })

  it.each(checkStates())(
    '%s: renders within the summary room, titled by its verdict',
    (_name, render) => {
      const md = render()
      expect(md).toMatch(
        /^## Set-up check · (✅ ready(?: to read; agent jobs not verified)?|❌ \d+ to fix)\n/
      )
      expect(Buffer.byteLength(md)).toBeLessThan(8 * 1024)
      expect(md).toContain('### What the service answered')
    }
  )
})

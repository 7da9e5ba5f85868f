// Unit tier: the one rule of series (records/series.ts): a kind, a project and a cadence (a
// calendar month is one cadence whatever its days); which earlier comment a run may hide (its
// series, ending no later); which a reader still sees; and the body that makes a comment the
// action's report or roll-up (its title and footer), whatever its markers say.
import { describe, it, expect } from '@jest/globals'
import { recordKey } from '../src/records/kinds.js'
import { reportKey } from '../src/records/report.js'
import { rollupKey } from '../src/records/rollup.js'
import { cadenceOf, Series } from '../src/records/series.js'

const week = (from: string, to: string) => ({ dateFrom: from, dateTo: to })
const W1 = week('2026-11-02', '2026-11-09')
const W2 = week('2026-11-09', '2026-11-16')
const OCT = week('2026-10-01', '2026-11-01')
const FEB = week('2026-02-01', '2026-03-01')

describe('a series: kind, project, cadence', () => {
  it('the cadence is the length in days; a calendar month is one cadence', () => {
    expect(cadenceOf(W1)).toBe('7d')
    expect(cadenceOf(OCT)).toBe('month')
    expect(cadenceOf(FEB)).toBe('month')
    expect(cadenceOf(week('2026-10-02', '2026-11-02'))).toBe('31d')
    expect(cadenceOf({ dateFrom: '2026-10-01' })).toBe('open')
    expect(cadenceOf(week('2026-11-01T00:00:00Z', '2026-11-01T12:00:00Z'))).toBe('0.5d')
  })

  it('covers its own series ending no later; a later one is newer; others are none of it', () => {
    const weekly = Series.report('acme', W2)
    expect(weekly.covers(reportKey('acme', W1))).toBe(true)
    expect(weekly.covers(reportKey('acme', W2))).toBe(true)
    expect(weekly.covers(reportKey('acme', week('2026-11-16', '2026-11-23')))).toBe(false)
    expect(weekly.isNewer(reportKey('acme', week('2026-11-16', '2026-11-23')))).toBe(true)
    // The monthly, another project's weekly and the roll-up are other series.
    for (const key of [reportKey('acme', OCT), reportKey('other', W1), rollupKey(W1)]) {
      expect(weekly.covers(key)).toBe(false)
      expect(weekly.isNewer(key)).toBe(false)
    }
    // The monthly of February and of October are one series.
    expect(Series.report('acme', OCT).covers(reportKey('acme', FEB))).toBe(true)
    expect(Series.rollup(W2).covers(rollupKey(W1))).toBe(true)
    expect(
      Series.rollup(W2).covers(recordKey('visitors', { project: '*', from: '', to: '' }))
    ).toBe(false)
  })

  it('a reader still sees a comment no later one of its series ending no earlier followed', () => {
    const s = Series.report('acme', W2)
    const at = (key: string, t: number, id: number) => ({ key, at: t, comment: { id } })
    const records = [
      at(reportKey('acme', W1), 1, 1),
      at(reportKey('acme', W2), 2, 2),
      // Week one re-run after week two: shown, and week two with it.
      at(reportKey('acme', W1), 3, 3),
      // The monthly is of another series: it hides and is hidden by no weekly.
      at(reportKey('acme', OCT), 4, 4)
    ]
    expect(s.shown(records).map(r => r.comment.id)).toEqual([3, 2])
    expect(
      Series.report('acme', OCT)
        .shown(records)
        .map(r => r.comment.id)
    ).toEqual([4])
  })
})

describe('the body that is the action’s', () => {
  const footer =
    '_made 2026-11-16 06:17 UTC · [workflow run](https://x/runs/1) · 30 analytics requests_'
  const rollupFooter =
    '_made 2026-11-16 10:41 UTC · [workflow run](https://x/runs/2) · 2 report files read, no request to the service_'
  const marker = '<!-- docs-agent:report%2Facme v=2 t=1 sig=00 -->'

  it('a report: its title first, its footer last, markers after', () => {
    const s = Series.report('acme', W2)
    expect(s.ownBody(`## Docs health · Nov 9–15\n\nbody\n\n${footer}\n\n${marker}`)).toBe(true)
    const cut = '_… cut to fit a GitHub comment; the full report is in the job summary._'
    expect(s.ownBody(`## Docs health · Nov 9–15\n\nbody\n\n${cut}\n\n${marker}`)).toBe(true)
    // Another workflow's text with the markers copied under it.
    expect(s.ownBody(`Deploy preview ready ✅\n\n${marker}`)).toBe(false)
    expect(s.ownBody(`## Docs health · Nov 9–15\n\nquoted, no footer\n\n${marker}`)).toBe(false)
    // A roll-up is no report, and a report no roll-up.
    expect(s.ownBody(`## Docs health · 2 projects · Nov 9–15\n\n${rollupFooter}`)).toBe(false)
    const r = Series.rollup(W2)
    expect(r.ownBody(`## Docs health · 2 projects · Nov 9–15\n\nt\n\n${rollupFooter}`)).toBe(true)
    expect(r.ownBody(`## Docs health · Nov 9–15\n\n${footer}`)).toBe(false)
  })
})

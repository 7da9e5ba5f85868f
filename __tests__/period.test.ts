// Unit tier: dates and periods.
import { describe, it, expect } from '@jest/globals'
import { parseInstant, parsePeriod, previousRange, resolvePeriod } from '../src/period.js'

// A Wednesday; its week started on Monday 2026-11-16.
const now = new Date('2026-11-18T23:59:00Z')

describe('resolvePeriod', () => {
  it.each([
    ['7d', { dateFrom: '2026-11-11', dateTo: '2026-11-18' }],
    ['1d', { dateFrom: '2026-11-17', dateTo: '2026-11-18' }],
    ['366d', { dateFrom: '2025-11-17', dateTo: '2026-11-18' }],
    ['yesterday', { dateFrom: '2026-11-17', dateTo: '2026-11-18' }],
    ['last-week', { dateFrom: '2026-11-09', dateTo: '2026-11-16' }],
    ['last-month', { dateFrom: '2026-10-01', dateTo: '2026-11-01' }]
  ])('%s', (text, range) => {
    expect(resolvePeriod(parsePeriod(text)!, now)).toEqual(range)
  })

  it('on a Monday, last-week ends that day', () => {
    const monday = new Date('2026-11-16T00:30:00Z')
    expect(resolvePeriod({ kind: 'last-week' }, monday)).toEqual({
      dateFrom: '2026-11-09',
      dateTo: '2026-11-16'
    })
  })

  it('on a Sunday, last-week is the week before the current one', () => {
    const sunday = new Date('2026-11-22T12:00:00Z')
    expect(resolvePeriod({ kind: 'last-week' }, sunday).dateFrom).toBe('2026-11-09')
  })

  it('last-month in January is December of the year before', () => {
    expect(resolvePeriod({ kind: 'last-month' }, new Date('2027-01-15T00:00:00Z'))).toEqual({
      dateFrom: '2026-12-01',
      dateTo: '2027-01-01'
    })
  })

  it('works in UTC whatever the local offset of the clock reading', () => {
    // 2026-11-18T01:00+05:00 is still 2026-11-17 in UTC.
    const early = new Date('2026-11-18T01:00:00+05:00')
    expect(resolvePeriod({ kind: 'yesterday' }, early)).toEqual({
      dateFrom: '2026-11-16',
      dateTo: '2026-11-17'
    })
  })
})

describe('previousRange', () => {
  it('is the equal-length period before', () => {
    expect(previousRange({ dateFrom: '2026-11-11', dateTo: '2026-11-18' })).toEqual({
      dateFrom: '2026-11-04',
      dateTo: '2026-11-11'
    })
  })

  it('is the previous calendar month for last-month', () => {
    const range = { dateFrom: '2026-03-01', dateTo: '2026-04-01' }
    expect(previousRange(range, { kind: 'last-month' })).toEqual({
      dateFrom: '2026-02-01',
      dateTo: '2026-03-01'
    })
  })

  it('keeps date-times as date-times', () => {
    expect(
      previousRange({ dateFrom: '2026-11-10T12:00:00Z', dateTo: '2026-11-10T18:00:00Z' })
    ).toEqual({ dateFrom: '2026-11-10T06:00:00.000Z', dateTo: '2026-11-10T12:00:00Z' })
  })

  it('is undefined when it would start before year 1, and starts on 0001-01-01 at the earliest', () => {
    expect(previousRange({ dateFrom: '0001-01-05', dateTo: '0001-01-10' })).toBeUndefined()
    expect(previousRange({ dateFrom: '0001-01-05', dateTo: '0001-01-09' })).toEqual({
      dateFrom: '0001-01-01',
      dateTo: '0001-01-05'
    })
  })
})

describe('parseInstant', () => {
  it.each([
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2026-11-01T10:20:30Z', Date.UTC(2026, 10, 1, 10, 20, 30)],
    ['2026-11-01T10:20:30.5Z', Date.UTC(2026, 10, 1, 10, 20, 30, 500)],
    ['2026-11-01T10:20+01:00', Date.UTC(2026, 10, 1, 9, 20)],
    ['2026-11-01T10:20:00-0230', Date.UTC(2026, 10, 1, 12, 50)]
  ])('%s', (text, at) => expect(parseInstant(text)).toBe(at))

  it.each([
    '2025-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-11-01T24:00:00Z',
    '2026-11-01T10:60Z',
    '2026-11-01 10:00',
    '20261101',
    'yesterday',
    '2026-11-01T10:00:00+25:00'
  ])('rejects %s', text => expect(parseInstant(text)).toBeUndefined())
})

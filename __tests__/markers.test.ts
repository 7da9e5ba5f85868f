// Unit tier: signed comment markers: made, verified for their writer, copies refused; and the
// table of record kinds, whose keys round-trip.
import { describe, it, expect } from '@jest/globals'
import { createHmac } from 'node:crypto'
import { claimOf, parseRecord, recordKey, RECORD_KINDS } from '../src/records/kinds.js'
import {
  claimedKeys,
  makeMarker as signedBy,
  verifiedMarkers,
  type Place
} from '../src/records/signature.js'
import { PLACE, SECRET } from './github-support.js'

/** When the marker was written (its signed time). */
const ID = 1_732_450_000_000
const BOT = 'github-actions[bot]'
const makeMarker = (key: string, secret: string, place: Place, at: number): string =>
  signedBy(key, secret, place, BOT, at)
const markerKey = (...parts: string[]): string => parts.map(encodeURIComponent).join('/')
const verifiedKeys = (body: string, secret: string, place: Place, _at?: number): string[] =>
  verifiedMarkers(body, secret, place, { author: BOT, own: true }).map(x => x.key)

describe('markers', () => {
  it('round-trips a key through a signed marker', () => {
    const key = markerKey('job', 'proj', 'job-123')
    const marker = makeMarker(key, SECRET, PLACE, ID)
    expect(marker).toMatch(/^<!-- docs-agent:job%2Fproj%2Fjob-123 v=2 t=\d+ sig=[0-9a-f]{32} -->$/)
    expect(verifiedKeys(`hello\n\n${marker}`, SECRET, PLACE, ID)).toEqual([key])
  })

  it('is deterministic and depends on the key', () => {
    expect(makeMarker('a', SECRET, PLACE, ID)).toBe(makeMarker('a', SECRET, PLACE, ID))
    const sig = (m: string) => / sig=([0-9a-f]+) /.exec(m)?.[1]
    expect(sig(makeMarker('a', SECRET, PLACE, ID))).not.toBe(
      sig(makeMarker('b', SECRET, PLACE, ID))
    )
  })

  it('encodes each part of a key so a slash inside an id stays unambiguous', () => {
    expect(markerKey('route', 'p/1', 'j 2')).toBe('route/p%2F1/j%202')
    expect(markerKey('route', 'p', '1/j')).not.toBe(markerKey('route', 'p/1', 'j'))
  })

  it('round-trips keys containing -->, newlines and spaces without breaking the marker', () => {
    const key = markerKey('visitors', 'my project', 'evil --> <!-- x\nline two')
    const marker = makeMarker(key, SECRET, PLACE, ID)
    expect(marker.indexOf('-->')).toBe(marker.length - 3)
    expect(marker).not.toMatch(/\n/)
    expect(verifiedKeys(marker, SECRET, PLACE, ID)).toEqual([key])
    const raw = 'a --> b\n c'
    expect(verifiedKeys(makeMarker(raw, SECRET, PLACE, ID), SECRET, PLACE, ID)).toEqual([raw])
  })

  it('returns verified keys in order and skips the rest', () => {
    const body = [
      makeMarker('one', SECRET, PLACE, ID),
      '<!-- docs-agent:two sig=00000000000000000000000000000000 -->',
      makeMarker('three', SECRET, PLACE, ID)
    ].join('\n')
    expect(verifiedKeys(body, SECRET, PLACE, ID)).toEqual(['one', 'three'])
  })

  it('reads only the markers that end the body: a real one copied into the text above is not one', () => {
    const copied = makeMarker('route/p/evil', SECRET, PLACE, ID)
    const body = [
      '### Answer',
      '',
      '```text',
      `please ${copied}`,
      copied,
      '```',
      '',
      makeMarker('answer/p/1', SECRET, PLACE, ID)
    ].join('\n')
    expect(verifiedKeys(body, SECRET, PLACE, ID)).toEqual(['answer/p/1'])
  })

  it.each([
    ['a fence left open', ['```text', 'please']],
    ['a tilde fence left open', ['~~~~', 'x', '~~~ not a close']],
    ['a longer fence the short one cannot close', ['````', 'x', '```']],
    ['an indented fence', ['   ```js', 'alert(1)']]
  ])('never reads markers that %s swallows', (_name, above) => {
    const marker = makeMarker('run/p/1/j', SECRET, PLACE, ID)
    expect(verifiedKeys([...above, marker].join('\n'), SECRET, PLACE, ID)).toEqual([])
  })

  it('reads markers after a closed fence, and a backtick run with a backtick after it opens none', () => {
    const marker = makeMarker('k', SECRET, PLACE, ID)
    for (const above of [['```text', 'x', '```'], ['~~~', 'x', '~~~~'], ['``` `inline` ```']])
      expect(verifiedKeys([...above, '', marker].join('\n'), SECRET, PLACE, ID)).toEqual(['k'])
  })

  it('rejects forged markers', () => {
    const good = makeMarker('job/p/j', SECRET, PLACE, ID)
    const flipped = good.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`)
    const forgeries = [
      flipped,
      '<!-- docs-agent:job%2Fp%2Fj -->',
      '<!-- docs-agent:job%2Fp%2Fj sig= -->',
      good.replace(/ sig=[0-9a-f]+/, ` sig=${'f'.repeat(32)}`),
      good.replace(/ sig=([0-9a-f]+)/, ' sig=$1ff'),
      good.replace(/ sig=([0-9a-f]+)/, (_m, s: string) => ` sig=${s.toUpperCase()}`),
      makeMarker('job/p/j', SECRET, { ...PLACE, issueNumber: 13 }, ID),
      makeMarker('job/p/j', SECRET, { ...PLACE, repo: 'other' }, ID),
      makeMarker('job/p/j', SECRET, { ...PLACE, owner: 'mallory' }, ID),
      makeMarker('job/p/j', 'another secret', PLACE, ID),
      // A real marker with its time moved later, to outrank a newer one.
      good.replace(/ t=(\d+)/, (_m, t: string) => ` t=${Number(t) + 1}`)
    ]
    for (const forged of forgeries) {
      expect(verifiedKeys(`text ${forged} text`, SECRET, PLACE, ID)).toEqual([])
    }
    expect(verifiedKeys(good, SECRET, PLACE, ID)).toEqual(['job/p/j'])
  })

  it('ignores a key that is not valid percent-encoding', () => {
    expect(verifiedKeys('<!-- docs-agent:%E0%A4%A t=1 sig=0123 -->', SECRET, PLACE, ID)).toEqual([])
  })

  it('carries the signed time it was written at', () => {
    const by = { author: BOT, own: false }
    expect(verifiedMarkers(makeMarker('k', SECRET, PLACE, ID), SECRET, PLACE, by)).toEqual([
      { key: 'k', at: ID }
    ])
  })

  it('refuses to sign without a secret and trusts nothing without one', () => {
    expect(() => makeMarker('k', '', PLACE, ID)).toThrow(/secret/)
    expect(verifiedKeys(makeMarker('k', SECRET, PLACE, ID), '', PLACE, ID)).toEqual([])
  })
})

describe('a marker is bound to the login that wrote its comment', () => {
  const genuine = makeMarker('route/p/j', SECRET, PLACE, ID)

  it('verifies only in a comment whose author is the login it was signed for (any case)', () => {
    const as = (author: string, own = false) =>
      verifiedMarkers(genuine, SECRET, PLACE, { author, own }).map(m => m.key)
    expect(as(BOT)).toEqual(['route/p/j'])
    expect(as('GitHub-Actions[bot]')).toEqual(['route/p/j'])
    // A reader who pastes the genuine line into her own comment: it names another writer.
    expect(as('mallory')).toEqual([])
    expect(as('mallory', true)).toEqual([])
    expect(as('')).toEqual([])
    for (const writer of ['my-app[bot]', 'octo-user']) {
      const m = signedBy('k', SECRET, PLACE, writer, ID)
      expect(verifiedMarkers(m, SECRET, PLACE, { author: writer, own: false })).toHaveLength(1)
      expect(verifiedMarkers(m, SECRET, PLACE, { author: BOT, own: true })).toEqual([])
    }
  })

  it('claimedKeys names what marker-shaped lines claim, verified or not', () => {
    const forged = '<!-- docs-agent:report%2Fp%2Fa%2Fb v=2 t=1 sig=00 -->'
    expect(claimedKeys(`text\n\n${genuine}\n${forged}`)).toEqual(['route/p/j', 'report/p/a/b'])
    expect(claimedKeys('```\n' + genuine)).toEqual([])
  })
})

describe('markers written before records named their writer', () => {
  const hmac = (text: string) =>
    createHmac('sha256', SECRET).update(text).digest('hex').slice(0, 32)
  const thread = `${PLACE.owner}/${PLACE.repo}#${PLACE.issueNumber}`

  it('a marker signed over its time alone counts only in the action’s own comments', () => {
    const old = `<!-- docs-agent:route%2Fp%2Fj t=${ID} sig=${hmac(`${thread}\nt=${ID}\nroute/p/j`)} -->`
    expect(verifiedMarkers(old, SECRET, PLACE, { author: BOT, own: true })).toEqual([
      { key: 'route/p/j', at: ID }
    ])
    expect(verifiedMarkers(old, SECRET, PLACE, { author: BOT, own: false })).toEqual([])
    expect(verifiedMarkers(old, SECRET, PLACE, { author: 'mallory', own: false })).toEqual([])
  })

  it('a marker signed over the comment id (1.0.0) verifies on that comment of the action, as the oldest', () => {
    const id = 4242
    const old = `<!-- docs-agent:route%2Fp%2Fj sig=${hmac(`${thread}\n${id}\nroute/p/j`)} -->`
    const own = { author: BOT, own: true }
    expect(verifiedMarkers(old, SECRET, PLACE, { ...own, commentId: id })).toEqual([
      { key: 'route/p/j', at: 0 }
    ])
    // Copied onto another comment, it does not; nor in a comment of another login.
    expect(verifiedMarkers(old, SECRET, PLACE, { ...own, commentId: id + 1 })).toEqual([])
    const mallory = { author: 'mallory', own: false, commentId: id }
    expect(verifiedMarkers(old, SECRET, PLACE, mallory)).toEqual([])
  })
})

describe('the table of record kinds', () => {
  it('every kind round-trips through its key, parts with / and spaces included', () => {
    for (const [kind, spec] of Object.entries(RECORD_KINDS)) {
      const k = kind as keyof typeof RECORD_KINDS
      const fields = Object.fromEntries(spec.parts.map((p, i) => [p, `${p} ${i}/x%`]))
      const key = recordKey(k, fields as never)
      expect(parseRecord(k, key)).toEqual(fields)
      expect(claimOf(key)).toEqual({ kind, project: `project 0/x%` })
      // Another kind, or a key with a part more or less, is not one.
      const other = kind === 'route' ? 'job' : 'route'
      expect(parseRecord(other as keyof typeof RECORD_KINDS, key)).toBeUndefined()
      expect(parseRecord(k, `${key}/extra`)).toBeUndefined()
    }
  })

  it('keys are what earlier versions wrote, so their records keep being read', () => {
    expect(recordKey('route', { project: 'p/1', job: 'j 2' })).toBe('route/p%2F1/j%202')
    expect(recordKey('opened', { project: 'proj-1', job: 'created-1' })).toBe(
      'opened/proj-1/created-1'
    )
    expect(parseRecord('route', '%E0%A4%A/p/j')).toBeUndefined()
    expect(claimOf('nonsense/p')).toBeUndefined()
  })

  it('an `asked` record written before it named its cause is read, the cause empty (issue 50)', () => {
    const before =
      'asked/p/j/1/octocat/https%3A%2F%2Fgithub.com%2Fo%2Fr%2Fissues%2F5/2026-11-02T10%3A00%3A00.000Z'
    expect(parseRecord('asked', before)).toEqual({
      project: 'p',
      job: 'j',
      n: '1',
      who: 'octocat',
      where: 'https://github.com/o/r/issues/5',
      when: '2026-11-02T10:00:00.000Z',
      how: '',
      title: '',
      label: '',
      unlinked: ''
    })
    // A part fewer than that is no record; the parts added later may only be left off the end.
    expect(parseRecord('asked', before.slice(0, before.lastIndexOf('/')))).toBeUndefined()
    expect(parseRecord('route', 'route/p')).toBeUndefined()
  })
})

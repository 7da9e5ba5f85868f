// Unit tier: signed comment markers: made, verified, copies refused.
import { describe, it, expect } from '@jest/globals'
import { makeMarker, markerKey, verifiedMarkers, type Place } from '../src/github/markers.js'
import { PLACE, SECRET } from './github-support.js'

/** When the marker was written (its signed time). */
const ID = 1_732_450_000_000
const verifiedKeys = (body: string, secret: string, place: Place, _at?: number): string[] =>
  verifiedMarkers(body, secret, place).map(x => x.key)

describe('markers', () => {
  it('round-trips a key through a signed marker', () => {
    const key = markerKey('job', 'proj', 'job-123')
    const marker = makeMarker(key, SECRET, PLACE, ID)
    expect(marker).toMatch(/^<!-- docs-agent:job%2Fproj%2Fjob-123 t=\d+ sig=[0-9a-f]{32} -->$/)
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
    expect(verifiedMarkers(makeMarker('k', SECRET, PLACE, ID), SECRET, PLACE)).toEqual([
      { key: 'k', at: ID }
    ])
  })

  it('refuses to sign without a secret and trusts nothing without one', () => {
    expect(() => makeMarker('k', '', PLACE, ID)).toThrow(/secret/)
    expect(verifiedKeys(makeMarker('k', SECRET, PLACE, ID), '', PLACE, ID)).toEqual([])
  })
})

describe('markers of version 1.0.0', () => {
  it('a marker signed over the comment id still verifies on that comment, as the oldest', async () => {
    const { createHmac } = await import('node:crypto')
    const id = 4242
    const sig = createHmac('sha256', SECRET)
      .update(`${PLACE.owner}/${PLACE.repo}#${PLACE.issueNumber}\n${id}\nroute/p/j`)
      .digest('hex')
      .slice(0, 32)
    const old = `<!-- docs-agent:route%2Fp%2Fj sig=${sig} -->`
    expect(verifiedMarkers(old, SECRET, PLACE, id)).toEqual([{ key: 'route/p/j', at: 0 }])
    // Copied onto another comment, it does not.
    expect(verifiedMarkers(old, SECRET, PLACE, id + 1)).toEqual([])
  })
})

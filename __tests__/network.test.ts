// Unit tier: why a request got no answer (src/network.ts), read from errors as `tunnel` (the
// service's tunnels), Node's sockets and undici (GitHub's fetch) report them, and the one fix.
import { describe, it, expect } from '@jest/globals'
import {
  causeFix,
  causeWords,
  isFinal,
  networkOf,
  readCause,
  UnreachedError
} from '../src/network.js'
import { chooseProxy, proxyFor } from '../src/proxy.js'
import { call } from '../src/github/errors.js'

const proxy = proxyFor('https://api.example.test', { HTTPS_PROXY: 'proxy.corp:8080' })!
const target = new URL('https://api.example.test/v1/x')
const withCode = (message: string, code?: string, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? {} : { cause }), code ? { code } : {})

describe('readCause', () => {
  it.each([
    ['tunnel', withCode('tunneling socket could not be established, statusCode=407', 'ECONNRESET')],
    [
      'undici',
      withCode(
        'fetch failed',
        undefined,
        withCode('Proxy response (407) !== 200 when HTTP Tunneling')
      )
    ]
  ])('a proxy’s 407 as %s says it', (_, err) => {
    const cause = readCause(err, { target, proxy })
    expect(cause).toEqual({
      kind: 'proxy-status',
      proxy: 'proxy.corp:8080',
      variable: 'HTTPS_PROXY',
      target: 'api.example.test:443',
      status: 407
    })
    expect(causeFix(cause!)).toContain('`HTTPS_PROXY` as `http://user:pass@proxy.corp:8080`')
    expect(causeFix(cause!)).toContain('api.example.test in `NO_PROXY`')
  })

  it('a refused connection is the proxy’s when there is one, else the target’s', () => {
    const refused = withCode('connect ECONNREFUSED 10.0.0.1:8080', 'ECONNREFUSED')
    expect(readCause(refused, { target, proxy })).toMatchObject({ kind: 'proxy-unreachable' })
    expect(causeWords(readCause(refused, { target, proxy })!)).toBe(
      'nobody answers at the proxy proxy.corp:8080 (ECONNREFUSED: the connection was refused)'
    )
    expect(readCause(refused, { target })).toMatchObject({
      kind: 'unreachable',
      target: 'api.example.test:443'
    })
    const fix = causeFix(readCause(refused, { target })!, '`base-url`')
    expect(fix).toBe('Nothing answers at api.example.test:443: check `base-url`')
  })

  it('a TLS failure passes its code through; an untrusted authority points at NODE_EXTRA_CA_CERTS', () => {
    const untrusted = readCause(
      withCode('self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN'),
      { target, proxy }
    )!
    expect(causeWords(untrusted)).toContain('(SELF_SIGNED_CERT_IN_CHAIN)')
    expect(causeFix(untrusted)).toContain('`NODE_EXTRA_CA_CERTS`')
    const wrong = readCause(withCode('write EPROTO wrong version number', 'EPROTO'), { target })!
    expect(wrong).toMatchObject({ kind: 'tls', code: 'EPROTO' })
    expect(causeFix(wrong)).not.toContain('NODE_EXTRA_CA_CERTS')
  })

  it('a reset or a timeout shows no cause; a carried cause is found through the chain', () => {
    expect(readCause(withCode('socket hang up', 'ECONNRESET'), { target, proxy })).toBeUndefined()
    const cause = readCause(withCode('x', 'ECONNREFUSED'), { target })!
    expect(networkOf(new Error('outer', { cause: new UnreachedError(cause) }))).toEqual(cause)
    expect(networkOf(new Error('plain'))).toBeUndefined()
  })
})

describe('a web page where GitHub’s API should be', () => {
  it('a 404 in HTML names GITHUB_API_URL, not the page, nor issue-number', async () => {
    // As octokit's RequestError carries it: an Error with the status and the response.
    const page = Object.assign(new Error('Not Found'), {
      status: 404,
      response: { headers: { 'content-type': 'text/html; charset=utf-8' }, data: '<html>…</html>' }
    })
    const err = await call('commenting on #7', () => Promise.reject(page)).catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 404, page: true })
    expect(String((err as Error).message)).toContain('`GITHUB_API_URL` leads to a web page')
    expect(String((err as Error).message)).not.toContain('<html>')
  })
})

describe('the causes a newcomer meets, each in its own words', () => {
  it('an https:// proxy address for a proxy that speaks http: the TLS to the proxy failed', () => {
    const https = proxyFor('https://api.example.test', { HTTPS_PROXY: 'https://proxy.corp:8080' })!
    // As `tunnel` reports it (the service), and as undici does (GitHub).
    const tunnel = withCode(
      'tunneling socket could not be established, cause=write EPROTO 80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
      'ECONNRESET'
    )
    const undici = withCode(
      'fetch failed',
      undefined,
      withCode('0A00010B:wrong version number', 'ERR_SSL_WRONG_VERSION_NUMBER')
    )
    for (const err of [tunnel, undici]) {
      const cause = readCause(err, { target, proxy: https })!
      expect(cause).toMatchObject({ kind: 'proxy-tls', proxy: 'proxy.corp:8080' })
      expect(causeWords(cause)).toContain(
        'is given as https:// in `HTTPS_PROXY`, but it answers in plain http'
      )
      expect(causeFix(cause)).toContain(
        'Write the proxy as `http://proxy.corp:8080` in `HTTPS_PROXY`'
      )
      expect(isFinal(cause)).toBe(true)
    }
    // Through an http:// proxy, the same failure is the target's TLS, not the proxy's.
    expect(readCause(withCode('wrong version number', 'EPROTO'), { target, proxy })).toMatchObject({
      kind: 'tls'
    })
  })

  it('a tunnel the proxy opened and then closed: its own words, and it may pass (retried)', () => {
    const dropped = withCode(
      'Client network socket disconnected before secure TLS connection was established',
      'ECONNRESET'
    )
    const cause = readCause(dropped, { target, proxy })!
    expect(cause).toEqual({
      kind: 'proxy-dropped',
      proxy: 'proxy.corp:8080',
      target: 'api.example.test:443'
    })
    expect(causeWords(cause)).toBe(
      'the proxy proxy.corp:8080 opened the tunnel to api.example.test:443, then closed it before an answer came'
    )
    expect(isFinal(cause)).toBe(false)
  })

  it('a 502 or 504 to the tunnel: a host the proxy cannot reach, most often a typo in `base-url`', () => {
    for (const status of [502, 504]) {
      const cause = readCause(
        withCode(`tunneling socket could not be established, statusCode=${status}`),
        {
          target: new URL('https://api.mintlfy.com/v1'),
          proxy
        }
      )!
      expect(causeWords(cause)).toMatch(
        new RegExp(`could not reach api\\.mintlfy\\.com:443 \\(it answered ${status}`)
      )
      const fix = causeFix(cause, '`base-url`')
      expect(fix).toMatch(/^Check the host api\.mintlfy\.com in `base-url`/)
      expect(fix).not.toContain('administrators')
      expect(isFinal(cause)).toBe(true)
    }
  })

  it('a direct connection `NO_PROXY` chose names the entry that chose it', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:8080', NO_PROXY: 'intranet, .example.test' }
    const way = chooseProxy('https://api.example.test/v1', env)
    expect(way).toEqual({ bypass: { entry: '.example.test', proxy: 'proxy.corp:8080' } })
    const cause = readCause(withCode('connect ECONNREFUSED 10.1.1.1:443', 'ECONNREFUSED'), {
      target,
      ...way
    })!
    expect(causeWords(cause)).toBe(
      'nobody answers at api.example.test:443 (ECONNREFUSED: the connection was refused); it was reached directly, not through the proxy proxy.corp:8080, because the `NO_PROXY` entry `.example.test` matches it'
    )
    expect(causeFix(cause)).toMatch(/^Take `\.example\.test` out of `NO_PROXY`/)
    // No proxy set at all: nothing bypassed, nothing to name.
    expect(chooseProxy('https://api.example.test', { NO_PROXY: '*' })).toEqual({})
  })

  it('final: a proxy’s refusal, nobody at it, a refused certificate, a name that does not resolve', () => {
    const status = (n: number) => ({
      kind: 'proxy-status' as const,
      proxy: 'p:1',
      variable: 'HTTPS_PROXY',
      target: 't:443',
      status: n
    })
    for (const n of [403, 405, 407, 502]) expect(isFinal(status(n))).toBe(true)
    expect(
      isFinal({
        kind: 'proxy-unreachable',
        proxy: 'p:1',
        variable: 'HTTPS_PROXY',
        code: 'ECONNREFUSED'
      })
    ).toBe(true)
    expect(isFinal({ kind: 'tls', target: 't:443', code: 'SELF_SIGNED_CERT_IN_CHAIN' })).toBe(true)
    expect(isFinal({ kind: 'unreachable', target: 't:443', code: 'ENOTFOUND' })).toBe(true)
    expect(isFinal({ kind: 'unreachable', target: 't:443', code: 'ECONNREFUSED' })).toBe(false)
  })
})

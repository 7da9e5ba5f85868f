// Unit tier: why a request got no answer (src/network.ts), read from errors as `tunnel` (the
// service's tunnels), Node's sockets and undici (GitHub's fetch) report them, and the one fix.
import { describe, it, expect } from '@jest/globals'
import { causeFix, causeWords, networkOf, readCause, UnreachedError } from '../src/network.js'
import { proxyFor } from '../src/proxy.js'
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

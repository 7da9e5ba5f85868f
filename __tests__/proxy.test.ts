// Unit tier: which proxy a request goes through (src/proxy.ts).
import { describe, it, expect } from '@jest/globals'
import {
  bypasses,
  plainSecretRefusal,
  proxyFor,
  proxyProblems,
  readProxyUrl
} from '../src/proxy.js'

describe('proxyFor', () => {
  it('reads HTTPS_PROXY for https and HTTP_PROXY for http, either case, a scheme-less value as http://', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:8080', http_proxy: 'http://plain.corp:3128' }
    expect(proxyFor('https://api.mintlify.com', env)?.hostPort).toBe('proxy.corp:8080')
    expect(proxyFor('https://api.mintlify.com', env)?.url.protocol).toBe('http:')
    expect(proxyFor('http://docs.internal:9/x', env)?.hostPort).toBe('plain.corp:3128')
    expect(proxyFor('https://x.test', { https_proxy: '127.0.0.1:1' })?.hostPort).toBe('127.0.0.1:1')
    expect(proxyFor('https://x.test', {})).toBeUndefined()
    expect(proxyFor('http://x.test', { HTTPS_PROXY: 'p:1' })).toBeUndefined()
  })

  it('a lower-case variable set to nothing does not hide the upper-case one', () => {
    const env = { https_proxy: '', HTTPS_PROXY: 'proxy.corp:8080', no_proxy: '' }
    expect(proxyFor('https://api.mintlify.com/v1', env)?.hostPort).toBe('proxy.corp:8080')
  })

  // Issue 41: a local sidecar's key must not travel to a corporate proxy. The test proxy is
  // loopback, so loopback targets still go through a loopback proxy unless NO_PROXY lists them.
  it('proxies a loopback target only through a loopback proxy, unless NO_PROXY lists it', () => {
    expect(proxyFor('http://127.0.0.1:5/', { HTTP_PROXY: '127.0.0.1:1' })?.hostPort).toBe(
      '127.0.0.1:1'
    )
    expect(proxyFor('http://127.0.0.1:5/', { HTTP_PROXY: 'p:1' })).toBeUndefined()
    expect(proxyFor('http://localhost:5/', { HTTP_PROXY: 'proxy.corp:8080' })).toBeUndefined()
    expect(
      proxyFor('http://127.0.0.1:5/', { HTTP_PROXY: '127.0.0.1:1', no_proxy: '127.0.0.1' })
    ).toBe(undefined)
  })

  it('refuses a secret over plain http through a proxy that is not loopback, naming NO_PROXY', () => {
    const corp = proxyFor('http://ghe.corp/api/v3', { HTTP_PROXY: 'proxy.corp:8080' })
    expect(plainSecretRefusal('http://ghe.corp/api/v3', corp, '`GITHUB_API_URL`')).toMatch(
      /^`GITHUB_API_URL` is plain http .*proxy\.corp:8080.*ghe\.corp in `NO_PROXY`/
    )
    const local = proxyFor('http://ghe.corp/api/v3', { HTTP_PROXY: '127.0.0.1:3128' })
    expect(plainSecretRefusal('http://ghe.corp/api/v3', local, 'x')).toBeUndefined()
    const tls = proxyFor('https://ghe.corp/api/v3', { HTTPS_PROXY: 'proxy.corp:8080' })
    expect(plainSecretRefusal('https://ghe.corp/api/v3', tls, 'x')).toBeUndefined()
    expect(plainSecretRefusal('http://ghe.corp/api/v3', undefined, 'x')).toBeUndefined()
  })

  it.each([
    ['*', 'https://api.mintlify.com', true],
    ['api.mintlify.com', 'https://api.mintlify.com', true],
    ['mintlify.com', 'https://api.mintlify.com', true],
    ['.mintlify.com', 'https://api.mintlify.com', true],
    ['api.mintlify.com:443', 'https://api.mintlify.com', true],
    ['api.mintlify.com:8443', 'https://api.mintlify.com', false],
    ['other.com, ghe.corp', 'https://ghe.corp/api/v3', true],
    ['lify.com', 'https://api.mintlify.com', false],
    ['', 'https://api.mintlify.com', false]
  ])('NO_PROXY %j for %s: bypassed %s', (noProxy, target, expected) => {
    expect(bypasses(new URL(target), noProxy)).toBe(expected)
  })

  it('says a value that is no proxy address instead of ignoring it', () => {
    expect(readProxyUrl('socks5://p:1')).toBeUndefined()
    expect(proxyProblems({ HTTPS_PROXY: 'socks5://p:1' })).toEqual([
      expect.stringContaining('`HTTPS_PROXY` is set but is not a proxy address')
    ])
    expect(proxyProblems({ HTTPS_PROXY: 'proxy.corp:8080' })).toEqual([])
  })

  it('keeps credentials for the agent and never in hostPort', () => {
    const p = proxyFor('https://x.test', { HTTPS_PROXY: 'http://u:p%40ss@proxy.corp:8080' })
    expect(p?.hostPort).toBe('proxy.corp:8080')
    expect(p?.url.password).toBe('p%40ss')
  })
})

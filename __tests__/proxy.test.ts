// Unit tier: which proxy a request goes through (src/proxy.ts).
import { describe, it, expect } from '@jest/globals'
import { bypasses, proxyFor, proxyProblems, readProxyUrl } from '../src/proxy.js'

describe('proxyFor', () => {
  it('reads HTTPS_PROXY for https and HTTP_PROXY for http, either case, a scheme-less value as http://', () => {
    const env = { HTTPS_PROXY: 'proxy.corp:8080', http_proxy: 'http://plain.corp:3128' }
    expect(proxyFor('https://api.mintlify.com', env)?.hostPort).toBe('proxy.corp:8080')
    expect(proxyFor('https://api.mintlify.com', env)?.url.protocol).toBe('http:')
    expect(proxyFor('http://127.0.0.1:9/x', env)?.hostPort).toBe('plain.corp:3128')
    expect(proxyFor('https://x.test', { https_proxy: '127.0.0.1:1' })?.hostPort).toBe('127.0.0.1:1')
    expect(proxyFor('https://x.test', {})).toBeUndefined()
    expect(proxyFor('http://x.test', { HTTPS_PROXY: 'p:1' })).toBeUndefined()
  })

  it('a lower-case variable set to nothing does not hide the upper-case one', () => {
    const env = { https_proxy: '', HTTPS_PROXY: 'proxy.corp:8080', no_proxy: '' }
    expect(proxyFor('https://api.mintlify.com/v1', env)?.hostPort).toBe('proxy.corp:8080')
  })

  it('proxies loopback unless NO_PROXY lists it', () => {
    expect(proxyFor('http://127.0.0.1:5/', { HTTP_PROXY: 'p:1' })?.hostPort).toBe('p:1')
    expect(proxyFor('http://127.0.0.1:5/', { HTTP_PROXY: 'p:1', no_proxy: '127.0.0.1' })).toBe(
      undefined
    )
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

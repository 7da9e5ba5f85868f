// Which proxy a request goes through (contract: "Proxies and GitHub Enterprise Server"), decided
// here once for the service and for GitHub from the variables main.ts hands in. Ours, not the
// toolkit's: @actions/http-client never proxies a loopback host (so no test could go through a
// proxy) and reads `proxy.corp:8080` as a URL of scheme `proxy.corp:`, using no proxy in silence.

/** The proxy variables, as the runner passes them (either case). */
export type ProxyEnv = Readonly<Record<string, string | undefined>>

export interface Proxy {
  /** The proxy's address, credentials included when given: for the agent only, never shown. */
  url: URL
  /** `host:port`, as logs and the check say it (never the credentials). */
  hostPort: string
}

/**
 * The variable's value, lower-case name first (as curl reads them), else the upper-case one; a
 * name set to nothing does not hide the other.
 */
function variable(env: ProxyEnv, name: string): string {
  return (env[name.toLowerCase()]?.trim() || env[name.toUpperCase()]?.trim()) ?? ''
}

/** A proxy value as a URL: `proxy.corp:8080` (no scheme) is `http://proxy.corp:8080`. */
export function readProxyUrl(value: string): URL | undefined {
  if (value === '') return undefined
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  try {
    const url = new URL(text)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
      return undefined
    return url
  } catch {
    return undefined
  }
}

function hostPortOf(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`
}

/**
 * `NO_PROXY` names the target: `*`, the host, `host:port`, or a domain (`example.com` and
 * `.example.com` both cover its subdomains). A loopback host is proxied unless it is listed.
 */
export function bypasses(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  return noProxy
    .split(/[\s,]+/)
    .map(entry => entry.trim().toLowerCase())
    .filter(entry => entry !== '')
    .some(entry => {
      if (entry === '*') return true
      const m = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(entry)
      if (!m) return false
      const name = (m[1] ?? '').replace(/^\[|\]$/g, '').replace(/^\*?\./, '')
      if (m[2] !== undefined && m[2] !== port) return false
      return host === name || host.endsWith(`.${name}`)
    })
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: string | URL, env: ProxyEnv): Proxy | undefined {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return undefined
  }
  const name = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'
  const proxy = readProxyUrl(variable(env, name))
  if (!proxy || bypasses(url, variable(env, 'NO_PROXY'))) return undefined
  return { url: proxy, hostPort: hostPortOf(proxy) }
}

/** A proxy variable set to something no request can use: said, never ignored in silence. */
export function proxyProblems(env: ProxyEnv): string[] {
  return ['HTTPS_PROXY', 'HTTP_PROXY'].flatMap(name => {
    const value = variable(env, name)
    return value !== '' && !readProxyUrl(value)
      ? [`\`${name}\` is set but is not a proxy address (\`http://host:port\`): it is not used.`]
      : []
  })
}

/** `user:password` of a proxy address, decoded, for its authorization; '' when none. */
export function proxyCredentials(proxy: Proxy): string {
  const { username, password } = proxy.url
  if (!username && !password) return ''
  return `${decodeURIComponent(username)}:${decodeURIComponent(password)}`
}

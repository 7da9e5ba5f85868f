// Which proxy a request goes through (contract: "Proxies and GitHub Enterprise Server"), decided
// here once for the service and for GitHub from the variables main.ts hands in. Ours, not the
// toolkit's: @actions/http-client never proxies a loopback host (so no test could go through a
// proxy) and reads `proxy.corp:8080` as a URL of scheme `proxy.corp:`, using no proxy in silence.
// A loopback target goes through a proxy only when the proxy is loopback too (a local sidecar's
// key must not travel to a corporate proxy), and a secret never crosses a proxy that is not
// loopback in plain http.

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
 * The `NO_PROXY` entry that names the target, if one does: `*`, the host, `host:port`, or a domain
 * (`example.com` and `.example.com` both cover its subdomains). As written, for a message to quote.
 */
export function bypassEntry(target: URL, noProxy: string): string | undefined {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  return noProxy
    .split(/[\s,]+/)
    .map(entry => entry.trim())
    .filter(entry => entry !== '')
    .find(written => {
      const entry = written.toLowerCase()
      if (entry === '*') return true
      const m = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(entry)
      if (!m) return false
      const name = (m[1] ?? '').replace(/^\[|\]$/g, '').replace(/^\*?\./, '')
      if (m[2] !== undefined && m[2] !== port) return false
      return host === name || host.endsWith(`.${name}`)
    })
}

/** Whether `NO_PROXY` names the target (bypassEntry finds an entry). */
export function bypasses(target: URL, noProxy: string): boolean {
  return bypassEntry(target, noProxy) !== undefined
}

/** The variable that names the proxy for a target: `HTTPS_PROXY` for https, else `HTTP_PROXY`. */
export function proxyVariable(target: URL): 'HTTPS_PROXY' | 'HTTP_PROXY' {
  return target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'
}

/**
 * A proxy the variables name that a target does not go through, because `NO_PROXY` names it:
 * what a failed direct connection says, since the user may not know the entry sent it there.
 */
export interface Bypass {
  /** The `NO_PROXY` entry that matched, as written. */
  entry: string
  /** `host:port` of the proxy not used. */
  proxy: string
}

/** How requests to a target go: through `proxy`, or direct (`bypass`: because of `NO_PROXY`). */
export interface ProxyChoice {
  proxy?: Proxy
  bypass?: Bypass
}

/**
 * How a request to `target` goes: through the proxy its variable names, or direct, because none
 * is set, `NO_PROXY` names the target (said in `bypass`), or the target is loopback and the
 * proxy is not.
 */
export function chooseProxy(target: string | URL, env: ProxyEnv): ProxyChoice {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return {}
  }
  const proxy = readProxyUrl(variable(env, proxyVariable(url)))
  if (!proxy) return {}
  const entry = bypassEntry(url, variable(env, 'NO_PROXY'))
  if (entry !== undefined) return { bypass: { entry, proxy: hostPortOf(proxy) } }
  if (isLoopback(url.hostname) && !isLoopback(proxy.hostname)) return {}
  return { proxy: { url: proxy, hostPort: hostPortOf(proxy) } }
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: string | URL, env: ProxyEnv): Proxy | undefined {
  return chooseProxy(target, env).proxy
}

/**
 * Why a secret may not go to `target` through `proxy`: plain http through a proxy that is not
 * loopback shows it to that proxy (and to the network before it). Undefined when it may.
 */
export function plainSecretRefusal(
  address: string,
  proxy: Proxy | undefined,
  setting: string
): string | undefined {
  if (!proxy || isLoopback(proxy.url.hostname)) return undefined
  let target: URL
  try {
    target = new URL(address)
  } catch {
    return undefined
  }
  if (target.protocol !== 'http:') return undefined
  return (
    `${setting} is plain http (${target.origin}) and the proxy ${proxy.hostPort} (\`HTTP_PROXY\`) ` +
    'is not on this machine: the secret sent with each request would cross the network in clear. ' +
    `Nothing was sent. Use an https address, or list ${target.hostname} in \`NO_PROXY\` to reach it directly.`
  )
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

/** 127.0.0.0/8, ::1 or localhost: the hosts a plain `http://` address may name. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

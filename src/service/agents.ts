// The connections a request to the service goes through: direct, or through the proxy that
// proxy.ts chose. An https target is reached through a CONNECT tunnel (the `tunnel` agents the
// toolkit's HTTP client uses); an http one (loopback only, by `base-url`'s rule) is asked of the
// proxy as an absolute URI, as proxies expect for plain http.
import http from 'node:http'
import https from 'node:https'
import * as tunnel from 'tunnel'
import { proxyCredentials, type Bypass, type ProxyChoice, type Proxy } from '../proxy.js'

export interface Route {
  agent: http.Agent
  /** Set for an http target through a proxy: the request goes to it, naming the whole URL. */
  forward?: Proxy
  /** The proxy the request goes through (tunnel or forward), if any: what a failure names. */
  proxy?: Proxy
  /** Direct although a proxy is set: the `NO_PROXY` entry that chose it, for a failure to name. */
  bypass?: Bypass
}

export class Agents {
  private readonly made = new Map<string, http.Agent>()

  constructor(
    private readonly way: ProxyChoice,
    private readonly keepAlive: boolean
  ) {}

  routeOf(url: URL): Route {
    const tls = url.protocol === 'https:'
    const { proxy, bypass } = this.way
    if (!proxy) return { agent: this.plain(tls), ...(bypass ? { bypass } : {}) }
    if (tls) return { agent: this.tunnel(proxy), proxy }
    return { agent: this.plain(proxy.url.protocol === 'https:'), forward: proxy, proxy }
  }

  private plain(tls: boolean): http.Agent {
    return this.once(tls ? 'https' : 'http', () =>
      tls
        ? new https.Agent({ keepAlive: this.keepAlive })
        : new http.Agent({ keepAlive: this.keepAlive })
    )
  }

  /** A CONNECT tunnel through the proxy, TLS inside it. */
  private tunnel(proxy: Proxy): http.Agent {
    return this.once('tunnel', () => {
      const auth = proxyCredentials(proxy)
      const options = {
        maxSockets: 100,
        proxy: {
          host: proxy.url.hostname.replace(/^\[|\]$/g, ''),
          port: Number(proxy.hostPort.slice(proxy.hostPort.lastIndexOf(':') + 1)),
          ...(auth ? { proxyAuth: auth } : {})
        }
      }
      return proxy.url.protocol === 'https:'
        ? tunnel.httpsOverHttps(options)
        : tunnel.httpsOverHttp(options)
    })
  }

  private once(key: string, make: () => http.Agent): http.Agent {
    let agent = this.made.get(key)
    if (!agent) this.made.set(key, (agent = make()))
    return agent
  }

  dispose(): void {
    for (const agent of this.made.values()) agent.destroy?.()
    this.made.clear()
  }
}

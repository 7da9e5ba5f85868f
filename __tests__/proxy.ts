// Test support: a small forwarding proxy on loopback, for the proxy tests (contract: "Proxies and
// GitHub Enterprise Server"). It takes CONNECT tunnels (how clients reach https:// through a
// proxy) and absolute-URI requests (`GET http://host:port/path`, how they reach http://), counts
// each, and forwards only to loopback: a test can never reach out. `hosts` maps a name to a
// loopback port, so a scenario may use a name (`api.example.test`) that only the proxy resolves.
import http from 'node:http'
import net from 'node:net'

export interface ProxyHit {
  /** `CONNECT` for a tunnel, else the request's method. */
  method: string
  /** host:port asked for (as the client wrote it). */
  target: string
  /** The path, for an absolute-URI request; empty for a tunnel. */
  path: string
  /** A Proxy-Authorization header was sent (its value is never kept). */
  authorized: boolean
}

export interface TestProxy {
  url: string
  port: number
  hits: ProxyHit[]
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

export async function startProxy(hosts: Record<string, number> = {}): Promise<TestProxy> {
  const hits: ProxyHit[] = []
  const sockets = new Set<net.Socket>()
  /** Where a host:port goes, or undefined when it is not loopback nor a mapped name. */
  const resolve = (hostPort: string): { host: string; port: number } | undefined => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostPort)
    if (!m) return undefined
    const name = (m[1] ?? '').toLowerCase()
    const port = Number(m[2] ?? 80)
    if (hosts[name] !== undefined) return { host: '127.0.0.1', port: hosts[name] }
    return LOOPBACK.has(name) ? { host: name.replace(/^\[|\]$/g, ''), port } : undefined
  }

  const server = http.createServer((req, res) => {
    let target: URL
    try {
      target = new URL(req.url ?? '')
    } catch {
      res.writeHead(400).end('absolute URI required')
      return
    }
    hits.push({
      method: req.method ?? 'GET',
      target: target.host,
      path: target.pathname + target.search,
      authorized: req.headers['proxy-authorization'] !== undefined
    })
    const to = resolve(target.host)
    if (!to) {
      res.writeHead(403).end('the test proxy forwards to loopback only')
      return
    }
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    delete headers['proxy-connection']
    const upstream = http.request(
      { ...to, method: req.method, path: target.pathname + target.search, headers },
      answer => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? ''
    hits.push({
      method: 'CONNECT',
      target,
      path: '',
      authorized: req.headers['proxy-authorization'] !== undefined
    })
    const to = resolve(target)
    if (!to) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
      return
    }
    const upstream = net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => ok())
  })
  const port = (server.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>(done => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      })
  }
}

// Test support: a small forwarding proxy on loopback, for the proxy tests (contract: "Proxies and
// GitHub Enterprise Server"). It takes CONNECT tunnels (how clients reach https:// through a
// proxy) and absolute-URI requests (`GET http://host:port/path`, how they reach http://), counts
// each, and forwards only to loopback: a test can never reach out. `hosts` maps a name to a
// loopback port, so a scenario may use a name (`api.example.test`) that only the proxy resolves.
import http from 'node:http'
import net from 'node:net'
import tls from 'node:tls'

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

/** How the proxy behaves besides forwarding: a corporate proxy's refusals. */
export interface ProxyOptions {
  /** `user:password` it wants (`Proxy-Authorization: Basic …`), else 407 to anything without. */
  credentials?: string
  /** Refuse every CONNECT with 405 (a proxy that allows no tunnels). */
  noTunnels?: boolean
  /**
   * Open each tunnel, then answer TLS inside it with its own certificate (a proxy that inspects
   * TLS, whose CA the runner does not trust): nothing reaches the target.
   */
  inspectTls?: boolean
  /** Open each tunnel (200), then close it at once: a proxy that drops tunnels. */
  dropTunnels?: boolean
  /**
   * Answer a tunnel to a name it cannot resolve (neither loopback nor mapped) with this status and
   * its own error page, as corporate proxies do for a misspelt host, instead of 403.
   */
  unknownHosts?: 502 | 504
}

/**
 * The inspecting proxy's certificate: self-signed, for test names only (localhost, 127.0.0.1,
 * api.example.test, ghe.example.test), made for these tests and trusted by nothing.
 */
const INSPECTION_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+6CaVVRLCZf2Nw/U
5JryrU18IAgTarXzIv/lPImqbKWhRANCAARRXltLn820CROYuof5bp72vP8b58c7
443No//gsFEYXVuAyIwHUhhNHbmJmCadrGsvFH5z2tdlddxGDo4QbWsR
-----END PRIVATE KEY-----`
const INSPECTION_CERT = `-----BEGIN CERTIFICATE-----
MIIB1DCCAXugAwIBAgIUbNc5bL1AT55InOGs5BkcmiC0qG4wCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTQ29ycCBUTFMgSW5zcGVjdGlvbjAgFw0yNjExMjgwNjUyNTBa
GA8yMTI2MTEwNDA2NTI1MFowHjEcMBoGA1UEAwwTQ29ycCBUTFMgSW5zcGVjdGlv
bjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABFFeW0ufzbQJE5i6h/lunva8/xvn
xzvjjc2j/+CwURhdW4DIjAdSGE0duYmYJp2say8UfnPa12V13EYOjhBtaxGjgZQw
gZEwHQYDVR0OBBYEFGt1qGm5vIzVITsu5mcoU0+rX0I+MB8GA1UdIwQYMBaAFGt1
qGm5vIzVITsu5mcoU0+rX0I+MA8GA1UdEwEB/wQFMAMBAf8wPgYDVR0RBDcwNYIJ
bG9jYWxob3N0hwR/AAABghBhcGkuZXhhbXBsZS50ZXN0ghBnaGUuZXhhbXBsZS50
ZXN0MAoGCCqGSM49BAMCA0cAMEQCIHdAE48uWhMAkKgRyNaF1DYdoDavDcauQx5p
ElETQ6rTAiAW+coV3sw4RcucG3ZaJJE0LUgD8F7AWP60PglLkSbhTQ==
-----END CERTIFICATE-----`

export async function startProxy(
  hosts: Record<string, number> = {},
  options: ProxyOptions = {}
): Promise<TestProxy> {
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

  const wanted =
    options.credentials === undefined
      ? undefined
      : `Basic ${Buffer.from(options.credentials).toString('base64')}`
  const admits = (req: http.IncomingMessage): boolean =>
    wanted === undefined || req.headers['proxy-authorization'] === wanted

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
    if (!admits(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end('credentials wanted')
      return
    }
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
    if (options.noTunnels) {
      client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n')
      return
    }
    if (!admits(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n'
      )
      return
    }
    if (options.dropTunnels) {
      client.end('HTTP/1.1 200 Connection Established\r\n\r\n')
      return
    }
    if (options.inspectTls) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      const inner = new tls.TLSSocket(client, {
        isServer: true,
        key: INSPECTION_KEY,
        cert: INSPECTION_CERT
      })
      inner.on('error', () => client.destroy())
      return
    }
    const to = resolve(target)
    if (!to && options.unknownHosts) {
      const page =
        '<html><body><h1>Unable to determine IP address from host name</h1></body></html>'
      const reason = options.unknownHosts === 502 ? 'Bad Gateway' : 'Gateway Timeout'
      client.end(
        `HTTP/1.1 ${options.unknownHosts} ${reason}\r\nContent-Type: text/html\r\n` +
          `Content-Length: ${page.length}\r\n\r\n${page}`
      )
      return
    }
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

/** A loopback port nobody listens on: a proxy (or a service) that is down. */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>(done => server.close(() => done()))
  return port
}

// The few functions of `tunnel` (a dependency of @actions/http-client) that service/agents.ts uses.
declare module 'tunnel' {
  import type { Agent } from 'node:http'
  interface TunnelOptions {
    maxSockets?: number
    proxy: { host: string; port: number; proxyAuth?: string }
  }
  export function httpsOverHttp(options: TunnelOptions): Agent
  export function httpsOverHttps(options: TunnelOptions): Agent
}

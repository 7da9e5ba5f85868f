// The REST client for comments, reactions and permissions, with a time limit on every call so
// that GitHub can never keep a run waiting past its deadline, through the proxy proxy.ts chose
// (undici's ProxyAgent, as @actions/github uses; its own choice would never proxy loopback and
// drops a proxy written without a scheme). A call that got no answer says why (network.ts): the
// proxy's status, nobody at the address, TLS; never a bare "fetch failed". After a cause a moment
// does not change (a proxy's 407, nobody at its address), no other call is sent that way: each
// says at once that it was not reached.
import { getOctokit } from '@actions/github'
import { fetch as proxiedFetch, ProxyAgent } from 'undici'
import type { Deadline } from '../deadline.js'
import { proxyCredentials, type Proxy, type ProxyChoice } from '../proxy.js'
import {
  isFinal,
  proxyRefusal,
  readCause,
  UnreachedError,
  type NetworkCause,
  type Way
} from '../network.js'
import { TOKEN_INPUT } from './errors.js'
import type { TokenInput } from './permissions.js'

export type Octokit = ReturnType<typeof getOctokit>

/** The run's deadline of each client: a listing starts no further page once it has passed. */
const deadlines = new WeakMap<Octokit, Deadline>()
/**
 * The cause that keeps every call of a way from GitHub, once one call found it: shared by the
 * clients the run makes on the same way (the workflow's token and `notify-token`).
 */
const unreached = new WeakMap<ProxyChoice, NetworkCause>()

/** Whether a listing may start another page: not once the run's `wait-timeout` has passed. */
export function mayListMore(octokit: Octokit): boolean {
  return !(deadlines.get(octokit)?.passed() ?? false)
}

/**
 * The signals that mark a read made within the run's time (readInTime): its time limit has no
 * floor, so it ends when `wait-timeout` does. octokit hands a call's `request.signal` to fetch as
 * it is, so the mark reaches the one time limit each call gets (a second limit would be a second
 * timer the test clock must wait for).
 */
const readsInTime = new WeakSet<AbortSignal>()

/**
 * A read of what the run follows once its job is done (check runs, annotations, deployments:
 * contract, "Gates that cannot be fooled"): it starts only while time is left and is cut when
 * time runs out, unlike the ending's writes, which keep their few seconds. `read` passes the
 * given `request` to its octokit call. Time running out, before or during it, is the one
 * TimeUpError, naming `waitingFor`.
 */
export async function readInTime<T>(
  octokit: Octokit,
  waitingFor: string,
  read: (request: { signal: AbortSignal }) => Promise<T>
): Promise<T> {
  const deadline = deadlines.get(octokit)
  if (deadline?.passed()) throw deadline.error(waitingFor)
  const { signal } = new AbortController()
  readsInTime.add(signal)
  try {
    return await read({ signal })
  } catch (err) {
    if (deadline?.passed()) throw deadline.error(waitingFor)
    throw err
  }
}

/** The longest any one call may take. */
const GITHUB_TIMEOUT_MS = 30_000
/**
 * The least a call gets, even once the run's time is up: the ending (a comment that still says
 * "working…") must still be written, but a GitHub that never answers costs only this.
 */
const GITHUB_MIN_TIMEOUT_MS = 5_000

/**
 * Each call gets what the run's `deadline` has left, between 5 s and 30 s, so a GitHub that never
 * answers cannot hold a run far past `wait-timeout`.
 */
export function createOctokit(
  token: string,
  /** The input the token came from: a refusal names it (github/permissions.ts). */
  input: TokenInput,
  apiUrl: string,
  userAgent: string,
  deadline: Deadline,
  choice: ProxyChoice = {}
): Octokit {
  const { proxy } = choice
  const base = proxy ? throughProxy(proxy) : fetch
  const timed: typeof fetch = (input, init) => {
    const known = unreached.get(choice)
    if (known) return Promise.reject(new UnreachedError(known, false))
    const inTime = init?.signal ? readsInTime.has(init.signal) : false
    const limit = deadline.limitCall(GITHUB_TIMEOUT_MS, inTime ? 0 : GITHUB_MIN_TIMEOUT_MS)
    const timeout = limit.signal
    const way = wayOf(input, choice)
    return base(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    })
      .catch((error: unknown) => {
        // Said as what happened: octokit would report a request it gave up on as "500 aborted".
        if (timeout.aborted && !init?.signal?.aborted)
          throw new Error(`no answer within ${Math.round(limit.ms / 1000)} s`, { cause: error })
        const network = way ? readCause(error, way) : undefined
        if (network && isFinal(network)) unreached.set(choice, network)
        throw network ? new UnreachedError(network) : error
      })
      .then(response => {
        // A 407 to a plain http request the proxy forwards is the proxy's answer, not GitHub's.
        const refusal =
          way?.target.protocol === 'http:' ? proxyRefusal(response.status, way) : undefined
        if (refusal) {
          unreached.set(choice, refusal)
          throw new UnreachedError(refusal)
        }
        return response
      })
      .finally(() => limit.end())
  }
  const octokit = getOctokit(token, {
    baseUrl: apiUrl,
    userAgent,
    request: { fetch: timed }
  })
  // Every failure carries the token's input, for what a 401 or 403 asks to change (errors.ts).
  octokit.hook.error('request', error => {
    throw Object.assign(error, { [TOKEN_INPUT]: input })
  })
  deadlines.set(octokit, deadline)
  return octokit
}

/** Where a call goes: its address, and the proxy on the way (or the `NO_PROXY` entry past it). */
function wayOf(input: Parameters<typeof fetch>[0], choice: ProxyChoice): Way | undefined {
  try {
    const target = new URL(input instanceof Request ? input.url : String(input))
    return { target, ...choice }
  } catch {
    return undefined
  }
}

/** fetch through `proxy`: undici's ProxyAgent (CONNECT for https, absolute URI for http). */
function throughProxy(proxy: Proxy): typeof fetch {
  const auth = proxyCredentials(proxy)
  const dispatcher = new ProxyAgent({
    uri: `${proxy.url.protocol}//${proxy.url.host}`,
    ...(auth ? { token: `Basic ${Buffer.from(auth).toString('base64')}` } : {})
  })
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    proxiedFetch(input as Parameters<typeof proxiedFetch>[0], {
      ...(init as Parameters<typeof proxiedFetch>[1]),
      dispatcher
    })) as unknown as typeof fetch
}

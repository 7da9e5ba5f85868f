// The REST client for comments, reactions and permissions, with a time limit on every call so
// that GitHub can never keep a run waiting past its deadline, and the proxy support of
// @actions/github kept.
import { getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'
import { Deadline } from '../deadline.js'

export type Octokit = ReturnType<typeof getOctokit>

/** The run's deadline of each client: a listing starts no further page once it has passed. */
const deadlines = new WeakMap<Octokit, Deadline>()

/** Whether a listing may start another page: not once the run's `wait-timeout` has passed. */
export function mayListMore(octokit: Octokit): boolean {
  return !(deadlines.get(octokit)?.passed() ?? false)
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
  apiUrl: string,
  userAgent: string,
  deadline: Deadline = new Deadline()
): Octokit {
  const base = (defaults.request?.fetch as typeof fetch | undefined) ?? fetch
  const timed: typeof fetch = (input, init) => {
    const limit = deadline.limitCall(GITHUB_TIMEOUT_MS, GITHUB_MIN_TIMEOUT_MS)
    const timeout = limit.signal
    return base(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    })
      .catch((error: unknown) => {
        // Said as what happened: octokit would report a request it gave up on as "500 aborted".
        if (timeout.aborted && !init?.signal?.aborted)
          throw new Error(`no answer within ${Math.round(limit.ms / 1000)} s`, { cause: error })
        throw error
      })
      .finally(() => limit.end())
  }
  const octokit = getOctokit(token, {
    baseUrl: apiUrl,
    userAgent,
    request: { ...defaults.request, fetch: timed }
  })
  deadlines.set(octokit, deadline)
  return octokit
}

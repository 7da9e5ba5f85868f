// The REST client for comments, reactions and permissions, with a time limit on every call so
// that GitHub can never keep a run waiting, and the proxy support of @actions/github kept.
import { getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'

export type Octokit = ReturnType<typeof getOctokit>

const GITHUB_TIMEOUT_MS = 30_000

export function createOctokit(token: string, apiUrl: string, userAgent: string): Octokit {
  const base = (defaults.request?.fetch as typeof fetch | undefined) ?? fetch
  const timed: typeof fetch = (input, init) =>
    base(input, {
      ...init,
      signal: init?.signal
        ? AbortSignal.any([init.signal, AbortSignal.timeout(GITHUB_TIMEOUT_MS)])
        : AbortSignal.timeout(GITHUB_TIMEOUT_MS)
    })
  return getOctokit(token, {
    baseUrl: apiUrl,
    userAgent,
    request: { ...defaults.request, fetch: timed }
  })
}

// When to retry a request and how long to wait first. The follow-up POST is not idempotent, so
// it is retried only when the service certainly did not take it; GETs retry every transient fault.

/** What became of one attempt, as far as retrying is concerned. */
export type Outcome =
  | { kind: 'answer'; status: number; retryAfter?: string }
  | { kind: 'network'; code: 'refused' | 'unreachable' | 'reset' | 'timeout' | 'other' }
  // A 2xx whose body was not the JSON we rely on (truncated, HTML), or JSON of the wrong shape
  // (`parsed`): the same answer would come again, so that one is not retried.
  | { kind: 'malformed'; status?: number; parsed?: boolean }
  // A 3xx: never followed, never retried (the service may have acted on the request first).
  | { kind: 'redirect'; status: number }

export function isRetryable(method: 'GET' | 'POST', outcome: Outcome): boolean {
  // A redirect answers the same way again; following it could send the key to another origin.
  if (outcome.kind === 'redirect') return false
  if (outcome.kind === 'malformed' && outcome.parsed) return false
  if (method === 'GET') {
    if (outcome.kind === 'answer') return outcome.status === 429 || outcome.status >= 500
    return true
  }
  // POST: retry only what proves the message was not taken.
  if (outcome.kind === 'answer') return outcome.status === 429 || outcome.status === 503
  if (outcome.kind === 'network')
    return outcome.code === 'refused' || outcome.code === 'unreachable'
  return false
}

/** True when a POST outcome leaves it unknown whether the service took the message. */
export function mayHaveBeenDelivered(outcome: Outcome): boolean {
  if (outcome.kind === 'network')
    return outcome.code !== 'refused' && outcome.code !== 'unreachable'
  if (outcome.kind === 'answer') return outcome.status >= 500 && outcome.status !== 503
  // Whoever answered with a redirect may have acted on the POST before answering.
  if (outcome.kind === 'redirect') return true
  // A 2xx, however odd its body: the service took the message.
  return false
}

/**
 * Delay before retry number `attempt` (1 for the first retry): exponential from `baseMs`, capped
 * at `capMs`, with "equal jitter" (half fixed, half random) so parallel clients spread out.
 */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random
): number {
  const exp = Math.min(capMs, baseMs * 2 ** (attempt - 1))
  return Math.round(exp / 2 + random() * (exp / 2))
}

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/** Node's error codes, sorted by what they prove about delivery. */
export function networkCode(
  err: unknown
): 'refused' | 'unreachable' | 'reset' | 'timeout' | 'other' {
  const e = err as { code?: string; message?: string }
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'unreachable'
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return 'reset'
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'timeout'
  }
  if (e.message?.startsWith('Request timeout')) return 'timeout'
  return 'other'
}

// GitHub's failures as the log may show them: the call, the status, GitHub's words (no stack, no
// token), and what to change when the token may not write. Every REST call goes through call().
import { oneLine } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import { networkOf, type NetworkCause } from '../network.js'
import {
  permissionFor,
  refusalAdvice,
  repositoryOf,
  type Permission,
  type TokenInput
} from './permissions.js'

/** Set on an error by the client a token made (octokit.ts): which input the token came from. */
export const TOKEN_INPUT = Symbol('token input')

/** The call GitHub refused: which token made it, what it needs, where. */
export interface Refused {
  input: TokenInput
  permission?: Permission
  repository?: string
}

/** Failure of a GitHub call, with a message safe to show: no stack, no token. */
export class GitHubError extends Error {
  readonly status: number | undefined
  /** The failure without the advice: "GitHub: listing … failed (500 …)" (GitHub's words in it). */
  readonly problem: string
  /** The action's advice (Markdown: permissions and inputs as code), if any. */
  readonly hint?: string

  constructor(
    what: string,
    status: number | undefined,
    /** GitHub's own words (cleaned of anything like a credential). */
    readonly detail: string,
    /** What answered was no API (a web page): `GITHUB_API_URL` leads elsewhere. */
    readonly page?: true,
    /** No answer came, for this cause (a proxy's refusal, TLS, nobody at the address). */
    readonly network?: NetworkCause,
    /** The call and its token, for what a 401 or 403 asks to change. */
    readonly refused?: Refused
  ) {
    const parts = [status === undefined ? undefined : String(status), detail].filter(Boolean)
    const hint =
      status === 403 || status === 401
        ? refusalAdvice(
            status,
            refused?.input ?? 'github-token',
            refused?.permission,
            refused?.repository
          )
        : page && status === 404
          ? '`GITHUB_API_URL` leads to a web page, not GitHub’s API: on GitHub Enterprise Server it ends in `/api/v3`'
          : undefined
    const problem = `GitHub: ${what} failed${parts.length > 0 ? ` (${parts.join(' ')})` : ''}`
    super(hint ? `${problem}. ${hint}` : problem)
    this.name = 'GitHubError'
    this.status = status
    this.problem = problem
    if (hint) this.hint = hint
  }
}

/** The refused call, from what octokit's error carries: its method, its URL, the token's input. */
function refusedOf(record: Record<string | symbol, unknown>): Refused {
  const request = record.request as { method?: unknown; url?: unknown } | undefined
  const method = typeof request?.method === 'string' ? request.method : ''
  const url = typeof request?.url === 'string' ? request.url : ''
  const input = record[TOKEN_INPUT] === 'notify-token' ? 'notify-token' : 'github-token'
  const permission = permissionFor(method, url)
  const repository = repositoryOf(url)
  return { input, ...(permission ? { permission } : {}), ...(repository ? { repository } : {}) }
}

function errorDetail(error: unknown): {
  status: number | undefined
  detail: string
  page?: true
} {
  const record =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {}
  const response = record.response as
    { data?: unknown; headers?: Record<string, unknown> } | undefined
  // octokit gives a request that got no answer at all (a timeout, a reset) the status 500.
  const answered = response !== undefined || record.status !== 500
  const status =
    answered && typeof record.status === 'number' && record.status > 0 ? record.status : undefined
  const data = response?.data as { message?: unknown } | undefined
  const header = response?.headers?.['content-type']
  const type = typeof header === 'string' ? header : ''
  // A web page where the API should be: its HTML is no message to show.
  if (response !== undefined && status !== undefined && /html/i.test(type))
    return { status, detail: 'a web page, not the API', page: true }
  let detail: string
  if (typeof data?.message === 'string') detail = data.message
  else if (error instanceof Error) detail = error.message
  else detail = String(error)
  return { status, detail: cleanDetail(detail) }
}

function cleanDetail(text: string): string {
  return (
    // Cleaned as text from the public: nothing hidden reaches a log line or an annotation.
    oneLine(redact(text))
      // octokit appends " - <documentation_url>", which is noise in a log line.
      .replace(/ - https:\/\/docs\.github\.com\S*/g, '')
      // Never echo anything that looks like a credential.
      .replace(/\b(gh[opusr]_|github_pat_)[A-Za-z0-9_]+/g, '[REDACTED]')
      .replace(/\b(bearer|token)\s+\S+/gi, '$1 [REDACTED]')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 300)
  )
}

/** Runs one GitHub request; its failure becomes a GitHubError. */
export async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    const { status, detail, page } = errorDetail(error)
    const record = typeof error === 'object' && error !== null ? error : {}
    throw new GitHubError(
      what,
      status,
      detail,
      page,
      networkOf(error),
      refusedOf(record as Record<string | symbol, unknown>)
    )
  }
}

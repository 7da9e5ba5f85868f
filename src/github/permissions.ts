// Which permission a GitHub call needs, read from the call itself (its method and path), and what
// to change when GitHub refuses it: a 403 names the permission that call needs (`checks: read`
// for check runs, `deployments: read` for a preview), never the comment-writing fix for every
// refusal; and a refusal of `notify-token` names that token and `notify-repository`, since the
// workflow's `permissions:` do not apply to it.

/** The input a token came from: the workflow's own (`github-token`) or the code side's. */
export type TokenInput = 'github-token' | 'notify-token'

/** The permission of a workflow's `permissions:` a call needs (GitHub's REST reference). */
export type Permission =
  | 'checks: read'
  | 'deployments: read'
  | 'contents: read'
  | 'pull-requests: read'
  | 'pull-requests: write'
  | 'issues: read'
  | 'issues: write'

/** Method (or `*`) and path pattern after `/repos/{owner}/{repo}`, first match wins. */
const ROUTES: readonly [method: string, path: RegExp, permission: Permission][] = [
  ['GET', /^\/commits\/[^/]+\/check-runs$/, 'checks: read'],
  ['GET', /^\/check-runs\/\d+\/annotations$/, 'checks: read'],
  ['GET', /^\/deployments(\/\d+\/statuses)?$/, 'deployments: read'],
  ['POST', /^\/pulls\/\d+\/requested_reviewers$/, 'pull-requests: write'],
  ['GET', /^\/pulls(\/|$)/, 'pull-requests: read'],
  ['GET', /^\/commits(\/|$)/, 'contents: read'],
  ['GET', /^\/issues(\/|$)/, 'issues: read'],
  ['*', /^\/issues(\/|$)/, 'issues: write']
]

/** The permission the call `method url` needs, when it is a repository call this table knows. */
export function permissionFor(method: string, url: string): Permission | undefined {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return undefined
  }
  const rest = /\/repos\/[^/]+\/[^/]+(\/.*)?$/.exec(path)?.[1] ?? ''
  if (!/\/repos\//.test(path)) return undefined
  const found = ROUTES.find(([m, p]) => (m === '*' || m === method.toUpperCase()) && p.test(rest))
  return found?.[2]
}

/** The repository `owner/name` a call was made on, when its path names one. */
export function repositoryOf(url: string): string | undefined {
  try {
    const m = /\/repos\/([^/]+)\/([^/]+)/.exec(new URL(url).pathname)
    return m ? `${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}` : undefined
  } catch {
    return undefined
  }
}

/** What to change when GitHub answered `status` (401 or 403) to a call made with `input`. */
export function refusalAdvice(
  status: 401 | 403,
  input: TokenInput,
  permission: Permission | undefined,
  repository: string | undefined
): string {
  if (input === 'notify-token') {
    const where = repository ? ` on ${repository}` : ''
    return status === 401
      ? '`notify-token` was refused (401: the token is invalid or expired): renew it in the secret `notify-token` names (the workflow’s own token is not involved)'
      : `\`notify-token\` may not do this${where}: it needs \`pull-requests: write\` (a fine-grained token: “Pull requests: Read and write”) on the code repository, and \`notify-repository\` names that repository (the workflow’s \`permissions:\` do not apply to this token)`
  }
  if (status === 401)
    return 'GitHub refused `github-token` (401: invalid or expired): leave it at its default `${{ github.token }}`, or renew the token it names'
  if (permission === undefined || permission === 'issues: write')
    return (
      'The token cannot write here: give the workflow `issues: write` and ' +
      '`pull-requests: write` (a pull request from a fork gets a read-only token), or set `comment: false`'
    )
  const also =
    permission === 'issues: read' ? ' (for a pull request, `pull-requests: read` also does)' : ''
  return `The token may not do this: add \`${permission}\`${also} to the workflow’s \`permissions:\``
}

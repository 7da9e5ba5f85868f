// What the fake GitHub (github.js) lets a workflow's token do, given the workflow's
// `permissions:` (contract: "Every recipe as shipped"). Each call GitHub's REST reference lists
// with the permission it needs ("Fine-grained access tokens for …", the same table GitHub Apps and
// a GITHUB_TOKEN are held to); one of the permissions a call lists is enough, `write` includes
// `read`, and every permission a `permissions:` block does not name is `none` (GitHub's rule).
// `metadata: read` is always granted (collaborators' permission, the repository). The repository
// is taken as private: a public one lets any token read it, which would hide a missing
// permission. A refused call is answered as GitHub words it: 403 "Resource not accessible by
// integration" (REST), or an error of that text (GraphQL). Standard library only.

/**
 * @typedef {'read'|'write'|'none'} Access
 * @typedef {Record<string, Access>} Granted the `permissions:` in effect (`checks: 'read'`, …)
 * @typedef {{ isPull(n: number): boolean, issueOfComment(id: number): number|undefined }} Thread
 *   what the fake GitHub knows of a number: a pull request or an issue (a comment on a pull
 *   request may be written with `pull-requests: write` alone)
 */

/** The answer GitHub gives a token its permissions do not allow. */
export const NOT_ACCESSIBLE = 'Resource not accessible by integration'

/** `issues: <level>`, or for a pull request's thread `pull-requests: <level>` as well. */
const thread = (level, n, t) =>
  n !== undefined && t.isPull(n)
    ? [`issues: ${level}`, `pull-requests: ${level}`]
    : [`issues: ${level}`]

/**
 * Method and path after `/repos/{owner}/{repo}` → the permissions of which one is needed.
 * @type {[string, RegExp, (m: RegExpExecArray, t: Thread) => string[]][]}
 */
const ROUTES = [
  ['GET', /^\/issues\/(\d+)\/comments$/, (m, t) => thread('read', +m[1], t)],
  ['POST', /^\/issues\/(\d+)\/comments$/, (m, t) => thread('write', +m[1], t)],
  ['GET', /^\/issues\/comments\/(\d+)$/, (m, t) => thread('read', t.issueOfComment(+m[1]), t)],
  [
    'PATCH|DELETE',
    /^\/issues\/comments\/(\d+)$/,
    (m, t) => thread('write', t.issueOfComment(+m[1]), t)
  ],
  [
    'POST',
    /^\/issues\/comments\/(\d+)\/reactions$/,
    (m, t) => thread('write', t.issueOfComment(+m[1]), t)
  ],
  ['POST', /^\/pulls\/comments\/\d+\/reactions$/, () => ['pull-requests: write']],
  ['POST|DELETE', /^\/issues\/(\d+)\/labels(\/.*)?$/, (m, t) => thread('write', +m[1], t)],
  ['GET', /^\/issues$/, () => ['issues: read']],
  ['GET', /^\/issues\/(\d+)$/, (m, t) => thread('read', +m[1], t)],
  ['POST', /^\/pulls\/\d+\/requested_reviewers$/, () => ['pull-requests: write']],
  ['GET', /^\/pulls(\/.*)?$/, () => ['pull-requests: read']],
  ['GET', /^\/commits\/[^/]+\/check-runs$/, () => ['checks: read']],
  ['GET', /^\/check-runs\/\d+(\/annotations)?$/, () => ['checks: read']],
  ['GET', /^\/deployments(\/\d+(\/statuses)?)?$/, () => ['deployments: read']],
  ['GET', /^\/commits(\/.*)?$/, () => ['contents: read']],
  ['POST', /^\/dispatches$/, () => ['contents: write']],
  ['GET', /^\/collaborators\/[^/]+\/permission$/, () => []]
]

/**
 * The permissions of which one the REST call `method path` needs (empty: none), or undefined for
 * a call this table does not know (then it is allowed).
 * @param {string} method
 * @param {string} path the path after the API's prefix, e.g. `/repos/octo/docs/issues/5/comments`
 * @param {Thread} t
 * @returns {string[]|undefined}
 */
export function permissionsFor(method, path, t) {
  const rest = /^\/repos\/[^/]+\/[^/]+(\/.*)?$/.exec(path)
  if (!rest) return undefined
  for (const [methods, pattern, needs] of ROUTES) {
    if (!methods.split('|').includes(method.toUpperCase())) continue
    const m = pattern.exec(rest[1] ?? '')
    if (m) return needs(m, t)
  }
  return undefined
}

/**
 * Whether `granted` holds `needed` (`checks: read`): write includes read.
 * @param {Granted} granted
 * @param {string} needed
 */
export function holds(granted, needed) {
  const [scope = '', level = ''] = needed.split(': ')
  const has = granted[scope] ?? 'none'
  return has === 'write' || (has === 'read' && level === 'read')
}

/**
 * The permissions a `permissions:` value grants: a map, or `read-all`, `write-all`, `{}`. What it
 * does not name is `none`.
 * @param {unknown} value
 * @returns {Granted}
 */
export function grantedBy(value) {
  const SCOPES = ['actions', 'checks', 'contents', 'deployments', 'issues', 'pull-requests']
  if (value === 'read-all' || value === 'write-all') {
    const level = value === 'read-all' ? 'read' : 'write'
    return Object.fromEntries(SCOPES.map(scope => [scope, level]))
  }
  if (value === null || typeof value !== 'object') return {}
  return /** @type {Granted} */ ({ ...value })
}

/**
 * Why `granted` refuses the REST call `method path` (the permissions it would need), or
 * undefined when it may.
 * @param {Granted} granted
 * @param {string} method
 * @param {string} path
 * @param {Thread} t
 * @returns {string[]|undefined}
 */
export function refusedBy(granted, method, path, t) {
  const needed = permissionsFor(method, path, t)
  if (needed === undefined || needed.length === 0) return undefined
  return needed.some(p => holds(granted, p)) ? undefined : needed
}

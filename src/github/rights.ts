// Whether the token may comment on a pull request or issue, found without writing anything: a
// comment with no body. GitHub checks the token's rights before the body, so it answers 403 when
// the token may not write there, 404 when it cannot see the issue, and otherwise 422, refusing
// only the missing body. A GitHub that took the empty comment anyway has it deleted at once, and
// the check says so: the probe leaves nothing behind.
import type { Place } from './comments.js'
import { call, GitHubError } from './errors.js'
import type { Octokit } from './octokit.js'
import type { NetworkCause } from '../network.js'

export type CommentRights =
  | {
      ok: true
      /** GitHub took the probe (a comment with no body): deleted at once, or failed to be. */
      probe?: 'deleted' | { left: string }
    }
  | {
      ok: false
      status: number | undefined
      said: string
      /** What to change, for this call and this token (a 401 or 403: permissions.ts). */
      hint?: string
      /** What answered was a web page, not GitHub's API. */
      page?: true
      /** No answer came, for this cause. */
      network?: NetworkCause
    }

const COMMENTS_ROUTE: string = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'

export async function commentRights(octokit: Octokit, place: Place): Promise<CommentRights> {
  let created: { id?: unknown; html_url?: unknown } | undefined
  try {
    const answer = await call(
      `a comment on #${place.issueNumber} with no body (to check the token)`,
      () =>
        // The route as a plain string: its typed form requires the body this request leaves out.
        octokit.request(COMMENTS_ROUTE, {
          owner: place.owner,
          repo: place.repo,
          issue_number: place.issueNumber,
          data: {}
        })
    )
    created = (answer as { data?: { id?: unknown; html_url?: unknown } }).data
  } catch (err) {
    if (!(err instanceof GitHubError)) throw err
    // The rights were checked, and only the body refused: the token may comment here.
    if (err.status === 422) return { ok: true }
    const said = [err.status, err.detail].filter(x => x !== undefined && x !== '').join(' ')
    return {
      ok: false,
      status: err.status,
      said,
      ...(err.hint ? { hint: err.hint } : {}),
      ...(err.page ? { page: err.page } : {}),
      ...(err.network ? { network: err.network } : {})
    }
  }
  // GitHub took a comment with no body (never expected of github.com): it may write here, and the
  // probe is deleted at once.
  const id = created?.id
  if (typeof id !== 'number') return { ok: true }
  try {
    await call(`deleting the check's empty comment ${id} on #${place.issueNumber}`, () =>
      octokit.rest.issues.deleteComment({ owner: place.owner, repo: place.repo, comment_id: id })
    )
    return { ok: true, probe: 'deleted' }
  } catch {
    return { ok: true, probe: { left: `comment ${id} on #${place.issueNumber}` } }
  }
}

/**
 * The login this token writes as, from GitHub (`query { viewer { login } }`): `github-actions[bot]`
 * for GITHUB_TOKEN, `<slug>[bot]` for an app's installation token, the user's own login for a
 * personal token. REST's GET /user refuses installation tokens; GraphQL's viewer does not.
 */
export async function tokenLogin(octokit: Octokit): Promise<string | undefined> {
  const answer = await call('asking GitHub which login this token writes as', () =>
    octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
  )
  const login = answer.viewer?.login
  return typeof login === 'string' && login !== '' ? login.toLowerCase() : undefined
}

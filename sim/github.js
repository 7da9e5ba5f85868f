// A fake of the few GitHub REST endpoints the action calls, for octokit pointed at it through
// GITHUB_API_URL. Standard library only, like the other simulators.
import http from 'node:http'
import { simClock } from './clock.js'
import { NOT_ACCESSIBLE, refusedBy } from './github-permissions.js'

export const SIM_GITHUB_TOKEN = 'ghs_simtoken0123456789'
const MAX_BODY = 65536
const REACTIONS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']
const LEGACY = { admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' }

/**
 * @typedef {{ login: string, type: string }} GitHubUser
 *
 * @typedef {object} Comment
 * @property {number} id
 * @property {string} node_id
 * @property {string} body
 * @property {GitHubUser} user
 * @property {string} html_url
 * @property {string} issue_url
 * @property {string} created_at
 * @property {string} updated_at
 * @property {null} performed_via_github_app
 *
 * @typedef {object} GitHubFailure
 * @property {string} [method]
 * @property {string} [pathIncludes]
 * @property {number} [status] the answer's status (not needed with `hang`)
 * @property {boolean} [hang] never answer: a GitHub that holds the request open
 * @property {number} [times] default 1; Infinity allowed
 * @property {string} [message] the error's `message` (default 'Simulated failure')
 *
 * @typedef {object} GitHubOptions
 * @property {string} [token] default SIM_GITHUB_TOKEN
 * @property {string} [owner] used in html_url of seeded comments (default 'octo')
 * @property {string} [repo] default 'docs'
 * @property {string} [pathPrefix] serve the API under this path, e.g. '/api/v3' (GitHub Enterprise
 *   Server): `url` ends with it, and a request outside it is answered 404 (and marked `outside`)
 * @property {string} [serverUrl] the web address in `html_url`s (default 'https://github.com')
 * @property {Record<string, 'admin'|'maintain'|'write'|'triage'|'read'|'none'>} [permissions]
 * @property {number} [permissionStatus] answer the permission endpoint with this status instead
 * @property {string} [actorLogin] the login this token writes as: author of comments created
 *   through the API, of its reactions, and GraphQL's `viewer` (default `github-actions[bot]`;
 *   a personal token's is a user's login, an app's `<slug>[bot]`)
 * @property {boolean} [viewerFails] GraphQL's `viewer` answers with an error (a token that may
 *   not ask)
 * @property {boolean} [minimizeFails] GraphQL's `minimizeComment` answers with an error (a token
 *   that may not hide comments)
 * @property {string} [viewerLogin] the login GraphQL's `viewer` names, when it is not the one the
 *   token's writes show (a GitHub whose GraphQL and REST disagree; default `actorLogin`)
 * @property {GitHubFailure[]} [failures]
 * @property {boolean} [acceptsEmptyComment] take a comment POSTed without a body (github.com
 *   answers 422), as an empty comment: what the check's rights probe must not leave behind
 * @property {number} [listingDelayMs] answer each comment listing page after this long on the
 *   simulators' clock (a slow GitHub)
 * @property {number} [historyDelayMs] answer each request for a file's history (`GET …/commits`)
 *   after this long on the simulators' clock (a slow GitHub)
 * @property {boolean} [endlessComments] comment listings whose `next` link never ends: every
 *   page repeats the comments and links one more page (a hostile or broken API)
 * @property {Record<number, number|(string|PullFile)[]>} [pullFiles] the changed files of a pull
 *   request: listed (a path alone has 1 line added), or as a count of generated paths
 *   (`docs/page-1.md`, ...)
 * @property {Record<number, PullState>} [pulls] pull requests `GET …/pulls/N` knows (the
 *   returned `pulls` map can be changed as a test goes: a merge, say)
 * @property {Record<string, string>} [fileChanges] when each file of the repository last changed
 *   (ISO instant, by repository path): `GET …/commits?path=` lists that one commit; a path not
 *   listed has no history (an empty list)
 * @property {Record<string, 'read'|'write'|'none'>} [tokenPermissions] the workflow's
 *   `permissions:` for this token (default: any call is allowed). Given, every call needs what
 *   GitHub's reference says it does (github-permissions.js: a comment `issues: write`, or on a
 *   pull request `pull-requests: write`; check runs `checks: read`; …), a permission not named
 *   being `none`; a call it does not allow is answered 403 "Resource not accessible by
 *   integration" before anything else is read, and listed in `refused`
 *
 * @property {number[]} [missingIssues] issue numbers this repository does not have: reading one
 *   (`GET …/issues/N`), its comments or a comment on it answers 404, as GitHub does
 * @property {Record<string, CheckRunSeed[]>} [checkRuns] the check runs on each commit (by sha:
 *   a pull request's head is `headSha(n)`): each read of the list (its first page) shows each run
 *   in its next state; GitHub's pages of at most 100 with `total_count`
 * @property {number} [annotationsDelayMs] answer each request for a check run's annotations after
 *   this long on the simulators' clock (a slow GitHub)
 * @property {Record<string, DeploymentSeed[]>} [deployments] the deployments of each commit (by
 *   sha), oldest first: `GET …/deployments?sha=` lists them newest first
 * @property {string[]} [teams] the team slugs of the repository's organisation that may be asked
 *   to review (a team not listed is answered 422)
 *
 * @typedef {object} DeploymentSeed
 * @property {string} [creator] who made it (default `mintlify[bot]`, the docs platform's app; a
 *   login ending in `[bot]` is a Bot)
 * @property {string} [environment] default `staging`, as the platform's app names its previews
 * @property {DeploymentStatusSeed[]} [statuses] in the order they come: each read of the statuses
 *   shows one more of them (newest first); none: no status yet
 *
 * @typedef {{ state: 'queued'|'pending'|'in_progress'|'success'|'failure'|'error'|'inactive', environment_url?: string, description?: string, log_url?: string }} DeploymentStatusSeed
 *
 * @typedef {object} CheckRunSeed
 * @property {string} name
 * @property {{ status: 'queued'|'in_progress'|'completed', conclusion?: string }[]} states one per
 *   read of the list, the last one kept
 * @property {{ path: string, line?: number, level?: string, message: string, title?: string }[]} [annotations]
 *   what it reports once completed
 *
 * @typedef {{ state: 'open'|'closed', merged_at?: string|null, created_at?: string, user?: string, base?: string, fork?: string, fields?: Record<string, unknown> }} PullState
 *   A seeded pull request without `created_at` was created an hour before the simulator started
 *   (before any job); one that was not seeded is the agent's, created when it is first asked about.
 *   `user`: its author (default `fields.user`'s login, else PR_AUTHOR's login for a seeded one,
 *   `mintlify[bot]` for the agent's); `base`: the branch it targets (default `main`, the default
 *   branch); `fork`: the `owner/name` of the fork it comes from, if it does; `fields`: more of
 *   GitHub's answer for it (`title`, `body`, `merge_commit_sha`).
 * @typedef {{ filename: string, additions?: number, deletions?: number }} PullFile
 *
 * @typedef {object} GitHubRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {any} body parsed JSON, or undefined
 * @property {Record<string, string|string[]|undefined>} headers
 * @property {boolean} [outside] sent outside `pathPrefix` (`path` is then the whole path)
 * @property {number} at when it arrived, on the simulators' clock (ms)
 */

/** @param {GitHubOptions} [options] */
export async function startGitHub(options = {}) {
  const token = options.token ?? SIM_GITHUB_TOKEN
  const actorLogin = options.actorLogin ?? 'github-actions[bot]'
  const actor = { login: actorLogin, type: actorLogin.endsWith('[bot]') ? 'Bot' : 'User' }
  /** GitHub's times are whole seconds. */
  const isoSeconds = ms => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
  // Seeded pull requests were there well before anything the tests start.
  const startedAt = isoSeconds(simClock.now() - 3_600_000)
  const prefix = options.pathPrefix ?? ''
  const serverUrl = options.serverUrl ?? 'https://github.com'
  const failures = (options.failures ?? []).map(rule => ({ rule, used: 0 }))
  /** @type {Record<number, number|(string|PullFile)[]>} */
  const pullFiles = { ...options.pullFiles }
  /** Commits pushed to a pull request (`pushCommit`), oldest first: `GET …/pulls/N/commits`. */
  /** @type {Map<number, { sha: string, date: string, files: PullFile[] }[]>} */
  const pullCommits = new Map()
  /** @type {GitHubRequest[]} */
  const requests = []
  /** @type {Map<number, Comment[]>} */
  const comments = new Map()
  /** @type {{ commentId: number, kind: 'issue'|'pull', content: string }[]} */
  const reactions = []
  /**
   * Reviews submitted on each pull request (seeded by tests): they are no issue comments, so the
   * comment listing never returns them, and the API gives them no reactions.
   * @type {Map<number, { id: number, body: string, user: GitHubUser, state: string }[]>}
   */
  const reviews = new Map()
  /** @type {Map<number, PullState>} */
  const pulls = new Map(Object.entries(options.pulls ?? {}).map(([n, p]) => [Number(n), p]))
  /** @type {Record<string, CheckRunSeed[]>} */
  const checkRuns = { ...options.checkRuns }
  /** How many times each commit's check runs were listed. @type {Map<string, number>} */
  const checkReads = new Map()
  /** Check run ids: the seed's place in its list, after 5000 per commit. @type {Map<number, CheckRunSeed>} */
  const checkRunIds = new Map()
  /** @type {Record<string, DeploymentSeed[]>} */
  const deployments = { ...options.deployments }
  /** How many times each deployment's statuses were listed. @type {Map<number, number>} */
  const statusReads = new Map()
  /**
   * The reviewers asked on each pull request (`POST …/requested_reviewers`).
   * @type {Map<number, { users: string[], teams: string[] }>}
   */
  const reviewRequests = new Map()
  /** The labels on each issue or pull request (set through the API, or by a test). */
  /** @type {Map<number, Set<string>>} */
  const labels = new Map()
  /** The `repository_dispatch` events sent to a repository here, in order. */
  /** @type {{ repository: string, event_type: string, client_payload: unknown }[]} */
  const dispatches = []
  /** The comments hidden through GraphQL, in order: `{ id, classifier }`. */
  /** @type {{ id: number, classifier: string }[]} */
  const minimized = []
  const sockets = new Set()
  let nextId = 1000
  let nextReaction = 1
  let url = ''

  /** @returns {Comment} */
  const makeComment = (owner, repo, issue, body, user) => {
    const id = nextId++
    const now = new Date().toISOString()
    const list = comments.get(issue) ?? []
    comments.set(issue, list)
    const comment = {
      id,
      node_id: `IC_kwDO${Buffer.from(String(id)).toString('base64')}`,
      body,
      user: { ...user },
      html_url: `${serverUrl}/${owner}/${repo}/issues/${issue}#issuecomment-${id}`,
      issue_url: `${url}/repos/${owner}/${repo}/issues/${issue}`,
      created_at: now,
      updated_at: now,
      performed_via_github_app: null
    }
    list.push(comment)
    return comment
  }

  const findComment = id => {
    for (const list of comments.values()) {
      const found = list.find(c => c.id === id)
      if (found) return found
    }
    return undefined
  }

  const tooLong = {
    message: 'Validation Failed',
    errors: [
      {
        resource: 'IssueComment',
        code: 'custom',
        field: 'body',
        message: `body is too long (maximum is ${MAX_BODY} characters)`
      }
    ]
  }
  const notFound = { status: 404, body: { message: 'Not Found' } }

  /** GitHub's page-number pagination: `per_page` (at most 100), `page`, and a Link header. */
  const paginate = (path, query, total) => {
    const perPage = Math.min(Math.max(parseInt(query.per_page ?? '30', 10) || 30, 1), 100)
    const number = Math.max(parseInt(query.page ?? '1', 10) || 1, 1)
    const last = Math.max(Math.ceil(total / perPage), 1)
    const link = (p, rel) => `<${url}${path}?per_page=${perPage}&page=${p}>; rel="${rel}"`
    const links = []
    if (number > 1) links.push(link(number - 1, 'prev'), link(1, 'first'))
    if (number < last) links.push(link(number + 1, 'next'), link(last, 'last'))
    return {
      page: { from: (number - 1) * perPage, to: number * perPage },
      headers: links.length ? { link: links.join(', ') } : {}
    }
  }
  const validBody = body => typeof body?.body === 'string'
  const forbidden = { status: 403, body: { message: NOT_ACCESSIBLE } }
  let rights = options.tokenPermissions
  /** What the permission model asks of a number and a comment (github-permissions.js). */
  const threadOf = {
    isPull: n => pulls.has(n) || pullFiles[n] !== undefined || pullCommits.has(n),
    issueOfComment: id => {
      for (const [n, list] of comments) if (list.some(c => c.id === id)) return n
      return undefined
    }
  }
  /** The calls `tokenPermissions` refused, in order, with the permissions they would need. */
  /** @type {{ method: string, path: string, needs: string[] }[]} */
  const refused = []
  /** @returns {string[]|undefined} why the token may not make this call */
  const refusal = (method, path) => {
    const needs = rights ? refusedBy(rights, method, path, threadOf) : undefined
    if (needs) refused.push({ method, path, needs })
    return needs
  }

  /**
   * GraphQL `minimizeComment(input: {subjectId, classifier})`: hides a comment, as GitHub does, for
   * its author or a writer of the repository; the comment stays listed by REST, as on GitHub.
   * @param {{ id?: unknown, classifier?: unknown }} input
   */
  const minimize = input => {
    const comment = [...comments.values()].flat().find(c => c.node_id === input.id)
    // Hiding a comment edits it: what editing it through REST needs.
    const repository = /\/repos\/[^/]+\/[^/]+/.exec(comment?.issue_url ?? '')?.[0]
    const notAllowed = comment && refusal('PATCH', `${repository}/issues/comments/${comment.id}`)
    if (options.minimizeFails || !comment || notAllowed)
      return {
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message: comment
                ? 'Resource not accessible by integration'
                : `Could not resolve to a node with the global id of '${input.id}'`
            }
          ]
        }
      }
    minimized.push({ id: comment.id, classifier: String(input.classifier) })
    return {
      status: 200,
      body: {
        data: {
          minimizeComment: {
            minimizedComment: {
              isMinimized: true,
              minimizedReason: String(input.classifier).toLowerCase()
            }
          }
        }
      }
    }
  }

  /** @returns {{ status: number, body: unknown, headers?: Record<string, string> }} */
  const route = (/** @type {GitHubRequest} */ entry) => {
    const { method, path, query, body } = entry
    if (method === 'GET' && path === '/user') return forbidden
    if (method === 'POST' && (path === '/graphql' || path === '/api/graphql')) {
      if (typeof body?.query === 'string' && /\bminimizeComment\s*\(/.test(body.query))
        return minimize(body.variables?.input ?? body.variables ?? {})
      if (typeof body?.query !== 'string' || !/\bviewer\s*\{\s*login\s*\}/.test(body.query))
        return { status: 200, body: { errors: [{ message: 'Unsupported query (simulator)' }] } }
      if (options.viewerFails)
        return { status: 200, body: { data: null, errors: [{ message: 'Simulated failure' }] } }
      const login = options.viewerLogin ?? actor.login
      return { status: 200, body: { data: { viewer: { login } } } }
    }
    let m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)(\/comments)?$/.exec(path)
    if (m && options.missingIssues?.includes(+m[3])) return notFound
    if (m && !m[4] && method === 'GET') {
      // An issue (or a pull request: GitHub answers both here), as far as it is modelled.
      const [, owner, repo, n] = m
      const pull = pulls.has(+n)
      return {
        status: 200,
        body: {
          number: +n,
          state: pulls.get(+n)?.state ?? 'open',
          html_url: `${serverUrl}/${owner}/${repo}/${pull ? 'pull' : 'issues'}/${n}`,
          labels: [...(labels.get(+n) ?? [])].map(name => ({ name })),
          ...(pull ? { pull_request: { html_url: `${serverUrl}/${owner}/${repo}/pull/${n}` } } : {})
        }
      }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path)
    if (m) {
      const [, owner, repo, n] = m
      if (method === 'POST') {
        // A lax GitHub (acceptsEmptyComment) takes a comment without a body, as an empty one.
        if (!validBody(body) && options.acceptsEmptyComment)
          return { status: 201, body: makeComment(owner, repo, +n, '', actor) }
        if (!validBody(body)) return { status: 422, body: { message: 'Invalid request' } }
        if (body.body.length > MAX_BODY) return { status: 422, body: tooLong }
        return { status: 201, body: makeComment(owner, repo, +n, body.body, actor) }
      }
      if (method !== 'GET') return notFound
      const list = comments.get(+n) ?? []
      if (options.endlessComments) {
        const number = Math.max(parseInt(query.page ?? '1', 10) || 1, 1)
        const next = `<${url}${path}?per_page=100&page=${number + 1}>; rel="next"`
        return { status: 200, body: list.slice(0, 100), headers: { link: next } }
      }
      const { page, headers } = paginate(path, query, list.length)
      return { status: 200, body: list.slice(page.from, page.to), headers }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/labels$/.exec(path)
    if (m && method === 'POST') {
      const n = +m[3]
      if (!Array.isArray(body?.labels)) return { status: 422, body: { message: 'Invalid request' } }
      const set = labels.get(n) ?? new Set()
      for (const name of body.labels) set.add(String(name))
      labels.set(n, set)
      return { status: 200, body: [...set].map(name => ({ name })) }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/labels\/([^/]+)$/.exec(path)
    if (m && method === 'DELETE') {
      const set = labels.get(+m[1])
      const name = decodeURIComponent(m[2])
      if (!set?.delete(name)) return { status: 404, body: { message: 'Label does not exist' } }
      return { status: 200, body: [...set].map(label => ({ name: label })) }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/commits$/.exec(path)
    if (m && method === 'GET') {
      const list = pullCommits.get(+m[1]) ?? []
      const { page, headers } = paginate(path, query, list.length)
      const shown = list.slice(page.from, page.to).map(c => ({
        sha: c.sha,
        commit: { author: { date: c.date }, committer: { date: c.date }, message: 'Docs' }
      }))
      return { status: 200, body: shown, headers }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]{7,40})$/.exec(path)
    if (m && method === 'GET') {
      const found = [...pullCommits.values()].flat().find(c => c.sha === m?.[1])
      if (!found) return notFound
      const files = found.files.map(f => ({ additions: 1, deletions: 0, ...f, status: 'modified' }))
      return { status: 200, body: { sha: found.sha, files } }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/commits\/([0-9a-f]+)\/check-runs$/.exec(path)
    if (m && method === 'GET') return listCheckRuns(m[1], m[2], m[3], path, query)
    m = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)\/annotations$/.exec(path)
    if (m && method === 'GET') {
      const seed = checkRunIds.get(+m[1])
      if (!seed) return notFound
      const list = (seed.annotations ?? []).map(a => ({
        path: a.path,
        start_line: a.line ?? 1,
        end_line: a.line ?? 1,
        annotation_level: a.level ?? 'failure',
        title: a.title ?? '',
        message: a.message,
        raw_details: null,
        blob_href: `${serverUrl}/octo/docs/blob/${'0'.repeat(40)}/${a.path}`
      }))
      const { page, headers } = paginate(path, query, list.length)
      return { status: 200, body: list.slice(page.from, page.to), headers }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/deployments$/.exec(path)
    if (m && method === 'GET') {
      const list = listDeployments(m[1], m[2], query)
      const { page, headers } = paginate(path, query, list.length)
      return { status: 200, body: list.slice(page.from, page.to), headers }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/deployments\/(\d+)\/statuses$/.exec(path)
    if (m && method === 'GET') {
      const list = listStatuses(m[1], m[2], +m[3])
      if (!list) return notFound
      const { page, headers } = paginate(path, query, list.length)
      return { status: 200, body: list.slice(page.from, page.to), headers }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/requested_reviewers$/.exec(path)
    if (m && method === 'POST') {
      return requestReviewers(+m[1], body)
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(path)
    if (m && method === 'GET') {
      // Issues and pull requests, open ones by default, filtered by every label named.
      const [, owner, repo] = m
      const wanted = (query.labels ?? '').split(',').filter(Boolean)
      const state = query.state ?? 'open'
      const items = [...labels.entries()]
        .filter(([, set]) => wanted.every(name => set.has(name)))
        .map(([n, set]) => {
          const pull = pulls.get(n)
          return {
            number: n,
            state: pull?.state ?? 'open',
            created_at: pull?.created_at ?? startedAt,
            labels: [...set].map(name => ({ name })),
            html_url: `${serverUrl}/${owner}/${repo}/${pull ? 'pull' : 'issues'}/${n}`,
            ...(pull
              ? { pull_request: { html_url: `${serverUrl}/${owner}/${repo}/pull/${n}` } }
              : {})
          }
        })
        .filter(item => state === 'all' || item.state === state)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.number - a.number)
      if (query.direction === 'asc') items.reverse()
      const { page, headers } = paginate(path, query, items.length)
      return { status: 200, body: items.slice(page.from, page.to), headers }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)
    if (m) {
      const comment = findComment(+m[1])
      if (!comment || !['GET', 'PATCH', 'DELETE'].includes(method)) return notFound
      if (method === 'GET') return { status: 200, body: comment }
      if (method === 'DELETE') {
        for (const list of comments.values()) {
          const at = list.indexOf(comment)
          if (at >= 0) list.splice(at, 1)
        }
        return { status: 204, body: '' }
      }
      if (!validBody(body)) return { status: 422, body: { message: 'Invalid request' } }
      if (body.body.length > MAX_BODY) return { status: 422, body: tooLong }
      comment.body = body.body
      comment.updated_at = new Date().toISOString()
      return { status: 200, body: comment }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/(issues|pulls)\/comments\/(\d+)\/reactions$/.exec(path)
    if (m && method === 'POST') {
      const kind = m[1] === 'issues' ? 'issue' : 'pull'
      // Review comments are not modelled, so any pull comment id is accepted.
      if (kind === 'issue' && !findComment(+m[2])) return notFound
      if (!REACTIONS.includes(body?.content)) {
        return { status: 422, body: { message: 'Validation Failed' } }
      }
      reactions.push({ commentId: +m[2], kind, content: body.content })
      return { status: 201, body: { id: nextReaction++, content: body.content, user: actor } }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/.exec(path)
    if (m && method === 'GET') {
      const files = pullFiles[+m[1]]
      if (files === undefined) return notFound
      const listed =
        typeof files === 'number'
          ? Array.from({ length: files }, (_, i) => `docs/page-${i + 1}.md`)
          : files
      const { page, headers } = paginate(path, query, listed.length)
      return {
        status: 200,
        body: listed.slice(page.from, page.to).map(file => {
          const {
            filename,
            additions = 1,
            deletions = 0
          } = typeof file === 'string' ? { filename: file } : file
          const status = deletions > 0 && additions === 0 ? 'removed' : 'modified'
          return { filename, status, additions, deletions, changes: additions + deletions }
        }),
        headers
      }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path)
    if (m && method === 'GET') {
      const [, owner, repo, n] = m
      let pull = pulls.get(+n)
      if (!pull) {
        // Not seeded: the agent's, opened just now (as far as this simulator can tell).
        pull = { state: 'open', created_at: isoSeconds(simClock.now()), user: 'mintlify[bot]' }
        pulls.set(+n, pull)
      }
      const user = authorOf(+n)
      const repository = { full_name: `${owner}/${repo}`, default_branch: 'main' }
      return {
        status: 200,
        body: {
          ...pull.fields,
          number: +n,
          state: pull.state,
          created_at: pull.created_at ?? startedAt,
          merged: Boolean(pull.merged_at),
          merged_at: pull.merged_at ?? null,
          html_url: `${serverUrl}/${owner}/${repo}/pull/${n}`,
          user: { login: user, type: user.endsWith('[bot]') ? 'Bot' : 'User' },
          head: {
            sha: headSha(+n),
            ref: `docs-agent/${n}`,
            repo: { full_name: pull.fork ?? `${owner}/${repo}`, fork: pull.fork !== undefined }
          },
          base: { ref: pull.base ?? 'main', repo: repository }
        }
      }
    }
    // `repository_dispatch` sent to this repository: kept for the test, answered 204 as GitHub does.
    m = /^\/repos\/([^/]+\/[^/]+)\/dispatches$/.exec(path)
    if (m && method === 'POST') {
      if (typeof body?.event_type !== 'string')
        return { status: 422, body: { message: 'Invalid request' } }
      dispatches.push({
        repository: m[1],
        event_type: body.event_type,
        client_payload: body.client_payload
      })
      return { status: 204, body: '' }
    }
    // A file's history, newest first: the one commit a test dated (per_page is not needed).
    if (/^\/repos\/[^/]+\/[^/]+\/commits$/.test(path) && method === 'GET') {
      const date = entry.query.path ? options.fileChanges?.[entry.query.path] : undefined
      const sha = date ? `c0ffee${Buffer.from(entry.query.path).toString('hex').slice(0, 34)}` : ''
      const commit = { author: { name: 'Docs writer', date }, committer: { name: 'GitHub', date } }
      return { status: 200, body: date ? [{ sha, commit }] : [] }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(path)
    if (m && method === 'GET') {
      if (options.permissionStatus !== undefined) {
        return { status: options.permissionStatus, body: { message: 'Simulated failure' } }
      }
      const login = decodeURIComponent(m[1])
      const role = options.permissions?.[login]
      if (role === undefined) return notFound
      return {
        status: 200,
        body: { permission: LEGACY[role] ?? 'none', role_name: role, user: { login } }
      }
    }
    return notFound
  }

  /**
   * GitHub's answer to `GET …/commits/{sha}/check-runs`: a page of at most 100 of the seeds, each
   * in its state at this read (a read is a listing's first page; its later pages show the same
   * states), with `total_count` and GitHub's Link header.
   */
  function listCheckRuns(owner, repo, sha, path, query) {
    const first = (parseInt(query.page ?? '1', 10) || 1) <= 1
    const read = Math.max((checkReads.get(sha) ?? 0) - (first ? 0 : 1), 0)
    if (first) checkReads.set(sha, read + 1)
    const base = 5000 + 10_000 * Object.keys(checkRuns).indexOf(sha)
    const runs = (checkRuns[sha] ?? []).map((seed, i) => {
      const id = base + i
      checkRunIds.set(id, seed)
      const state = seed.states[Math.min(read, seed.states.length - 1)] ?? { status: 'queued' }
      const done = state.status === 'completed'
      return {
        id,
        head_sha: sha,
        name: seed.name,
        status: state.status,
        conclusion: done ? (state.conclusion ?? 'success') : null,
        html_url: `${serverUrl}/${owner}/${repo}/runs/${id}`,
        details_url: `https://dashboard.example.com/checks/${id}`,
        started_at: new Date().toISOString(),
        completed_at: done ? new Date().toISOString() : null,
        output: {
          title: seed.name,
          summary: '',
          annotations_count: done ? (seed.annotations ?? []).length : 0
        },
        app: { slug: 'docs-checks', name: 'Docs checks' }
      }
    })
    const { page, headers } = paginate(path, query, runs.length)
    return {
      status: 200,
      body: { total_count: runs.length, check_runs: runs.slice(page.from, page.to) },
      headers
    }
  }

  /** A deployment seed's id, creator and time: the later seeds are the newer. */
  const deploymentsOf = sha =>
    (deployments[sha] ?? []).map((seed, i) => {
      const id = 7000 + 100 * Object.keys(deployments).indexOf(sha) + i
      const login = seed.creator ?? 'mintlify[bot]'
      return {
        id,
        seed,
        creator: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
        created_at: isoSeconds(simClock.now() - 3_600_000 + i * 1000)
      }
    })

  /** `GET …/deployments`: by `sha`, `environment` and the creator's app, newest first. */
  function listDeployments(owner, repo, query) {
    const shas = query.sha ? [query.sha] : Object.keys(deployments)
    return shas
      .flatMap(sha =>
        deploymentsOf(sha).map(d => ({
          url: `${url}/repos/${owner}/${repo}/deployments/${d.id}`,
          id: d.id,
          sha,
          ref: sha,
          task: 'deploy',
          environment: d.seed.environment ?? 'staging',
          description: null,
          creator: d.creator,
          created_at: d.created_at,
          updated_at: d.created_at,
          statuses_url: `${url}/repos/${owner}/${repo}/deployments/${d.id}/statuses`,
          performed_via_github_app: d.creator.type === 'Bot' ? { slug: d.creator.login } : null
        }))
      )
      .filter(d => !query.environment || d.environment === query.environment)
      .reverse()
  }

  /** `GET …/deployments/{id}/statuses`, newest first: one more of its seeds at each read. */
  function listStatuses(owner, repo, id) {
    const found = Object.keys(deployments)
      .flatMap(deploymentsOf)
      .find(d => d.id === id)
    if (!found) return undefined
    const read = (statusReads.get(id) ?? 0) + 1
    statusReads.set(id, read)
    return (found.seed.statuses ?? [])
      .slice(0, read)
      .map((status, i) => ({
        id: id * 100 + i,
        state: status.state,
        description: status.description ?? '',
        environment: found.seed.environment ?? 'staging',
        environment_url: status.environment_url ?? '',
        log_url: status.log_url ?? '',
        target_url: status.log_url ?? '',
        creator: found.creator,
        created_at: found.created_at,
        deployment_url: `${url}/repos/${owner}/${repo}/deployments/${id}`
      }))
      .reverse()
  }

  /** The author of pull request `n`, as `GET …/pulls/N` names it. */
  const authorOf = n => {
    const pull = pulls.get(n)
    const given = /** @type {{ login?: unknown } | undefined} */ (pull?.fields?.user)?.login
    return (
      pull?.user ??
      (typeof given === 'string' ? given : undefined) ??
      (pull ? PR_AUTHOR.login : 'mintlify[bot]')
    )
  }

  /**
   * `POST …/pulls/{n}/requested_reviewers`, as GitHub answers it: 422 for the pull request's
   * author, for anyone who is no collaborator (a bot, a login `permissions` does not list) and
   * for a team `teams` does not list; nobody is asked then.
   */
  function requestReviewers(n, body) {
    const users = Array.isArray(body?.reviewers) ? body.reviewers.map(String) : []
    const teams = Array.isArray(body?.team_reviewers) ? body.team_reviewers.map(String) : []
    if (users.length === 0 && teams.length === 0)
      return { status: 422, body: { message: 'Invalid request' } }
    const author = authorOf(n).toLowerCase()
    if (users.some(u => u.toLowerCase() === author))
      return {
        status: 422,
        body: { message: 'Review cannot be requested from pull request author.' }
      }
    const role = login =>
      Object.entries(options.permissions ?? {}).find(
        ([name]) => name.toLowerCase() === login.toLowerCase()
      )?.[1]
    const collaborator = login =>
      !login.endsWith('[bot]') && role(login) !== undefined && role(login) !== 'none'
    const known = slug => (options.teams ?? []).some(t => t.toLowerCase() === slug.toLowerCase())
    if (!users.every(collaborator) || !teams.every(known))
      return {
        status: 422,
        body: {
          message:
            'Reviews may only be requested from collaborators. One or more of the users or ' +
            `teams you specified is not a collaborator of the ${options.owner ?? 'octo'}/` +
            `${options.repo ?? 'docs'} repository.`
        }
      }
    const asked = reviewRequests.get(n) ?? { users: [], teams: [] }
    asked.users.push(...users.filter(u => !asked.users.includes(u)))
    asked.teams.push(...teams.filter(t => !asked.teams.includes(t)))
    reviewRequests.set(n, asked)
    return {
      status: 201,
      body: {
        number: n,
        requested_reviewers: asked.users.map(login => ({ login, type: 'User' })),
        requested_teams: asked.teams.map(slug => ({ slug }))
      }
    }
  }

  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', chunk => chunks.push(chunk))
    req.on('end', () => {
      const raw = req.url ?? '/'
      const q = raw.indexOf('?')
      const whole = q < 0 ? raw : raw.slice(0, q)
      // GitHub Enterprise Server answers GraphQL at /api/graphql, beside the REST API's /api/v3.
      const graphqlOfServer = prefix === '/api/v3' && whole === '/api/graphql'
      const outside = prefix !== '' && !whole.startsWith(`${prefix}/`) && !graphqlOfServer
      const text = Buffer.concat(chunks).toString('utf8')
      let body
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        body = undefined
      }
      /** @type {GitHubRequest} */
      const entry = {
        method: req.method ?? 'GET',
        path: outside || graphqlOfServer ? whole : whole.slice(prefix.length),
        query: Object.fromEntries(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1))),
        body,
        headers: { ...req.headers },
        ...(outside ? { outside } : {}),
        at: simClock.now()
      }
      requests.push(entry)
      const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? '')
      let answer
      if (outside) {
        // What a GitHub Enterprise Server's web server answers outside its API: a web page.
        answer = { status: 404, html: '<!DOCTYPE html><html><body>Page not found</body></html>' }
      } else if (auth?.[1] !== token) {
        answer = { status: 401, body: { message: 'Bad credentials' } }
      } else {
        const failure = failures.find(
          ({ rule, used }) =>
            used < (rule.times ?? 1) &&
            (!rule.method || rule.method.toUpperCase() === entry.method) &&
            (!rule.pathIncludes || entry.path.includes(rule.pathIncludes))
        )
        if (failure) failure.used++
        // Held open until the client gives up (or the simulator closes).
        if (failure?.rule.hang) {
          const release = simClock.hold()
          res.on('close', () => release('closed'))
          return
        }
        answer = failure
          ? {
              status: failure.rule.status ?? 500,
              body: { message: failure.rule.message ?? 'Simulated failure' }
            }
          : refusal(entry.method, entry.path)
            ? forbidden
            : route(entry)
      }
      const send = () => {
        if (res.destroyed) return
        if (answer.html !== undefined) {
          res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' })
          return void res.end(answer.html)
        }
        res.writeHead(answer.status, {
          'content-type': 'application/json; charset=utf-8',
          ...answer.headers
        })
        res.end(answer.status === 204 ? undefined : JSON.stringify(answer.body))
      }
      const listing = entry.method === 'GET' && /\/issues\/\d+\/comments$/.test(entry.path)
      const history = entry.method === 'GET' && /\/commits$/.test(entry.path)
      const annotations = entry.method === 'GET' && /\/annotations$/.test(entry.path)
      const delayMs = listing
        ? options.listingDelayMs
        : history
          ? options.historyDelayMs
          : annotations
            ? options.annotationsDelayMs
            : undefined
      if (delayMs) {
        // Held while it waits, so a clock that jumps knows nothing is being answered meanwhile.
        const release = simClock.hold()
        const gone = new AbortController()
        res.on('close', () => {
          gone.abort()
          release('closed')
        })
        void simClock.sleep(delayMs, gone.signal).then(() => {
          release('answered')
          send()
        })
      } else send()
    })
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(undefined))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  url = `http://127.0.0.1:${port}${prefix}`

  return {
    url,
    port,
    requests,
    comments,
    reactions,
    reviews,
    pulls,
    labels,
    checkReads,
    reviewRequests,
    minimized,
    refused,
    dispatches,
    /**
     * Sets the check runs of commit `sha` (as the `checkRuns` option does); their reads start over.
     * @param {string} sha
     * @param {CheckRunSeed[]} runs
     */
    setCheckRuns(sha, runs) {
      checkRuns[sha] = runs
      checkReads.delete(sha)
    },
    /**
     * Sets the deployments of commit `sha` (as the `deployments` option does).
     * @param {string} sha
     * @param {DeploymentSeed[]} list
     */
    setDeployments(sha, list) {
      deployments[sha] = list
    },
    /**
     * Sets the token's `permissions:` (as the `tokenPermissions` option does) for the runs that
     * follow: a workflow run's job, say; undefined allows every call again.
     * @param {Record<string, 'read'|'write'|'none'>|undefined} granted
     */
    setTokenPermissions(granted) {
      rights = granted
    },
    /**
     * Puts `label` on issue or pull request `n` (as anyone with triage may).
     * @param {number} n
     * @param {string} label
     */
    addLabel(n, label) {
      labels.set(n, new Set([...(labels.get(n) ?? []), label]))
    },
    /**
     * Seeds a comment, e.g. a look-alike marker written by a user.
     * @param {number} issueNumber
     * @param {string} body
     * @param {GitHubUser} [user]
     */
    addComment(issueNumber, body, user = { login: 'someone', type: 'User' }) {
      return makeComment(options.owner ?? 'octo', options.repo ?? 'docs', issueNumber, body, user)
    },
    /**
     * Edits comment `id` as its author would (anyone may edit their own comment, at any time).
     * @param {number} id
     * @param {string} body
     */
    editComment(id, body) {
      const comment = findComment(id)
      if (!comment) throw new Error(`no comment ${id}`)
      comment.body = body
      comment.updated_at = new Date().toISOString()
      return comment
    },
    /**
     * Deletes comment `id` (as its author, or a maintainer, would).
     * @param {number} id
     */
    deleteComment(id) {
      for (const list of comments.values()) {
        const i = list.findIndex(c => c.id === id)
        if (i >= 0) list.splice(i, 1)
      }
    },
    /**
     * Sets the changed files of pull request `n` (as the `pullFiles` option does), e.g. after a
     * push to it.
     * @param {number} n
     * @param {number|(string|PullFile)[]} files
     */
    setPullFiles(n, files) {
      pullFiles[n] = files
    },
    /**
     * Pushes a commit to pull request `n` (issue 42: a growth's answer lists the files of the
     * commits dated after its run started): `date` is its ISO committer date.
     * @param {number} n
     * @param {{ sha: string, date: string, files: PullFile[] }} commit
     */
    pushCommit(n, commit) {
      pullCommits.set(n, [...(pullCommits.get(n) ?? []), commit])
    },
    /**
     * Seeds a submitted review (its ids come from the same sequence as comments, so a thread
     * can be put in order).
     * @param {number} pullNumber
     * @param {string} body
     * @param {GitHubUser} [user]
     * @param {string} [state] 'commented', 'approved' or 'changes_requested'
     */
    addReview(pullNumber, body, user = { login: 'someone', type: 'User' }, state = 'commented') {
      const review = { id: nextId++, body, user: { ...user }, state }
      reviews.set(pullNumber, [...(reviews.get(pullNumber) ?? []), review])
      return review
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise(resolve => server.close(() => resolve(undefined)))
    }
  }
}

/**
 * The head commit of pull request `n` as the simulator answers it: 40 hexadecimal digits.
 * @param {number} n
 */
export function headSha(n) {
  return `${n.toString(16)}`.padStart(8, '0').padEnd(40, 'c')
}

/** Who opened the pull requests of the payloads below, unless a test says otherwise. */
export const PR_AUTHOR = { login: 'octo-author', type: 'User' }

/**
 * A trigger comment by `user` on pull request (or issue) `n`, added to the fake GitHub `gh`, and
 * the `issue_comment` webhook payload GitHub sends for it: options for runAction().
 * @param {{ addComment: (n: number, body: string, user?: { login: string, type: string }) => { id: number } }} gh
 * @param {number} n
 * @param {string} body
 */
export function triggerComment(
  gh,
  n,
  body,
  pullRequest = true,
  user = { login: 'octocat', type: 'User' },
  title = 'Docs for the new API',
  author = PR_AUTHOR
) {
  const c = gh.addComment(n, body, user)
  return {
    eventName: 'issue_comment',
    event: {
      action: 'created',
      issue: {
        number: n,
        title,
        user: author,
        ...(pullRequest
          ? { pull_request: { html_url: `https://github.com/octo/docs/pull/${n}` } }
          : {})
      },
      comment: { id: c.id, body, user },
      repository: { full_name: 'octo/docs' }
    }
  }
}

/**
 * A review submitted by `user` on pull request `n`, added to the fake GitHub `gh`, and the
 * `pull_request_review` webhook payload GitHub sends for it (`review.body` may be null when the
 * review has no text): options for runAction().
 * @param {{ addReview: (n: number, body: string, user?: { login: string, type: string }, state?: string) => { id: number } }} gh
 * @param {number} n
 * @param {string} body
 * @param {{ user?: { login: string, type: string }, author?: { login: string, type: string }, state?: string, action?: string, head?: string }} [o]
 *   the reviewer, the pull request's author, the review's state, the event's action, and the
 *   head repository (another one for a fork)
 */
export function triggerReview(gh, n, body, o = {}) {
  const user = o.user ?? { login: 'octocat', type: 'User' }
  const state = o.state ?? 'commented'
  const r = gh.addReview(n, body, user, state)
  return {
    eventName: 'pull_request_review',
    event: {
      action: o.action ?? 'submitted',
      review: {
        id: r.id,
        node_id: `PRR_kwDO${Buffer.from(String(r.id)).toString('base64')}`,
        body: body === '' ? null : body,
        user,
        state,
        html_url: `https://github.com/octo/docs/pull/${n}#pullrequestreview-${r.id}`,
        submitted_at: new Date().toISOString()
      },
      pull_request: {
        number: n,
        title: 'Docs for the new API',
        html_url: `https://github.com/octo/docs/pull/${n}`,
        user: o.author ?? PR_AUTHOR,
        head: { sha: 'abc', repo: { full_name: o.head ?? 'octo/docs' } },
        base: { repo: { full_name: 'octo/docs' } }
      },
      repository: { full_name: 'octo/docs' }
    }
  }
}

/**
 * The `pull_request` webhook payload for pull request `n` of octo/docs, opened by a user, or
 * closed and merged: options for runAction().
 * @param {number} n
 * @param {'opened'|'closed'} [action]
 * @param {Record<string, unknown>} [extra] fields of the pull request to set (a title, a user)
 */
export function pullRequestEvent(n, action = 'opened', extra = {}) {
  return {
    eventName: 'pull_request',
    event: {
      action,
      number: n,
      pull_request: {
        number: n,
        ...(action === 'closed' ? { merged: true } : {}),
        title: 'Docs',
        html_url: `https://github.com/octo/docs/pull/${n}`,
        head: { sha: 'abc', repo: { full_name: 'octo/docs' } },
        base: { repo: { full_name: 'octo/docs' } },
        user: { login: 'octocat', type: 'User' },
        ...extra
      },
      repository: { full_name: 'octo/docs' }
    }
  }
}

/**
 * The `issues` (`o.issue`) or `pull_request` (or `o.eventName`) webhook payload GitHub sends when
 * `o.sender` adds (or, `o.action: 'unlabeled'`, removes) the label `name` on issue or pull request
 * `n` of octo/docs, with the label put on (or taken off) it in the fake GitHub `gh`: options for
 * runAction(). The shapes are GitHub's: `action`, `label`, `issue` or `pull_request` (and
 * `number`), `repository`, `sender`.
 * @param {{ addLabel: (n: number, label: string) => void, labels: Map<number, Set<string>> }} gh
 * @param {number} n
 * @param {string} name
 * @param {{ issue?: boolean, action?: string, eventName?: string, title?: string, body?: string|null, sender?: { login: string, type: string }, head?: string, changedFiles?: number }} [o]
 */
export function labelEvent(gh, n, name, o = {}) {
  const action = o.action ?? 'labeled'
  if (action === 'labeled') gh.addLabel(n, name)
  else gh.labels.get(n)?.delete(name)
  const label = {
    id: 4_000_000 + n,
    node_id: `LA_kwDO${Buffer.from(name).toString('base64')}`,
    url: `https://api.github.com/repos/octo/docs/labels/${encodeURIComponent(name)}`,
    name,
    color: 'd93f0b',
    default: false,
    description: 'The docs agent writes the docs for this'
  }
  const sender = {
    id: 583231,
    node_id: 'MDQ6VXNlcjU4MzIzMQ==',
    ...(o.sender ?? { login: 'octocat', type: 'User' })
  }
  const item = {
    number: n,
    title: o.title ?? 'Add rate-limit headers',
    body: o.body === undefined ? 'Responses now carry `X-RateLimit-Remaining`.' : o.body,
    user: PR_AUTHOR,
    state: 'open',
    labels: [...(gh.labels.get(n) ?? [])].map(l => ({ name: l }))
  }
  const repository = {
    id: 1296269,
    full_name: 'octo/docs',
    name: 'docs',
    owner: { login: 'octo', type: 'Organization' }
  }
  if (o.issue)
    return {
      eventName: 'issues',
      event: {
        action,
        issue: { ...item, html_url: `https://github.com/octo/docs/issues/${n}` },
        label,
        repository,
        sender
      }
    }
  const pullRequest = {
    ...item,
    html_url: `https://github.com/octo/docs/pull/${n}`,
    head: { sha: headSha(n), ref: 'rate-limits', repo: { full_name: o.head ?? 'octo/docs' } },
    base: { sha: 'b'.repeat(40), ref: 'main', repo: { full_name: 'octo/docs' } },
    changed_files: o.changedFiles ?? 2
  }
  return {
    eventName: o.eventName ?? 'pull_request',
    event: { action, number: n, pull_request: pullRequest, label, repository, sender }
  }
}

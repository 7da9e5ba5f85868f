// Test support for "Two repositories" (contract): one fake GitHub address holding the docs
// repository and the code repository, each a fake GitHub of its own (sim/github.js) behind a
// small front that sends `/repos/OWNER/REPO/…` to the one holding that repository (the docs one
// for anything else). A scenario plays a merge in the code repository, builds the dispatch
// payload the code recipe sends (examples/code-repo-dispatch.yml), runs the docs repository's
// action on it, and reads the comments each repository got.
import http from 'node:http'
import type net from 'node:net'
import { startGitHub, type GitHubOptions } from '../sim/github.js'

export type GitHubSim = Awaited<ReturnType<typeof startGitHub>>

export interface TwoRepositories {
  /** GITHUB_API_URL for both (with the prefix, when one was given). */
  url: string
  docs: GitHubSim
  code: GitHubSim
  close(): Promise<void>
}

export async function startTwoRepositories(
  o: {
    /** owner/name of the code repository; every other repository is the docs one. */
    codeRepo?: string
    docs?: GitHubOptions
    code?: GitHubOptions
  } = {}
): Promise<TwoRepositories> {
  const codeRepo = o.codeRepo ?? 'octo/api'
  const [docs, code] = await Promise.all([startGitHub(o.docs), startGitHub(o.code)])
  const sockets = new Set<net.Socket>()
  const codeToken = o.code?.token
  const front = http.createServer((req, res) => {
    const owner = /\/repos\/([^/]+\/[^/?]+)/.exec(req.url ?? '')?.[1]
    // A request that names no repository (GraphQL's viewer: who a token writes as) goes where its
    // token belongs, when the code repository was given a token of its own.
    const byToken =
      codeToken !== undefined && (req.headers.authorization ?? '').endsWith(` ${codeToken}`)
    const to = owner
      ? owner.toLowerCase() === codeRepo.toLowerCase()
        ? code
        : docs
      : byToken
        ? code
        : docs
    const upstream = http.request(
      { host: '127.0.0.1', port: to.port, method: req.method, path: req.url, headers: req.headers },
      answer => {
        // The simulators' pagination links name their own port: keep the client on the front.
        const headers = { ...answer.headers }
        if (typeof headers.link === 'string')
          headers.link = headers.link.replaceAll(`:${to.port}/`, `:${port}/`)
        res.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(res)
      }
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  front.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>(ok => front.listen(0, '127.0.0.1', () => ok()))
  const port = (front.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    docs,
    code,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>(done => front.close(() => done()))
      await Promise.all([docs.close(), code.close()])
    }
  }
}

export interface MergedPull {
  number: number
  title: string
  html_url: string
  merge_commit_sha: string
  body: string | null
  /** Who opened it: its login goes in the payload (`reviewers: author` on the docs side). */
  user?: { login: string; type?: string }
}

/**
 * The `client_payload` examples/code-repo-dispatch.yml sends (its jq program): the pull request's
 * number, title, link, merge commit, author's login and body clipped to 4,000 characters, and at
 * most 100 paths.
 */
export function dispatchPayload(pull: MergedPull, paths: string[]) {
  return {
    pull_request: {
      number: pull.number,
      title: pull.title,
      html_url: pull.html_url,
      merge_commit_sha: pull.merge_commit_sha,
      user: { login: pull.user?.login ?? null },
      // jq's string slice counts code points, as Array.from does.
      body: Array.from(pull.body ?? '')
        .slice(0, 4000)
        .join('')
    },
    paths: paths.slice(0, 100)
  }
}

/** The `repository_dispatch` event the docs repository's run gets for that payload. */
export function dispatchEvent(payload: ReturnType<typeof dispatchPayload>, docsRepo = 'octo/docs') {
  return {
    action: 'code-merged',
    branch: 'main',
    client_payload: payload,
    repository: { full_name: docsRepo }
  }
}

// What a `repository_dispatch` from the code repository says (contract: "Two repositories"): the
// merged pull request (`client_payload.pull_request`: number, title, html_url, merge_commit_sha,
// body, `user.login`) and its changed paths (`client_payload.paths`), as the code recipe sends
// them; an older payload's `title` and `url` are still read. All of it is untrusted: the author is
// taken only when it is a login as GitHub spells one.
import { asObject, type JsonObject } from '../json.js'
import { isInvisible } from '../public-text.js'
import { isLogin } from '../github/logins.js'

/** The code pull request's description is clipped to this many characters (the recipe's cap). */
export const MAX_BODY_CHARS = 4000
const MAX_PATHS = 100

export interface DispatchedChange {
  /** `author`: who opened it (`pull_request.user.login`), when the payload names a login. */
  pullRequest?: { number?: number; title?: string; url?: string; author?: string }
  mergeCommit?: string
  /** The description, clipped, without invisible characters; one line once rendered. */
  body?: string
  paths: string[]
  /** How many paths the payload held (more than MAX_PATHS when it held more). */
  totalPaths: number
}

const asText = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : undefined

/** The number of a pull request link (`…/pull/42`), for a payload that names only its url. */
function numberOfLink(url: string | undefined): number | undefined {
  const digits = /\/pull\/([1-9]\d{0,15})(?:[/?#]|$)/.exec(url ?? '')?.[1]
  const n = Number(digits)
  return digits && Number.isSafeInteger(n) ? n : undefined
}

/** A pull request's or issue's description: without invisible characters, clipped. */
export function descriptionOf(text: unknown): string | undefined {
  const body = asText(text)
  if (!body) return undefined
  const visible = [...body].filter(c => !isInvisible(c))
  return visible.slice(0, MAX_BODY_CHARS).join('')
}

export function readDispatch(payload: JsonObject): DispatchedChange | undefined {
  const cp = asObject(payload.client_payload)
  if (!cp) return undefined
  const pr = asObject(cp.pull_request)
  const url = asText(pr?.html_url) ?? asText(cp.url)
  const title = asText(pr?.title) ?? asText(cp.title)
  const given = pr?.number
  const number =
    typeof given === 'number' && Number.isSafeInteger(given) && given > 0
      ? given
      : numberOfLink(url)
  const all = Array.isArray(cp.paths)
    ? cp.paths.filter((p): p is string => asText(p) !== undefined)
    : []
  const login = asText(asObject(pr?.user)?.login)
  const author = login !== undefined && isLogin(login) ? login : undefined
  const change: DispatchedChange = { paths: all.slice(0, MAX_PATHS), totalPaths: all.length }
  if (number !== undefined || title !== undefined || url !== undefined || author !== undefined)
    change.pullRequest = {
      ...(number !== undefined ? { number } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(author !== undefined ? { author } : {})
    }
  const merge = asText(pr?.merge_commit_sha)
  if (merge) change.mergeCommit = merge
  const body = descriptionOf(pr?.body)
  if (body) change.body = body
  return change
}

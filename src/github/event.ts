// What the triggering event says, read defensively: the payload is untrusted JSON, so every
// field is checked for its type and a malformed event yields undefined fields, never a throw.
import { asObject } from '../json.js'

export interface TriggerComment {
  id: number
  body: string
  author: string
  authorType?: string
  /**
   * issue_comment, pull_request_review_comment, or a submitted review (pull_request_review):
   * decides the reactions endpoint (a review has none in the API).
   */
  kind: 'issue' | 'pull' | 'review'
  action: string
}

/** The events whose comment (or review body) may be a trigger. */
export const TRIGGER_EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review'
]

/** The events whose `labeled` action may be a label trigger (`trigger-label`). */
const LABEL_EVENTS = ['issues', 'pull_request', 'pull_request_target']

/** A label added to (or removed from) an issue or pull request, and who did it. */
interface LabelChange {
  action: 'labeled' | 'unlabeled'
  /** `label.name`: exactly as GitHub sends it. */
  name: string
  /** `sender`: who added or removed it. */
  author: string
  authorType?: string
}

export interface EventInfo {
  eventName: string
  owner: string
  repo: string
  issueNumber?: number
  isPullRequest: boolean
  /**
   * The head repository of a pull request from another repository (a fork), when the payload
   * says (pull_request events and review comments; an issue_comment does not carry it).
   */
  forkRepository?: string
  /** The login that opened the pull request, when the event is on one and says. */
  pullRequestAuthor?: string
  /** For issue_comment and pull_request_review_comment; for pull_request_review, the review. */
  comment?: TriggerComment
  /** For LABEL_EVENTS whose action is `labeled` or `unlabeled`. */
  label?: LabelChange
}

type Json = Record<string, unknown>

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** A positive safe integer, as issue numbers and comment ids are. */
function asId(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined
}

function numberOf(container: unknown): number | undefined {
  return asId(asObject(container)?.number)
}

function splitRepository(repository: string): { owner: string; repo: string } {
  const slash = repository.indexOf('/')
  if (slash < 0) return { owner: repository, repo: '' }
  return { owner: repository.slice(0, slash), repo: repository.slice(slash + 1) }
}

function readComment(payload: Json, kind: TriggerComment['kind']): TriggerComment | undefined {
  const comment = asObject(kind === 'review' ? payload.review : payload.comment)
  const id = asId(comment?.id)
  if (comment === undefined || id === undefined) return undefined
  const user = asObject(comment.user)
  const authorType = asString(user?.type)
  return {
    id,
    // A comment body can be null in the API when empty.
    body: asString(comment.body) ?? '',
    author: asString(user?.login) ?? '',
    ...(authorType === undefined ? {} : { authorType }),
    kind,
    action: asString(payload.action) ?? ''
  }
}

function readIssueNumber(
  eventName: string,
  payload: Json
): { issueNumber?: number; isPullRequest: boolean } {
  switch (eventName) {
    case 'pull_request':
    case 'pull_request_target':
      return {
        issueNumber: numberOf(payload.pull_request) ?? asId(payload.number),
        isPullRequest: true
      }
    case 'pull_request_review':
    case 'pull_request_review_comment':
      return { issueNumber: numberOf(payload.pull_request), isPullRequest: true }
    case 'issue_comment':
    case 'issues': {
      const issue = asObject(payload.issue)
      // Pull requests are issues too; the API marks them with a `pull_request` object.
      return {
        issueNumber: numberOf(issue),
        isPullRequest: asObject(issue?.pull_request) !== undefined
      }
    }
    default:
      return { isPullRequest: false }
  }
}

/** Compared by name: `head.repo.fork` only says the head repository is a fork of something. */
function readForkRepository(payload: Json, repository: string): string | undefined {
  const head = asObject(asObject(payload.pull_request)?.head)
  const name = asString(asObject(head?.repo)?.full_name)
  if (name === undefined || repository === '') return undefined
  return name.toLowerCase() === repository.toLowerCase() ? undefined : name
}

export function readEvent(
  eventName: string,
  payload: Record<string, unknown>,
  repository: string
): EventInfo {
  const safePayload = asObject(payload) ?? {}
  const { issueNumber, isPullRequest } = readIssueNumber(eventName, safePayload)
  const info: EventInfo = { eventName, ...splitRepository(repository), isPullRequest }
  if (issueNumber !== undefined) info.issueNumber = issueNumber
  const fork = readForkRepository(safePayload, repository)
  if (fork !== undefined) info.forkRepository = fork
  const author = isPullRequest ? readPullRequestAuthor(safePayload) : undefined
  if (author) info.pullRequestAuthor = author
  const label = LABEL_EVENTS.includes(eventName) ? readLabelChange(safePayload) : undefined
  if (label !== undefined) info.label = label
  const kind = COMMENT_KINDS[eventName]
  if (kind !== undefined) {
    const comment = readComment(safePayload, kind)
    if (comment !== undefined) info.comment = comment
  }
  return info
}

function readLabelChange(payload: Json): LabelChange | undefined {
  const action = payload.action
  const name = asString(asObject(payload.label)?.name)
  if ((action !== 'labeled' && action !== 'unlabeled') || name === undefined) return undefined
  const sender = asObject(payload.sender)
  const authorType = asString(sender?.type)
  return {
    action,
    name,
    author: asString(sender?.login) ?? '',
    ...(authorType === undefined ? {} : { authorType })
  }
}

const COMMENT_KINDS: Readonly<Record<string, TriggerComment['kind']>> = {
  issue_comment: 'issue',
  pull_request_review_comment: 'pull',
  pull_request_review: 'review'
}

/** `pull_request.user`, or for a comment in a pull request's conversation `issue.user`. */
function readPullRequestAuthor(payload: Json): string | undefined {
  const item = asObject(payload.pull_request) ?? asObject(payload.issue)
  return asString(asObject(item?.user)?.login)
}

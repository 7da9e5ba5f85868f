// Who asked for this run, where and how: one value for every kind of start, built once by the
// gate, so that the commands, the renderers and the records take "who asked, where" from it and
// never from the kind of event. A trigger comment or review asks in words; a label, a merge, a
// dispatch, a run by hand or on a schedule asks too, and names its asker the same way.
import { asObject, type JsonObject } from '../json.js'
import type { Place } from '../github/comments.js'
import type { EventInfo, TriggerComment } from '../github/event.js'
import { pullRequestOfLink } from '../github/pulls.js'
import { readDispatch } from '../agent/dispatch.js'
import { isLogin } from '../github/logins.js'
import type { FixRequest } from '../records/fix.js'

/**
 * How the run was asked for: a trigger comment (an issue's or a pull request's conversation, or
 * a review comment), a review's body, `trigger-label`, a merged pull request, a
 * `repository_dispatch`, a `workflow_dispatch` (by hand), a `schedule`, or any other event.
 */
export type AskedHow =
  'comment' | 'review' | 'label' | 'merge' | 'dispatch' | 'workflow_dispatch' | 'schedule' | 'event'

/** An issue or pull request, and its address as a reader follows it. */
export interface AskedOn extends Place {
  url: string
  pullRequest: boolean
}

/** Who asked for the run, where and how. */
export interface Asker {
  how: AskedHow
  /**
   * Who asked (a login): the writer of the comment or review, who added the label, the merged
   * pull request's author, else the event's `sender` or the run's actor. Absent when none is named.
   */
  login?: string
  /**
   * Whoever's change or request started the job (`reviewers: author`): the commenter, a labelled
   * pull request's author, a merged pull request's author, a dispatch payload's
   * `pull_request.user.login`, whoever ran the workflow by hand. A login; absent when none is
   * named (a schedule, a payload without one).
   */
  author?: string
  /** The issue or pull request asked on (a dispatch: the code pull request), if any. */
  on?: AskedOn
  /** The ask itself: the trigger comment's or review's own anchor, else `on`'s address. */
  link?: string
  /**
   * The instruction given in words (a trigger's, or the suggestions `fix N` names); absent where
   * the `prompt` input is the instruction.
   */
  instruction?: string
  // What one kind adds, never read to learn who asked or where:
  /** The trigger comment or review: its reactions, its answer's key, the cause it sends for. */
  comment?: TriggerComment
  /** `fix N [M …]`: the report's suggestions the instruction holds. */
  fixes?: FixRequest[]
  /** `trigger-label`: the label as it is spelt on the item, taken off when the run ends. */
  label?: string
  /** Why the asker may ask, for the log (a comment or a label). */
  why?: string
}

/** The address of issue or pull request `place` on this GitHub (GitHub sends /issues/N on). */
export function placeUrl(serverUrl: string, place: Place): string {
  const base = serverUrl.replace(/\/+$/, '')
  return `${base}/${place.owner}/${place.repo}/issues/${place.issueNumber}`
}

/** The issue or pull request the event is on, with its address, if any. */
export function eventPlace(event: EventInfo, serverUrl: string): AskedOn | undefined {
  const { owner, repo, issueNumber } = event
  if (issueNumber === undefined || owner === '' || repo === '') return undefined
  const place = { owner, repo, issueNumber }
  return { ...place, url: placeUrl(serverUrl, place), pullRequest: event.isPullRequest }
}

/** The anchor of a trigger comment in its thread, as GitHub links it. */
const ANCHORS = { issue: 'issuecomment-', pull: 'discussion_r', review: 'pullrequestreview-' }

/** A trigger comment or review that was let through, with its instruction. */
export function commentAsker(
  event: EventInfo,
  serverUrl: string,
  comment: TriggerComment,
  given: { instruction: string; why: string; fixes?: FixRequest[] }
): Asker {
  const on = eventPlace(event, serverUrl)
  return {
    how: comment.kind === 'review' ? 'review' : 'comment',
    ...loginOf(comment.author),
    ...authorOf(comment.author),
    ...(on ? { on, link: `${on.url}#${ANCHORS[comment.kind]}${comment.id}` } : {}),
    instruction: given.instruction,
    comment,
    ...(given.fixes ? { fixes: given.fixes } : {}),
    why: given.why
  }
}

/**
 * A label added by someone who may start the agent, on the item the event is on (`author`: that
 * pull request's author, whose change it is).
 */
export function labelAsker(
  on: AskedOn,
  added: { label: string; by: string; why: string; author?: string }
): Asker {
  return {
    how: 'label',
    ...loginOf(added.by),
    ...authorOf(added.author),
    on,
    link: on.url,
    label: added.label,
    why: added.why
  }
}

/**
 * Every other start: a merged pull request (asked by its author, on it), a dispatch (its sender,
 * on the code pull request it names), a run by hand or on a schedule (its sender or the run's
 * actor, on nothing), any other event (its sender, on its issue or pull request if any).
 */
export function eventAsker(
  event: EventInfo,
  payload: JsonObject,
  actor: string,
  serverUrl: string
): Asker {
  const sender = loginOf(stringAt(asObject(payload.sender), 'login') ?? actor)
  const pr = asObject(payload.pull_request)
  const merged =
    event.eventName.startsWith('pull_request') && payload.action === 'closed' && pr?.merged === true
  const here = eventPlace(event, serverUrl)
  const where = (on: AskedOn | undefined) => (on ? { on, link: on.url } : {})
  if (merged) {
    const author = stringAt(asObject(pr.user), 'login')
    return { how: 'merge', ...loginOf(author), ...authorOf(author), ...where(here) }
  }
  if (event.eventName === 'repository_dispatch') {
    const code = dispatchedPullRequest(payload, serverUrl)
    const author = readDispatch(payload)?.pullRequest?.author
    return { how: 'dispatch', ...sender, ...authorOf(author), ...where(code) }
  }
  if (event.eventName === 'workflow_dispatch')
    return { how: 'workflow_dispatch', ...sender, ...authorOf(sender.login), ...where(here) }
  const how = event.eventName === 'schedule' ? 'schedule' : 'event'
  return { how, ...sender, ...where(here) }
}

/**
 * The code pull request a `repository_dispatch` names, when its link is a pull request of this
 * GitHub whose owner and name GitHub allows (nothing else reaches a link's label).
 */
export function dispatchedPullRequest(payload: JsonObject, serverUrl: string): AskedOn | undefined {
  const url = readDispatch(payload)?.pullRequest?.url
  const pr = url ? pullRequestOfLink(url, serverUrl) : undefined
  if (!pr || !/^[\w.-]+$/.test(pr.owner) || !/^[\w.-]+$/.test(pr.repo)) return undefined
  const base = serverUrl.replace(/\/+$/, '')
  return {
    owner: pr.owner,
    repo: pr.repo,
    issueNumber: pr.number,
    url: `${base}/${pr.owner}/${pr.repo}/pull/${pr.number}`,
    pullRequest: true
  }
}

const loginOf = (login: string | undefined): { login?: string } => (login ? { login } : {})
/** The author, when GitHub could have named it: a login as GitHub spells one. */
const authorOf = (login: string | undefined): { author?: string } =>
  login !== undefined && isLogin(login) ? { author: login } : {}

function stringAt(o: JsonObject | undefined, key: string): string | undefined {
  const value = o?.[key]
  return typeof value === 'string' ? value : undefined
}

// What the GitHub room's tests share: a simulated GitHub per test, a place, a trigger comment.
import { expect } from '@jest/globals'
import { getOctokit } from '@actions/github'
import type { EventInfo, TriggerComment } from '../src/github/event.js'
import type { Place } from '../src/github/comments.js'
import type { Octokit } from '../src/github/octokit.js'
import { systemClock } from '../src/deadline.js'
import { Records } from '../src/records/records.js'
import type { CommentWrite } from '../src/records/thread.js'
import type { CommentMode } from '../src/github/comments.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

export const SECRET = 'mint_secret_key'
export const PLACE: Place = { owner: 'octo', repo: 'docs', issueNumber: 12 }

export type Sim = Awaited<ReturnType<typeof startGitHub>>
type SimOptions = Parameters<typeof startGitHub>[0]

/** Starts a simulated GitHub for one test and always closes it. */
export async function withGitHub(
  options: SimOptions,
  fn: (gh: Sim, octokit: ReturnType<typeof getOctokit>) => Promise<void>
): Promise<void> {
  const gh = await startGitHub(options)
  try {
    await fn(gh, getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }))
    // Installation tokens are refused GET /user, so nothing may depend on it.
    expect(gh.requests.some(r => r.path === '/user')).toBe(false)
  } finally {
    await gh.close()
  }
}

export function commentEvent(
  over: Partial<TriggerComment> = {},
  eventOver: Partial<EventInfo> = {}
) {
  const comment: TriggerComment = {
    id: 1,
    body: '/docs-agent fix the typo',
    author: 'alice',
    authorType: 'User',
    kind: 'issue',
    action: 'created',
    ...over
  }
  const event: EventInfo = {
    eventName: 'issue_comment',
    owner: 'octo',
    repo: 'docs',
    issueNumber: 12,
    isPullRequest: true,
    comment,
    ...eventOver
  }
  return event
}

/** A thread as one run sees it (its own Records). */
export const threadOf = (octokit: Octokit, place: Place = PLACE, secret = SECRET) =>
  new Records(octokit, secret, systemClock).thread(place)

/** One write, as a run that writes one comment does. */
export const upsertComment = (
  octokit: Octokit,
  place: Place,
  o: CommentWrite & { mode: CommentMode; secret: string }
) => threadOf(octokit, place, o.secret).upsert(o)

/** The job of the newest route record of `projectId` in the thread, as a new run reads it. */
export const findRoutedJob = async (
  octokit: Octokit,
  place: Place,
  projectId: string,
  secret: string
): Promise<string | undefined> =>
  (await threadOf(octokit, place, secret).newest('route', { project: projectId }))?.job

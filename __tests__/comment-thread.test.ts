// Unit tier: CommentThread: one listing per issue per run, and a new comment written in one
// request.
import { describe, it, expect } from '@jest/globals'
import { getOctokit } from '@actions/github'
import type { Place } from '../src/github/comments.js'
import { recordKey } from '../src/records/kinds.js'
import { systemClock } from '../src/deadline.js'
import { Records } from '../src/records/records.js'
import type { RecordThread } from '../src/records/thread.js'
import { growthExplained, growthExplainedKey } from '../src/records/job.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const SECRET = 'mint_secret_key'
const PLACE: Place = { owner: 'octo', repo: 'docs', issueNumber: 12 }
const ROUTE = recordKey('route', { project: 'proj', job: 'job-1' })
const JOB = recordKey('job', { project: 'proj', job: 'job-1' })
/** The thread as a new run sees it. */
const newThread = (gh: Sim): RecordThread =>
  new Records(getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }), SECRET, systemClock).thread(PLACE)
const routedJob = async (thread: RecordThread) =>
  (await thread.newest('route', { project: 'proj' }))?.job

type Sim = Awaited<ReturnType<typeof startGitHub>>

async function withThread(fn: (gh: Sim, thread: RecordThread) => Promise<void>): Promise<void> {
  const gh = await startGitHub()
  try {
    await fn(gh, newThread(gh))
  } finally {
    await gh.close()
  }
}

const listings = (gh: Sim) =>
  gh.requests.filter(q => q.method === 'GET' && q.path.endsWith('/issues/12/comments'))
const writes = (gh: Sim, method: string) =>
  gh.requests.filter(q => q.method === method && q.path.includes('/comments'))

describe('CommentThread', () => {
  it('a route lookup and the upserts after it share one listing', async () => {
    await withThread(async (gh, thread) => {
      expect(await routedJob(thread)).toBeUndefined()
      const first = await thread.upsert({ key: JOB, extraKeys: [ROUTE], body: 'a', mode: 'upsert' })
      // The thread remembers its own comment: the second upsert edits it without listing again.
      const second = await thread.upsert({ key: JOB, body: 'b', mode: 'upsert' })
      expect(second.id).toBe(first.id)
      expect(listings(gh)).toHaveLength(1)
      expect(await routedJob(thread)).toBeUndefined() // 'b' dropped the route
      expect(listings(gh)).toHaveLength(1)
    })
  })

  it('a new comment is complete, markers signed, in the one POST that creates it', async () => {
    await withThread(async (gh, thread) => {
      await thread.upsert({ key: JOB, extraKeys: [ROUTE], body: 'working', mode: 'upsert' })
      expect(writes(gh, 'POST')).toHaveLength(1)
      expect(writes(gh, 'PATCH')).toHaveLength(0)
      expect(gh.comments.get(12)?.[0]?.body).toMatch(
        /docs-agent:route%2Fproj%2Fjob-1 v=2 t=\d+ sig=/
      )
      // A fresh run (a new thread) finds the route the new comment carries.
      const next = newThread(gh)
      expect(await routedJob(next)).toBe('job-1')
    })
  })

  it('each write of a run is newer than the one before, even within one millisecond', async () => {
    await withThread(async (gh, thread) => {
      const a = await thread.upsert({ key: ROUTE, body: 'a', mode: 'create' })
      await thread.upsert({
        key: recordKey('route', { project: 'proj', job: 'job-2' }),
        body: 'b',
        mode: 'create'
      })
      await thread.update(a.id, {
        key: recordKey('route', { project: 'proj', job: 'job-3' }),
        body: 'c'
      })
      const next = newThread(gh)
      expect(await routedJob(next)).toBe('job-3')
    })
  })

  it("a growth was explained in the thread only by the action's signed `explained` record", async () => {
    await withThread(async (gh, thread) => {
      const paragraph = "📎 The docs agent's pull request #21 was still open, so this instruction…"
      // The paragraph alone (an older answer, a quote) is no record; nor is a reader's copy of one.
      await thread.upsert({ key: JOB, body: paragraph, mode: 'create' })
      expect(await growthExplained(newThread(gh), 'proj')).toBe(false)
      const explained = growthExplainedKey('proj', 21)
      const own = await thread.upsert({
        key: ROUTE,
        extraKeys: [explained],
        body: paragraph,
        mode: 'create'
      })
      const copy = gh.comments.get(12)?.find(c => c.id === own.id)?.body ?? ''
      const other = new Records(
        getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }),
        SECRET,
        systemClock
      ).thread({ ...PLACE, issueNumber: 13 })
      gh.addComment(13, copy, { login: 'mallory', type: 'User' })
      expect(await growthExplained(other, 'proj')).toBe(false)
      // The action's own, signed: explained, for this project only.
      expect(await growthExplained(newThread(gh), 'proj')).toBe(true)
      expect(await growthExplained(newThread(gh), 'other-project')).toBe(false)
    })
  })
})

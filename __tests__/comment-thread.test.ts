// CommentThread: one listing per issue per run, and no edit that only signs a comment whose next
// write rewrites it anyway.
import { describe, it, expect } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { CommentThread, markerKey, type Place } from '../src/github/comments.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const SECRET = 'mint_secret_key'
const PLACE: Place = { owner: 'octo', repo: 'docs', issueNumber: 12 }
const ROUTE = markerKey('route', 'proj', 'job-1')
const JOB = markerKey('job', 'proj', 'job-1')

type Sim = Awaited<ReturnType<typeof startGitHub>>

async function withThread(fn: (gh: Sim, thread: CommentThread) => Promise<void>): Promise<void> {
  const gh = await startGitHub()
  try {
    await fn(
      gh,
      new CommentThread(getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }), PLACE, SECRET)
    )
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
      expect(await thread.findRoutedJob('proj')).toBeUndefined()
      const first = await thread.upsert({ key: JOB, extraKeys: [ROUTE], body: 'a', mode: 'upsert' })
      // The thread remembers its own comment: the second upsert edits it without listing again.
      const second = await thread.upsert({ key: JOB, body: 'b', mode: 'upsert' })
      expect(second.id).toBe(first.id)
      expect(listings(gh)).toHaveLength(1)
      expect(await thread.findRoutedJob('proj')).toBeUndefined() // 'b' dropped the route
      expect(listings(gh)).toHaveLength(1)
    })
  })

  it('signLater: created without markers, signed by the next update, two writes in all', async () => {
    await withThread(async (gh, thread) => {
      const made = await thread.upsert({
        key: JOB,
        body: 'working',
        mode: 'upsert',
        signLater: true
      })
      expect(made.signed).toBe(false)
      expect(writes(gh, 'POST')).toHaveLength(1)
      expect(writes(gh, 'PATCH')).toHaveLength(0)
      expect(gh.comments.get(12)?.[0]?.body).not.toContain('docs-agent:')
      await thread.update(made.id, { key: JOB, extraKeys: [ROUTE], body: 'done' })
      expect(writes(gh, 'PATCH')).toHaveLength(1)
      expect(gh.comments.get(12)?.[0]?.body).toMatch(/docs-agent:route%2Fproj%2Fjob-1 sig=/)
      // A fresh run (a new thread) finds the route the signed comment carries.
      const next = new CommentThread(
        getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }),
        PLACE,
        SECRET
      )
      expect(await next.findRoutedJob('proj')).toBe('job-1')
    })
  })

  it('an unsigned comment routes nothing and is not found by upsert', async () => {
    await withThread(async (gh, thread) => {
      await thread.upsert({
        key: JOB,
        extraKeys: [ROUTE],
        body: 'x',
        mode: 'upsert',
        signLater: true
      })
      const next = new CommentThread(
        getOctokit(SIM_GITHUB_TOKEN, { baseUrl: gh.url }),
        PLACE,
        SECRET
      )
      expect(await next.findRoutedJob('proj')).toBeUndefined()
    })
  })
})

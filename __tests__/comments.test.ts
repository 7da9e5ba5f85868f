// Unit tier: the comment module against the fake GitHub: listing, upsert by signed marker, fitting,
// links.
import { describe, it, expect } from '@jest/globals'
import { listComments, parsePullRequestLink, type Place } from '../src/github/comments.js'
import { GitHubError } from '../src/github/errors.js'
import { COMMENT_MAX_CHARS } from '../src/report/fit.js'
import { recordKey } from '../src/records/kinds.js'
import { makeMarker as signedBy, verifiedMarkers } from '../src/records/signature.js'
import { SIM_GITHUB_TOKEN, startGitHub } from '../sim/github.js'
import {
  findRoutedJob,
  PLACE,
  SECRET,
  threadOf,
  upsertComment,
  withGitHub,
  type Sim
} from './github-support.js'
import { quietWorkflowCommands, workflowCommands } from './quiet.js'

quietWorkflowCommands()

const BOT_LOGIN = 'github-actions[bot]'
/** A marker as the action (the simulator's token, `github-actions[bot]`) writes it. */
const makeMarker = (key: string, secret: string, place: Place, at: number): string =>
  signedBy(key, secret, place, BOT_LOGIN, at)
const route = (project: string, job: string) => recordKey('route', { project, job })
const verifiedKeys = (body: string, secret: string, place: Place, _id?: number): string[] =>
  verifiedMarkers(body, secret, place, { author: BOT_LOGIN, own: true }).map(x => x.key)
let clock = 1_732_450_000_000
/** A marker written now, later than every one before it. */
const stamp = (): number => ++clock
const updateCommentBody = (
  octokit: Parameters<typeof upsertComment>[0],
  place: Place,
  id: number,
  o: { key: string; extraKeys?: string[]; body: string; secret: string }
) => threadOf(octokit, place, o.secret).update(id, o)

describe('parsePullRequestLink', () => {
  const server = 'https://github.com'
  const cases: Array<[string, string, number | undefined]> = [
    ['https://github.com/octo/docs/pull/7', server, 7],
    ['https://github.com/octo/docs/pull/7/', server, 7],
    ['https://github.com/octo/docs/pull/7/files', server, 7],
    ['https://github.com/octo/docs/pull/7#issuecomment-1', server, 7],
    ['https://github.com/octo/docs/pull/7?w=1', server, 7],
    ['https://GitHub.com/Octo/Docs/pull/7', server, 7],
    ['  https://github.com/octo/docs/pull/1234  ', server, 1234],
    ['https://ghe.example.com/octo/docs/pull/3', 'https://ghe.example.com/', 3],
    ['https://ghe.example.com/octo/docs/pull/3', server, undefined],
    ['https://github.com.evil.com/octo/docs/pull/7', server, undefined],
    ['https://evil.com/github.com/octo/docs/pull/7', server, undefined],
    ['https://github.com/other/docs/pull/7', server, undefined],
    ['https://github.com/octo/other/pull/7', server, undefined],
    ['https://github.com/octo/docs/issues/7', server, undefined],
    ['https://github.com/octo/docs/pull/7/commits', server, undefined],
    ['https://github.com/octo/docs/pull/abc', server, undefined],
    ['https://github.com/octo/docs/pull/0', server, undefined],
    ['https://github.com/octo/docs/pull/-7', server, undefined],
    ['https://github.com/octo/docs/pull/99999999999999999', server, undefined],
    ['https://github.com/x/octo/docs/pull/7', server, undefined],
    ['https://user:pw@github.com/octo/docs/pull/7', server, undefined],
    ['ftp://github.com/octo/docs/pull/7', server, undefined],
    ['javascript:alert(1)', server, undefined],
    ['not a url', server, undefined],
    ['', server, undefined],
    ['https://github.com/octo/docs/pull/7', 'not a url', undefined]
  ]
  it.each(cases)('%j on %j gives %j', (link, serverUrl, expected) => {
    expect(parsePullRequestLink(link, serverUrl, 'octo', 'docs')).toBe(expected)
  })
})

describe('comments against simulated GitHub', () => {
  it('upserts one comment over several runs, editing it in place', async () => {
    await withGitHub({}, async (gh, octokit) => {
      gh.addComment(12, 'unrelated discussion')
      const key = recordKey('job', { project: 'proj', job: 'job-1' })
      const first = await upsertComment(octokit, PLACE, {
        key,
        body: 'run 1',
        mode: 'upsert',
        secret: SECRET
      })
      const second = await upsertComment(octokit, PLACE, {
        key,
        body: 'run 2',
        mode: 'upsert',
        secret: SECRET
      })
      const third = await upsertComment(octokit, PLACE, {
        key,
        body: 'run 3',
        mode: 'upsert',
        secret: SECRET
      })
      expect(second.id).toBe(first.id)
      expect(third.id).toBe(first.id)
      expect(first.url).toMatch(/#issuecomment-\d+$/)
      const list = gh.comments.get(12) ?? []
      expect(list).toHaveLength(2)
      const ours = list.find(c => c.id === first.id)
      expect(ours?.body.startsWith('run 3\n\n')).toBe(true)
      expect(verifiedKeys(ours?.body ?? '', SECRET, PLACE, first.id)).toEqual([key])
      expect(
        gh.requests.filter(r => r.method === 'POST' && r.path.endsWith('/comments'))
      ).toHaveLength(1)
      // A new comment is complete in its POST; each later run edits it once.
      expect(gh.requests.filter(r => r.method === 'PATCH')).toHaveLength(2)
    })
  })

  it('keeps comments of different keys apart and appends extra keys', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const routeKey = route('proj', 'job-1')
      const a = await upsertComment(octokit, PLACE, {
        key: 'job/proj/job-1',
        extraKeys: [routeKey],
        body: 'a',
        mode: 'upsert',
        secret: SECRET
      })
      const b = await upsertComment(octokit, PLACE, {
        key: 'visitors/proj/r',
        body: 'b',
        mode: 'upsert',
        secret: SECRET
      })
      expect(b.id).not.toBe(a.id)
      const body = gh.comments.get(12)?.find(c => c.id === a.id)?.body ?? ''
      expect(verifiedKeys(body, SECRET, PLACE, a.id)).toEqual(['job/proj/job-1', routeKey])
    })
  })

  it('always creates in create mode', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const o = { key: 'job/p/j', body: 'x', mode: 'create' as const, secret: SECRET }
      const a = await upsertComment(octokit, PLACE, o)
      const b = await upsertComment(octokit, PLACE, o)
      expect(b.id).not.toBe(a.id)
      expect(gh.comments.get(12)).toHaveLength(2)
      expect(gh.requests.some(r => r.method === 'GET')).toBe(false)
    })
  })

  it('does not adopt a user comment carrying a forged or misplaced marker', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const key = 'job/p/j'
      gh.addComment(12, `mine ${makeMarker(key, 'guessed', PLACE, stamp())}`)
      const moved = gh.addComment(12, '')
      moved.body = `copied\n\n${makeMarker(key, SECRET, { ...PLACE, issueNumber: 99 }, stamp())}`
      gh.addComment(12, `<!-- docs-agent:job%2Fp%2Fj -->`)
      const ref = await upsertComment(octokit, PLACE, {
        key,
        body: 'ours',
        mode: 'upsert',
        secret: SECRET
      })
      const list = gh.comments.get(12) ?? []
      expect(list).toHaveLength(4)
      expect(list[3]?.id).toBe(ref.id)
      expect(list.slice(0, 3).map(c => c.body.startsWith('ours'))).toEqual([false, false, false])
    })
  })

  it('pages through more than 100 comments and updates the newest marked one', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const key = 'job/p/j'
      const bot = { login: 'github-actions[bot]', type: 'Bot' }
      const old = gh.addComment(12, '', bot)
      old.body = `old\n\n${makeMarker(key, SECRET, PLACE, stamp())}`
      for (let i = 0; i < 120; i++) gh.addComment(12, `chatter ${i}`)
      const newest = gh.addComment(12, '', bot)
      newest.body = `new\n\n${makeMarker(key, SECRET, PLACE, stamp())}`
      for (let i = 0; i < 5; i++) gh.addComment(12, `more ${i}`)

      expect(await listComments(octokit, PLACE)).toHaveLength(127)
      const ref = await upsertComment(octokit, PLACE, {
        key,
        body: 'fresh',
        mode: 'upsert',
        secret: SECRET
      })
      expect(ref.id).toBe(newest.id)
      expect(newest.body.startsWith('fresh')).toBe(true)
      expect(old.body.startsWith('old')).toBe(true)
      const pages = gh.requests.filter(r => r.method === 'GET' && r.path.endsWith('/comments'))
      expect(pages.every(r => r.query.per_page === '100')).toBe(true)
    })
  })

  it('creates a fresh comment when the marked one vanished before the edit', async () => {
    await withGitHub(
      { failures: [{ method: 'PATCH', pathIncludes: '/issues/comments/', status: 404 }] },
      async (gh, octokit) => {
        const marked = gh.addComment(12, '', { login: BOT_LOGIN, type: 'Bot' })
        marked.body = `x\n\n${makeMarker('k', SECRET, PLACE, stamp())}`
        const ref = await upsertComment(octokit, PLACE, {
          key: 'k',
          body: 'y',
          mode: 'upsert',
          secret: SECRET
        })
        expect(ref.id).not.toBe(marked.id)
        expect(gh.comments.get(12)).toHaveLength(2)
      }
    )
  })

  it('updates a known comment in place, re-appending markers', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const ref = await upsertComment(octokit, PLACE, {
        key: 'k',
        body: 'working…',
        mode: 'create',
        secret: SECRET
      })
      const again = await updateCommentBody(octokit, PLACE, ref.id, {
        key: 'k',
        extraKeys: ['route/p/j'],
        body: 'done',
        secret: SECRET
      })
      expect(again).toEqual(ref)
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(body.startsWith('done\n\n')).toBe(true)
      expect(verifiedKeys(body, SECRET, PLACE, ref.id)).toEqual(['k', 'route/p/j'])
    })
  })

  it('cuts an oversized body so the comment still fits, markers intact', async () => {
    await withGitHub({}, async (gh, octokit) => {
      await upsertComment(octokit, PLACE, {
        key: 'k',
        body: 'x'.repeat(COMMENT_MAX_CHARS + 10),
        mode: 'create',
        secret: SECRET
      })
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(body.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS)
      expect(body).toContain('cut to fit a GitHub comment')
      const id = gh.comments.get(12)?.[0]?.id ?? 0
      expect(verifiedKeys(body, SECRET, PLACE, id)).toEqual(['k'])
    })
  })

  it('wraps GitHub failures with the call, status and message, without stack or token', async () => {
    const refused = [{ method: 'POST', pathIncludes: '/comments', status: 403 }]
    await withGitHub({ failures: refused }, async (_gh, octokit) => {
      const error = await upsertComment(octokit, PLACE, {
        key: 'k',
        body: 'x',
        mode: 'create',
        secret: SECRET
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GitHubError)
      expect((error as GitHubError).status).toBe(403)
      expect((error as Error).message).toMatch(
        /^GitHub: creating a comment on #12 failed \(403 Simulated failure\)\. The token cannot write here: give the workflow `issues: write` and `pull-requests: write`/
      )
      expect((error as Error).message).not.toContain(SIM_GITHUB_TOKEN)
    })
    await withGitHub({ failures: [{ method: 'GET', status: 502 }] }, async (_gh, octokit) => {
      await expect(listComments(octokit, PLACE)).rejects.toThrow(
        'GitHub: listing the comments on #12 failed (502'
      )
    })
  })

  it('names the failing update', async () => {
    await withGitHub({}, async (_gh, octokit) => {
      await expect(
        updateCommentBody(octokit, PLACE, 4242, { key: 'k', body: 'x', secret: SECRET })
      ).rejects.toThrow('GitHub: updating comment 4242 on #12 failed (404 Not Found)')
    })
  })
})

describe('findRoutedJob', () => {
  // A comment carrying a marker signed for its own id, as the action writes them.
  const addSigned = (
    gh: Awaited<ReturnType<typeof startGitHub>>,
    text: string,
    key: string,
    place = PLACE
  ) => {
    const c = gh.addComment(12, '', { login: BOT_LOGIN, type: 'Bot' })
    c.body = `${text}\n\n${makeMarker(key, SECRET, place, stamp())}`
    return c
  }

  it('ignores a verbatim copy of an older route marker on the same pull request', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const old = addSigned(gh, 'old job ', route('proj', 'job-old'))
      addSigned(gh, 'new job ', route('proj', 'job-new'))
      gh.addComment(12, old.body, { login: 'mallory', type: 'User' })
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-new')
    })
  })

  it('edits the original, not a copy of its newest marker a user pasted later', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const key = recordKey('job', { project: 'proj', job: 'job-1' })
      const ours = await upsertComment(octokit, PLACE, {
        key,
        body: 'ours',
        mode: 'upsert',
        secret: SECRET
      })
      const original = gh.comments.get(12)?.find(c => c.id === ours.id)
      gh.addComment(12, original?.body ?? '', { login: 'mallory', type: 'User' })
      const again = await upsertComment(octokit, PLACE, {
        key,
        body: 'again',
        mode: 'upsert',
        secret: SECRET
      })
      expect(again.id).toBe(ours.id)
    })
  })

  it('returns the job of the newest verified route marker and ignores forgeries', async () => {
    await withGitHub({}, async (gh, octokit) => {
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBeUndefined()
      addSigned(gh, 'opened ', route('proj', 'job-1'))
      addSigned(gh, 'other project ', route('proj2', 'job-9'))
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-1')

      // A user pastes route markers of their own, unsigned, guessed and from another PR.
      gh.addComment(
        12,
        '<!-- docs-agent:route%2Fproj%2Fevil-job sig=0123456789abcdef0123456789abcdef -->'
      )
      gh.addComment(12, `<!-- docs-agent:${encodeURIComponent('route/proj/evil-job')} -->`)
      addSigned(gh, '', 'route/proj/evil-job', { ...PLACE, issueNumber: 3 })
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-1')

      addSigned(gh, '', route('proj', 'job 2/β'))
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job 2/β')
      expect(await findRoutedJob(octokit, PLACE, 'proj2', SECRET)).toBe('job-9')
      expect(await findRoutedJob(octokit, PLACE, 'pro', SECRET)).toBeUndefined()
    })
  })
})

describe('markers count only in comments of the login that signed them', () => {
  const BOT = { login: BOT_LOGIN, type: 'Bot' }
  const MALLORY = { login: 'mallory', type: 'User' }
  const signed = (gh: Sim, key: string, user = BOT, at = stamp()) =>
    gh.addComment(12, `x\n\n${makeMarker(key, SECRET, PLACE, at)}`, user)
  const thread = (octokit: Parameters<typeof upsertComment>[0]) => threadOf(octokit)
  const STEP = {
    project: 'proj',
    run: '7',
    workflowJob: 'docs',
    step: 'step',
    leg: 'l',
    instruction: 'i',
    jobIdGiven: ''
  }
  const delivered = (job: string) => recordKey('run', { ...STEP, job })

  it('a reader who commented first and pasted genuine markers counts for nothing: the login is never taken from the oldest comment', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const hers = gh.addComment(12, 'first!', MALLORY)
      signed(gh, route('proj', 'job-1'))
      // She edits her comment to hold a genuine, newer marker (from an edit history, say).
      gh.editComment(
        hers.id,
        `x\n\n${makeMarker(route('proj', 'job-evil'), SECRET, PLACE, stamp())}`
      )
      expect((await thread(octokit).newest('route', { project: 'proj' }))?.job).toBe('job-1')
      expect((await thread(octokit).marked()).map(m => m.comment.author)).toEqual([BOT_LOGIN])
      // An upsert never edits her comment, whatever markers it holds.
      await thread(octokit).upsert({ key: route('proj', 'job-evil'), body: 'b', mode: 'upsert' })
      expect(gh.comments.get(12)?.find(c => c.id === hers.id)?.body).toMatch(/^x\n\n<!--/)
    })
  })

  it("GitHub's answer about the token names the action's login: asked once, only when a comment holds markers the writer's own signature does not explain", async () => {
    await withGitHub({ actorLogin: 'docs-bot' }, async (gh, octokit) => {
      const viewer = () => gh.requests.filter(q => q.path === '/graphql').length
      // Records signed for github-actions[bot] (the token used before) still count as its own.
      signed(gh, route('proj', 'job-old'))
      const t = thread(octokit)
      expect((await t.newest('route', { project: 'proj' }))?.job).toBe('job-old')
      expect(viewer()).toBe(0)
      // Older-format lines in someone's comment: is that the action's own login? GitHub says not.
      gh.addComment(12, '<!-- docs-agent:route%2Fproj%2Fjob-x t=1 sig=00 -->', MALLORY)
      const fresh = thread(octokit)
      expect((await fresh.newest('route', { project: 'proj' }))?.job).toBe('job-old')
      expect(viewer()).toBe(1)
      // Writing signs for docs-bot (known now, not asked again), and never edits the old comment.
      await fresh.upsert({ key: route('proj', 'job-new'), body: 'b', mode: 'upsert' })
      expect(viewer()).toBe(1)
      expect(gh.comments.get(12)).toHaveLength(3)
      expect((await fresh.newest('route', { project: 'proj' }))?.job).toBe('job-new')
      expect(gh.comments.get(12)?.at(-1)?.user.login).toBe('docs-bot')
    })
  })

  it('when GitHub will not say which login the token is, a new comment is created and then signed in an edit', async () => {
    await withGitHub({ viewerFails: true }, async (gh, octokit) => {
      const ref = await thread(octokit).upsert({ key: 'k', body: 'b', mode: 'create' })
      expect(gh.requests.filter(q => q.method === 'PATCH')).toHaveLength(1)
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(ref.id).toBe(gh.comments.get(12)?.[0]?.id)
      expect(verifiedKeys(body, SECRET, PLACE)).toEqual(['k'])
    })
  })

  it('`viewer` names another login than the write shows: signed again in one edit, for the author shown; later writes of the run cost no edit', async () => {
    await withGitHub({ viewerLogin: 'mallory' }, async (gh, octokit) => {
      const t = thread(octokit)
      const a = await t.upsert({ key: route('proj', 'job-1'), body: 'a', mode: 'create' })
      const methods = () => gh.requests.filter(q => q.path !== '/graphql').map(q => q.method)
      expect(methods()).toEqual(['POST', 'PATCH'])
      const body = gh.comments.get(12)?.find(c => c.id === a.id)?.body ?? ''
      expect(verifiedKeys(body, SECRET, PLACE)).toEqual([route('proj', 'job-1')])
      const forHer = verifiedMarkers(body, SECRET, PLACE, { author: 'mallory', own: false })
      expect(forHer).toEqual([])
      await t.upsert({ key: route('proj', 'job-2'), body: 'b', mode: 'create' })
      expect(methods()).toEqual(['POST', 'PATCH', 'POST'])
      expect((await thread(octokit).newest('route', { project: 'proj' }))?.job).toBe('job-2')
    })
  })

  it('one rule of newest: the later signed time, then the older comment, then the later line', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const newest = async () => (await thread(octokit).newest('route', { project: 'proj' }))?.job
      const at = stamp()
      const lines = (...jobs: string[]) =>
        jobs.map(job => makeMarker(route('proj', job), SECRET, PLACE, at)).join('\n')
      gh.addComment(12, `x\n\n${lines('job-a', 'job-b')}`, BOT)
      expect(await newest()).toBe('job-b')
      gh.addComment(12, `x\n\n${lines('job-c')}`, BOT)
      expect(await newest()).toBe('job-b')
      gh.addComment(12, `x\n\n${makeMarker(route('proj', 'job-d'), SECRET, PLACE, at + 1)}`, BOT)
      expect(await newest()).toBe('job-d')
    })
  })

  it('`viewer` failing: a claim that does not verify is unreadable only in a bot’s comment', async () => {
    await withGitHub({ viewerFails: true }, async (gh, octokit) => {
      const stale = signedBy(route('proj', 'job-1'), 'mint_old_key', PLACE, BOT_LOGIN, stamp())
      const isRoute = (key: string) => key.startsWith('route/')
      gh.addComment(12, `x\n\n${stale}`, MALLORY)
      expect(await thread(octokit).holdsUnreadable(isRoute)).toBe(false)
      gh.addComment(12, `x\n\n${stale}`, { login: 'docs-app[bot]', type: 'User' })
      expect(await thread(octokit).holdsUnreadable(isRoute)).toBe(true)
    })
  })

  it('the newest statement wins, so a newer record that drops a delivery beats the older one', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const newest = async () => (await thread(octokit).newest('run', STEP))?.job
      expect(await newest()).toBeUndefined()
      signed(gh, delivered('job-1'))
      expect(await newest()).toBe('job-1')
      signed(gh, delivered(''))
      expect(await newest()).toBe('')
      // An older record, posted again later, carries its old time.
      signed(gh, delivered('job-1'), BOT, 1)
      expect(await newest()).toBe('')
    })
  })

  it('an edit keeps the markers `carry` picks from the comment it edits, signed anew', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const t = thread(octokit)
      const other = recordKey('run', { ...STEP, step: 'other', job: 'job-1' })
      const ref = await t.upsert({
        key: 'job/proj/job-1',
        extraKeys: [other],
        body: 'a',
        mode: 'upsert'
      })
      await t.update(ref.id, { key: 'job/proj/job-1', body: 'b', carry: k => k.startsWith('run/') })
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(verifiedKeys(body, SECRET, PLACE)).toEqual(['job/proj/job-1', other])
      await t.update(ref.id, { key: 'job/proj/job-1', body: 'c' })
      expect(verifiedKeys(gh.comments.get(12)?.[0]?.body ?? '', SECRET, PLACE)).toEqual([
        'job/proj/job-1'
      ])
    })
  })
})

describe('a hostile GitHub', () => {
  it('a comment listing whose `next` link never ends stops at 100 pages, with a warning', async () => {
    const http = await import('node:http')
    let served = 0
    const server = http.createServer((req, res) => {
      served++
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1')
      const next = `http://127.0.0.1:${(server.address() as { port: number }).port}/repos/octo/docs/issues/12/comments?per_page=100&page=${page + 1}`
      res.writeHead(200, { 'content-type': 'application/json', link: `<${next}>; rel="next"` })
      res.end(JSON.stringify([{ id: page, body: 'x', html_url: `https://github.com/c/${page}` }]))
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    try {
      const { getOctokit } = await import('@actions/github')
      const port = (server.address() as { port: number }).port
      const octokit = getOctokit(SIM_GITHUB_TOKEN, { baseUrl: `http://127.0.0.1:${port}` })
      const listed = await listComments(octokit, PLACE)
      expect(listed).toHaveLength(100)
      expect(served).toBe(100)
      expect(workflowCommands).toContain(
        '::warning::The comments on #12 were listed up to 100 pages only; later ones were not read.'
      )
    } finally {
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  })
})

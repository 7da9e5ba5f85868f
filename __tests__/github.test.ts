import { describe, it, expect } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { readEvent } from '../src/github/event.js'
import type { EventInfo, TriggerComment } from '../src/github/event.js'
import {
  PERMISSION_LEVELS,
  addReaction,
  checkComment,
  checkCommenter,
  getCommenterPermission,
  hasReaction,
  isBot,
  matchTrigger,
  meetsPermission
} from '../src/github/trigger.js'
import type { PermissionLevel, TriggerRules } from '../src/github/trigger.js'
import {
  COMMENT_LIMIT,
  GitHubError,
  findRoutedJob,
  listComments,
  makeMarker,
  markerKey,
  parsePullRequestLink,
  updateCommentBody,
  upsertComment,
  verifiedKeys
} from '../src/github/comments.js'
import type { Place } from '../src/github/comments.js'
import { startGitHub, SIM_GITHUB_TOKEN } from '../sim/github.js'

const SECRET = 'mint_secret_key'
const PLACE: Place = { owner: 'octo', repo: 'docs', issueNumber: 12 }

type Sim = Awaited<ReturnType<typeof startGitHub>>
type SimOptions = Parameters<typeof startGitHub>[0]

/** Starts a simulated GitHub for one test and always closes it. */
async function withGitHub(
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

function commentEvent(over: Partial<TriggerComment> = {}, eventOver: Partial<EventInfo> = {}) {
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

describe('matchTrigger', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['/docs-agent do it', '/docs-agent', 'do it'],
    ['/docs-agent', '/docs-agent', ''],
    ['/docs-agent   ', '/docs-agent', ''],
    ['/docs-agent\n\nfix the\ntypo', '/docs-agent', 'fix the\ntypo'],
    ['  \n\t/docs-agent go', '/docs-agent', 'go'],
    ['/docs-agent\tgo', '/docs-agent', 'go'],
    ['/docs-agentx do', '/docs-agent', undefined],
    ['/docs-agent-do', '/docs-agent', undefined],
    ['please /docs-agent do', '/docs-agent', undefined],
    ['> /docs-agent do', '/docs-agent', undefined],
    // Case is ignored, as the workflow's startsWith filter ignores it.
    ['/Docs-Agent do', '/docs-agent', 'do'],
    ['/DOCS-AGENT\ndo it', '/docs-agent', 'do it'],
    ['/docs-agent go', '/Docs-Agent', 'go'],
    ['/DOCS-AGENTX do', '/docs-agent', undefined],
    ['', '/docs-agent', undefined],
    ['.docs+ run', '.docs+', 'run'],
    ['xdocs+ run', '.docs+', undefined],
    ['.docsss run', '.docs+', undefined],
    ['.docs+', '.docs+', ''],
    ['anything', '', undefined]
  ]
  it.each(cases)('%j with trigger %j gives %j', (body, trigger, expected) => {
    expect(matchTrigger(body, trigger)).toBe(expected)
  })
})

describe('meetsPermission', () => {
  it('orders the levels none < read < triage < write < maintain < admin', () => {
    expect(PERMISSION_LEVELS).toEqual(['none', 'read', 'triage', 'write', 'maintain', 'admin'])
  })

  const matrix = PERMISSION_LEVELS.flatMap((actual, a) =>
    PERMISSION_LEVELS.map((least, l) => [actual, least, a >= l] as const)
  )
  it.each(matrix)('%s meets %s: %s', (actual, least, expected) => {
    expect(meetsPermission(actual, least)).toBe(expected)
  })

  it('spot checks', () => {
    expect(meetsPermission('triage', 'write')).toBe(false)
    expect(meetsPermission('maintain', 'write')).toBe(true)
    expect(meetsPermission('none', 'read')).toBe(false)
    expect(meetsPermission('none', 'none')).toBe(true)
  })
})

const ID = 1000

describe('markers', () => {
  it('round-trips a key through a signed marker', () => {
    const key = markerKey('job', 'proj', 'job-123')
    const marker = makeMarker(key, SECRET, PLACE, ID)
    expect(marker).toMatch(/^<!-- docs-agent:job%2Fproj%2Fjob-123 sig=[0-9a-f]{32} -->$/)
    expect(verifiedKeys(`hello\n\n${marker}`, SECRET, PLACE, ID)).toEqual([key])
  })

  it('is deterministic and depends on the key', () => {
    expect(makeMarker('a', SECRET, PLACE, ID)).toBe(makeMarker('a', SECRET, PLACE, ID))
    const sig = (m: string) => / sig=([0-9a-f]+) /.exec(m)?.[1]
    expect(sig(makeMarker('a', SECRET, PLACE, ID))).not.toBe(
      sig(makeMarker('b', SECRET, PLACE, ID))
    )
  })

  it('encodes each part of a key so a slash inside an id stays unambiguous', () => {
    expect(markerKey('route', 'p/1', 'j 2')).toBe('route/p%2F1/j%202')
    expect(markerKey('route', 'p', '1/j')).not.toBe(markerKey('route', 'p/1', 'j'))
  })

  it('round-trips keys containing -->, newlines and spaces without breaking the marker', () => {
    const key = markerKey('visitors', 'my project', 'evil --> <!-- x\nline two')
    const marker = makeMarker(key, SECRET, PLACE, ID)
    expect(marker.indexOf('-->')).toBe(marker.length - 3)
    expect(marker).not.toMatch(/\n/)
    expect(verifiedKeys(marker, SECRET, PLACE, ID)).toEqual([key])
    const raw = 'a --> b\n c'
    expect(verifiedKeys(makeMarker(raw, SECRET, PLACE, ID), SECRET, PLACE, ID)).toEqual([raw])
  })

  it('returns verified keys in order and skips the rest', () => {
    const body = [
      makeMarker('one', SECRET, PLACE, ID),
      '<!-- docs-agent:two sig=00000000000000000000000000000000 -->',
      makeMarker('three', SECRET, PLACE, ID)
    ].join('\n')
    expect(verifiedKeys(body, SECRET, PLACE, ID)).toEqual(['one', 'three'])
  })

  it('rejects forged markers', () => {
    const good = makeMarker('job/p/j', SECRET, PLACE, ID)
    const flipped = good.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`)
    const forgeries = [
      flipped,
      '<!-- docs-agent:job%2Fp%2Fj -->',
      '<!-- docs-agent:job%2Fp%2Fj sig= -->',
      good.replace(/ sig=[0-9a-f]+/, ` sig=${'f'.repeat(32)}`),
      good.replace(/ sig=([0-9a-f]+)/, ' sig=$1ff'),
      good.replace(/ sig=([0-9a-f]+)/, (_m, s: string) => ` sig=${s.toUpperCase()}`),
      makeMarker('job/p/j', SECRET, { ...PLACE, issueNumber: 13 }, ID),
      makeMarker('job/p/j', SECRET, { ...PLACE, repo: 'other' }, ID),
      makeMarker('job/p/j', SECRET, { ...PLACE, owner: 'mallory' }, ID),
      makeMarker('job/p/j', 'another secret', PLACE, ID),
      // A verbatim copy of a real marker into another comment on the same pull request.
      makeMarker('job/p/j', SECRET, PLACE, ID + 1)
    ]
    for (const forged of forgeries) {
      expect(verifiedKeys(`text ${forged} text`, SECRET, PLACE, ID)).toEqual([])
    }
    expect(verifiedKeys(good, SECRET, PLACE, ID)).toEqual(['job/p/j'])
  })

  it('ignores a key that is not valid percent-encoding', () => {
    expect(verifiedKeys('<!-- docs-agent:%E0%A4%A sig=0123 -->', SECRET, PLACE, ID)).toEqual([])
  })

  it('refuses to sign without a secret and trusts nothing without one', () => {
    expect(() => makeMarker('k', '', PLACE, ID)).toThrow(/secret/)
    expect(verifiedKeys(makeMarker('k', SECRET, PLACE, ID), '', PLACE, ID)).toEqual([])
  })
})

describe('readEvent', () => {
  it('reads a pull_request event', () => {
    const e = readEvent(
      'pull_request',
      { action: 'opened', pull_request: { number: 7 } },
      'octo/docs'
    )
    expect(e).toEqual({
      eventName: 'pull_request',
      owner: 'octo',
      repo: 'docs',
      issueNumber: 7,
      isPullRequest: true
    })
  })

  it('names the head repository of a pull request from a fork, by name, not by the fork flag', () => {
    const pr = (head: unknown) => ({
      action: 'created',
      pull_request: { number: 7, head },
      comment: { id: 5, body: '/docs-agent x', user: { login: 'a', type: 'User' } }
    })
    const fromFork = pr({ repo: { full_name: 'someone/docs', fork: true } })
    expect(readEvent('pull_request_review_comment', fromFork, 'octo/docs').forkRepository).toBe(
      'someone/docs'
    )
    // A branch of a repository that is itself a fork: `fork` is true, yet nothing comes from outside.
    const sameRepo = pr({ repo: { full_name: 'Octo/Docs', fork: true } })
    expect(readEvent('pull_request_review_comment', sameRepo, 'octo/docs')).not.toHaveProperty(
      'forkRepository'
    )
    for (const head of [undefined, null, 'x', { repo: null }, { repo: { full_name: 3 } }])
      expect(readEvent('pull_request', pr(head), 'octo/docs')).not.toHaveProperty('forkRepository')
  })

  it('falls back to payload.number and handles pull_request_target', () => {
    expect(readEvent('pull_request', { number: 8 }, 'o/r').issueNumber).toBe(8)
    const e = readEvent('pull_request_target', { pull_request: { number: 9 } }, 'o/r')
    expect(e.issueNumber).toBe(9)
    expect(e.isPullRequest).toBe(true)
  })

  it('reads an issue_comment on an issue', () => {
    const e = readEvent(
      'issue_comment',
      {
        action: 'created',
        issue: { number: 3 },
        comment: { id: 55, body: '/docs-agent hi', user: { login: 'alice', type: 'User' } }
      },
      'octo/docs'
    )
    expect(e).toEqual({
      eventName: 'issue_comment',
      owner: 'octo',
      repo: 'docs',
      issueNumber: 3,
      isPullRequest: false,
      comment: {
        id: 55,
        body: '/docs-agent hi',
        author: 'alice',
        authorType: 'User',
        kind: 'issue',
        action: 'created'
      }
    })
  })

  it('reads an issue_comment on a pull request', () => {
    const e = readEvent(
      'issue_comment',
      {
        action: 'edited',
        issue: { number: 4, pull_request: { url: 'x' } },
        comment: { id: 56, body: 'b', user: { login: 'bot[bot]', type: 'Bot' } }
      },
      'octo/docs'
    )
    expect(e.isPullRequest).toBe(true)
    expect(e.issueNumber).toBe(4)
    expect(e.comment).toMatchObject({ kind: 'issue', action: 'edited', authorType: 'Bot' })
  })

  it('reads a pull_request_review_comment', () => {
    const e = readEvent(
      'pull_request_review_comment',
      {
        action: 'created',
        pull_request: { number: 5 },
        comment: { id: 57, body: 'x', user: { login: 'bob' } }
      },
      'octo/docs'
    )
    expect(e.issueNumber).toBe(5)
    expect(e.isPullRequest).toBe(true)
    expect(e.comment).toEqual({ id: 57, body: 'x', author: 'bob', kind: 'pull', action: 'created' })
  })

  it('reads an issues event', () => {
    const e = readEvent('issues', { action: 'opened', issue: { number: 6 } }, 'octo/docs')
    expect(e.issueNumber).toBe(6)
    expect(e.isPullRequest).toBe(false)
    expect(e.comment).toBeUndefined()
  })

  it('has no number for other events, even if the payload has one', () => {
    for (const name of ['push', 'workflow_dispatch', 'schedule']) {
      const e = readEvent(name, { number: 3, issue: { number: 3 } }, 'octo/docs')
      expect(e.issueNumber).toBeUndefined()
      expect(e.isPullRequest).toBe(false)
      expect(e.comment).toBeUndefined()
    }
  })

  it('never throws on garbage payloads', () => {
    const garbage: unknown[] = [
      {},
      { pull_request: null, number: '7' },
      { pull_request: { number: -1 } },
      { pull_request: { number: 1.5 } },
      { pull_request: [7] },
      { issue: 'x', comment: 5 },
      { issue: { number: '3', pull_request: null }, comment: { id: '1', body: 2 } },
      { issue: { number: Number.NaN }, comment: { id: 1, body: null, user: null } },
      null,
      [],
      'string'
    ]
    const names = [
      'pull_request',
      'pull_request_target',
      'issue_comment',
      'pull_request_review_comment',
      'issues'
    ]
    for (const payload of garbage) {
      for (const name of names) {
        const e = readEvent(name, payload as Record<string, unknown>, 'octo/docs')
        expect(e.issueNumber).toBeUndefined()
        expect(e.isPullRequest).toBe(name.startsWith('pull_request'))
        const usable = (payload as { comment?: { user?: unknown } } | null)?.comment?.user === null
        const commentEvent = name === 'issue_comment' || name === 'pull_request_review_comment'
        // Only one payload has a usable comment id; its odd fields become defaults.
        expect(e.comment).toEqual(
          usable && commentEvent
            ? {
                id: 1,
                body: '',
                author: '',
                kind: name === 'issue_comment' ? 'issue' : 'pull',
                action: ''
              }
            : undefined
        )
      }
    }
  })

  it('splits the repository and tolerates a malformed one', () => {
    expect(readEvent('push', {}, 'octo/docs.site')).toMatchObject({
      owner: 'octo',
      repo: 'docs.site'
    })
    expect(readEvent('push', {}, 'nonsense')).toMatchObject({ owner: 'nonsense', repo: '' })
  })
})

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
      const key = markerKey('job', 'proj', 'job-1')
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
      expect(gh.requests.filter(r => r.method === 'POST')).toHaveLength(1)
      // One PATCH signs the new comment with its id, then one per later run.
      expect(gh.requests.filter(r => r.method === 'PATCH')).toHaveLength(3)
    })
  })

  it('keeps comments of different keys apart and appends extra keys', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const route = markerKey('route', 'proj', 'job-1')
      const a = await upsertComment(octokit, PLACE, {
        key: 'job/proj/job-1',
        extraKeys: [route],
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
      expect(verifiedKeys(body, SECRET, PLACE, a.id)).toEqual(['job/proj/job-1', route])
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
      gh.addComment(12, `mine ${makeMarker(key, 'guessed', PLACE, 1)}`)
      const moved = gh.addComment(12, '')
      moved.body = `copied ${makeMarker(key, SECRET, { ...PLACE, issueNumber: 99 }, moved.id)}`
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
      old.body = `old ${makeMarker(key, SECRET, PLACE, old.id)}`
      for (let i = 0; i < 120; i++) gh.addComment(12, `chatter ${i}`)
      const newest = gh.addComment(12, '', bot)
      newest.body = `new ${makeMarker(key, SECRET, PLACE, newest.id)}`
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
        const marked = gh.addComment(12, '')
        marked.body = `x ${makeMarker('k', SECRET, PLACE, marked.id)}`
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
        body: 'x'.repeat(COMMENT_LIMIT + 10),
        mode: 'create',
        secret: SECRET
      })
      const body = gh.comments.get(12)?.[0]?.body ?? ''
      expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT)
      expect(body).toContain('(truncated)')
      const id = gh.comments.get(12)?.[0]?.id ?? 0
      expect(verifiedKeys(body, SECRET, PLACE, id)).toEqual(['k'])
    })
  })

  it('wraps GitHub failures with the call, status and message, without stack or token', async () => {
    await withGitHub({ failures: [{ method: 'POST', status: 403 }] }, async (_gh, octokit) => {
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
    const c = gh.addComment(12, '')
    c.body = `${text}${makeMarker(key, SECRET, place, c.id)}`
    return c
  }

  it('ignores a verbatim copy of an older route marker on the same pull request', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const old = addSigned(gh, 'old job ', markerKey('route', 'proj', 'job-old'))
      addSigned(gh, 'new job ', markerKey('route', 'proj', 'job-new'))
      gh.addComment(12, old.body, { login: 'mallory', type: 'User' })
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-new')
    })
  })

  it('returns the job of the newest verified route marker and ignores forgeries', async () => {
    await withGitHub({}, async (gh, octokit) => {
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBeUndefined()
      addSigned(gh, 'opened ', markerKey('route', 'proj', 'job-1'))
      addSigned(gh, 'other project ', markerKey('route', 'proj2', 'job-9'))
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-1')

      // A user pastes route markers of their own, unsigned, guessed and from another PR.
      gh.addComment(
        12,
        '<!-- docs-agent:route%2Fproj%2Fevil-job sig=0123456789abcdef0123456789abcdef -->'
      )
      gh.addComment(12, `<!-- docs-agent:${encodeURIComponent('route/proj/evil-job')} -->`)
      addSigned(gh, '', 'route/proj/evil-job', { ...PLACE, issueNumber: 3 })
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job-1')

      addSigned(gh, '', markerKey('route', 'proj', 'job 2/β'))
      expect(await findRoutedJob(octokit, PLACE, 'proj', SECRET)).toBe('job 2/β')
      expect(await findRoutedJob(octokit, PLACE, 'proj2', SECRET)).toBe('job-9')
      expect(await findRoutedJob(octokit, PLACE, 'pro', SECRET)).toBeUndefined()
    })
  })
})

describe('permissions and triggers', () => {
  const levels: PermissionLevel[] = ['admin', 'maintain', 'write', 'triage', 'read']

  it.each(levels)('reads the role of a %s collaborator', async level => {
    await withGitHub({ permissions: { alice: level } }, async (_gh, octokit) => {
      expect(await getCommenterPermission(octokit, 'octo', 'docs', 'alice')).toBe(level)
    })
  })

  it('treats a non-collaborator (404) and a failing endpoint (500) as none', async () => {
    await withGitHub({ permissions: {} }, async (_gh, octokit) => {
      expect(await getCommenterPermission(octokit, 'octo', 'docs', 'stranger')).toBe('none')
    })
    await withGitHub(
      { permissions: { alice: 'admin' }, permissionStatus: 500 },
      async (gh, octokit) => {
        expect(await getCommenterPermission(octokit, 'octo', 'docs', 'alice')).toBe('none')
        expect(gh.requests.some(r => r.path.endsWith('/collaborators/alice/permission'))).toBe(true)
      }
    )
  })

  const RULES: TriggerRules = {
    trigger: '/docs-agent',
    permission: 'write',
    allowedUsers: [],
    allowedBots: []
  }
  const check = (
    octokit: ReturnType<typeof getOctokit> | undefined,
    over: Partial<TriggerComment> = {},
    rules: Partial<TriggerRules> = {}
  ) => {
    const event = commentEvent(over)
    return checkCommenter(octokit, event, event.comment!, { ...RULES, ...rules })
  }

  const decisions: Array<[PermissionLevel | 'absent', boolean]> = [
    ['admin', true],
    ['maintain', true],
    ['write', true],
    ['triage', false],
    ['read', false],
    ['none', false],
    ['absent', false]
  ]
  it.each(decisions)(
    'decides for a %s commenter when write is required (allowed: %s)',
    async (level, allowed) => {
      const permissions: Record<string, PermissionLevel> =
        level === 'absent' ? {} : { alice: level }
      await withGitHub({ permissions }, async (_gh, octokit) => {
        const who = await check(octokit)
        expect(who.allowed).toBe(allowed)
        if (!who.allowed)
          expect(who).toMatchObject({ reason: expect.stringMatching(/allowed-users/) })
      })
    }
  )

  it('lets triage through when triage is required (role_name beats the legacy permission)', async () => {
    await withGitHub({ permissions: { alice: 'triage' } }, async (_gh, octokit) => {
      expect(await check(octokit, {}, { permission: 'triage' })).toEqual({
        allowed: true,
        why: '@alice has triage permission'
      })
    })
  })

  it('obeys allowed-users whatever their permission, without asking GitHub, in any case', async () => {
    await withGitHub({ permissions: {} }, async (gh, octokit) => {
      const who = await check(octokit, { author: 'Alice' }, { allowedUsers: ['bob', ' ALICE '] })
      expect(who).toEqual({ allowed: true, why: '@Alice is listed in `allowed-users`' })
      expect(gh.requests).toEqual([])
      const other = await check(octokit, { author: 'alicex' }, { allowedUsers: ['alice'] })
      expect(other.allowed).toBe(false)
    })
  })

  it('refuses bots by default, even with write permission, and names allowed-bots', async () => {
    const bot = { author: 'renovate[bot]', authorType: 'Bot' }
    await withGitHub({ permissions: { 'renovate[bot]': 'admin' } }, async (gh, octokit) => {
      const who = await check(octokit, bot)
      expect(who).toEqual({
        allowed: false,
        reason: '@renovate[bot] is a bot; bots run only when listed in `allowed-bots`'
      })
      // A bot listed among users is still refused, with a hint where it belongs.
      const asUser = await check(octokit, bot, { allowedUsers: ['renovate[bot]'] })
      expect(asUser).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/is a bot listed in `allowed-users`/)
      })
      expect(gh.requests).toEqual([])
    })
  })

  it.each([
    [['renovate[bot]'], true],
    [['Renovate[Bot]'], true],
    [['renovate'], true],
    [['dependabot[bot]'], false],
    ['*', true]
  ] as const)('allowed-bots %j lets renovate[bot] through: %s', async (allowedBots, allowed) => {
    const who = await check(
      undefined,
      { author: 'renovate[bot]', authorType: 'Bot' },
      { allowedBots: allowedBots as TriggerRules['allowedBots'] }
    )
    expect(who.allowed).toBe(allowed)
  })

  it('allowed-bots: * does not let a user without permission through', async () => {
    await withGitHub({ permissions: { alice: 'read' } }, async (_gh, octokit) => {
      expect((await check(octokit, {}, { allowedBots: '*' })).allowed).toBe(false)
    })
  })

  it('recognises a bot by its type or by its [bot] login', () => {
    const c = (author: string, authorType?: string) => commentEvent({ author, authorType }).comment!
    expect(isBot(c('renovate[bot]', 'Bot'))).toBe(true)
    expect(isBot(c('copilot', 'Bot'))).toBe(true)
    expect(isBot(c('my-app[bot]'))).toBe(true)
    expect(isBot(c('alice', 'User'))).toBe(false)
    expect(isBot(c('bot-alice', 'User'))).toBe(false)
  })

  it('without a token only allowed-users can pass', async () => {
    expect(await check(undefined)).toEqual({
      allowed: false,
      reason: 'no `github-token` to check the permission of @alice'
    })
    expect((await check(undefined, {}, { allowedUsers: ['alice'] })).allowed).toBe(true)
  })

  it('checkComment: edited before the trigger, then the trigger, with precise reasons', () => {
    const c = (over: Partial<TriggerComment>) => commentEvent(over).comment
    expect(checkComment(c({ action: 'edited', body: 'no trigger' }), '/docs-agent')).toEqual({
      reason: 'the comment was edited, not created'
    })
    expect(checkComment(c({ action: 'deleted' }), '/docs-agent')).toEqual({
      reason: 'the comment was deleted, not created'
    })
    expect(checkComment(c({ body: 'please /docs-agent do' }), '/docs-agent')).toEqual({
      reason: 'the comment does not start with /docs-agent'
    })
    expect(checkComment(c({ body: '/docs-agentx go' }), '/docs-agent')).toEqual({
      reason: 'the comment does not start with /docs-agent'
    })
    expect(checkComment(c({ body: '/Docs-Agent  fix it ' }), '/docs-agent')).toEqual({
      prompt: 'fix it'
    })
    expect(checkComment(undefined, '/docs-agent')).toEqual({
      reason: 'the event carries no comment'
    })
  })
})

describe('addReaction', () => {
  it('uses the issue comment endpoint for issue comments and the review one for pulls', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const c = gh.addComment(12, '/docs-agent go')
      const warnings: string[] = []
      const warn = (m: string) => warnings.push(m)
      await addReaction(octokit, 'octo', 'docs', commentEvent({ id: c.id }).comment!, 'eyes', warn)
      await addReaction(
        octokit,
        'octo',
        'docs',
        commentEvent({ id: 777, kind: 'pull' }).comment!,
        'rocket',
        warn
      )
      expect(gh.reactions).toEqual([
        { commentId: c.id, kind: 'issue', content: 'eyes' },
        { commentId: 777, kind: 'pull', content: 'rocket' }
      ])
      expect(gh.requests.map(r => r.path)).toEqual([
        `/repos/octo/docs/issues/comments/${c.id}/reactions`,
        '/repos/octo/docs/pulls/comments/777/reactions'
      ])
      expect(warnings).toEqual([])
    })
  })

  it('remembers what it gave: the same reaction is not asked for twice, a failed one is not recorded', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const c = gh.addComment(12, '/docs-agent go')
      const comment = commentEvent({ id: c.id }).comment!
      const warn = (): void => undefined
      expect(hasReaction(comment, 'eyes')).toBe(false)
      await addReaction(octokit, 'octo', 'docs', comment, 'eyes', warn)
      await addReaction(octokit, 'octo', 'docs', comment, 'eyes', warn)
      expect(hasReaction(comment, 'eyes')).toBe(true)
      expect(gh.reactions.map(r => r.content)).toEqual(['eyes'])
      const missing = commentEvent({ id: 31337 }).comment!
      await addReaction(octokit, 'octo', 'docs', missing, 'eyes', warn)
      expect(hasReaction(missing, 'eyes')).toBe(false)
    })
  })

  it('only warns when the reaction fails', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const warnings: string[] = []
      // No such issue comment: the simulator answers 404.
      await expect(
        addReaction(octokit, 'octo', 'docs', commentEvent({ id: 31337 }).comment!, '-1', m =>
          warnings.push(m)
        )
      ).resolves.toBeUndefined()
      expect(gh.reactions).toHaveLength(0)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('404')
    })
  })
})

// Unit tier: what the event payload says, read defensively.
import { describe, it, expect } from '@jest/globals'
import { readEvent } from '../src/github/event.js'

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

  it('reads a submitted review: its body, writer and id, and the pull request’s author', () => {
    const e = readEvent(
      'pull_request_review',
      {
        action: 'submitted',
        review: {
          id: 99,
          body: '/docs-agent Add a curl example',
          user: { login: 'carol', type: 'User' },
          state: 'commented'
        },
        pull_request: {
          number: 8,
          user: { login: 'dave' },
          head: { repo: { full_name: 'mallory/docs' } }
        }
      },
      'octo/docs'
    )
    expect(e).toEqual({
      eventName: 'pull_request_review',
      owner: 'octo',
      repo: 'docs',
      issueNumber: 8,
      isPullRequest: true,
      forkRepository: 'mallory/docs',
      pullRequestAuthor: 'dave',
      comment: {
        id: 99,
        body: '/docs-agent Add a curl example',
        author: 'carol',
        authorType: 'User',
        kind: 'review',
        action: 'submitted'
      }
    })
    // A review without text has a null body: no trigger, no throw.
    const empty = readEvent(
      'pull_request_review',
      {
        action: 'submitted',
        review: { id: 1, body: null, user: null },
        pull_request: { number: 8 }
      },
      'octo/docs'
    )
    expect(empty.comment).toMatchObject({ body: '', author: '', kind: 'review' })
  })

  it('names the author of the pull request a conversation comment is on, not of an issue', () => {
    const on = (issue: Record<string, unknown>) =>
      readEvent(
        'issue_comment',
        { action: 'created', issue: { number: 4, user: { login: 'dave' }, ...issue } },
        'octo/docs'
      ).pullRequestAuthor
    expect(on({ pull_request: { url: 'x' } })).toBe('dave')
    expect(on({})).toBeUndefined()
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

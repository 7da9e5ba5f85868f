// Unit tier: the gate's asker for every kind of start (gate/asker.ts), from GitHub's webhook
// payloads: who asked, where (the issue or pull request and its address) and how, so that no
// command looks at the kind of event to learn them.
import { describe, it, expect } from '@jest/globals'
import { commentAsker, eventAsker, labelAsker, eventPlace } from '../src/gate/asker.js'
import { readEvent } from '../src/github/event.js'

const SERVER = 'https://github.com'
const repository = { full_name: 'octo/docs' }
const sender = { login: 'mona', type: 'User' }

function asker(eventName: string, payload: Record<string, unknown>, actor = 'hubot') {
  return eventAsker(readEvent(eventName, payload, 'octo/docs'), payload, actor, SERVER)
}

describe('the asker of a run no comment asked for', () => {
  it('a merged pull request: its author, on it', () => {
    const payload = {
      action: 'closed',
      number: 5,
      pull_request: { number: 5, merged: true, user: { login: 'octocat', type: 'User' } },
      repository,
      sender
    }
    expect(asker('pull_request', payload)).toEqual({
      how: 'merge',
      login: 'octocat',
      author: 'octocat',
      on: {
        owner: 'octo',
        repo: 'docs',
        issueNumber: 5,
        url: 'https://github.com/octo/docs/issues/5',
        pullRequest: true
      },
      link: 'https://github.com/octo/docs/issues/5'
    })
  })

  it('a pull request opened (no merge): the sender, on it', () => {
    const payload = { action: 'opened', number: 5, pull_request: { number: 5 }, repository, sender }
    expect(asker('pull_request', payload)).toMatchObject({
      how: 'event',
      login: 'mona',
      link: 'https://github.com/octo/docs/issues/5'
    })
  })

  it('a dispatch: its sender, on the code pull request it names (when it is one of this GitHub)', () => {
    const payload = {
      action: 'code-merged',
      client_payload: {
        pull_request: { number: 42, html_url: 'https://github.com/octo/api/pull/42' }
      },
      repository,
      sender: { login: 'docs-notifier[bot]', type: 'Bot' }
    }
    expect(asker('repository_dispatch', payload)).toEqual({
      how: 'dispatch',
      login: 'docs-notifier[bot]',
      on: {
        owner: 'octo',
        repo: 'api',
        issueNumber: 42,
        url: 'https://github.com/octo/api/pull/42',
        pullRequest: true
      },
      link: 'https://github.com/octo/api/pull/42'
    })
    const elsewhere = {
      ...payload,
      client_payload: { pull_request: { html_url: 'https://gitlab.example/octo/api/pull/42' } }
    }
    expect(asker('repository_dispatch', elsewhere)).toEqual({
      how: 'dispatch',
      login: 'docs-notifier[bot]'
    })
  })

  it("a dispatch's author (`reviewers: author`): the payload's `pull_request.user.login`, when it is a login", () => {
    const payload = (login: unknown) => ({
      action: 'code-merged',
      client_payload: {
        pull_request: {
          number: 42,
          html_url: 'https://github.com/octo/api/pull/42',
          user: { login }
        }
      },
      repository,
      sender: { login: 'docs-notifier[bot]', type: 'Bot' }
    })
    const a = asker('repository_dispatch', payload('octo-dev'))
    expect(a.login).toBe('docs-notifier[bot]')
    expect(a.author).toBe('octo-dev')
    for (const forged of ['a b', 'x,y', '-lead', 'a'.repeat(40), '@everyone', 42])
      expect(asker('repository_dispatch', payload(forged)).author).toBeUndefined()
  })

  it('by hand and on a schedule: the sender, else the run’s actor; on nothing', () => {
    expect(asker('workflow_dispatch', { repository, sender })).toEqual({
      how: 'workflow_dispatch',
      login: 'mona',
      author: 'mona'
    })
    expect(asker('schedule', { schedule: '0 6 * * 1', repository })).toEqual({
      how: 'schedule',
      login: 'hubot'
    })
    expect(asker('schedule', { repository }, '')).toEqual({ how: 'schedule' })
  })
})

describe('the asker of a comment, a review and a label', () => {
  const payload = {
    action: 'created',
    issue: { number: 7, pull_request: { html_url: 'https://github.com/octo/docs/pull/7' } },
    comment: { id: 31, body: '/docs-agent go', user: { login: 'octocat', type: 'User' } },
    repository
  }
  const event = readEvent('issue_comment', payload, 'octo/docs')

  it('names the same who and where, and links the ask itself', () => {
    const on = eventPlace(event, `${SERVER}/`)
    const comment = commentAsker(event, SERVER, event.comment!, { instruction: 'go', why: 'w' })
    const review = commentAsker(
      event,
      SERVER,
      { ...event.comment!, kind: 'review' },
      { instruction: 'go', why: 'w' }
    )
    const label = labelAsker(on!, { label: 'Docs/Needed', by: 'octocat', why: 'w' })
    for (const a of [comment, review, label]) {
      expect(a.login).toBe('octocat')
      expect(a.on).toEqual(on)
    }
    // Whose change or request it is (`reviewers: author`): the commenter; the labelled item's author.
    expect([comment.author, review.author, label.author]).toEqual(['octocat', 'octocat', undefined])
    const labelled = labelAsker(on!, { label: 'L', by: 'octocat', why: 'w', author: 'octo-dev' })
    expect(labelled.author).toBe('octo-dev')
    expect(on?.url).toBe('https://github.com/octo/docs/issues/7')
    expect([comment.how, review.how, label.how]).toEqual(['comment', 'review', 'label'])
    expect(comment.link).toBe('https://github.com/octo/docs/issues/7#issuecomment-31')
    expect(review.link).toBe('https://github.com/octo/docs/issues/7#pullrequestreview-31')
    expect(label.link).toBe(on?.url)
    expect(label.label).toBe('Docs/Needed')
  })
})

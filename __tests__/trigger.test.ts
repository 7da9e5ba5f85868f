// Unit tier: the comment trigger: matching, permissions, bots, reactions.
import { describe, it, expect } from '@jest/globals'
import { getOctokit } from '@actions/github'
import type { TriggerComment } from '../src/github/event.js'
import {
  PERMISSION_LEVELS,
  addReaction,
  getCommenterPermission,
  hasReaction,
  isBot,
  meetsPermission
} from '../src/github/trigger.js'
import type { PermissionLevel } from '../src/github/trigger.js'
import { checkComment, matchTrigger } from '../src/gate/trigger-words.js'
import { checkCommenter, type TriggerRules } from '../src/gate/who-may.js'
import { commentEvent, withGitHub } from './github-support.js'
import { quietWorkflowCommands } from './quiet.js'

quietWorkflowCommands()

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

  it('allow-pr-author: the pull request’s author passes on it whatever their permission, and only then', async () => {
    await withGitHub({ permissions: { alice: 'read' } }, async (gh, octokit) => {
      const onOwn = (rules: Partial<TriggerRules>, author = 'Alice') => {
        const event = commentEvent({}, { pullRequestAuthor: author })
        return checkCommenter(octokit, event, event.comment!, { ...RULES, ...rules })
      }
      expect(await onOwn({ allowPrAuthor: true })).toEqual({
        allowed: true,
        why: '@alice opened this pull request, and `allow-pr-author` is `true`'
      })
      // Settled without asking GitHub for the permission.
      expect(gh.requests).toEqual([])
      expect((await onOwn({ allowPrAuthor: false })).allowed).toBe(false)
      expect((await onOwn({})).allowed).toBe(false)
      // Someone else's pull request: the permission decides.
      expect((await onOwn({ allowPrAuthor: true }, 'bob')).allowed).toBe(false)
    })
    // A bot that opened the pull request is still a bot: allowed-bots decides.
    const bot = commentEvent(
      { author: 'renovate[bot]', authorType: 'Bot' },
      { pullRequestAuthor: 'renovate[bot]' }
    )
    const who = await checkCommenter(undefined, bot, bot.comment!, {
      ...RULES,
      allowPrAuthor: true
    })
    expect(who.allowed).toBe(false)
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

  it('checkComment: a review counts once submitted, and its body is the trigger', () => {
    const r = (over: Partial<TriggerComment>) => commentEvent({ kind: 'review', ...over }).comment
    expect(checkComment(r({ action: 'submitted' }), '/docs-agent')).toEqual({
      prompt: 'fix the typo'
    })
    expect(checkComment(r({ action: 'edited' }), '/docs-agent')).toEqual({
      reason: 'the review was edited, not submitted'
    })
    expect(checkComment(r({ action: 'dismissed' }), '/docs-agent')).toEqual({
      reason: 'the review was dismissed, not submitted'
    })
    // "created" is a comment's action, never a review's.
    expect(checkComment(r({ action: 'created' }), '/docs-agent')).toEqual({
      reason: 'the review was created, not submitted'
    })
    expect(checkComment(r({ action: 'submitted', body: 'LGTM' }), '/docs-agent')).toEqual({
      reason: 'the review does not start with /docs-agent'
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

  it('asks nothing for a review: the API has no reactions on reviews', async () => {
    await withGitHub({}, async (gh, octokit) => {
      const warnings: string[] = []
      const review = commentEvent({ id: 4242, kind: 'review', action: 'submitted' }).comment!
      await addReaction(octokit, 'octo', 'docs', review, 'eyes', m => warnings.push(m))
      expect(gh.requests).toEqual([])
      expect(warnings).toEqual([])
      expect(hasReaction(review, 'eyes')).toBe(false)
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

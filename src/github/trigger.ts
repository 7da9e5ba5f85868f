// Deciding whether a comment should run the agent: the trigger text, who may use it, and the
// reactions that tell the commenter what happened.
import * as core from '@actions/core'
import type { getOctokit } from '@actions/github'
import type { EventInfo, TriggerComment } from './event.js'
import { isInvisible } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import { messageOf } from '../errors.js'

type Octokit = ReturnType<typeof getOctokit>

/**
 * The instruction after `trigger` when the comment starts with it (leading whitespace ignored,
 * case ignored as a workflow's `startsWith` does) and it is followed by whitespace or the end;
 * otherwise undefined. Plain string comparison, so regex metacharacters in a trigger are literal.
 */
export function matchTrigger(body: string, trigger: string): string | undefined {
  if (trigger === '') return undefined
  const text = body.trimStart()
  const head = text.slice(0, trigger.length)
  // A workflow's `if: startsWith(...)` lets `/Docs-Agent` through; skipping it here would be silent.
  if (head.toLowerCase() !== trigger.toLowerCase()) return undefined
  let rest = text.slice(trigger.length)
  // `/docs-agent: Add a FAQ` is a trigger too; `/docs-agentx` must not count as `/docs-agent`.
  if (rest.startsWith(':')) rest = rest.slice(1)
  else if (rest !== '' && !/^\s/.test(rest)) return undefined
  // Nothing but white space and invisible or direction-control characters is no instruction.
  return [...rest].every(c => /\s/.test(c) || isInvisible(c)) ? '' : rest.trim()
}

export const PERMISSION_LEVELS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]

function isPermissionLevel(value: unknown): value is PermissionLevel {
  return typeof value === 'string' && (PERMISSION_LEVELS as readonly string[]).includes(value)
}

export function meetsPermission(actual: PermissionLevel, least: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(actual) >= PERMISSION_LEVELS.indexOf(least)
}

/**
 * The user's permission on the repository. Any failure counts as 'none': a non-collaborator
 * gets a 404, and an outage must not grant access.
 */
export async function getCommenterPermission(
  octokit: Octokit,
  owner: string,
  repo: string,
  username: string
): Promise<PermissionLevel> {
  // An empty name would ask about a different URL entirely.
  if (username === '') return 'none'
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner,
      repo,
      username
    })
    // role_name distinguishes triage and maintain, which `permission` folds into read/write.
    if (isPermissionLevel(data.role_name)) return data.role_name
    if (isPermissionLevel(data.permission)) return data.permission
    return 'none'
  } catch (error) {
    core.debug(`Permission lookup for ${username} failed, treating as none: ${describe(error)}`)
    return 'none'
  }
}

/** One short line: status and message, never a stack. */
function describe(error: unknown): string {
  const status =
    typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined
  const message = redact(messageOf(error)).replace(/\s+/g, ' ').slice(0, 200)
  return typeof status === 'number' ? `HTTP ${status} ${message}` : message
}

export type ReactionContent = '+1' | '-1' | 'eyes' | 'rocket' | 'confused' | 'hooray'

// Reactions this run gave, per comment: run() adds 😕 only where 👀 told the commenter the
// comment was taken, and a reaction already given is not asked for twice.
const given = new WeakMap<TriggerComment, Set<ReactionContent>>()

export function hasReaction(comment: TriggerComment, content: ReactionContent): boolean {
  return given.get(comment)?.has(content) ?? false
}

/**
 * Reactions are courtesy feedback: a failure is only a warning. A review has no reactions in the
 * API: its answer (the live comment, written at once) is the feedback there.
 */
export async function addReaction(
  octokit: Octokit,
  owner: string,
  repo: string,
  comment: TriggerComment,
  content: ReactionContent,
  warn: (msg: string) => void
): Promise<void> {
  if (hasReaction(comment, content) || comment.kind === 'review') return
  try {
    const params = { owner, repo, comment_id: comment.id, content }
    if (comment.kind === 'pull') {
      await octokit.rest.reactions.createForPullRequestReviewComment(params)
    } else {
      await octokit.rest.reactions.createForIssueComment(params)
    }
    given.set(comment, (given.get(comment) ?? new Set()).add(content))
  } catch (error) {
    warn(`Could not add the ${content} reaction to comment ${comment.id}: ${describe(error)}`)
  }
}

export interface TriggerRules {
  trigger: string
  permission: PermissionLevel
  /** Logins obeyed whatever their permission. */
  allowedUsers: readonly string[]
  /** Bot logins obeyed, or '*' for any bot. */
  allowedBots: readonly string[] | '*'
  /** The pull request's author is obeyed on it whatever their permission (not a bot). */
  allowPrAuthor?: boolean
}

/** "comment", or "review" for a review's body: what the log and notices call it. */
export function triggerNoun(comment: TriggerComment): 'comment' | 'review' {
  return comment.kind === 'review' ? 'review' : 'comment'
}

/**
 * The checks that need no request, in the contract's order: the comment was just created (a
 * review just submitted), and it starts with the trigger. Returns the prompt, or the reason to
 * skip (for the log).
 */
export function checkComment(
  comment: TriggerComment | undefined,
  trigger: string
): { prompt: string } | { reason: string } {
  if (comment === undefined) return { reason: 'the event carries no comment' }
  const noun = triggerNoun(comment)
  const expected = comment.kind === 'review' ? 'submitted' : 'created'
  if (comment.action !== expected) {
    const what = comment.action === '' ? 'of an unknown action' : comment.action
    return { reason: `the ${noun} was ${what}, not ${expected}` }
  }
  const prompt = matchTrigger(comment.body, trigger)
  if (prompt === undefined) return { reason: `the ${noun} does not start with ${trigger}` }
  return { prompt }
}

/** GitHub marks app accounts `type: Bot`; their logins end in `[bot]`, which users cannot take. */
export function isBot(writer: { author: string; authorType?: string }): boolean {
  return writer.authorType === 'Bot' || /\[bot\]$/i.test(writer.author)
}

/** Logins compare without case, and a bot may be listed with or without its `[bot]` suffix. */
function sameLogin(listed: string, login: string, bot: boolean): boolean {
  const norm = (s: string): string => (bot ? s.replace(/\[bot\]$/i, '') : s).toLowerCase()
  return norm(listed.trim()) === norm(login)
}

/**
 * Whether the commenter may run the agent: listed in `allowed-users`, a bot listed in
 * `allowed-bots`, (not a bot) the pull request's author with `allow-pr-author`, or (not a bot) a
 * collaborator whose permission reaches `permission`. Bots are refused unless listed, whatever
 * their permission or authorship: automation that can comment must not be able to spend the
 * quota or edit the docs by accident.
 */
export async function checkCommenter(
  octokit: Octokit | undefined,
  event: EventInfo,
  comment: Pick<TriggerComment, 'author' | 'authorType'>,
  rules: TriggerRules
): Promise<{ allowed: true; why: string } | { allowed: false; reason: string }> {
  const login = comment.author
  if (isBot(comment)) {
    if (rules.allowedBots === '*') return { allowed: true, why: '`allowed-bots` is `*`' }
    if (rules.allowedBots.some(b => sameLogin(b, login, true)))
      return { allowed: true, why: `@${login} is listed in \`allowed-bots\`` }
    const inUsers = rules.allowedUsers.some(u => sameLogin(u, login, true))
    return {
      allowed: false,
      reason: inUsers
        ? `@${login} is a bot listed in \`allowed-users\`; bots run only when listed in \`allowed-bots\``
        : `@${login} is a bot; bots run only when listed in \`allowed-bots\``
    }
  }
  if (login !== '' && rules.allowedUsers.some(u => sameLogin(u, login, false)))
    return { allowed: true, why: `@${login} is listed in \`allowed-users\`` }
  const author = event.pullRequestAuthor
  if (rules.allowPrAuthor && login !== '' && author && sameLogin(author, login, false))
    return {
      allowed: true,
      why: `@${login} opened this pull request, and \`allow-pr-author\` is \`true\``
    }
  if (!octokit)
    return {
      allowed: false,
      reason: `no \`github-token\` to check the permission of @${login || 'the commenter'}`
    }
  const actual = await getCommenterPermission(octokit, event.owner, event.repo, login)
  if (!meetsPermission(actual, rules.permission))
    return {
      allowed: false,
      reason:
        `@${login || 'the commenter'} has ${actual} permission; ${rules.permission} is required ` +
        '(or list the login in `allowed-users`)'
    }
  return { allowed: true, why: `@${login} has ${actual} permission` }
}

/** Reactions on the trigger comment this run answers; 😕 only after 👀 told the writer it was taken. */
export class Reactions {
  constructor(
    private readonly trigger: { comment: TriggerComment },
    private readonly octokit: Octokit | undefined,
    private readonly mayWrite: boolean,
    private readonly event: EventInfo
  ) {}

  async add(content: ReactionContent): Promise<void> {
    const { comment } = this.trigger
    if (!this.octokit || !this.mayWrite) return
    if (content === 'confused' && !hasReaction(comment, 'eyes')) return
    await addReaction(
      this.octokit,
      this.event.owner,
      this.event.repo,
      comment,
      content,
      core.warning
    )
  }
}

// Deciding whether a comment should run the agent: the trigger text, who may use it, and the
// reactions that tell the commenter what happened.
import * as core from '@actions/core'
import type { getOctokit } from '@actions/github'
import type { EventInfo, TriggerComment } from './event.js'
import { redact } from '../secrets.js'

type Octokit = ReturnType<typeof getOctokit>

/**
 * The instruction after `trigger` when the comment starts with it (leading whitespace ignored)
 * and it is followed by whitespace or the end; otherwise undefined. Plain string comparison, so
 * a trigger containing regex metacharacters is matched literally.
 */
export function matchTrigger(body: string, trigger: string): string | undefined {
  if (trigger === '') return undefined
  const text = body.trimStart()
  if (!text.startsWith(trigger)) return undefined
  const rest = text.slice(trigger.length)
  // `/docs-agentx` must not count as `/docs-agent`.
  if (rest !== '' && !/^\s/.test(rest)) return undefined
  return rest.trim()
}

export const PERMISSION_LEVELS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]

export function isPermissionLevel(value: unknown): value is PermissionLevel {
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
  const message = redact(error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, ' ')
    .slice(0, 200)
  return typeof status === 'number' ? `HTTP ${status} ${message}` : message
}

export type ReactionContent = '+1' | '-1' | 'eyes' | 'rocket' | 'confused' | 'hooray'

/** Reactions are courtesy feedback: a failure is only a warning. */
export async function addReaction(
  octokit: Octokit,
  owner: string,
  repo: string,
  comment: TriggerComment,
  content: ReactionContent,
  warn: (msg: string) => void
): Promise<void> {
  try {
    const params = { owner, repo, comment_id: comment.id, content }
    if (comment.kind === 'pull') {
      await octokit.rest.reactions.createForPullRequestReviewComment(params)
    } else {
      await octokit.rest.reactions.createForIssueComment(params)
    }
  } catch (error) {
    warn(`Could not add the ${content} reaction to comment ${comment.id}: ${describe(error)}`)
  }
}

export type TriggerDecision =
  { run: true; prompt: string } | { run: false; reason: string; refused: boolean }

/** For comment events only. Cheap checks first so no GitHub call is spent on other comments. */
export async function decideTrigger(
  octokit: Octokit,
  event: EventInfo,
  opts: { trigger: string; permission: PermissionLevel }
): Promise<TriggerDecision> {
  const comment = event.comment
  if (comment === undefined) {
    return { run: false, reason: 'the event carries no comment', refused: false }
  }
  if (comment.action !== 'created') {
    const what = comment.action === '' ? 'of an unknown action' : comment.action
    return { run: false, reason: `comment was ${what}, not created`, refused: false }
  }
  const prompt = matchTrigger(comment.body, opts.trigger)
  if (prompt === undefined) {
    return { run: false, reason: `comment does not start with ${opts.trigger}`, refused: false }
  }
  // Bots get no bypass: they run only if their own permission passes the same check.
  const actual = await getCommenterPermission(octokit, event.owner, event.repo, comment.author)
  if (!meetsPermission(actual, opts.permission)) {
    return {
      run: false,
      reason: `@${comment.author} has ${actual} permission; ${opts.permission} is required`,
      refused: true
    }
  }
  return { run: true, prompt }
}

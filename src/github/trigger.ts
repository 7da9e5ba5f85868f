// A trigger's writer on GitHub: their permission on the repository, whether they are a bot, and
// the reactions that tell the commenter what happened. Whether a comment asks, and whether its
// writer may, is the gate's (gate/trigger-words.ts, gate/who-may.ts).
import * as core from '@actions/core'
import type { getOctokit } from '@actions/github'
import type { EventInfo, TriggerComment } from './event.js'
import { redact } from '../secrets/redact.js'
import { messageOf } from '../errors.js'

type Octokit = ReturnType<typeof getOctokit>

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

/** GitHub marks app accounts `type: Bot`; their logins end in `[bot]`, which users cannot take. */
export function isBot(writer: { author: string; authorType?: string }): boolean {
  return writer.authorType === 'Bot' || /\[bot\]$/i.test(writer.author)
}

/** Reactions on the trigger comment this run answers; 😕 only after 👀 told the writer it was taken. */
export class Reactions {
  constructor(
    private readonly comment: TriggerComment,
    private readonly octokit: Octokit | undefined,
    private readonly mayWrite: boolean,
    private readonly event: EventInfo
  ) {}

  async add(content: ReactionContent): Promise<void> {
    const { comment } = this
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

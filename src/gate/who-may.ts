// Who may ask (contract: "Comment trigger", "Label trigger"): a login listed in `allowed-users`, a
// bot listed in `allowed-bots`, the pull request's author with `allow-pr-author`, or a
// collaborator whose permission reaches `permission`. The one rule for the writer of a trigger
// comment or review and for who added `trigger-label`.
import type { EventInfo, TriggerComment } from '../github/event.js'
import type { Octokit } from '../github/octokit.js'
import {
  getCommenterPermission,
  isBot,
  meetsPermission,
  type PermissionLevel
} from '../github/trigger.js'

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

// `reviewers` (contract: "The preview and who reviews"): once the job's pull request is known, the
// logins and teams listed, and for `author` whoever's change or request started the job (the
// gate's asker names them for every kind of start), are asked to review it in one request. Bots
// and the pull request's own author are left out (GitHub would refuse them); a refusal is a
// warning naming who could not be asked and why, and the run goes on.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { GitHubError } from '../github/errors.js'
import type { Octokit } from '../github/octokit.js'
import type { PullRequestHead, PullRequestRef } from '../github/pulls.js'
import { requestReviewers, type ReviewRequest } from '../github/reviewers.js'
import type { Reviewer } from '../settings/lists.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** Who is asked, and who is left out and why (for the log). */
export interface ReviewPlan extends ReviewRequest {
  left: string[]
}

const isBotLogin = (login: string): boolean => /\[bot\]$/i.test(login)

/**
 * Who `reviewers` asks on a pull request of `owner`: `author` is `starter` (absent: nobody is
 * named); bots, the pull request's author (`prAuthor`) and teams of another organisation are left
 * out; the same login or team counts once.
 */
export function whoToAsk(
  listed: readonly Reviewer[],
  o: { starter?: string; prAuthor?: string; owner: string }
): ReviewPlan {
  const plan: ReviewPlan = { users: [], teams: [], left: [] }
  const same = (a: string, b: string | undefined) => a.toLowerCase() === b?.toLowerCase()
  for (const r of listed) {
    if (r.kind === 'team') {
      const name = `${r.org}/${r.slug}`
      if (!same(r.org, o.owner))
        plan.left.push(`${name} (a team of another organisation than ${o.owner})`)
      else if (!plan.teams.some(t => same(t, r.slug))) plan.teams.push(r.slug)
      continue
    }
    const login = r.kind === 'author' ? o.starter : r.login
    if (login === undefined) {
      plan.left.push('`author` (nobody is named as the one who started this job)')
      continue
    }
    if (isBotLogin(login)) plan.left.push(`@${login} (a bot cannot review)`)
    else if (same(login, o.prAuthor)) plan.left.push(`@${login} (opened the pull request)`)
    else if (!plan.users.some(u => same(u, login))) plan.users.push(login)
  }
  return plan
}

/** "@a, @b and acme/writers". */
function named(who: ReviewRequest, owner: string): string {
  const all = [...who.users.map(u => `@${u}`), ...who.teams.map(t => `${owner}/${t}`)]
  return all.length < 2 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`
}

/**
 * Asks who `reviewers` lists to review pull request `pr`: one request (`head` tells its author,
 * read once for the checks too). A 422 (someone GitHub will not ask) is asked again one by one,
 * so that the warning names exactly who could not be asked; nothing here fails the run.
 */
export async function askReviewers(
  ctx: CommandContext<JobSettings>,
  pr: PullRequestRef,
  head: () => Promise<PullRequestHead>
): Promise<void> {
  const listed = ctx.settings.reviewers
  if (listed.length === 0) return
  const octokit = ctx.octokit
  if (!octokit) {
    core.warning('`reviewers`: `github-token` is empty, so nobody was asked to review.')
    return
  }
  const prAuthor = await head().then(
    h => h.author,
    () => undefined
  )
  const plan = whoToAsk(listed, { starter: ctx.asker.author, prAuthor, owner: pr.owner })
  for (const left of plan.left) core.info(`\`reviewers\`: left out ${left}.`)
  if (plan.users.length === 0 && plan.teams.length === 0) return
  const refused = await ask(octokit, pr, plan)
  const asked = {
    users: plan.users.filter(u => !refused.some(r => r.users.includes(u))),
    teams: plan.teams.filter(t => !refused.some(r => r.teams.includes(t)))
  }
  if (asked.users.length + asked.teams.length > 0)
    core.info(`Asked ${named(asked, pr.owner)} to review #${pr.number}.`)
  for (const r of refused)
    core.warning(
      `\`reviewers\`: ${named(r, pr.owner)} could not be asked to review #${pr.number}: ${r.why}`
    )
}

/** Who GitHub refused, and why. */
interface Refusal extends ReviewRequest {
  why: string
}

/** One request; after a 422 for several, one each, so each refusal is known. */
async function ask(octokit: Octokit, pr: PullRequestRef, plan: ReviewRequest): Promise<Refusal[]> {
  const refusal = await refusalOf(octokit, pr, plan)
  if (!refusal) return []
  const each = [
    ...plan.users.map(u => ({ users: [u], teams: [] })),
    ...plan.teams.map(t => ({ users: [], teams: [t] }))
  ]
  if (refusal.status !== 422 || each.length < 2) return [{ ...plan, why: refusal.why }]
  const refused: Refusal[] = []
  for (const one of each) {
    const alone = await refusalOf(octokit, pr, one)
    if (alone) refused.push({ ...one, why: alone.why })
  }
  return refused
}

/** GitHub's refusal of asking `who`, in words (a 422: who GitHub asks, and the way round). */
async function refusalOf(
  octokit: Octokit,
  pr: PullRequestRef,
  who: ReviewRequest
): Promise<{ status?: number; why: string } | undefined> {
  try {
    await requestReviewers(octokit, pr, who)
    return undefined
  } catch (err) {
    const status = err instanceof GitHubError ? err.status : undefined
    const why =
      status === 422
        ? `${messageOf(err)}. GitHub asks only collaborators of ${pr.owner}/${pr.repo} (not the pull ` +
          "request's author, nor a bot): add them, or leave them out of `reviewers`."
        : messageOf(err)
    return { ...(status !== undefined ? { status } : {}), why }
  }
}

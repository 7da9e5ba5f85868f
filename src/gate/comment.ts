// A trigger comment or review (contract: "Comment trigger"), once its words start with the
// trigger: who wrote it and whether they may, the key GitHub gave the run, and the instruction it
// gives (none, one holding a secret, `fix checks`, `fix N`). What is let through is its Asker;
// what is not is a Skip, answered where it was written (a reply and 😕) when the run may write.
import type { Place } from '../github/comments.js'
import type { EventInfo, TriggerComment } from '../github/event.js'
import type { Octokit } from '../github/octokit.js'
import { parseFix, resolveFix, type FixResolution } from '../records/fix.js'
import { placeNoun } from '../report/place.js'
import { redact } from '../secrets/redact.js'
import { readTriggerSettings, runnerInput, type GateInputs } from '../settings/settings.js'
import type { TriggerSettings } from '../settings/settings.js'
import type { Skip } from './answer.js'
import { commentAsker, type Asker } from './asker.js'
import type { GateContext } from './clients.js'
import { fixChecks } from './fix-checks.js'
import { triggerNoun } from './trigger-words.js'
import { checkCommenter } from './who-may.js'

/** A trigger let through: its asker, the trigger inputs, whether it may get reactions. */
export type CommentAdmission =
  | { skip: Skip; octokit?: Octokit }
  | { skip?: undefined; asker: Asker; rules: TriggerSettings; reacts: boolean; octokit?: Octokit }

/** A trigger comment: who wrote it, the key GitHub gave the run, the instruction it gives. */
export async function admitTrigger(
  c: GateContext,
  gate: GateInputs,
  comment: TriggerComment,
  prompt: string
): Promise<CommentAdmission> {
  // A misconfigured trigger input now fails the step, naming the input.
  const rules = readTriggerSettings(c.get ?? runnerInput)
  const octokit = rules.githubToken === '' ? undefined : c.clients.client(rules.githubToken)
  const reacts = octokit !== undefined && writes(rules.comment)
  const who = await checkCommenter(octokit, c.event, comment, rules)
  if (!who.allowed) {
    const notice = `Ignored the trigger ${triggerNoun(comment)}: ${who.reason}.`
    const reaction = reacts ? { reaction: { comment, content: '-1' as const } } : {}
    return { skip: { reason: who.reason, notice, ...reaction }, octokit }
  }
  if (!gate.hasApiKey) return { skip: noKeyForTrigger(c.event, comment, who.why), octokit }
  const refusal = refuseInstruction(prompt, gate.hasPrompt, rules.trigger, c.event, comment)
  if (refusal !== undefined) return { skip: answered(c.event, comment, reacts, refusal), octokit }
  const fix =
    (await fixChecks(octokit, placeOf(c.event), c.event.isPullRequest, prompt)) ??
    (await fixTrigger(c, prompt, gate, rules.trigger, octokit))
  if (fix?.kind === 'reply') return { skip: answered(c.event, comment, reacts, fix), octokit }
  if (fix?.kind === 'no-such-suggestion' || fix?.kind === 'unreadable') {
    const reason =
      fix.kind === 'unreadable'
        ? "the report's records cannot be read with this key"
        : 'no such suggestion in the newest report'
    return { skip: answered(c.event, comment, reacts, { reason, body: fix.reply }), octokit }
  }
  const given =
    fix?.kind === 'fix'
      ? { instruction: fix.prompt, fixes: fix.fixes }
      : { instruction: fix?.kind === 'checks' ? fix.prompt : prompt }
  const asker = commentAsker(c.event, c.serverUrl, comment, { ...given, why: who.why })
  return { asker, rules, reacts, octokit }
}

/** `comment: false`: nothing is written on GitHub (no answer, no reply, no reaction). */
export const writes = (comment: TriggerSettings['comment']): boolean => comment !== 'false'

/** A trigger not carried out, answered where it was written (a reply and 😕) when it may be. */
function answered(
  event: EventInfo,
  comment: TriggerComment,
  reacts: boolean,
  r: { reason: string; body: string }
): Skip {
  const place = placeOf(event)
  const answer = reacts && place !== undefined
  return {
    reason: r.reason,
    notice: r.body.replace(/\n+/g, ' '),
    ...(answer ? { reply: { place, body: r.body } } : {}),
    ...(answer ? { reaction: { comment, content: 'confused' as const } } : {})
  }
}

/**
 * `fix N [more words]` on a thread that holds a report of this project: suggestion N's signed
 * instruction, or the reply that there is no such suggestion. Undefined when the words are an
 * ordinary instruction (not `fix N`, or no report here to take N from).
 */
async function fixTrigger(
  c: GateContext,
  prompt: string,
  gate: GateInputs,
  trigger: string,
  octokit: Octokit | undefined
): Promise<FixResolution | undefined> {
  const asked = parseFix(prompt)
  const place = placeOf(c.event)
  if (!asked || !octokit || !place || gate.projectId === '') return undefined
  const thread = c.clients.records(octokit, gate.apiKey).thread(place)
  const o = { projectId: gate.projectId, trigger, now: c.clock.now() }
  const found = await resolveFix(thread, o, asked)
  return found.kind === 'not-a-report' ? undefined : found
}

/** The issue or pull request the event is on. */
function placeOf(event: EventInfo): Place | undefined {
  if (event.issueNumber === undefined) return undefined
  return { owner: event.owner, repo: event.repo, issueNumber: event.issueNumber }
}

function noKeyForTrigger(event: EventInfo, comment: TriggerComment, why: string): Skip {
  const runs = comment.kind === 'review' ? 'review' : 'review-comment'
  const reason = event.forkRepository
    ? `this pull request comes from the fork ${event.forkRepository}, and GitHub gives its ` +
      `${runs} runs no secrets. Write the instruction as a comment in the pull request's ` +
      'conversation instead: those runs get them'
    : 'a pull request from a fork or a run triggered by Dependabot gets no secrets, or the ' +
      'secret is not set'
  const noun = triggerNoun(comment)
  return {
    reason: 'no `api-key` in this run (a fork gets no secrets)',
    notice: `The trigger ${noun} is allowed (${why}), but this run has no \`api-key\`: ${reason}.`
  }
}

/** A submitted review cannot be deleted, only edited. */
const secretReply = (noun: 'comment' | 'review'): string =>
  `This ${noun} holds a secret (the API key or the GitHub token), so nothing was sent to the ` +
  `docs agent. ${noun === 'review' ? 'Edit the review to remove it' : 'Delete the comment'}, ` +
  'rotate the secret, and write the instruction without it.'

/** Nothing to send, or a secret in what would be sent: said where the commenter looks. */
function refuseInstruction(
  prompt: string,
  hasPrompt: boolean,
  trigger: string,
  event: EventInfo,
  comment: TriggerComment
): { reason: string; body: string } | undefined {
  if (prompt === '' && !hasPrompt) {
    const where = placeNoun(event.isPullRequest)
    const body =
      `There is no instruction after \`${trigger}\`, so nothing was sent to the docs agent. ` +
      `Write what the agent should do after it, in a new comment on this ${where}, e.g.\n\n` +
      `\`${trigger} Add a FAQ entry about rate limits\``
    return { reason: 'no instruction', body }
  }
  if (redact(prompt) !== prompt)
    return {
      reason: `the ${triggerNoun(comment)} holds a secret`,
      body: secretReply(triggerNoun(comment))
    }
  return undefined
}

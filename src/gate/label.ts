// A label as a trigger (`trigger-label`, contract: "Label trigger"): the gate's branch for an
// `issues` or pull request event whose action is `labeled`, and the removal of the label when the
// run ends, so that adding it again asks again. Settled like a trigger comment, before any other
// input: other labels and removals are skipped without a word; a sender who may not trigger is
// skipped with a notice, a short reply on the item saying who may, and the label taken off, as
// the recipe promises (adding it again then asks again, by someone who may). A label matches
// `trigger-label` without regard to case, as GitHub treats label names. A label's name is public
// text (anyone who may label types it): it is shown cleaned and redacted, and never looks like
// another label's (labelShown).
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import type { EventInfo } from '../github/event.js'
import { removeLabel } from '../github/labels.js'
import type { Place } from '../github/comments.js'
import type { Octokit } from '../github/octokit.js'
import type { GetInput } from '../settings/parse.js'
import { readTriggerSettings, type TriggerSettings } from '../settings/settings.js'
import { readTriggerLabel } from '../settings/lists.js'
import { hiddenCount, publicText } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import { escapeText } from '../report/markdown.js'
import { eventPlace, labelAsker, type Asker } from './asker.js'
import type { Skip } from './answer.js'
import { checkCommenter } from './who-may.js'

/** GitHub allows 50 characters; a forged payload may send more. */
const LABEL_SHOWN_CHARS = 100

/**
 * A label's name as a log line, a notice or a comment shows it: redacted, cleaned as public text
 * is (tag characters, bidi controls, zero-width characters removed), quoted, and followed by how
 * many hidden characters were removed, if any: `Docs/Needed` with a zero-width space is another
 * label to GitHub, and must not read as the trigger's name.
 */
export function labelShown(name: string): string {
  const redacted = redact(name)
  const hidden = hiddenCount(redacted)
  const shown = JSON.stringify(publicText(redacted, LABEL_SHOWN_CHARS))
  if (hidden === 0) return shown
  return `${shown} (shown without ${hidden} hidden character${hidden === 1 ? '' : 's'})`
}

export type LabelAdmission =
  | { skip: Skip; octokit?: Octokit }
  | { skip?: undefined; asker: Asker; rules: TriggerSettings; octokit?: Octokit }

/**
 * The label trigger's checks, in the comment trigger's order: the label (`trigger-label`, refused
 * when it is the action's own, before any request), then who added it, as `permission`,
 * `allowed-users` and `allowed-bots` judge a commenter (`allow-pr-author` does not apply: the
 * author of a pull request may not label it). Undefined: no label trigger here (no
 * `trigger-label`, or an event that adds or removes no label), the run goes on as it would.
 */
export async function admitLabel(
  event: EventInfo,
  given: string,
  get: GetInput,
  clients: { client(token: string): Octokit },
  serverUrl: string
): Promise<LabelAdmission | undefined> {
  const change = event.label
  if (given.trim() === '' || change === undefined) return undefined
  const name = readTriggerLabel(given)
  const shown = labelShown(change.name)
  if (change.action === 'unlabeled')
    return { skip: { reason: `the label ${shown} was removed, not added` } }
  if (change.name.toLowerCase() !== name.toLowerCase())
    return { skip: { reason: `the label ${shown} is not \`trigger-label\`` } }
  const on = eventPlace(event, serverUrl)
  if (!on) return { skip: { reason: 'the event names no issue or pull request' } }
  const rules = readTriggerSettings(get)
  const octokit = rules.githubToken === '' ? undefined : clients.client(rules.githubToken)
  const who = await checkCommenter(octokit, event, change, { ...rules, allowPrAuthor: false })
  if (!who.allowed)
    return {
      skip: {
        reason: who.reason,
        notice: `Ignored the label ${shown}: ${who.reason}.`,
        reply: { place: on, body: whoMayReply(change.name, change.author, rules) },
        label: { name: change.name, place: on }
      },
      octokit
    }
  // Taken off as it is spelt on the item, whatever the case `trigger-label` gives.
  const asker = labelAsker(on, {
    label: change.name,
    by: change.author,
    why: who.why,
    ...(event.pullRequestAuthor ? { author: event.pullRequestAuthor } : {})
  })
  return { asker, rules, octokit }
}

/**
 * The reply to a label added by someone who may not ask: the label came off, who may add it.
 * The login is GitHub's (a mention tells them); the label's name is shown inert.
 */
function whoMayReply(label: string, by: string, rules: TriggerSettings): string {
  const sender = /^[A-Za-z0-9-]+(\[bot\])?$/.test(by) ? `@${by}` : escapeText(by || 'the sender')
  const listed = [
    ...(rules.allowedUsers.length > 0 ? ['the users `allowed-users` lists'] : []),
    ...(rules.allowedBots === '*' || rules.allowedBots.length > 0
      ? ['the bots `allowed-bots` lists']
      : [])
  ]
  const also = listed.length > 0 ? `, and ${listed.join(' and ')}` : ''
  return (
    `The label **${escapeText(publicText(redact(label), LABEL_SHOWN_CHARS))}** was taken off: ${sender} may not ask the docs agent with it. ` +
    `Only people with **${rules.permission}** permission or more on this repository may${also}; ` +
    'ask one of them to add it. Nothing was sent to the docs agent.'
  )
}

/**
 * Where a label run answers: the labelled issue or pull request (`issue-number` still wins), when
 * the run comments at all. Undefined when no label asked for the run.
 */
export function labelTarget(
  asker: Asker,
  s: { issueNumber?: number },
  policy: { writes: boolean }
): Place | undefined {
  if (asker.label === undefined || !asker.on || !policy.writes) return undefined
  const { owner, repo, issueNumber } = asker.on
  return { owner, repo, issueNumber: s.issueNumber ?? issueNumber }
}

/**
 * Takes the label off the issue or pull request once the run has ended, whatever the ending:
 * adding it again then asks again. A failure only warns (the run's answer stands).
 */
export async function removeTriggerLabel(
  asker: { label?: string | undefined; on?: Place | undefined },
  octokit: Octokit | undefined
): Promise<void> {
  const { label, on } = asker
  if (label === undefined || !on) return
  const { owner, repo, issueNumber } = on
  const shown = labelShown(label)
  if (!octokit) {
    core.warning(
      `The label ${shown} stays on #${issueNumber}: there is no \`github-token\` to remove it with.`
    )
    return
  }
  try {
    await removeLabel(octokit, owner, repo, issueNumber, { name: label, shown })
    core.info(`Removed the label ${shown} from #${issueNumber}.`)
  } catch (err) {
    core.warning(`${messageOf(err)}. Remove the label by hand before adding it again.`)
  }
}

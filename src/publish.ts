// What a run publishes, and the one path of each: the command's result once (outputs, the job
// summary, the comment, the label taken off, the reaction, the one core.setFailed, redacted and
// cleaned of anything hidden), and a skip, whichever phase of the gate decided it (its reply and
// reaction where one is due, its notice, its outputs, `skipped=true`, one "Skipped:" line).
import * as core from '@actions/core'
import type { CommandResult } from './commands/result.js'
import { messageOf } from './errors.js'
import { failureLine } from './causes.js'
import type { Reply, Skip } from './gate/answer.js'
import { removeTriggerLabel } from './gate/label.js'
import { postReply } from './github/comments.js'
import type { EventInfo } from './github/event.js'
import type { Octokit } from './github/octokit.js'
import { addReaction, type Reactions } from './github/trigger.js'
import { instructionText } from './public-text.js'
import { plainText } from './report/markdown.js'
import type { Records } from './records/records.js'
import { redact } from './secrets/redact.js'
import type { ServiceClient } from './service/client.js'

/** What the cancellation handler and publish need, known as the run goes. */
export interface Live {
  service?: ServiceClient
  reactions?: Reactions
  /** Takes off the label that asked for the run (`trigger-label`), once it has ended. */
  unlabel?: () => Promise<void>
}

/**
 * The one place that publishes: outputs (`requests` from the client's count, also after a
 * failure), the job summary (a file that cannot be written only warns), the comment, the reaction
 * on a trigger comment, and the one core.setFailed, redacted and cleaned of anything hidden.
 */
export async function publish(
  result: CommandResult,
  { service, reactions, unlabel }: Live
): Promise<void> {
  for (const [name, value] of result.outputs) core.setOutput(name, redact(value))
  if (service) core.setOutput('requests', String(service.requests))
  if (result.summary !== undefined) {
    // Every published text passes the secret search here, whatever built it.
    await core.summary
      .addRaw(redact(result.summary))
      .write()
      .catch((err: unknown) => core.warning(`Could not write the job summary: ${messageOf(err)}`))
  }
  if (result.comment) {
    try {
      const url = await result.comment()
      if (url) core.setOutput('comment-url', url)
    } catch (err) {
      // The comment is part of what the run was asked for; a failure already reported wins.
      if (result.failure === undefined) result.failure = failureLine(err, messageOf(err))
      else core.warning(messageOf(err))
    }
  }
  await unlabel?.()
  if (result.failure !== undefined) {
    // Plain text: the advice in it may be Markdown of ours (a link, an escaped value).
    core.setFailed(instructionText(redact(plainText(result.failure))))
    await reactions?.add('confused')
  } else if (result.reaction) await reactions?.add(result.reaction)
}

/**
 * A run the gate did not let through, whichever phase decided it: what it says, where it says
 * it, its outputs and `skipped=true`. The one path every skip takes.
 */
export async function skip(
  result: CommandResult,
  s: Skip,
  github: { octokit?: Octokit | undefined; records?: Records | undefined },
  event: EventInfo
): Promise<void> {
  const { octokit } = github
  if (octokit && s.reply) {
    const url = await writeReply(s.reply, octokit, github.records).catch((err: unknown) => {
      core.warning(messageOf(err))
      return undefined
    })
    if (url) result.set('comment-url', url)
  }
  // A label added by someone who may not ask comes off, as the recipe promises.
  if (s.label) await removeTriggerLabel({ label: s.label.name, on: s.label.place }, octokit)
  if (octokit && s.reaction) {
    const { comment, content } = s.reaction
    await addReaction(octokit, event.owner, event.repo, comment, content, core.warning)
  }
  if (s.warning) core.warning(s.warning)
  if (s.notice) core.notice(s.notice)
  if (s.summary) result.summary = s.summary
  for (const [name, value] of s.outputs ?? []) result.set(name, value)
  core.info(`Skipped: ${s.reason}. Nothing was sent to the service.`)
  result.set('skipped', 'true')
}

/** A skip's reply: the run's own answer (signed, edited by a re-run), or a plain new comment. */
async function writeReply(
  r: Reply,
  octokit: Octokit,
  records: Records | undefined
): Promise<string | undefined> {
  if (!r.answer || !records) return void (await postReply(octokit, r.place, r.body))
  const { key, mode } = r.answer
  return (await records.thread(r.place).upsert({ key, extraKeys: [], body: r.body, mode })).url
}

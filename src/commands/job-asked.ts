// Who asked for this run's instruction, where and when, as the agent's pull request records it
// when the instruction grows it (issue 42): the gate's asker (its login; the trigger comment, the
// labelled item, the merged pull request or the code pull request a dispatch names), else the
// workflow run. And the code pull request of a dispatch, which the docs pull request links.
import { readDispatch } from '../agent/dispatch.js'
import { dispatchedPullRequest } from '../gate/asker.js'
import { redact } from '../secrets/redact.js'
import type { Asked } from '../records/job.js'
import type { CodeChange } from '../report/job-report.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

type Ctx = CommandContext<JobSettings>

/** Who asked, where and when (`when`: the run's start, on its one clock). */
export function askedFor(ctx: Ctx, when: number): Asked {
  const { login, link } = ctx.asker
  const where = link ?? (ctx.runUrl || undefined)
  return { when, ...(login ? { who: login } : {}), ...(where ? { where } : {}) }
}

/** The report's `codeChange`, when the run is a dispatch that names one. */
export function codeChangeOf(ctx: Ctx): { codeChange?: CodeChange } {
  const c = codeChange(ctx)
  return c ? { codeChange: c } : {}
}

/** The code pull request a `repository_dispatch` names, when its link is one of this GitHub. */
function codeChange(ctx: Ctx): CodeChange | undefined {
  if (ctx.event.eventName !== 'repository_dispatch') return undefined
  const d = readDispatch(ctx.payload)
  const pr = dispatchedPullRequest(ctx.payload, ctx.serverUrl)
  if (!d || !pr) return undefined
  return {
    label: `${pr.owner}/${pr.repo}#${pr.issueNumber}`,
    url: pr.url,
    ...(d.pullRequest?.title ? { title: d.pullRequest.title } : {}),
    // The author's text: nothing a redaction knows is shown (as the context block withholds it).
    ...(d.body ? { body: redact(d.body) } : {})
  }
}

// Who asked for this run's instruction, where and when, as the agent's pull request records it
// when the instruction grows it (issue 42): the trigger comment (a link to it), else the pull
// request or issue the run is on (a merge), else the code pull request a dispatch names, else the
// workflow run. And the code pull request of a dispatch, which the docs pull request links.
import { readDispatch } from '../agent/dispatch.js'
import { pullRequestOfLink } from '../github/pulls.js'
import { redact } from '../secrets/redact.js'
import type { Asked } from '../records/job.js'
import type { CodeChange } from '../report/job-report.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { askedIn } from './job-answer.js'

type Ctx = CommandContext<JobSettings>

/** The anchor of a trigger comment in its thread, as GitHub links it. */
const ANCHORS = { issue: 'issuecomment-', pull: 'discussion_r', review: 'pullrequestreview-' }

/** Who asked, where and when (`when`: the run's start, on its one clock). */
export function askedFor(ctx: Ctx, when: number): Asked {
  const t = ctx.trigger?.comment
  const who = t?.author ?? ctx.label?.by
  const on = askedIn(ctx) ?? askedIn(ctx, ctx.event.issueNumber)
  const where =
    (on && t ? `${on.url}#${ANCHORS[t.kind]}${t.id}` : on?.url) ??
    codeChange(ctx)?.url ??
    (ctx.runUrl || undefined)
  return { when, ...(who ? { who } : {}), ...(where ? { where } : {}) }
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
  const url = d?.pullRequest?.url
  const pr = url ? pullRequestOfLink(url, ctx.serverUrl) : undefined
  if (!d || !pr) return undefined
  // Shown as a link label: only names GitHub allows (nothing else reaches the Markdown).
  if (!/^[\w.-]+$/.test(pr.owner) || !/^[\w.-]+$/.test(pr.repo)) return undefined
  const href = `${ctx.serverUrl.replace(/\/+$/, '')}/${pr.owner}/${pr.repo}/pull/${pr.number}`
  return {
    label: `${pr.owner}/${pr.repo}#${pr.number}`,
    url: href,
    ...(d.pullRequest?.title ? { title: d.pullRequest.title } : {}),
    // The author's text: nothing a redaction knows is shown (as the context block withholds it).
    ...(d.body ? { body: redact(d.body) } : {})
  }
}

// Who asked for this run's instruction, where and when, as the agent's pull request records it
// when the instruction grows it (issue 42): the gate's asker (its login; the trigger comment, the
// labelled item, the merged pull request or the code pull request a dispatch names), else the
// workflow run. And the code pull request of a dispatch, which the docs pull request links.
import { readDispatch } from '../agent/dispatch.js'
import { publicText } from '../public-text.js'
import { redact } from '../secrets/redact.js'
import type { Asked } from '../records/job.js'
import type { CodeChange } from '../report/job-report.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

type Ctx = CommandContext<JobSettings>

/** A title a cause quotes is kept to this many characters (the record holds it in its key). */
const TITLE_MAX_CHARS = 120

/**
 * Who asked, where and when (`when`: the run's start, on its one clock), and how: the cause as
 * the gate's asker names it (a merged pull request's title, the label, a pull request a dispatch
 * named that is not linked).
 */
export function askedFor(ctx: Ctx, when: number): Asked {
  const { login, link, how, on, label, unlinked } = ctx.asker
  const where = link ?? (ctx.runUrl || undefined)
  const named = on?.title ?? unlinked?.title
  const title = named ? publicText(named, TITLE_MAX_CHARS) : ''
  return {
    when,
    how,
    ...(login ? { who: login } : {}),
    ...(where ? { where } : {}),
    ...(title ? { title } : {}),
    ...(label !== undefined ? { label: publicText(label, TITLE_MAX_CHARS) } : {}),
    ...(unlinked ? { unlinked: unlinked.label } : {})
  }
}

/** The report's `codeChange`, when the run is a dispatch that names one. */
export function codeChangeOf(ctx: Ctx): { codeChange?: CodeChange } {
  const c = codeChange(ctx)
  return c ? { codeChange: c } : {}
}

/**
 * The code pull request a `repository_dispatch` names, as the gate's asker links it: one of this
 * GitHub, inside `notify-repository` or this repository (else nothing is linked).
 */
function codeChange(ctx: Ctx): CodeChange | undefined {
  const pr = ctx.asker.how === 'dispatch' ? ctx.asker.on : undefined
  const d = readDispatch(ctx.payload)
  if (!d || !pr) return undefined
  return {
    label: `${pr.owner}/${pr.repo}#${pr.issueNumber}`,
    url: pr.url,
    ...(pr.title ? { title: pr.title } : {}),
    // The author's text: nothing a redaction knows is shown (as the context block withholds it).
    ...(d.body ? { body: redact(d.body) } : {})
  }
}

// A `report` stopped by a cause a re-run cannot help (the key refused or expired, a proxy that
// wants credentials or refuses, an address that does not resolve: causes.ts) leaves a short
// comment on its issue saying what, what to change and who changes it (issue 40, contract
// "Causes, and who fixes them"): the tracking issue's readers would otherwise see a week without a
// report and no reason. One note per range, worded in the past with its date, so it stays true
// once the cause is fixed and the report written. A missing issue has no comment to carry it.
import * as core from '@actions/core'
import { causeOf, needsAFix } from '../causes.js'
import { messageOf, whoFixes, type RunCause } from '../errors.js'
import { IssueMissingError } from '../github/issues.js'
import { keyRefusedKey } from '../records/report.js'
import type { RecordThread } from '../records/thread.js'
import { capitalise } from '../report/markdown.js'
import { shortRange } from '../report/range.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** When `err` is a cause someone must fix first, the run's comment becomes the note. */
export function sayRefused(
  ctx: CommandContext<AnalyticsSettings>,
  thread: RecordThread | undefined,
  err: unknown
): void {
  const cause = causeOf(err)
  if (!thread || !needsAFix(cause) || !ctx.commenting.writes) return
  if (err instanceof IssueMissingError) return
  const s = ctx.settings
  const body = refusedNote(cause, s, ctx.deadline.now(), ctx.runUrl)
  ctx.result.comment = async () => {
    try {
      const ref = await thread.upsert({
        key: keyRefusedKey(s.projectId, s.range),
        body,
        mode: 'upsert'
      })
      return ref.url
    } catch (e) {
      core.warning(
        `Could not say on #${thread.place.issueNumber} why the report was not read: ${messageOf(e)}`
      )
      return undefined
    }
  }
}

/** The note: the range not read, the cause on its date, what to change and who changes it. */
function refusedNote(cause: RunCause, s: AnalyticsSettings, now: number, runUrl: string): string {
  const run = runUrl ? ` ([workflow run](${runUrl}))` : ''
  const icon = cause.kind === 'network' ? '🔌' : '🔑'
  const who = whoFixes(cause.fixer) ?? "this workflow's maintainers"
  return (
    `### Docs-health report · ${shortRange(s.range, now)} · not read\n\n${icon} On ` +
    `${new Date(now).toISOString().slice(0, 10)} ${cause.what}, so the report was not read${run}.\n\n` +
    `**To fix** (${who}): ${capitalise(cause.fix)}${/[.!?]$/.test(cause.fix) ? '' : '.'} Then ` +
    're-run the workflow; as it is, a re-run fails the same way.\n'
  )
}

// A `report` the service refused for its key (401: invalid or expired) leaves a short comment on
// its issue saying so (issue 40): the tracking issue's readers would otherwise see a week without
// a report and no reason, and a re-run cannot help until the secret holds a new key. One note per
// range, worded in the past with its date, so it stays true once a new key has written the report.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { keyRefusedKey } from '../records/report.js'
import type { RecordThread } from '../records/thread.js'
import { capitalise } from '../report/markdown.js'
import { shortRange } from '../report/range.js'
import { isKeyRefused } from '../service/errors.js'
import { KEY_REFUSED_HINT } from '../service/hints.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** When `err` is the service refusing the key, the run's comment becomes the note. */
export function sayKeyRefused(
  ctx: CommandContext<AnalyticsSettings>,
  thread: RecordThread | undefined,
  err: unknown
): void {
  if (!thread || !isKeyRefused(err) || !ctx.commenting.writes) return
  const s = ctx.settings
  const run = ctx.runUrl ? ` ([workflow run](${ctx.runUrl}))` : ''
  const now = ctx.deadline.now()
  const body =
    `### Docs-health report · ${shortRange(s.range, now)} · not read\n\n🔑 On ` +
    `${new Date(now).toISOString().slice(0, 10)} the service refused the API key (401), so the ` +
    `report was not read${run}. ${capitalise(KEY_REFUSED_HINT)}, then re-run the workflow.\n`
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
        `Could not say on #${thread.place.issueNumber} that the key was refused: ${messageOf(e)}`
      )
      return undefined
    }
  }
}

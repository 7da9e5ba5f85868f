// A job on the merge of the docs agent's own pull request is skipped: it would start another job,
// and another after that one merges. Its one sign is the signed `opened` record a job run leaves
// on the pull request it opened (records/job.ts openedBy).
import { asObject, type JsonObject } from '../json.js'
import { messageOf } from '../errors.js'
import { openedBy } from '../records/job.js'
import type { Records } from '../records/records.js'
import { renderOwnMergeSummary } from '../report/own-merge.js'
import type { JobSettings } from '../settings/settings.js'
import type { Skip } from './answer.js'
import type { Asker } from './asker.js'

/**
 * The skip of a merge of the agent's own pull request. The check runs whatever `comment` says,
 * and fails closed: when GitHub cannot answer it (or there is no token to ask with), nothing is
 * started either, and a warning says how to run it by hand.
 */
export async function ownMergeSkip(
  asker: Asker,
  payload: JsonObject,
  settings: JobSettings,
  records: Records | undefined
): Promise<Skip | undefined> {
  const place = asker.on
  if (asker.how !== 'merge' || !place) return undefined
  /** The job the `opened` record names; undefined: the pull request is not the agent's own. */
  let jobId: string | undefined
  try {
    if (!records) throw new Error('`github-token` is empty, so GitHub cannot be asked')
    jobId = (await openedBy(records.thread(place), settings.projectId))?.job
  } catch (err) {
    const why = messageOf(err)
    return {
      reason: `could not check whether #${place.issueNumber} is the agent's own`,
      warning:
        `Could not check whether the merged pull request #${place.issueNumber} is the docs ` +
        `agent's own work (${why}), so no job was started: if it were, merging it would start ` +
        'another. If it is not, run this workflow again once GitHub answers (re-run the job), or ' +
        'start the job by hand from a `workflow_dispatch` run with the same inputs.'
    }
  }
  if (jobId === undefined) return undefined
  const url = asObject(payload.pull_request)?.html_url
  return {
    reason: "the merged pull request is the docs agent's own",
    notice:
      "This merged pull request is the docs agent's own work (it carries this action's signed " +
      'record that a job opened it), so no new job is started: merging it would otherwise start ' +
      'another.',
    ...(settings.summary
      ? {
          summary: renderOwnMergeSummary({
            number: place.issueNumber,
            ...(typeof url === 'string' ? { url } : {}),
            projectId: settings.projectId,
            jobId
          })
        }
      : {})
  }
}

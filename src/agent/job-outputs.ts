// The outputs a job run sets from the job it saw: as soon as the service answers, again at the
// end, and on a cancellation, so that a failed or cancelled step still says what it knows; and
// those the gate's skip of a cause sent already sets from the job it went to.
import * as core from '@actions/core'
import { pullRequestOfLink } from '../github/pulls.js'
import { capJobJson, type AgentJob } from '../service/schema.js'

/**
 * `status`, `pr-link`, `pr-number` (when the pull request is on this GitHub), `branch` (the
 * job's `source.ref`) and `job` (its main fields only when the whole is too large).
 */
export function setJobOutputs(
  result: { set(name: string, value: string): void },
  job: AgentJob | undefined,
  serverUrl: string
): void {
  if (!job) return
  result.set('status', job.status)
  result.set('pr-link', job.prLink ?? '')
  const pr = job.prLink ? pullRequestOfLink(job.prLink, serverUrl) : undefined
  result.set('pr-number', pr ? String(pr.number) : '')
  const ref = job.source?.ref
  result.set('branch', typeof ref === 'string' ? ref : '')
  const { json, capped } = capJobJson(job)
  if (capped)
    core.warning(
      'The job object is too large for a step output; `job` holds its main fields only, long ones cut.'
    )
  result.set('job', json)
}

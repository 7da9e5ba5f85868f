// `when-agent-pr-open: follow-up`: a run that would start a job sends its instruction to the job of
// the docs agent's pull request that is still open in this repository instead, so one pull
// request grows rather than one per merge or per `fix N`. The label is a hint anyone with triage
// can set, so the open pull requests carrying it are looked through newest first, at most
// LOOKED_AT of them, and the first whose signed `opened` record names a job of this project grows
// (records/job.ts openedBy, through the run's one Records, so no thread is listed twice): a label
// on someone else's newer pull request never hides the agent's. Finding it costs 1 GitHub request,
// and 1 more per pull request looked at (2 when the newest is the agent's, at most 4), and none of
// the service's. A closed or merged pull request is never listed, so never grown.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { AGENT_LABEL, openLabelledPulls } from '../github/labels.js'
import { openedBy } from '../records/job.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** The open pull request a job of this project opened, and that job. */
export interface AgentPullRequest {
  number: number
  url: string
  jobId: string
}

/** The most labelled pull requests looked through, newest first. */
const LOOKED_AT = 3

/**
 * The open agent pull request to grow, or undefined (a new job starts): `create` asked for, no
 * token, none open, or none of the newest labelled ones carries an `opened` record of this
 * project signed by the action's own login. Anything GitHub cannot answer starts a new job, with
 * a warning. The log says which one grew and why each newer one did not.
 */
export async function openAgentPullRequest(
  ctx: CommandContext<JobSettings>
): Promise<AgentPullRequest | undefined> {
  const { settings: s, event, octokit, records } = ctx
  if (s.whenAgentPrOpen !== 'follow-up' || !octokit || !records) return undefined
  if (event.owner === '' || event.repo === '') return undefined
  try {
    const labelled = await openLabelledPulls(octokit, event.owner, event.repo, AGENT_LABEL)
    for (const n of labelled.slice(0, LOOKED_AT)) {
      const place = { owner: event.owner, repo: event.repo, issueNumber: n }
      const job = (await openedBy(records.thread(place), s.projectId))?.job
      if (job !== undefined && job !== '') {
        const url = `${ctx.serverUrl}/${event.owner}/${event.repo}/pull/${n}`
        return { number: n, url, jobId: job }
      }
      core.info(
        `Pull request #${n} carries the \`${AGENT_LABEL}\` label but no record that a job of ` +
          `this project opened it, so it is not the one to grow.`
      )
    }
    if (labelled.length > 0) {
      const looked = Math.min(labelled.length, LOOKED_AT)
      core.info(
        `None of the ${looked === 1 ? 'pull request' : `${looked} newest pull requests`} labelled ` +
          `\`${AGENT_LABEL}\` is the docs agent's of this project, so nothing was grown: a new job starts.`
      )
    }
    return undefined
  } catch (err) {
    core.warning(
      `Could not tell whether a docs agent pull request is open (${messageOf(err)}), so a new ` +
        'job starts instead of growing one.'
    )
    return undefined
  }
}

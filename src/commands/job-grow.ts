// `when-agent-pr-open: follow-up`: a run that would start a job sends its instruction to the job of
// the docs agent's pull request that is still open in this repository instead, so one pull
// request grows rather than one per merge or per `fix N`. Finding it costs at most 2 GitHub
// requests and none of the service's: the open pull requests carrying the action's label (a hint
// anyone with triage can set), then the newest one's comments (through the run's one Records, so
// no thread is listed twice), where the signed `opened` record of this project decides. A closed
// or merged pull request is never listed, so never grown.
import * as core from '@actions/core'
import { messageOf } from '../errors.js'
import { AGENT_LABEL, openLabelledPulls } from '../github/labels.js'
import type { JobSettings } from '../settings.js'
import type { CommandContext } from './context.js'

/** The open pull request a job of this project opened, and that job. */
export interface AgentPullRequest {
  number: number
  url: string
  jobId: string
}

/**
 * The open agent pull request to grow, or undefined (a new job starts): `create` asked for, no
 * token, none open, or the newest labelled one carries no `opened` record of this project signed
 * by the action's own login. Anything GitHub cannot answer starts a new job, with a warning.
 */
export async function openAgentPullRequest(
  ctx: CommandContext<JobSettings>
): Promise<AgentPullRequest | undefined> {
  const { settings: s, event, octokit, records } = ctx
  if (s.whenAgentPrOpen !== 'follow-up' || !octokit || !records) return undefined
  if (event.owner === '' || event.repo === '') return undefined
  try {
    const [newest] = await openLabelledPulls(octokit, event.owner, event.repo, AGENT_LABEL)
    if (newest === undefined) return undefined
    const thread = records.thread({ owner: event.owner, repo: event.repo, issueNumber: newest })
    const opened = await thread.newest('opened', { project: s.projectId })
    if (opened === undefined || opened.job === '') {
      core.info(
        `Pull request #${newest} carries the \`${AGENT_LABEL}\` label but no record that a ` +
          'job of this project opened it, so nothing was grown: a new job starts.'
      )
      return undefined
    }
    const url = `${ctx.serverUrl}/${event.owner}/${event.repo}/pull/${newest}`
    return { number: newest, url, jobId: opened.job }
  } catch (err) {
    core.warning(
      `Could not tell whether a docs agent pull request is open (${messageOf(err)}), so a new ` +
        'job starts instead of growing one.'
    )
    return undefined
  }
}

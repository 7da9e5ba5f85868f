// The job run's last look (`checks`): once the job concluded with a pull request of this
// repository, the check runs on its head, read once or waited for within what is left of
// `wait-timeout` (agent/checks.ts). They become part of the one ending: shown in the answer and
// the summary, the `checks` output, and with `checks: require` the reason the step fails.
import * as core from '@actions/core'
import { readChecks, type ChecksSource } from '../agent/checks.js'
import { listAnnotations, listCheckRuns, pullRequestHead } from '../github/checks.js'
import type { Octokit } from '../github/octokit.js'
import type { PullRequestRef } from '../github/pulls.js'
import { checksFail } from '../report/job-checks.js'
import type { JobEnding, JobReport } from '../report/job-report.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** How the run ended, and what the report learned at the end (commands/job.ts `Ended`). */
interface Ended {
  ending: JobEnding
  learned?: Partial<JobReport>
}

/**
 * The ended run with its pull request's checks, when `checks` asks and the job finished with a
 * pull request of this repository; otherwise as it was.
 */
export async function withChecks(ctx: CommandContext<JobSettings>, ended: Ended): Promise<Ended> {
  const mode = ctx.settings.checks
  const { ending } = ended
  const n = ended.learned?.prNumber
  if (mode === 'off' || ending.kind !== 'finished' || ending.outcome !== 'pull-request')
    return ended
  const { owner, repo } = ctx.event
  if (n === undefined || owner === '' || repo === '') {
    core.info(
      "`checks`: the job's pull request is not in this repository, so its checks are not read."
    )
    return ended
  }
  const pr: PullRequestRef = { owner, repo, number: n }
  const url = `${ctx.serverUrl.replace(/\/+$/, '')}/${owner}/${repo}/pull/${n}/checks`
  core.startGroup(`Checks of pull request #${n} (\`checks: ${mode}\`)`)
  const checks = await readChecks(
    {
      mode,
      source: sourceFor(ctx.octokit, pr),
      deadline: ctx.deadline,
      pollIntervalMs: ctx.settings.pollIntervalMs,
      log: line => core.info(line),
      warn: line => core.warning(line)
    },
    n,
    url
  ).finally(() => core.endGroup())
  if (checks.error === undefined) ctx.result.set('checks', checks.state)
  const fails = checksFail(checks) && ending.failsBy === undefined
  return { ...ended, ending: { ...ending, checks, ...(fails ? { failsBy: 'checks' } : {}) } }
}

/** The pull request's head, read once (its first poll costs 2 requests), then its check runs. */
function sourceFor(octokit: Octokit | undefined, pr: PullRequestRef): ChecksSource {
  if (!octokit) {
    const none = () =>
      Promise.reject(new Error('`github-token` is empty, so GitHub cannot be asked'))
    return { list: none, annotations: none }
  }
  let head: string | undefined
  return {
    list: async () => listCheckRuns(octokit, pr, (head ??= await pullRequestHead(octokit, pr))),
    annotations: (id, max) => listAnnotations(octokit, pr, id, max)
  }
}

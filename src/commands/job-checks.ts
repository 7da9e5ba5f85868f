// The job run's last look at its pull request, once the job concluded with one of this
// repository: who `reviewers` lists is asked to review it (job-reviewers.ts), then, with `checks`,
// its check runs and its preview are read once or waited for within what is left of
// `wait-timeout` (agent/checks.ts, agent/preview.ts). Its head is read once for all three. They
// become part of the one ending: shown in the answer, the summary, a growth's note and the code
// pull request's comment; the `checks`, `preview` and `preview-url` outputs; and with
// `checks: require` the reason the step fails.
import * as core from '@actions/core'
import { readChecks, type ChecksSource } from '../agent/checks.js'
import { readPreview } from '../agent/preview.js'
import { listAnnotations, listCheckRuns } from '../github/checks.js'
import { listDeployments, newestDeploymentStatus } from '../github/deployments.js'
import type { Octokit } from '../github/octokit.js'
import { pullRequestHead, type PullRequestHead, type PullRequestRef } from '../github/pulls.js'
import { checksFail, type ChecksReport } from '../report/job-checks.js'
import type { JobEnding, JobReport } from '../report/job-report.js'
import type { JobSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'
import { askReviewers } from './job-reviewers.js'

/** How the run ended, and what the report learned at the end (commands/job.ts `Ended`). */
interface Ended {
  ending: JobEnding
  learned?: Partial<JobReport>
}

/**
 * The ended run after its last look at the pull request the job finished with (when it is one of
 * this repository): reviewers asked, and with `checks` its check runs and preview; otherwise as
 * it was.
 */
export async function withChecks(ctx: CommandContext<JobSettings>, ended: Ended): Promise<Ended> {
  const { checks: mode, reviewers } = ctx.settings
  const { ending } = ended
  const n = ended.learned?.prNumber
  if (ending.kind !== 'finished' || ending.outcome !== 'pull-request') return ended
  if (mode === 'off' && reviewers.length === 0) return ended
  const { owner, repo } = ctx.event
  if (n === undefined || owner === '' || repo === '') {
    core.info(
      "The job's pull request is not in this repository: its checks and preview are not read, " +
        'and nobody is asked to review it.'
    )
    return ended
  }
  const pr: PullRequestRef = { owner, repo, number: n }
  const head = headOnce(ctx.octokit, pr)
  await askReviewers(ctx, pr, head)
  if (mode === 'off') return ended
  const url = `${ctx.serverUrl.replace(/\/+$/, '')}/${owner}/${repo}/pull/${n}/checks`
  const files = (ended.learned?.changes?.files ?? []).flatMap(f => (f.withheld ? [] : [f.path]))
  core.startGroup(`Checks and preview of pull request #${n} (\`checks: ${mode}\`)`)
  const checks = await readChecks(
    {
      mode,
      source: sourceFor(ctx.octokit, pr, head, files),
      deadline: ctx.deadline,
      pollIntervalMs: ctx.settings.pollIntervalMs,
      log: line => core.info(line),
      warn: line => core.warning(line)
    },
    n,
    url
  ).finally(() => core.endGroup())
  setOutputs(ctx, checks)
  const fails = checksFail(checks) && ending.failsBy === undefined
  return { ...ended, ending: { ...ending, checks, ...(fails ? { failsBy: 'checks' } : {}) } }
}

/** `checks`, `preview` and `preview-url`, for what could be read. */
function setOutputs(ctx: CommandContext<JobSettings>, checks: ChecksReport): void {
  if (checks.error === undefined) ctx.result.set('checks', checks.state)
  const preview = checks.preview
  if (!preview || preview.error !== undefined) return
  ctx.result.set('preview', preview.state)
  ctx.result.set('preview-url', preview.url ?? '')
}

/**
 * The pull request's head, read once (the reviewers, the checks and the preview ask; the job is
 * done, so it no longer moves); a read that failed is tried again when next asked.
 */
function headOnce(
  octokit: Octokit | undefined,
  pr: PullRequestRef
): () => Promise<PullRequestHead> {
  let read: Promise<PullRequestHead> | undefined
  return () => {
    if (!octokit) return Promise.reject(noToken())
    read ??= pullRequestHead(octokit, pr).catch((err: unknown) => {
      read = undefined
      throw err
    })
    return read
  }
}

const noToken = (): Error => new Error('`github-token` is empty, so GitHub cannot be asked')

/** Its check runs (every page), their annotations and its preview, on its head. */
function sourceFor(
  octokit: Octokit | undefined,
  pr: PullRequestRef,
  head: () => Promise<PullRequestHead>,
  changedFiles: readonly string[]
): ChecksSource {
  if (!octokit) {
    const none = () => Promise.reject(noToken())
    return { list: none, annotations: none }
  }
  const where = { owner: pr.owner, repo: pr.repo }
  return {
    list: async () => listCheckRuns(octokit, pr, (await head()).sha),
    annotations: (id, max) => listAnnotations(octokit, pr, id, max),
    preview: () =>
      readPreview({
        deployments: async () => listDeployments(octokit, where, (await head()).sha),
        status: id => newestDeploymentStatus(octokit, where, id),
        head,
        changedFiles
      })
  }
}

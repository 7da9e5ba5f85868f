// The check runs on a pull request's head commit, as GitHub lists them (`checks: read`): the
// head, one page of check runs (one request), and a check run's annotations (one request each).
// Every field is untrusted JSON, read by type; a name, path or message that holds a secret is
// withheld whole, as a changed file's name is (pulls.ts).
import { asObject } from '../json.js'
import type { CheckAnnotation, CheckRunSeen } from '../report/job-checks.js'
import { redact } from '../secrets/redact.js'
import { call } from './errors.js'
import type { Octokit } from './octokit.js'
import type { PullRequestRef } from './pulls.js'

/** Check runs read in one request: a docs pull request has a handful. */
const RUNS_PER_READ = 100

const asText = (v: unknown): string => (typeof v === 'string' ? v : '')
const asCount = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0
/** Text from whoever runs a check: withheld whole when it holds a secret. */
const shown = (text: string): string =>
  redact(text) === text ? text : '(withheld: it contained a secret)'

/** The pull request's head commit: one request. */
export async function pullRequestHead(octokit: Octokit, pr: PullRequestRef): Promise<string> {
  const { data } = await call(`reading pull request #${pr.number}`, () =>
    octokit.rest.pulls.get({ owner: pr.owner, repo: pr.repo, pull_number: pr.number })
  )
  const sha = asText(asObject(data.head)?.sha)
  if (!/^[0-9a-f]{7,64}$/i.test(sha))
    throw new Error(`GitHub: pull request #${pr.number} names no head commit`)
  return sha
}

function readRun(raw: unknown): CheckRunSeen | undefined {
  const run = asObject(raw)
  const id = run?.id
  if (!run || typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined
  const conclusion = asText(run.conclusion)
  const url = asText(run.html_url)
  return {
    id,
    name: shown(asText(run.name)),
    status: asText(run.status) || 'unknown',
    ...(conclusion ? { conclusion } : {}),
    ...(url ? { url } : {}),
    annotationsCount: asCount(asObject(run.output)?.annotations_count),
    annotations: []
  }
}

/** The check runs on commit `sha` (GitHub's newest of each), in GitHub's order: one request. */
export async function listCheckRuns(
  octokit: Octokit,
  pr: PullRequestRef,
  sha: string
): Promise<CheckRunSeen[]> {
  const { data } = await call(`listing the check runs of #${pr.number}`, () =>
    octokit.rest.checks.listForRef({
      owner: pr.owner,
      repo: pr.repo,
      ref: sha,
      per_page: RUNS_PER_READ
    })
  )
  const runs: unknown[] = Array.isArray(data.check_runs) ? data.check_runs : []
  return runs.flatMap(raw => readRun(raw) ?? [])
}

function readAnnotation(raw: unknown): CheckAnnotation | undefined {
  const a = asObject(raw)
  const message = asText(a?.message) || asText(a?.title)
  if (!a || message === '') return undefined
  const line = a.start_line
  return {
    path: shown(asText(a.path)),
    ...(typeof line === 'number' && Number.isSafeInteger(line) && line > 0 ? { line } : {}),
    level: asText(a.annotation_level),
    message: shown(message)
  }
}

/** The first `max` annotations of a check run: one request. */
export async function listAnnotations(
  octokit: Octokit,
  pr: PullRequestRef,
  runId: number,
  max: number
): Promise<CheckAnnotation[]> {
  const { data } = await call(`listing the annotations of check run ${runId}`, () =>
    octokit.rest.checks.listAnnotations({
      owner: pr.owner,
      repo: pr.repo,
      check_run_id: runId,
      per_page: Math.min(Math.max(max, 1), 50)
    })
  )
  const list: unknown[] = Array.isArray(data) ? data : []
  return list.flatMap(raw => readAnnotation(raw) ?? []).slice(0, max)
}

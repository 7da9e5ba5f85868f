// The check runs on a pull request's head commit, as GitHub lists them (`checks: read`): every
// page of check runs (100 a page, at most 10: 1,000 runs), with GitHub's count of them, so that
// runs not read are known and never taken as passed; and a check run's annotations (one request
// each). Each read starts only while the run's time is left (octokit.ts readInTime). Every field
// is untrusted JSON, read by type; a name, path or message that holds a secret is withheld whole,
// as a changed file's name is (pulls.ts).
import { asObject } from '../json.js'
import type { CheckAnnotation, CheckRunSeen, CheckRunsRead } from '../report/job-checks.js'
import { redact } from '../secrets/redact.js'
import { TimeUpError } from '../errors.js'
import { call } from './errors.js'
import { readInTime, type Octokit } from './octokit.js'
import type { PullRequestRef } from './pulls.js'

/** Check runs a page (GitHub's most). */
const RUNS_PER_PAGE = 100
/** Pages read at most: 1,000 check runs; any beyond are counted as not read. */
export const MAX_CHECK_RUN_PAGES = 10

const asText = (v: unknown): string => (typeof v === 'string' ? v : '')
const asCount = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0
/** Text from whoever runs a check: withheld whole when it holds a secret. */
const shown = (text: string): string =>
  redact(text) === text ? text : '(withheld: it contained a secret)'

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

/**
 * The check runs on commit `sha` (GitHub's newest of each), in GitHub's order, page by page until
 * GitHub's `total_count` is read (usually one request), at most MAX_CHECK_RUN_PAGES pages; a page
 * time does not allow is not asked for (`cut: 'time'`), and neither are the pages past the last.
 * Time running out before the first page is the TimeUpError.
 */
export async function listCheckRuns(
  octokit: Octokit,
  pr: PullRequestRef,
  sha: string
): Promise<CheckRunsRead> {
  const runs = new Map<number, CheckRunSeen>()
  let total = 0
  for (let page = 1; page <= MAX_CHECK_RUN_PAGES; page++) {
    let data: Record<string, unknown>
    try {
      data = await readInTime(octokit, `the check runs of #${pr.number}`, request =>
        call(`listing the check runs of #${pr.number}`, async () => {
          const answer = await octokit.rest.checks.listForRef({
            owner: pr.owner,
            repo: pr.repo,
            ref: sha,
            per_page: RUNS_PER_PAGE,
            page,
            request
          })
          return answer.data
        })
      )
    } catch (err) {
      if (err instanceof TimeUpError && page > 1) return ended(runs, total, 'time')
      throw err
    }
    const listed: unknown[] = Array.isArray(data.check_runs) ? data.check_runs : []
    for (const run of listed.flatMap(raw => readRun(raw) ?? [])) runs.set(run.id, run)
    total = Math.max(total, asCount(data.total_count))
    if (runs.size >= total || listed.length < RUNS_PER_PAGE) return ended(runs, total)
  }
  return ended(runs, total, 'pages')
}

/** What a listing read: GitHub's count is never below what it showed. */
function ended(
  runs: ReadonlyMap<number, CheckRunSeen>,
  total: number,
  cut?: CheckRunsRead['cut']
): CheckRunsRead {
  const read = [...runs.values()]
  const all = Math.max(total, read.length)
  return { runs: read, total: all, ...(cut && all > read.length ? { cut } : {}) }
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

/** The first `max` annotations of a check run: one request, while the run's time is left. */
export async function listAnnotations(
  octokit: Octokit,
  pr: PullRequestRef,
  runId: number,
  max: number
): Promise<CheckAnnotation[]> {
  const data = await readInTime(octokit, `the annotations of check run ${runId}`, request =>
    call(`listing the annotations of check run ${runId}`, async () => {
      const answer = await octokit.rest.checks.listAnnotations({
        owner: pr.owner,
        repo: pr.repo,
        check_run_id: runId,
        per_page: Math.min(Math.max(max, 1), 50),
        request
      })
      return answer.data
    })
  )
  const list: unknown[] = Array.isArray(data) ? data : []
  return list.flatMap(raw => readAnnotation(raw) ?? []).slice(0, max)
}

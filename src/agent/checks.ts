// The check runs of the job's pull request (`checks`), followed as the job is: one read a poll,
// the job wait's backoff (wait.ts pollDelays) on the run's clock, within what is left of
// `wait-timeout`; then the annotations of those that completed, and the words for a step that
// `checks: require` fails.
import type { Deadline } from '../deadline.js'
import { messageOf } from '../errors.js'
import { publicText } from '../public-text.js'
import { GitHubError } from '../github/errors.js'
import {
  ANNOTATIONS_SHOWN,
  checksState,
  isCompleted,
  isFailing,
  RUNS_SHOWN,
  type CheckAnnotation,
  type CheckRunSeen,
  type ChecksReport
} from '../report/job-checks.js'
import { pollDelays } from './wait.js'

/**
 * A head with no check run yet is watched this long for one to start: checks start a few seconds
 * after a push, so "none" right after the job is not yet an answer (a repository without checks
 * costs a few more reads).
 */
const FIRST_CHECK_GRACE_MS = 60_000

/** Where the check runs are read (github/checks.ts, on one pull request's head). */
export interface ChecksSource {
  /** One request. */
  list(): Promise<CheckRunSeen[]>
  annotations(runId: number, max: number): Promise<CheckAnnotation[]>
}

export interface FollowChecks {
  mode: 'show' | 'wait' | 'require'
  source: ChecksSource
  deadline: Deadline
  pollIntervalMs: number
  log: (line: string) => void
  warn: (line: string) => void
  random?: () => number
}

/** GitHub may answer the next poll: no answer, a 5xx or a 429. */
function isTransient(err: unknown): boolean {
  return (
    err instanceof GitHubError &&
    (err.status === undefined || err.status >= 500 || err.status === 429)
  )
}

/** "1 failed · 2 passed · 1 still running", for the log. */
function tally(runs: readonly CheckRunSeen[]): string {
  if (runs.length === 0) return 'none yet'
  const failed = runs.filter(isFailing).length
  const running = runs.filter(r => !isCompleted(r)).length
  const passed = runs.length - failed - running
  return `${failed} failed · ${passed} passed · ${running} still running`
}

/**
 * The check runs, read once (`show`), or until every one completed (`wait`, `require`), or the
 * run's time ran out (`timedOut`). A poll GitHub fails to answer is tried again at the next one; a
 * refusal (403, 404) ends the read with the error.
 */
async function followChecks(o: FollowChecks): Promise<{ runs: CheckRunSeen[]; timedOut: boolean }> {
  let runs = await o.source.list()
  let said = tally(runs)
  o.log(`Check runs: ${said}.`)
  if (o.mode === 'show') return { runs, timedOut: false }
  const noneUntil = o.deadline.now() + FIRST_CHECK_GRACE_MS
  for (const delay of pollDelays(o.pollIntervalMs, o.random)) {
    const waited = runs.length > 0 || o.deadline.now() >= noneUntil
    if (waited && runs.every(isCompleted)) return { runs, timedOut: false }
    await o.deadline.sleep(Math.min(delay, o.deadline.left()))
    // No read starts once the run's time is up.
    if (o.deadline.passed()) break
    try {
      runs = await o.source.list()
    } catch (err) {
      if (!isTransient(err)) throw err
      o.warn(`Reading the check runs failed, will read again: ${messageOf(err)}`)
      continue
    }
    if (tally(runs) !== said) o.log(`Check runs: ${(said = tally(runs))}.`)
  }
  return { runs, timedOut: !runs.every(isCompleted) || runs.length === 0 }
}

/**
 * The first annotations of each completed check run that has some (one request each, the first
 * RUNS_SHOWN runs only). One that cannot be read only warns: the run is shown without them.
 */
async function withAnnotations(
  runs: readonly CheckRunSeen[],
  source: ChecksSource,
  warn: (line: string) => void
): Promise<CheckRunSeen[]> {
  const read: CheckRunSeen[] = []
  for (const [i, run] of runs.entries()) {
    if (i >= RUNS_SHOWN || !isCompleted(run) || run.annotationsCount === 0) {
      read.push(run)
      continue
    }
    try {
      read.push({ ...run, annotations: await source.annotations(run.id, ANNOTATIONS_SHOWN) })
    } catch (err) {
      const name = JSON.stringify(publicText(run.name, 100))
      warn(`The annotations of the check run ${name} could not be read: ${messageOf(err)}`)
      read.push(run)
    }
  }
  return read
}

/** The check runs as read and followed, with their annotations: what the answer shows. */
export async function readChecks(
  o: FollowChecks,
  prNumber: number,
  url?: string
): Promise<ChecksReport> {
  const base = { mode: o.mode, prNumber, ...(url ? { url } : {}) }
  try {
    const { runs, timedOut } = await followChecks(o)
    const full = await withAnnotations(runs, o.source, o.warn)
    return { ...base, state: checksState(full), runs: full, ...(timedOut ? { timedOut } : {}) }
  } catch (err) {
    const refused = err instanceof GitHubError && (err.status === 403 || err.status === 404)
    // GitHubError's own hint is about writing comments: reading checks needs another permission.
    const error = refused
      ? `${err.problem}. The token needs \`checks: read\` (the workflow's \`permissions:\`)`
      : messageOf(err)
    o.warn(`The check runs of #${prNumber} could not be read: ${error}`)
    return { ...base, state: 'none', runs: [], error }
  }
}

/** The step's failure when `checks: require` fails it (contract: "The agent's checks"). */
export function checksFailure(c: ChecksReport, jobId: string): string {
  const of = `the check runs of pull request #${c.prNumber} (job ${jobId})`
  if (c.error !== undefined)
    return `\`checks\` is \`require\`, and ${of} could not be read: ${c.error}`
  const named = (r: CheckRunSeen): string => JSON.stringify(publicText(r.name, 100))
  const failed = c.runs
    .filter(isFailing)
    .map(r => `${named(r)} (${publicText(r.conclusion ?? '', 40)})`)
  const running = c.runs.filter(r => !isCompleted(r)).map(named)
  const parts = [
    failed.length > 0 ? `failed: ${failed.join(', ')}` : '',
    running.length > 0 ? `still running when the wait ended: ${running.join(', ')}` : ''
  ].filter(Boolean)
  return `\`checks\` is \`require\`, and not every one of ${of} passed: ${parts.join('; ')}.`
}

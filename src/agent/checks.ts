// The check runs and the preview of the job's pull request (`checks`), followed as the job is: one
// read a poll (every page of check runs, and the preview until its verdict is in), the job wait's
// backoff (wait.ts pollDelays) on the run's clock, within what is left of `wait-timeout`; then the
// annotations of those that completed, each read only while time is left; and the words for a
// step that `checks: require` fails. Runs GitHub counts but the run did not read never pass.
import type { Deadline } from '../deadline.js'
import { messageOf, TimeUpError } from '../errors.js'
import { publicText } from '../public-text.js'
import { GitHubError } from '../github/errors.js'
import {
  ANNOTATIONS_SHOWN,
  byConcern,
  checksState,
  counts,
  isCompleted,
  isFailing,
  previewFails,
  RUNS_SHOWN,
  unreadRuns,
  type CheckAnnotation,
  type CheckRunSeen,
  type CheckRunsRead,
  type ChecksReport
} from '../report/job-checks.js'
import type { PreviewReport } from '../report/job-preview.js'
import { pollDelays } from './wait.js'

/**
 * A head with no check run yet is watched this long for one to start: checks start a few seconds
 * after a push, so "none" right after the job is not yet an answer (a repository without checks
 * costs a few more reads).
 */
const FIRST_CHECK_GRACE_MS = 60_000

/** Where the check runs and the preview are read (github/, on one pull request's head). */
export interface ChecksSource {
  /** Every page of the head's check runs (one request for up to 100). */
  list(): Promise<CheckRunsRead>
  annotations(runId: number, max: number): Promise<CheckAnnotation[]>
  /** The preview (agent/preview.ts): one or two requests. */
  preview?(): Promise<PreviewReport>
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

/** One read: the check runs, and the preview as it stands. */
interface Seen {
  read: CheckRunsRead
  preview?: PreviewReport
  /** The preview's last read failed in a way GitHub may answer next time: read it again. */
  previewRetry?: true
}

/** GitHub may answer the next poll: no answer, a 5xx or a 429. */
function isTransient(err: unknown): boolean {
  return (
    err instanceof GitHubError &&
    (err.status === undefined || err.status >= 500 || err.status === 429)
  )
}

/** A preview whose verdict is in: built, failed, or not readable. */
const previewSettled = (p: PreviewReport): boolean =>
  p.error !== undefined || p.state === 'success' || p.state === 'failure'

/** "1 failed · 2 passed · 1 still running; preview: building", for the log. */
function tally(seen: Seen): string {
  const { read, preview } = seen
  const shown = read.runs.length === 0 && unreadRuns(read) === 0 ? 'none yet' : counts(read, false)
  if (!preview) return shown
  const p = preview.error !== undefined ? 'not read' : preview.state
  return `${shown}; preview: ${p === 'pending' ? 'building' : p}`
}

/**
 * The preview read again, unless its verdict is in. A failure GitHub may answer next time keeps
 * what was seen (or says the failure, if nothing was) and asks again at the next poll; any other
 * is the preview's error (a 403 names `deployments: read`).
 */
async function previewAgain(
  o: FollowChecks,
  before?: Seen
): Promise<Pick<Seen, 'preview' | 'previewRetry'>> {
  const { source } = o
  const last = before?.previewRetry ? undefined : before?.preview
  if (!source.preview || (last && previewSettled(last))) return last ? { preview: last } : {}
  try {
    return { preview: await source.preview() }
  } catch (err) {
    const failed: PreviewReport = { state: 'none', ...failureOf(err) }
    if (err instanceof TimeUpError) return { preview: last ?? failed }
    if (isTransient(err)) {
      o.warn(`Reading the preview failed, will read again: ${messageOf(err)}`)
      return { preview: last ?? failed, previewRetry: true }
    }
    o.warn(`The preview could not be read: ${messageOf(err)}`)
    return { preview: failed }
  }
}

/**
 * Why a read failed, GitHub's words (`error`) and what to change apart (`advice`, Markdown: a
 * refusal names the permission the call needs, github/permissions.ts).
 */
function failureOf(err: unknown): { error: string; advice?: string } {
  if (err instanceof TimeUpError)
    return { error: 'time ran out', advice: 'The wait (`wait-timeout`) ended first.' }
  if (err instanceof GitHubError)
    return { error: err.problem, ...(err.hint ? { advice: err.hint } : {}) }
  return { error: messageOf(err) }
}

/** A failure in one line, for the log and the step's failure. */
const inWords = (f: { error?: string; advice?: string }): string =>
  [f.error, f.advice].filter(Boolean).join('. ')

async function readOnce(o: FollowChecks, before?: Seen): Promise<Seen> {
  const read = await o.source.list()
  return { read, ...(await previewAgain(o, before)) }
}

/**
 * Every check run read completed, and the preview's verdict is in. No deployment once the checks
 * are done is "none": the platform's app deploys while its own check runs, so none comes later.
 */
function settled(seen: Seen, graceOver: boolean): boolean {
  const { read, preview } = seen
  const started = read.runs.length > 0 || read.total > 0
  const checksDone = (started || graceOver) && read.runs.every(isCompleted)
  const previewDone =
    !preview || (!seen.previewRetry && (previewSettled(preview) || preview.state === 'none'))
  return checksDone && previewDone
}

/**
 * The check runs and the preview, read once (`show`), or until every run completed and the
 * preview's verdict is in (`wait`, `require`), or the run's time ran out (`timedOut`). A poll
 * GitHub fails to answer is tried again at the next one; a refusal (403, 404) of the check runs
 * ends the read with the error. No read starts once the run's time is up.
 */
async function followChecks(o: FollowChecks): Promise<{ seen: Seen; timedOut: boolean }> {
  let seen = await readOnce(o)
  let said = tally(seen)
  o.log(`Check runs: ${said}.`)
  if (o.mode === 'show') return { seen, timedOut: false }
  const graceUntil = o.deadline.now() + FIRST_CHECK_GRACE_MS
  for (const delay of pollDelays(o.pollIntervalMs, o.random)) {
    if (settled(seen, o.deadline.now() >= graceUntil)) return { seen, timedOut: false }
    await o.deadline.sleep(Math.min(delay, o.deadline.left()))
    if (o.deadline.passed()) break
    try {
      seen = await readOnce(o, seen)
    } catch (err) {
      if (err instanceof TimeUpError) break
      if (!isTransient(err)) throw err
      o.warn(`Reading the check runs failed, will read again: ${messageOf(err)}`)
      continue
    }
    if (tally(seen) !== said) o.log(`Check runs: ${(said = tally(seen))}.`)
  }
  return { seen, timedOut: !settled(seen, true) }
}

/**
 * The first annotations of each completed check run shown that has some (one request each; the
 * failing first, RUNS_SHOWN at most), each only while the run's time is left: a run whose
 * annotations were not read says why. One GitHub fails to list only warns.
 */
async function withAnnotations(
  runs: readonly CheckRunSeen[],
  source: ChecksSource,
  warn: (line: string) => void
): Promise<CheckRunSeen[]> {
  const read = new Map<number, CheckRunSeen>()
  let timeUp = false
  for (const run of byConcern(runs).slice(0, RUNS_SHOWN)) {
    if (!isCompleted(run) || run.annotationsCount === 0) continue
    if (timeUp) {
      read.set(run.id, { ...run, annotationsUnread: 'time' })
      continue
    }
    try {
      read.set(run.id, { ...run, annotations: await source.annotations(run.id, ANNOTATIONS_SHOWN) })
    } catch (err) {
      timeUp = err instanceof TimeUpError
      if (!timeUp) {
        const name = JSON.stringify(publicText(run.name, 100))
        warn(`The annotations of the check run ${name} could not be read: ${messageOf(err)}`)
      }
      read.set(run.id, { ...run, annotationsUnread: timeUp ? 'time' : 'error' })
    }
  }
  return runs.map(run => read.get(run.id) ?? run)
}

/** The check runs and the preview as read and followed, with annotations: what the answer shows. */
export async function readChecks(
  o: FollowChecks,
  prNumber: number,
  url?: string
): Promise<ChecksReport> {
  const base = { mode: o.mode, prNumber, ...(url ? { url } : {}) }
  try {
    const { seen, timedOut } = await followChecks(o)
    const { read } = seen
    const runs = await withAnnotations(read.runs, o.source, o.warn)
    const preview =
      seen.preview && timedOut && seen.preview.state === 'pending'
        ? { ...seen.preview, timedOut }
        : seen.preview
    return {
      ...base,
      state: checksState(read),
      runs,
      ...(unreadRuns(read) > 0
        ? { total: read.total, ...(read.cut ? { cut: read.cut } : {}) }
        : {}),
      ...(timedOut ? { timedOut } : {}),
      ...(preview ? { preview } : {})
    }
  } catch (err) {
    // A refusal names the permission the call needs (github/permissions.ts): `checks: read`.
    const failure = failureOf(err)
    o.warn(`The check runs of #${prNumber} could not be read: ${inWords(failure)}`)
    return { ...base, state: 'none', runs: [], ...failure }
  }
}

/** The step's failure when `checks: require` fails it (contract: "The agent's checks"). */
export function checksFailure(c: ChecksReport, jobId: string): string {
  const of = `the check runs of pull request #${c.prNumber} (job ${jobId})`
  if (c.error !== undefined)
    return `\`checks\` is \`require\`, and ${of} could not be read: ${inWords(c)}`
  const why = c.cut === 'time' ? 'time ran out' : 'at most 1,000 are read'
  const named = (r: CheckRunSeen): string => JSON.stringify(publicText(r.name, 100))
  const failed = c.runs
    .filter(isFailing)
    .map(r => `${named(r)} (${publicText(r.conclusion ?? '', 40)})`)
  const running = c.runs.filter(r => !isCompleted(r)).map(named)
  const unread = unreadRuns(c)
  const parts = [
    failed.length > 0 ? `failed: ${failed.join(', ')}` : '',
    running.length > 0 ? `still running when the wait ended: ${running.join(', ')}` : '',
    unread > 0
      ? `${unread} of the ${c.total ?? 0} GitHub lists not read (${why}): a check not read is not taken as passed`
      : '',
    previewFails(c.preview) ? previewFailure(c.preview) : ''
  ].filter(Boolean)
  return `\`checks\` is \`require\`, and pull request #${c.prNumber} (job ${jobId}) did not pass: ${parts.join('; ')}.`
}

/** The preview's part of a `require` failure. */
function previewFailure(p: PreviewReport | undefined): string {
  if (!p) return ''
  if (p.error !== undefined) return `the preview could not be read: ${inWords(p)}`
  if (p.state === 'pending') return 'the preview was still building when the wait ended'
  const said = p.description ? `: ${JSON.stringify(publicText(p.description, 200))}` : ''
  return `the preview's build failed${said}${p.logUrl ? ` (log: ${p.logUrl})` : ''}`
}

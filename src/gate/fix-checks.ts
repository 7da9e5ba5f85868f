// `/docs-agent fix checks` on the agent's pull request (contract: "The agent's checks"): the
// failing check runs of its head commit (every run read: all pages) and their first failure
// annotations become the data block of a follow-up to its job; a warning or a notice is no failure
// and is not sent as one. Settled in the gate, before any service request: with no failing check
// (or none readable) the trigger is answered with a reply and nothing is sent. Names, paths and
// messages come from whoever runs a check and from the docs it checks: data, one line each.
import {
  isCompleted,
  isFailing,
  isFailureAnnotation,
  unreadRuns,
  type CheckAnnotation,
  type CheckRunSeen
} from '../report/job-checks.js'
import { CONTEXT_END, CONTEXT_START } from '../agent/prompt.js'
import { messageOf } from '../errors.js'
import { listAnnotations, listCheckRuns } from '../github/checks.js'
import type { Place } from '../github/comments.js'
import type { Octokit } from '../github/octokit.js'
import { pullRequestHead } from '../github/pulls.js'
import { publicText } from '../public-text.js'

/** Annotations sent in all, the failing runs' first failures in GitHub's order. */
export const FIX_ANNOTATIONS_SENT = 20
/** Annotations read of one failing run (one request): its failures are sent, not its warnings. */
const ANNOTATIONS_READ = 50

export type ChecksFix =
  /** The follow-up's instruction, the failures as data in it. */
  | { kind: 'checks'; prompt: string }
  /** Nothing sent: why, and the reply on the pull request. */
  | { kind: 'reply'; reason: string; body: string }

/** `fix checks [more words]`: the words after it, or undefined when the prompt is not that. */
export function parseFixChecks(prompt: string): { more: string } | undefined {
  const m = /^fix\s+checks(?=[\s:.,]|$)[:.,]?([\s\S]*)$/i.exec(prompt.trim())
  return m ? { more: (m[1] ?? '').trim() } : undefined
}

/** A failing run with the failure annotations sent, and how many of its failures were not. */
export interface Failure {
  run: CheckRunSeen
  annotations: CheckAnnotation[]
  /** Its annotations neither sent nor warnings (beyond what was read, or the cap). */
  notSent?: number
}

/** The check runs on the pull request's head: every run read, and how many were not. */
interface Failures {
  failures: Failure[]
  runs: CheckRunSeen[]
  unread: number
}

/** The failing check runs on the pull request's head and, within FIX_ANNOTATIONS_SENT, theirs. */
async function readFailures(octokit: Octokit, place: Place): Promise<Failures> {
  const pr = { owner: place.owner, repo: place.repo, number: place.issueNumber }
  const read = await listCheckRuns(octokit, pr, (await pullRequestHead(octokit, pr)).sha)
  const failures: Failure[] = []
  let left = FIX_ANNOTATIONS_SENT
  for (const run of read.runs.filter(isFailing)) {
    const listed =
      left > 0 && run.annotationsCount > 0
        ? await listAnnotations(octokit, pr, run.id, ANNOTATIONS_READ)
        : []
    const failing = listed.filter(isFailureAnnotation)
    const annotations = failing.slice(0, left)
    left -= annotations.length
    const warnings = listed.length - failing.length
    const notSent = Math.max(0, run.annotationsCount - warnings - annotations.length)
    failures.push({ run, annotations, ...(notSent > 0 ? { notSent } : {}) })
  }
  return { failures, runs: read.runs, unread: unreadRuns(read) }
}

const quoted = (text: string, max: number): string => JSON.stringify(publicText(text, max))

/** The instruction: what to do, the commenter's words, then the failures as data. */
export function checksFixPrompt(
  prNumber: number,
  failures: Failure[],
  more: string,
  unread = 0
): string {
  const lines = [CONTEXT_START, `Failing check runs on pull request #${prNumber}:`]
  for (const { run, annotations, notSent } of failures) {
    lines.push(`Check run: ${quoted(run.name, 100)} (${publicText(run.conclusion ?? '', 40)})`)
    for (const a of annotations) {
      const at = `${publicText(a.path, 200)}${a.line !== undefined ? `:${a.line}` : ''}`
      lines.push(`- ${at} ${quoted(a.message, 500)}`)
    }
    if (notSent) lines.push(`- and ${notSent} more annotations, not sent`)
  }
  if (unread > 0) lines.push(`${unread} more check runs were not read.`)
  lines.push(CONTEXT_END)
  const ask = 'Fix what the failing checks of this pull request report (their annotations below).'
  return [ask, more, lines.join('\n')].filter(Boolean).join('\n\n')
}

/**
 * `fix checks` on a pull request: the follow-up with its failures, or the reply that nothing is
 * sent. Undefined when the words are an ordinary instruction (or there is no GitHub to ask).
 */
export async function fixChecks(
  octokit: Octokit | undefined,
  place: Place | undefined,
  isPullRequest: boolean,
  prompt: string
): Promise<ChecksFix | undefined> {
  const asked = parseFixChecks(prompt)
  if (!asked || !octokit || !place) return undefined
  const n = place.issueNumber
  if (!isPullRequest)
    return reply('not a pull request', '`fix checks` works on a pull request; nothing was sent.')
  let read: Awaited<ReturnType<typeof readFailures>>
  try {
    read = await readFailures(octokit, place)
  } catch (err) {
    const why = `The check runs of #${n} could not be read (${messageOf(err)}); nothing was sent.`
    return reply('the check runs could not be read', publicText(why, 600))
  }
  if (read.failures.length === 0) {
    const running = read.runs.filter(r => !isCompleted(r)).length
    const still = [
      running > 0 ? `${running} still running` : '',
      read.unread > 0 ? `${read.unread} of ${read.runs.length + read.unread} not read` : ''
    ].filter(Boolean)
    const which = read.unread > 0 ? 'No check run read' : 'No check run'
    const notes = still.length > 0 ? ` (${still.join(', ')})` : ''
    const body = `${which} on #${n} has failed${notes}, so nothing was sent to the job.`
    return reply('no failing check run', body)
  }
  return { kind: 'checks', prompt: checksFixPrompt(n, read.failures, asked.more, read.unread) }
}

const reply = (reason: string, body: string): ChecksFix => ({ kind: 'reply', reason, body })

// What the report about one agent job is drawn from (job.ts draws it; job-ending.ts says how the
// run ended and what to do next; job-changes.ts shows what the pull request changes), and the one
// value that says how the run ended (agent/ending.ts decides it; the log, the comment and the
// summary only word it). The value lives here, the floor below its readers.
import type { RunCause } from '../errors.js'
import type { Delivery } from '../service/errors.js'
import type { AgentJob } from '../service/schema.js'
import type { ChecksReport } from './job-checks.js'
import { clip, escapeText } from './markdown.js'

/** Where the run is: what a cancellation or an error can truthfully say about the instruction. */
export type Stage = 'preparing' | 'sending' | 'waiting'

/** An error, for the log (its whole message) and for a comment's reader (words and advice apart). */
export interface Cause {
  /** The whole message, with the request: for the log and the step's failure message. */
  message: string
  /**
   * The service's or GitHub's words (a status and what it said, never the request's path).
   * Already redacted, untrusted: escaped where shown.
   */
  said?: string
  /** The action's own advice (Markdown: inputs as code), shown after `said`. */
  advice?: string
  /**
   * The cause, when the run knows it (causes.ts): who fixes it, and whether a re-run can help;
   * the answer, the summary and the code pull request's comment word it.
   */
  known?: RunCause
}

/** What a job that reached a final status came to. */
export type JobOutcome = 'pull-request' | 'no-pull-request' | 'failed' | 'archived' | 'other'

/** How a job run ended: decided once, worded in the log, the comment and the summary. */
export type JobEnding =
  /** `wait: false`: the service has the instruction; the run did not follow the job. */
  | { kind: 'not-waited' }
  /** The job reached a final status; `failsBy` names the input that makes it fail the step. */
  | {
      kind: 'finished'
      outcome: JobOutcome
      status: string
      failsBy?: 'fail-on-status' | 'require-pr' | 'checks'
      /** `checks` on: the check runs of the pull request it opened or updated. */
      checks?: ChecksReport
    }
  /**
   * The wait ran out after `waitedMs`. `doubted`: the job still showed its state from before the
   * instruction; `lastPoll`: why the last poll failed, when it did.
   */
  | { kind: 'timed-out'; waitedMs: number; status?: string; doubted: boolean; lastPoll?: Cause }
  /** The runner cancelled the run at `stage`; `delivered` follows from it. */
  | { kind: 'cancelled'; signal: NodeJS.Signals; stage: Stage; delivered: Delivery }
  /** An error stopped the run at `stage`. */
  | { kind: 'stopped'; stage: Stage; delivered: Delivery; cause: Cause }
  /**
   * No job to follow up: nothing was sent (`message` says why). `elsewhere`: this pull request's
   * job is recorded on the pull request the agent opened, where replies go.
   */
  | { kind: 'no-job'; message: string; elsewhere?: Elsewhere }

/** A pull request the agent opened, perhaps in another repository (`owner/repo`). */
export interface Elsewhere {
  number: number
  url: string
  repo?: string
}

export interface ChangedFile {
  path: string
  additions: number
  deletions: number
  /** The name held a secret (in a form redaction knows): `path` is empty, nothing is shown. */
  withheld?: true
}

/** What a pull request changes, from GitHub's list of its files. */
export interface PullRequestChanges {
  /** The first ones, in GitHub's order. */
  files: ChangedFile[]
  /** Files changed in all. */
  count: number
  additions: number
  deletions: number
  /** The pull request's files view on GitHub, linked from the count. */
  filesUrl?: string
  /**
   * Counted over all of the pull request's commits, not only the job's: GitHub does not show it
   * opened after the job (a person's pull request the job pushed to, or one it cannot tell).
   */
  ofThePullRequest?: true
}

export interface JobReport {
  command: 'message' | 'create'
  projectId: string
  /** Undefined while a create has not been answered. */
  jobId?: string
  /** How the run ended; undefined while it waits (the live comment). */
  ending?: JobEnding
  /** The last job object seen; its status may be one the service added later. */
  job?: AgentJob
  /** The exact prompt sent (shown collapsed). */
  prompt?: string
  /** ms epoch the run started. */
  startedAt: number
  /** ms epoch the run ended, on endings. */
  endedAt?: number
  runUrl?: string
  trigger?: string
  /** The instruction came from a trigger comment: another comment is a way to try again. */
  fromComment?: boolean
  /** The code pull request a dispatch names: the docs pull request's record links it. */
  codeChange?: CodeChange
  /** Who wrote the trigger comment or review (their login). */
  askedBy?: string
  /** What started this run, as the gate's asker names it: said as its cause where no one asked. */
  cause?: AskedWords
  /** The pull request or issue the run answers on, as a reader names it. */
  askedOn?: { number: number; url: string; pullRequest: boolean }
  /** This comment routes replies with the trigger to the job. */
  routedHere?: boolean
  /**
   * The thread already says how to reply to this job (its route record, or an earlier answer):
   * the hint is not repeated.
   */
  hintGiven?: boolean
  /** When prLink is a pull request of this repository. */
  prNumber?: number
  /**
   * The pull request the job links was there before this instruction (a follow-up that updated
   * it): "Updated #N", not "Opened #N".
   */
  prUpdated?: boolean
  /** What the job's pull request changes, when GitHub listed its files. */
  changes?: PullRequestChanges
  /** Requests this run sent to the service. */
  requests?: number
  /** The pull request of this repository where the route record sends replies to this job. */
  routedTo?: number
  /** A re-run that follows the job an earlier attempt delivered the instruction to. */
  rerun?: boolean
  /**
   * The run's comment records that the service has the instruction: a re-run of the workflow
   * follows the same job and sends nothing twice.
   */
  rerunFollows?: boolean
  /**
   * This body is on the agent's own pull request (`prNumber`): the route record, or the answer
   * to a trigger there. It speaks of "this pull request", and the record links back to where the
   * job was asked for.
   */
  onItsPullRequest?: { askedIn?: { number: number; url: string } }
  /** The host of this GitHub (`GITHUB_SERVER_URL`); `github.com` when not given. */
  githubHost?: string
  /**
   * The run would have started a job, and the instruction went to the job of this open agent
   * pull request instead (`when-agent-pr-open: follow-up`): the pull request grew.
   */
  /** The open agent pull request this run grew; `explained`: this thread was told why before. */
  grew?: { number: number; url: string; explained?: boolean }
  /** `/docs-agent fix N [M …]`: the report's suggestions asked for (subjects: public text). */
  fixes?: { n: number; id: string; subject: string }[]
  /**
   * On the agent's pull request, every instruction it grew from, oldest first (clipped), when
   * there is more than one.
   */
  instructions?: { n: number; text: string; asked?: AskedWords }[]
}

/**
 * Where the body is read: a comment (on the pull request or issue, for reviewers) or the job
 * summary (on the run's page, for maintainers: no link to that page, nothing to reply to).
 */
export type JobReportPlace = 'comment' | 'summary'

const VALUE_MAX_CHARS = 300

/** Whatever the service says, as a string: a status added later is shown as it is. */
export function statusOf(r: JobReport): string | undefined {
  const status: unknown = r.job?.status
  return typeof status === 'string' && status !== '' ? status : undefined
}

/** Whether the service has the instruction, where the ending says (undefined: it does). */
export function deliveredIn(e: JobEnding | undefined): Delivery | undefined {
  if (e?.kind === 'cancelled' || e?.kind === 'stopped') return e.delivered
  return e?.kind === 'no-job' ? 'no' : undefined
}

/** A value from the service, escaped and clipped; a dash when there is none. */
export function value(text: string | undefined): string {
  return text ? escapeText(clip(text, VALUE_MAX_CHARS)) : '–'
}

export function isText(s: string | undefined): s is string {
  return s !== undefined && s !== ''
}

/** A code pull request of this GitHub, as a dispatch names it (its title and body: untrusted). */
export interface CodeChange {
  /** `owner/repo#N`. */
  label: string
  url: string
  title?: string
  body?: string
}

/**
 * How a run was asked for (gate/asker.ts names it for every kind of start): a trigger comment, a
 * review's body, `trigger-label`, a merged pull request, a `repository_dispatch`, a
 * `workflow_dispatch` (by hand), a `schedule`, or any other event.
 */
export type AskedHow =
  'comment' | 'review' | 'label' | 'merge' | 'dispatch' | 'workflow_dispatch' | 'schedule' | 'event'

/**
 * Who asked for an instruction (a login), where (a URL) and when (ms), and the rest of its cause
 * as the gate's asker names it: how, the title of the pull request it names (a merge's, a
 * dispatch's), the label, a pull request a dispatch named that may not be linked (`owner/repo#N`).
 * Titles and labels are public text. Records older than the cause have `who`, `where`, `when`.
 */
export interface AskedWords {
  who?: string
  where?: string
  when: number
  how?: AskedHow
  title?: string
  label?: string
  unlinked?: string
}

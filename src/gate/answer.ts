// The gate's answer, in its two shapes: a Skip (the run stops before anything is sent, and says
// why: a notice, a reply, a reaction, a summary, its outputs), published by main through one path
// whichever phase of the gate decided it; or a Go, which every command takes as it is and never
// derives again: who asked (the Asker), where the run comments, the comment policy and the GitHub
// clients.
import type { Deadline } from '../deadline.js'
import type { Place } from '../github/comments.js'
import type { EventInfo, TriggerComment } from '../github/event.js'
import type { JsonObject } from '../json.js'
import type { Octokit } from '../github/octokit.js'
import type { ReactionContent } from '../github/trigger.js'
import type { Records } from '../records/records.js'
import type { ServiceClient } from '../service/client.js'
import type { JobSettings } from '../settings/settings.js'
import type { Asker } from './asker.js'

/** A run not carried out: nothing is sent to the service, `skipped` is `true`, exit 0. */
export interface Skip {
  /** For the log line "Skipped: …". */
  reason: string
  notice?: string
  /** A run not carried out because a check could not be made (it fails closed). */
  warning?: string
  /** Said on the pull request or issue the trigger is on. */
  reply?: Reply
  /** On the trigger comment. */
  reaction?: { comment: TriggerComment; content: ReactionContent }
  /** The job summary, where the run's page would otherwise show nothing. */
  summary?: string
  /** Outputs besides `skipped` that the skip knows (the job a cause went to already). */
  outputs?: ReadonlyMap<string, string>
  /** The trigger label to take off (added by someone who may not ask): adding it again asks again. */
  label?: { name: string; place: Place }
}

/** A reply where the trigger was written. */
export interface Reply {
  place: Place
  body: string
  /**
   * The run's own answer to its trigger (its record's key): written as the run's comment is,
   * signed, so that a re-run edits it as `comment-mode` says. Without it, a plain new comment.
   */
  answer?: { key: string; mode: CommentPolicy['mode'] }
}

/** What the run may write on GitHub: decided once, from `comment`, `comment-mode` and the event. */
export interface CommentPolicy {
  /** `comment` is not `false`: the run writes its answer, the records beside it, its reactions. */
  writes: boolean
  /**
   * `comment-mode`: a re-run edits the comment for its key (`upsert`), adds one (`create`), or adds
   * one and hides the previous one of its series as outdated (`minimize`).
   */
  mode: 'upsert' | 'create' | 'minimize'
}

/** The gate's answer for a run that goes ahead: what every command takes, as it is. */
export interface Go {
  /** Who asked for the run, where and how: every kind of start has one. */
  asker: Asker
  /** Where the run comments (absent: nowhere). */
  target?: Place
  commenting: CommentPolicy
  /**
   * Present when there is a token and the run reads GitHub: it comments, answers a trigger, or
   * runs a job (whatever `comment` says: the agent's own pull request is recorded).
   */
  octokit?: Octokit
  /** What the action trusts on GitHub: present with `octokit`. */
  records?: Records
  /** A client with `notify-token`, for the code pull request of a dispatch. */
  notifyOctokit?: Octokit
  /** The records read and written with `notify-token`: present with `notifyOctokit`. */
  notifyRecords?: Records
}

/** For the log: what the run will not do, and why. */
export interface Note {
  level: 'info' | 'notice' | 'warning'
  text: string
}

/** The gate's answer, and what the log says first either way. */
export type Decision = { notes: Note[] } & (
  { skip: Skip; octokit?: Octokit } | { skip?: undefined; go: Go }
)

/**
 * What the gate's last phase reads, once the settings are read and the service's client made:
 * the answer so far, and the run (a job run's: the command's context has all of it).
 */
export interface SendingContext extends Go {
  settings: JobSettings
  event: EventInfo
  payload: JsonObject
  service: ServiceClient
  deadline: Deadline
  runUrl: string
  /** The workflow run, its attempt, job and step, when the runner set them. */
  run?: { id: string; attempt: number; job: string; step: string }
  serverUrl: string
}

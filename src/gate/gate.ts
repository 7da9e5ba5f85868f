// Whether this run is carried out, and how, decided once before any request of the command: the
// trigger and who wrote it, runs GitHub gives no secrets (forks, Dependabot), an instruction that
// is empty or holds a secret, and a merge of the docs agent's own pull request. A run that is not
// carried out is a Skip: what to say (a notice, a reply, a reaction), published by main. A run
// that is goes on with the gate's answer (Go): the trigger, where the run comments, the comment
// policy and the GitHub clients, which the commands take as they are and never derive again.
import { asObject } from '../json.js'
import type { Place } from '../github/comments.js'
import { TRIGGER_EVENTS, type EventInfo, type TriggerComment } from '../github/event.js'
import type { Octokit } from '../github/octokit.js'
import { parseFix, resolveFix, type FixRequest, type FixResolution } from '../records/fix.js'
import { openedBy } from '../records/job.js'
import { Records } from '../records/records.js'
import { recordSecret } from '../records/rollup.js'
import {
  checkComment,
  checkCommenter,
  triggerNoun,
  type ReactionContent
} from '../github/trigger.js'
import { renderOwnMergeSummary } from '../report/own-merge.js'
import { placeNoun } from '../report/place.js'
import { redact } from '../secrets/redact.js'
import { messageOf, InputError } from '../errors.js'
import {
  isJobSettings,
  readGateInputs,
  readTriggerSettings,
  runnerInput,
  type GateInputs,
  type JobSettings,
  type Settings,
  type TriggerSettings
} from '../settings/settings.js'
import { type GetInput } from '../settings/parse.js'
import { fixChecks } from './fix-checks.js'
import { admitLabel, labelTarget, type AcceptedLabel } from './label.js'

export const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', ...TRIGGER_EVENTS]

/** A run not carried out: nothing is sent to the service, `skipped` is `true`, exit 0. */
export interface Skip {
  /** For the log line "Skipped: …". */
  reason: string
  notice?: string
  /** A run not carried out because a check could not be made (it fails closed). */
  warning?: string
  /** Said on the pull request or issue the trigger comment is on. */
  reply?: { place: Place; body: string }
  /** On the trigger comment. */
  reaction?: { comment: TriggerComment; content: ReactionContent }
  /** The job summary, where the run's page would otherwise show nothing. */
  summary?: string
}

/** A trigger comment whose writer may run the agent. */
export interface AcceptedTrigger {
  comment: TriggerComment
  prompt: string
  /** Who wrote it and why they may, for the log. */
  why: string
  /** `fix N [M …]` on an issue with a report: `prompt` holds those suggestions' instructions. */
  fixes?: FixRequest[]
}

/** Let through before the settings: the trigger comment, when the run answers one. */
export interface Admitted {
  trigger?: AcceptedTrigger
  /** The trigger inputs, read once (a comment event only). */
  rules?: TriggerSettings
  /** The trigger comment may get reactions (there is a token, and `comment` is not `false`). */
  reacts?: boolean
  octokit?: Octokit
  /** The label that asked for this run (`trigger-label`), when one did. */
  label?: AcceptedLabel
}

export type Admission = { skip: Skip; octokit?: Octokit } | ({ skip?: undefined } & Admitted)

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
  /** The trigger comment the run answers (absent: no comment asked for this run). */
  trigger?: AcceptedTrigger
  /** The label that asked for this run (`trigger-label`): it answers on the labelled item. */
  label?: AcceptedLabel
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
}

/** For the log: what the run will not do, and why. */
export interface Note {
  level: 'info' | 'notice'
  text: string
}

/** The gate's answer, and what the log says first either way. */
export type Decision = { notes: Note[] } & (
  { skip: Skip; octokit?: Octokit } | { skip?: undefined; go: Go }
)

/**
 * The run's GitHub clients, built here and nowhere else: one per token (each call within the
 * run's time, through the proxy), and one Records per client and key (every thread listed once
 * per run, for the gate and the command alike).
 */
export class GitHubClients {
  private readonly made = new Map<string, Octokit>()
  private trusted?: Records

  constructor(
    private readonly make: (token: string) => Octokit,
    /** The run's clock (its Deadline). */
    private readonly clock: { now(): number }
  ) {}

  client(token: string): Octokit {
    let octokit = this.made.get(token)
    if (!octokit) {
      octokit = this.make(token)
      this.made.set(token, octokit)
    }
    return octokit
  }

  records(octokit: Octokit, secret: string): Records {
    if (this.trusted?.octokit !== octokit || this.trusted.secret !== secret)
      this.trusted = new Records(octokit, secret, this.clock)
    return this.trusted
  }
}

export interface GateContext {
  event: EventInfo
  env: NodeJS.ProcessEnv
  clients: GitHubClients
  get?: GetInput
  /** The run's clock (its Deadline), for the dates a reply names. */
  clock: { now(): number }
}

/**
 * The checks that come before the settings, in the contract's order: a comment event's trigger
 * and writer come before every other input, so a comment that is not for this action never
 * fails on a setting it does not use; then whether GitHub gave this run its secrets; then the
 * instruction a trigger gives. A misconfigured trigger input throws an InputError.
 */
export async function admit(c: GateContext): Promise<Admission> {
  const gate = readGateInputs(c.get ?? runnerInput)
  if (!TRIGGER_EVENTS.includes(c.event.eventName)) {
    const labelled = await admitLabel(c.event, gate.triggerLabel, c.get ?? runnerInput, c.clients)
    if (labelled?.skip) return labelled
    // GitHub gives a fork's pull-request runs, and Dependabot's runs, no secrets: an empty key
    // there is no misconfiguration to fail on.
    const withheld = withheldSecretsWhy(c.event, c.env)
    if (!withheld || gate.hasApiKey || gate.keyless) return labelled ?? {}
    const notice = `This run has no \`api-key\`: ${withheld}. Nothing was sent to the service.`
    return { skip: { reason: `no \`api-key\`: ${withheld}`, notice }, octokit: labelled?.octokit }
  }
  const checked = checkComment(c.event.comment, gate.triggerWord)
  // Most comments are not for us: settled without a request or any other input.
  if ('reason' in checked || c.event.comment === undefined)
    return {
      skip: { reason: 'reason' in checked ? checked.reason : 'the event carries no comment' }
    }
  return admitTrigger(c, gate, c.event.comment, checked.prompt)
}

/** A trigger comment: who wrote it, the key GitHub gave the run, the instruction it gives. */
async function admitTrigger(
  c: GateContext,
  gate: GateInputs,
  comment: TriggerComment,
  prompt: string
): Promise<Admission> {
  // A misconfigured trigger input now fails the step, naming the input.
  const rules = readTriggerSettings(c.get ?? runnerInput)
  const octokit = rules.githubToken === '' ? undefined : c.clients.client(rules.githubToken)
  const reacts = octokit !== undefined && writes(rules.comment)
  const who = await checkCommenter(octokit, c.event, comment, rules)
  if (!who.allowed) {
    const notice = `Ignored the trigger ${triggerNoun(comment)}: ${who.reason}.`
    const reaction = reacts ? { reaction: { comment, content: '-1' as const } } : {}
    return { skip: { reason: who.reason, notice, ...reaction }, octokit }
  }
  if (!gate.hasApiKey) return { skip: noKeyForTrigger(c.event, comment, who.why), octokit }
  const refusal = refuseInstruction(prompt, gate.hasPrompt, rules.trigger, c.event, comment)
  if (refusal !== undefined) return { skip: answered(c.event, comment, reacts, refusal), octokit }
  const fix =
    (await fixChecks(octokit, placeOf(c.event), c.event.isPullRequest, prompt)) ??
    (await fixTrigger(c, prompt, gate, rules.trigger, octokit))
  if (fix?.kind === 'reply') return { skip: answered(c.event, comment, reacts, fix), octokit }
  if (fix?.kind === 'no-such-suggestion' || fix?.kind === 'unreadable') {
    const reason =
      fix.kind === 'unreadable'
        ? "the report's records cannot be read with this key"
        : 'no such suggestion in the newest report'
    return { skip: answered(c.event, comment, reacts, { reason, body: fix.reply }), octokit }
  }
  const accepted =
    fix?.kind === 'fix'
      ? { prompt: fix.prompt, fixes: fix.fixes }
      : { prompt: fix?.kind === 'checks' ? fix.prompt : prompt }
  return { trigger: { comment, ...accepted, why: who.why }, rules, reacts, octokit }
}

/** A trigger not carried out, answered where it was written (a reply and 😕) when it may be. */
function answered(
  event: EventInfo,
  comment: TriggerComment,
  reacts: boolean,
  r: { reason: string; body: string }
): Skip {
  const place = placeOf(event)
  const answer = reacts && place !== undefined
  return {
    reason: r.reason,
    notice: r.body.replace(/\n+/g, ' '),
    ...(answer ? { reply: { place, body: r.body } } : {}),
    ...(answer ? { reaction: { comment, content: 'confused' as const } } : {})
  }
}

/**
 * The rest of the gate, once the settings are read and before any request of the command: the
 * comment policy and where the run comments, the GitHub clients, and whether a merge is the
 * agent's own. A `comment: true` with nowhere to comment throws an InputError.
 */
export async function decide(
  c: GateContext,
  admitted: Admitted,
  s: Settings,
  payload: Record<string, unknown>
): Promise<Decision> {
  const commenting = commentPolicy(s)
  const target = labelTarget(admitted.label, s, commenting) ?? commentTarget(s, c.event, commenting)
  // A job run asks GitHub whatever `comment` says: whether a merge is the agent's own, and the
  // record that its job opened a pull request.
  const reads = commenting.writes || admitted.trigger !== undefined || isJobSettings(s)
  const octokit = reads && s.githubToken !== '' ? c.clients.client(s.githubToken) : undefined
  const records = octokit ? c.clients.records(octokit, recordSecret(s)) : undefined
  const notes = notesOf(s, target, octokit)
  if (isJobSettings(s)) {
    const own = await ownMergeSkip(c.event, payload, s, records)
    if (own) return { skip: own, octokit, notes }
  }
  const go: Go = {
    ...(admitted.trigger ? { trigger: admitted.trigger } : {}),
    ...(admitted.label ? { label: admitted.label } : {}),
    ...(target ? { target } : {}),
    commenting,
    ...(octokit ? { octokit } : {}),
    ...(records ? { records } : {}),
    ...(s.notifyToken ? { notifyOctokit: c.clients.client(s.notifyToken) } : {})
  }
  return { go, notes }
}

/** `comment: false`: nothing is written on GitHub (no answer, no reply, no reaction). */
const writes = (comment: TriggerSettings['comment']): boolean => comment !== 'false'

/** The comment policy: the one reading of `comment` and `comment-mode`. */
function commentPolicy(s: Settings): CommentPolicy {
  return { writes: writes(s.comment), mode: s.commentMode }
}

/** What the log says of where the run comments, when it will not. */
function notesOf(s: Settings, target: Place | undefined, octokit: Octokit | undefined): Note[] {
  if (target && !octokit)
    return [{ level: 'info', text: '`github-token` is empty, so no comment is written.' }]
  if (target || s.command === 'check' || isJobSettings(s) || s.comment !== 'auto') return []
  const text =
    'This run belongs to no pull request or issue, so the report is in its job summary only. ' +
    'Set `issue-number` (e.g. a tracking issue) to post it as a comment.'
  return [{ level: 'notice', text }]
}

/**
 * `fix N [more words]` on a thread that holds a report of this project: suggestion N's signed
 * instruction, or the reply that there is no such suggestion. Undefined when the words are an
 * ordinary instruction (not `fix N`, or no report here to take N from).
 */
async function fixTrigger(
  c: GateContext,
  prompt: string,
  gate: GateInputs,
  trigger: string,
  octokit: Octokit | undefined
): Promise<FixResolution | undefined> {
  const asked = parseFix(prompt)
  const place = placeOf(c.event)
  if (!asked || !octokit || !place || gate.projectId === '') return undefined
  const thread = c.clients.records(octokit, gate.apiKey).thread(place)
  const o = { projectId: gate.projectId, trigger, now: c.clock.now() }
  const found = await resolveFix(thread, o, asked)
  return found.kind === 'not-a-report' ? undefined : found
}

/**
 * A job on the merge of the docs agent's own pull request is skipped: it would start another
 * job, and another after that one merges. The check runs whatever `comment` says, and fails
 * closed: when GitHub cannot answer it (or there is no token to ask with), nothing is started
 * either, and a warning says how to run it by hand.
 */
async function ownMergeSkip(
  event: EventInfo,
  payload: Record<string, unknown>,
  settings: JobSettings,
  records: Records | undefined
): Promise<Skip | undefined> {
  const pr = asObject(payload.pull_request)
  const merged = payload.action === 'closed' && pr?.merged === true
  const place = placeOf(event)
  if (!merged || !place || event.owner === '') return undefined
  /** The job the `opened` record names; undefined: the pull request is not the agent's own. */
  let jobId: string | undefined
  try {
    if (!records) throw new Error('`github-token` is empty, so GitHub cannot be asked')
    jobId = (await openedBy(records.thread(place), settings.projectId))?.job
  } catch (err) {
    const why = messageOf(err)
    return {
      reason: `could not check whether #${place.issueNumber} is the agent's own`,
      warning:
        `Could not check whether the merged pull request #${place.issueNumber} is the docs ` +
        `agent's own work (${why}), so no job was started: if it were, merging it would start ` +
        'another. If it is not, run this workflow again once GitHub answers (re-run the job), or ' +
        'start the job by hand from a `workflow_dispatch` run with the same inputs.'
    }
  }
  if (jobId === undefined) return undefined
  return {
    reason: "the merged pull request is the docs agent's own",
    notice:
      "This merged pull request is the docs agent's own work (it carries this action's signed " +
      'record that a job opened it), so no new job is started: merging it would otherwise start ' +
      'another.',
    ...(settings.summary
      ? {
          summary: renderOwnMergeSummary({
            number: place.issueNumber,
            ...(typeof pr?.html_url === 'string' ? { url: pr.html_url } : {}),
            projectId: settings.projectId,
            jobId
          })
        }
      : {})
  }
}

function placeOf(event: EventInfo): Place | undefined {
  if (event.issueNumber === undefined) return undefined
  return { owner: event.owner, repo: event.repo, issueNumber: event.issueNumber }
}

function noKeyForTrigger(event: EventInfo, comment: TriggerComment, why: string): Skip {
  const runs = comment.kind === 'review' ? 'review' : 'review-comment'
  const reason = event.forkRepository
    ? `this pull request comes from the fork ${event.forkRepository}, and GitHub gives its ` +
      `${runs} runs no secrets. Write the instruction as a comment in the pull request's ` +
      'conversation instead: those runs get them'
    : 'a pull request from a fork or a run triggered by Dependabot gets no secrets, or the ' +
      'secret is not set'
  const noun = triggerNoun(comment)
  return {
    reason: 'no `api-key` in this run (a fork gets no secrets)',
    notice: `The trigger ${noun} is allowed (${why}), but this run has no \`api-key\`: ${reason}.`
  }
}

/** A submitted review cannot be deleted, only edited. */
const secretReply = (noun: 'comment' | 'review'): string =>
  `This ${noun} holds a secret (the API key or the GitHub token), so nothing was sent to the ` +
  `docs agent. ${noun === 'review' ? 'Edit the review to remove it' : 'Delete the comment'}, ` +
  'rotate the secret, and write the instruction without it.'

/** Nothing to send, or a secret in what would be sent: said where the commenter looks. */
function refuseInstruction(
  prompt: string,
  hasPrompt: boolean,
  trigger: string,
  event: EventInfo,
  comment: TriggerComment
): { reason: string; body: string } | undefined {
  if (prompt === '' && !hasPrompt) {
    const where = placeNoun(event.isPullRequest)
    const body =
      `There is no instruction after \`${trigger}\`, so nothing was sent to the docs agent. ` +
      `Write what the agent should do after it, in a new comment on this ${where}, e.g.\n\n` +
      `\`${trigger} Add a FAQ entry about rate limits\``
    return { reason: 'no instruction', body }
  }
  if (redact(prompt) !== prompt)
    return {
      reason: `the ${triggerNoun(comment)} holds a secret`,
      body: secretReply(triggerNoun(comment))
    }
  return undefined
}

/** Why GitHub gave this run no secrets, when it is a run GitHub gives none. */
function withheldSecretsWhy(event: EventInfo, env: NodeJS.ProcessEnv): string | undefined {
  if (!PULL_REQUEST_EVENTS.includes(event.eventName) || TRIGGER_EVENTS.includes(event.eventName))
    return undefined
  if (event.forkRepository)
    return `the pull request comes from the fork ${event.forkRepository}, and GitHub gives such runs no secrets`
  if (env.GITHUB_ACTOR === 'dependabot[bot]')
    return 'the run was started by Dependabot, and GitHub gives its runs no secrets (only Dependabot secrets)'
  return undefined
}

/** Where `comment` says to comment; `true` without a place is an input error. */
function commentTarget(s: Settings, event: EventInfo, policy: CommentPolicy): Place | undefined {
  if (!policy.writes) return undefined
  const fromEvent = PULL_REQUEST_EVENTS.includes(event.eventName) ? event.issueNumber : undefined
  const issueNumber = s.issueNumber ?? fromEvent
  if (issueNumber === undefined || event.owner === '' || event.repo === '') {
    if (s.comment === 'true')
      throw new InputError(
        'comment',
        'is `true`, but this run has no pull request or issue: set `issue-number`, or run on a pull_request or issue_comment event'
      )
    return undefined
  }
  return { owner: event.owner, repo: event.repo, issueNumber }
}

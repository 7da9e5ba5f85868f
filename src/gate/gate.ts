// Whether this run is carried out, and how, decided once before any request of the command, in
// phases: admit() before the settings (the trigger and who wrote it, the label, runs GitHub gives
// no secrets), decide() once they are read (where the run comments, the comment policy, the
// GitHub clients, the agent's own merge), and for a job run beforeSending() once the service's
// client is made (a cause sent already: sent-already.ts; where a reply goes: route.ts). A run not
// carried out is a Skip, published by main through one path; a run that is goes on with the
// gate's answer (Go), whose Asker says who asked, where and how, whatever the kind of start.
import type { Place } from '../github/comments.js'
import { TRIGGER_EVENTS, type EventInfo } from '../github/event.js'
import { recordSecret } from '../records/rollup.js'
import { InputError } from '../errors.js'
import {
  isJobSettings,
  readGateInputs,
  runnerInput,
  type Settings,
  type TriggerSettings
} from '../settings/settings.js'
import type { Octokit } from '../github/octokit.js'
import type { CommentPolicy, Decision, Go, Note, SendingContext, Skip } from './answer.js'
import { eventAsker, type Asker } from './asker.js'
import type { GateContext } from './clients.js'
import { admitTrigger, writes } from './comment.js'
import { admitLabel, labelTarget } from './label.js'
import { ownMergeSkip } from './own-merge.js'
import { replyRoute, type Route } from './route.js'
import { sentAlreadySkip } from './sent-already.js'
import { checkComment } from './trigger-words.js'

export const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', ...TRIGGER_EVENTS]

/** Let through before the settings: who asked, and for a trigger what it may do. */
export interface Admitted {
  asker: Asker
  /** The trigger inputs, read once (a comment or label trigger only). */
  rules?: TriggerSettings
  /** The trigger comment may get reactions (there is a token, and `comment` is not `false`). */
  reacts?: boolean
  octokit?: Octokit
}

export type Admission = { skip: Skip; octokit?: Octokit } | ({ skip?: undefined } & Admitted)

/**
 * The checks that come before the settings, in the contract's order: a comment event's trigger
 * and writer come before every other input, so a comment that is not for this action never
 * fails on a setting it does not use; then whether GitHub gave this run its secrets; then the
 * instruction a trigger gives. A misconfigured trigger input throws an InputError.
 */
export async function admit(c: GateContext): Promise<Admission> {
  const get = c.get ?? runnerInput
  const gate = readGateInputs(get)
  if (!TRIGGER_EVENTS.includes(c.event.eventName)) {
    const labelled = await admitLabel(c.event, gate.triggerLabel, get, c.clients, c.serverUrl)
    if (labelled?.skip) return labelled
    // GitHub gives a fork's pull-request runs, and Dependabot's runs, no secrets: an empty key
    // there is no misconfiguration to fail on.
    const withheld = withheldSecretsWhy(c.event, c.env)
    if (!withheld || gate.hasApiKey || gate.keyless) {
      if (labelled) return labelled
      const within = [`${c.event.owner}/${c.event.repo}`, gate.notifyRepository]
      const actor = c.env.GITHUB_ACTOR ?? ''
      return { asker: eventAsker(c.event, c.payload, actor, c.serverUrl, within) }
    }
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

/**
 * The rest of the gate, once the settings are read and before any request of the command: the
 * comment policy and where the run comments, the GitHub clients, and whether a merge is the
 * agent's own. A `comment: true` with nowhere to comment throws an InputError.
 */
export async function decide(c: GateContext, admitted: Admitted, s: Settings): Promise<Decision> {
  const { asker } = admitted
  const commenting = commentPolicy(s)
  const target = labelTarget(asker, s, commenting) ?? commentTarget(s, c.event, commenting)
  // A job run asks GitHub whatever `comment` says: whether a merge is the agent's own, and the
  // record that its job opened a pull request.
  const reads = commenting.writes || asker.comment !== undefined || isJobSettings(s)
  const octokit = reads && s.githubToken !== '' ? c.clients.client(s.githubToken) : undefined
  const records = octokit ? c.clients.records(octokit, recordSecret(s)) : undefined
  const notes = [...notesOf(s, target, octokit), ...unlinkedNote(asker, s)]
  if (isJobSettings(s)) {
    const own = await ownMergeSkip(asker, c.payload, s, records)
    if (own) return { skip: own, octokit, notes }
  }
  const notifyOctokit = s.notifyToken ? c.clients.client(s.notifyToken, 'notify-token') : undefined
  const go: Go = {
    asker,
    ...(target ? { target } : {}),
    commenting,
    ...(octokit ? { octokit } : {}),
    ...(records ? { records } : {}),
    ...(notifyOctokit
      ? { notifyOctokit, notifyRecords: c.clients.records(notifyOctokit, recordSecret(s)) }
      : {})
  }
  return { go, notes }
}

/**
 * The gate's last phase, for a job run once its service client is made and before anything is
 * sent: whether another run sent the instruction for this cause already, then where an
 * instruction with no `job-id` goes (or that it was written where no job takes it). Either
 * stops the run as every skip does; otherwise the route, when there is one to take.
 */
export async function beforeSending(
  c: SendingContext
): Promise<{ skip: Skip } | { skip?: undefined; route?: Route }> {
  const sent = await sentAlreadySkip(c)
  return sent ? { skip: sent } : replyRoute(c)
}

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
 * A job run whose dispatch names a pull request outside `notify-repository` and this repository:
 * said once, here (the code pull request's notice does not repeat it).
 */
function unlinkedNote(asker: Asker, s: Settings): Note[] {
  if (!asker.unlinked || !isJobSettings(s)) return []
  const bound = s.notifyRepository
    ? `outside \`notify-repository\` (${s.notifyRepository}) and this repository`
    : 'outside this repository (and no `notify-repository` is set)'
  const told = s.notifyToken ? ' Nothing with `notify-token` goes there, and it' : ' It'
  const text =
    `The dispatch payload names the pull request ${asker.unlinked.label}, ${bound}.${told} is shown ` +
    'as text, never linked: a link would put a reference to this run in that pull request.'
  return [{ level: 'warning', text }]
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

// The report about one agent job: the live comment while the run waits, and the same body as
// the job summary at the end. It leads with the answer (what happened, how long it took) and
// keeps the reference data (job id, model, ref, the prompt) in a collapsed block.

import type { AgentJob } from '../service/schema.js'
import {
  clip,
  details,
  escapeText,
  formatClock,
  formatElapsed,
  formatNumber,
  link,
  linkDestination,
  parseHttpsUrl,
  codeBlock
} from './markdown.js'
import { placeNoun } from './place.js'

export type JobPhase = 'waiting' | 'done' | 'timed-out' | 'cancelled' | 'error' | 'no-job'

export interface JobReport {
  command: 'message' | 'create'
  projectId: string
  /** Undefined while a create has not been answered. */
  jobId?: string
  phase: JobPhase
  /** The last job object seen; its status may be one the service added later. */
  job?: AgentJob
  /** The exact prompt sent (shown collapsed). */
  prompt?: string
  /** ms epoch the run started. */
  startedAt: number
  /** ms epoch the run ended, on endings. */
  endedAt?: number
  /** False with `wait: false`. */
  waited: boolean
  /** Already redacted, untrusted: escaped here. */
  error?: string
  /** On error or cancel: was the instruction taken by the service? */
  delivered?: 'yes' | 'maybe' | 'no'
  runUrl?: string
  trigger?: string
  /** The instruction came from a trigger comment: another comment is a way to try again. */
  fromComment?: boolean
  /** The pull request or issue the run answers on, as a reader names it. */
  askedOn?: { number: number; url: string; pullRequest: boolean }
  /** This comment routes replies with the trigger to the job. */
  routedHere?: boolean
  /** When prLink is a pull request of this repository. */
  prNumber?: number
  /**
   * The pull request the job links was there before this instruction (a follow-up that updated
   * it): "Updated #N", not "Opened #N".
   */
  prUpdated?: boolean
  /** Requests this run sent to the service. */
  requests?: number
  /** The pull request of this repository where the route record sends replies to this job. */
  routedTo?: number
  /** A re-run that follows the job an earlier attempt delivered the instruction to. */
  rerun?: boolean
  /**
   * This body is on the agent's own pull request (`prNumber`): the route record, or the answer
   * to a trigger there. It speaks of "this pull request", and the record links back to where the
   * job was asked for.
   */
  onItsPullRequest?: { askedIn?: { number: number; url: string } }
  /** The host of this GitHub (`GITHUB_SERVER_URL`); `github.com` when not given. */
  githubHost?: string
}

const PROMPT_MAX_CHARS = 2000
const ERROR_MAX_CHARS = 2000
const VALUE_MAX_CHARS = 300

/** Whatever the service says, as a string: a status added later is shown as it is. */
function statusOf(r: JobReport): string | undefined {
  const status: unknown = r.job?.status
  return typeof status === 'string' && status !== '' ? status : undefined
}

function value(text: string | undefined): string {
  return text ? escapeText(clip(text, VALUE_MAX_CHARS)) : '–'
}

function elapsed(r: JobReport): string {
  return r.endedAt === undefined ? '' : ` · ${formatElapsed(r.endedAt - r.startedAt)}`
}

/**
 * "#42" for this repository, "owner/repo#42" for another on this GitHub, the host first
 * ("git.example.com/owner/repo#42") on any other, or "a pull request" (with its host when that is
 * not this GitHub's): the link text never hides where the link goes.
 */
function pullRequestLabel(r: JobReport, url: URL): string {
  if (r.prNumber !== undefined) return `#${r.prNumber}`
  const here = url.host === (r.githubHost ?? 'github.com')
  const host = here ? '' : `${escapeText(clip(url.host, VALUE_MAX_CHARS))}/`
  const m = /^\/([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/.exec(url.pathname)
  if (!m) return here ? 'a pull request' : `a pull request on ${host.slice(0, -1)}`
  // Owner and repository names are plain ASCII on GitHub: shown as they are in the URL.
  return `${host}${escapeText(`${m[1]}/${m[2]}`)}#${m[3]}`
}

/** The pull request as a link, or undefined when the job has none that is a safe https URL. */
function pullRequestLink(r: JobReport): string | undefined {
  const url = r.job?.prLink ? parseHttpsUrl(r.job.prLink) : undefined
  return url ? `[${pullRequestLabel(r, url)}](${linkDestination(url.href)})` : undefined
}

function doneHeadline(r: JobReport, status: string | undefined): string {
  if (!r.waited)
    return r.command === 'create'
      ? '📨 Job started · not waited for'
      : '📨 Instruction sent · not waited for'
  if (status === 'completed') {
    if (r.onItsPullRequest && r.job?.prLink)
      return `✅ The docs agent ${r.prUpdated ? 'updated' : 'opened'} this pull request${elapsed(r)}`
    if (r.job?.prLink)
      return `✅ ${r.prUpdated ? 'Updated' : 'Opened'} ${pullRequestLink(r) ?? 'a pull request'}${elapsed(r)}`
    return `✅ Completed without a pull request${elapsed(r)}`
  }
  if (status === 'failed') return `❌ The job failed${elapsed(r)}`
  if (status === 'archived') return `📦 The job was archived${elapsed(r)}`
  return `Job status: ${value(status)}${elapsed(r)}`
}

/** While waiting, the headline says what the status says now. */
function waitingHeadline(status: string | undefined): string {
  if (status === undefined || status === 'active') return '⏳ The docs agent is working'
  if (['completed', 'failed', 'archived'].includes(status))
    return `⏳ Waiting for the job to take the instruction (it still shows ${status})`
  return `⏳ Job status: ${value(status)}`
}

function errorHeadline(r: JobReport): string {
  if (r.delivered === 'maybe') return '⚠️ The instruction may or may not have been delivered'
  if (r.delivered === 'no')
    return r.command === 'create' ? '⚠️ No job was started' : '⚠️ The instruction was not sent'
  if (r.delivered === 'yes') return '⚠️ Sent, but this run lost track of the job'
  return '⚠️ The docs agent step failed'
}

function headline(r: JobReport): string {
  const status = statusOf(r)
  switch (r.phase) {
    case 'waiting':
      return waitingHeadline(status)
    case 'done':
      return doneHeadline(r, status)
    case 'timed-out':
      return r.endedAt === undefined
        ? '⌛ Stopped waiting · the job may still finish'
        : `⌛ Stopped waiting after ${formatElapsed(r.endedAt - r.startedAt)} · the job may still finish`
    case 'cancelled':
      if (r.delivered === 'no') return '🚫 Run cancelled before the instruction was sent'
      // Cancelled while the POST was in flight: nobody knows whether the service took it.
      if (r.delivered === 'maybe')
        return '🚫 Run cancelled · the instruction may or may not have been delivered'
      return '🚫 Run cancelled · the job keeps running'
    case 'error':
      return errorHeadline(r)
    case 'no-job':
      return '⚠️ No job to follow up'
  }
}

/**
 * Where the body is read: a comment (on the pull request or issue, for reviewers) or the job
 * summary (on the run's page, for maintainers: no link to that page, nothing to reply to).
 */
export type JobReportPlace = 'comment' | 'summary'

/** One line under the headline: what this is, when it started, where the run is. */
function metaLine(r: JobReport, place: JobReportPlace): string {
  const parts = [
    r.command === 'create' ? 'New docs agent job' : 'Docs agent follow-up',
    `started ${formatClock(r.startedAt)}`
  ]
  if (r.endedAt !== undefined && r.phase !== 'waiting')
    parts.push(`ended ${formatClock(r.endedAt)}`)
  if (r.runUrl && place === 'comment') parts.push(link('workflow run', r.runUrl))
  return parts.join(' · ')
}

function lastStatus(r: JobReport): string {
  const status = statusOf(r)
  return status ? ` Last status seen: **${value(status)}**.` : ''
}

/** The cause in the service's words; whether the instruction arrived is said from `delivered`. */
function errorDetail(r: JobReport, label: string): string | undefined {
  if (!r.error) return undefined
  return `**${label}:** ${escapeText(clip(r.error, ERROR_MAX_CHARS))}`
}

const DELIVERY: Readonly<Record<NonNullable<JobReport['delivered']>, string>> = {
  maybe:
    'Check the job on the service before sending the instruction again, or the agent may get ' +
    'it twice.',
  no: 'The instruction did not reach the job.',
  yes: 'The service took the instruction: the job keeps running, but this run could not follow it.'
}

/** The paragraphs that explain the state: what it means, and what may still happen. */
function explanation(r: JobReport, place: JobReportPlace): string[] {
  const status = statusOf(r)
  switch (r.phase) {
    case 'waiting':
      return []
    case 'done':
      if (!r.waited)
        return ['Not waited for (`wait: false`): the job keeps running on the service.']
      if (status === 'completed' && !r.job?.prLink)
        return [
          'No pull request was opened: the agent may have changed nothing, or committed ' +
            'directly to the branch.'
        ]
      // The service gives no reason for a failed job: say what to do next instead.
      if (status === 'failed')
        return [
          `The docs agent job ${escapeText(r.jobId ?? '–')} failed. To try again, ` +
            (r.trigger && r.fromComment
              ? `write a new \`${r.trigger} <instruction>\` comment, or re-run the workflow.`
              : 're-run the workflow.')
        ]
      if (status === 'archived')
        return ['The job was archived: nothing more will happen to it. Start a new job to go on.']
      return []
    case 'timed-out':
      return [
        'This run stopped waiting, but the job may still be running: it can still finish and ' +
          `open a pull request. Look again later in the docs agent's jobs (job ${escapeText(r.jobId ?? '–')}).${lastStatus(r)}`,
        errorDetail(r, 'Last poll')
      ].filter(isText)
    case 'cancelled':
      if (r.delivered === 'no') return ['The workflow run was cancelled; nothing was sent.']
      if (r.delivered === 'maybe')
        return [
          'The workflow run was cancelled while the instruction was being sent, so it is not ' +
            'known whether the service took it.',
          DELIVERY.maybe
        ]
      return [
        'The workflow run was cancelled, so it stopped waiting. That does not stop the job: ' +
          `it keeps running on the service and may still open a pull request.${lastStatus(r)}`
      ]
    case 'error':
      return [
        errorDetail(r, 'Error') ?? '**Error:** unknown error',
        r.delivered ? DELIVERY[r.delivered] : undefined
      ].filter(isText)
    case 'no-job':
      return [
        `No agent job is recorded on ${whereAsked(r, place)}, so the instruction was not sent. ` +
          'Set the `job-id` input of the workflow, reply on a pull request that the docs agent ' +
          'opened, or set `when-no-job: create` to start a new job.'
      ]
  }
}

/** "this issue" in its comment; "issue #3" (a link) on the run's page, which is elsewhere. */
function whereAsked(r: JobReport, place: JobReportPlace): string {
  const on = r.askedOn
  if (!on) return 'this pull request'
  const noun = placeNoun(on.pullRequest)
  return place === 'comment' ? `this ${noun}` : `${noun} ${link(`#${on.number}`, on.url)}`
}

function isText(s: string | undefined): s is string {
  return s !== undefined && s !== ''
}

/** A trigger in a code span when it can be one; escaped text otherwise. */
function triggerHint(trigger: string, where = 'this pull request'): string {
  const example = /^[A-Za-z0-9/._-]{1,50}$/.test(trigger)
    ? `\`${trigger} <instruction>\``
    : `**${escapeText(trigger)} &lt;instruction&gt;**`
  return `Reply ${example} on ${where} to send a follow-up to this job.`
}

/** A URL from the service as a link ("github.com/acme/docs"), when it is a safe https URL. */
function urlOrValue(text: string | undefined): string {
  const url = text ? parseHttpsUrl(text) : undefined
  if (!url) return value(text)
  const label = escapeText(clip(url.host + url.pathname.replace(/\/$/, ''), VALUE_MAX_CHARS))
  return `[${label}](${linkDestination(url.href)})`
}

function pullRequestItem(r: JobReport): string | undefined {
  if (r.delivered === 'maybe') return undefined // from the read before the instruction
  const prLink = r.job?.prLink
  return prLink ? `- **Pull request:** ${urlOrValue(prLink)}` : undefined
}

function detailItems(r: JobReport): string[] {
  const source = r.job?.source
  const items = [
    `- **Job:** ${value(r.jobId ?? r.job?.id)}`,
    // With delivery unknown, the last status seen is from before the instruction: stale.
    r.delivered === 'maybe'
      ? '- **Status:** not known (the last read was before the instruction)'
      : `- **Status:** ${value(statusOf(r))}`,
    `- **Project:** ${value(r.projectId)}`,
    source?.repository || source?.ref
      ? `- **Repository:** ${urlOrValue(source.repository ?? undefined)} · **Ref:** ${value(source.ref ?? undefined)}`
      : undefined,
    r.job?.model ? `- **Model:** ${value(r.job.model)}` : undefined,
    pullRequestItem(r),
    r.requests !== undefined
      ? `- **Requests to the service:** ${formatNumber(r.requests)}`
      : undefined
  ]
  return items.filter(isText)
}

function instructionLabel(r: JobReport): string {
  if (r.phase === 'no-job' || r.delivered === 'no') return 'Instruction (not sent)'
  if (r.delivered === 'maybe') return 'Instruction'
  return 'Instruction sent'
}

function detailsBlock(r: JobReport): string {
  const blocks = [detailItems(r).join('\n')]
  if (r.prompt?.trim()) {
    blocks.push(`**${instructionLabel(r)}:**`, codeBlock(r.prompt, PROMPT_MAX_CHARS))
  }
  return details('Details', blocks.join('\n\n'))
}

/** Markdown for the live comment and the job summary about one agent job. */
export function renderJobReport(r: JobReport, place: JobReportPlace = 'comment'): string {
  const blocks = [`### ${headline(r)}`, metaLine(r, place), ...explanation(r, place)]
  // This comment records the delivery: a re-run finds it and follows the job, sending nothing.
  if (r.phase === 'timed-out' && place === 'comment' && r.runUrl)
    blocks.push(
      'To wait for it again, re-run the workflow: the re-run follows this job and sends nothing twice.'
    )
  const askedIn = r.onItsPullRequest?.askedIn
  if (askedIn) blocks.push(`Asked for in ${link(`#${askedIn.number}`, askedIn.url)}.`)
  if (r.rerun)
    blocks.push(
      'A re-run: an earlier attempt of this workflow run already delivered the instruction, so ' +
        'it was not sent again; this run followed the same job.'
    )
  if (r.routedHere && r.trigger && place === 'comment') blocks.push(triggerHint(r.trigger))
  else if (r.routedTo !== undefined && r.trigger && place === 'comment') {
    // Answered elsewhere (an issue): follow-ups go on the pull request that records the job.
    const pr = r.job?.prLink ? parseHttpsUrl(r.job.prLink) : undefined
    blocks.push(triggerHint(r.trigger, pr ? link(`#${r.routedTo}`, pr.href) : `#${r.routedTo}`))
  }
  blocks.push(detailsBlock(r))
  return blocks.join('\n\n') + '\n'
}

// The report about one agent job: the live comment while the run waits, and the same body as
// the job summary at the end. It leads with the answer (what happened, how long it took), says
// who asked and what the pull request changes, then how the run ended and the next step
// (job-ending.ts), and keeps the reference data (job id, model, ref, the prompt) in a collapsed
// block.

import {
  clip,
  details,
  escapeText,
  link,
  linkDestination,
  parseHttpsUrl,
  codeBlock
} from './markdown.js'
import { formatClock, formatElapsed, formatNumber } from './numbers.js'
import { changesBlock } from './job-changes.js'
import { codeChangeBlock, instructionsList, mention } from './job-growth.js'
import { checksBlock, checksHeadline } from './job-checks.js'
import { placeNoun } from './place.js'
import { endingText, triggerExample } from './job-ending.js'
import { fixWords, grewParagraph, shownWhole, visibleInstruction } from './job-instruction.js'
import {
  deliveredIn,
  isText,
  statusOf,
  value,
  type JobEnding,
  type JobReport,
  type JobReportPlace
} from './job-report.js'
import type { Delivery } from '../service/errors.js'

export type { JobEnding, JobReport, JobReportPlace } from './job-report.js'

const PROMPT_MAX_CHARS = 2000
const VALUE_MAX_CHARS = 300

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

function finishedHeadline(r: JobReport, e: Extract<JobEnding, { kind: 'finished' }>): string {
  switch (e.outcome) {
    case 'pull-request': {
      // Its checks or preview may say the work is broken: no green mark then, and what it is about.
      const flagged = checksHeadline(e.checks)
      const mark = flagged?.mark ?? '✅'
      const about = flagged ? ` · ${flagged.about}` : ''
      if (r.onItsPullRequest)
        return `${mark} The docs agent ${r.prUpdated ? 'updated' : 'opened'} this pull request${about}${elapsed(r)}`
      return `${mark} ${r.prUpdated ? 'Updated' : 'Opened'} ${pullRequestLink(r) ?? 'a pull request'}${about}${elapsed(r)}`
    }
    case 'no-pull-request':
      return `${e.failsBy === 'require-pr' ? '❌' : '✅'} Completed without a pull request${elapsed(r)}`
    case 'failed':
      return `❌ The job failed${elapsed(r)}`
    case 'archived':
      return `📦 The job was archived${elapsed(r)}`
    case 'other':
      return `Job status: ${value(e.status)}${elapsed(r)}`
  }
}

/** While waiting, the headline says what the status says now. */
function waitingHeadline(status: string | undefined): string {
  if (status === undefined || status === 'active') return '⏳ The docs agent is working'
  if (['completed', 'failed', 'archived'].includes(status))
    return `⏳ Waiting for the job to take the instruction (it still shows ${status})`
  return `⏳ Job status: ${value(status)}`
}

function stoppedHeadline(r: JobReport, delivered: Delivery): string {
  if (delivered === 'maybe') return '⚠️ The instruction may or may not have been delivered'
  if (delivered === 'no')
    return r.command === 'create' ? '⚠️ No job was started' : '⚠️ The instruction was not sent'
  return '⚠️ Sent, but this run lost track of the job'
}

function cancelledHeadline(delivered: Delivery): string {
  if (delivered === 'no') return '🚫 Run cancelled before the instruction was sent'
  // Cancelled while the POST was in flight: nobody knows whether the service took it.
  if (delivered === 'maybe')
    return '🚫 Run cancelled · the instruction may or may not have been delivered'
  return '🚫 Run cancelled · the job keeps running'
}

/** The headline words the ending (or, while the run waits, the status now). */
function headline(r: JobReport): string {
  const e = r.ending
  if (!e) return waitingHeadline(statusOf(r))
  switch (e.kind) {
    case 'not-waited':
      return r.command === 'create'
        ? '📨 Job started · not waited for'
        : '📨 Instruction sent · not waited for'
    case 'finished':
      return finishedHeadline(r, e)
    case 'timed-out':
      return r.endedAt === undefined
        ? '⌛ Stopped waiting · the job may still finish'
        : `⌛ Stopped waiting after ${formatElapsed(r.endedAt - r.startedAt)} · the job may still finish`
    case 'cancelled':
      return cancelledHeadline(e.delivered)
    case 'stopped':
      return stoppedHeadline(r, e.delivered)
    case 'no-job':
      return '⚠️ No job to follow up'
  }
}

/** Who asked, or what kind of run this is. */
function askedLine(r: JobReport): string {
  const where = r.onItsPullRequest?.askedIn
  const inPlace = where ? ` in ${link(`#${where.number}`, where.url)}` : ''
  if (r.fixes && r.fixes.length > 0) {
    const who = r.askedBy ? `${mention(r.askedBy)} asked` : 'Asked'
    return `${who} the docs agent to ${fixWords(r.fixes)}${inPlace}`
  }
  if (r.askedBy)
    return `${mention(r.askedBy)} asked${r.command === 'create' ? ' for a new job' : ''}${inPlace}`
  const what = r.command === 'create' ? 'New docs agent job' : 'Docs agent follow-up'
  return where ? `${what}, asked for${inPlace}` : what
}

/**
 * One line under the headline: who asked (or what this is), when it started, and the workflow
 * run when nothing below links it already.
 */
function metaLine(r: JobReport, place: JobReportPlace, runLinked: boolean): string {
  const parts = [askedLine(r), `started ${formatClock(r.startedAt)}`]
  if (r.runUrl && place === 'comment' && !runLinked) parts.push(link('workflow run', r.runUrl))
  return parts.join(' · ')
}

/** How to reach the job from here: said once in a thread (where it is routed, or where to go). */
function replyHint(r: JobReport, place: JobReportPlace): string | undefined {
  if (!r.trigger || place !== 'comment' || r.hintGiven) return undefined
  const hint = (where: string): string =>
    `Reply ${triggerExample(r.trigger ?? '')} on ${where} to send a follow-up to this job.`
  // Routed where this body is: the job's pull request (its record), or where the job was asked
  // for, which may be an issue (`when-no-job: create`) that takes replies too.
  const onPullRequest = r.onItsPullRequest !== undefined || (r.askedOn?.pullRequest ?? true)
  if (r.routedHere) return hint(`this ${placeNoun(onPullRequest)}`)
  if (r.routedTo === undefined) return undefined
  // Answered elsewhere (an issue): follow-ups go on the pull request that records the job.
  const pr = r.job?.prLink ? parseHttpsUrl(r.job.prLink) : undefined
  return hint(pr ? link(`#${r.routedTo}`, pr.href) : `#${r.routedTo}`)
}

/** A URL from the service as a link ("github.com/acme/docs"), when it is a safe https URL. */
function urlOrValue(text: string | undefined): string {
  const url = text ? parseHttpsUrl(text) : undefined
  if (!url) return value(text)
  const label = escapeText(clip(url.host + url.pathname.replace(/\/$/, ''), VALUE_MAX_CHARS))
  return `[${label}](${linkDestination(url.href)})`
}

function pullRequestItem(r: JobReport): string | undefined {
  if (deliveredIn(r.ending) === 'maybe') return undefined // from the read before the instruction
  const prLink = r.job?.prLink
  return prLink ? `- **Pull request:** ${urlOrValue(prLink)}` : undefined
}

function detailItems(r: JobReport): string[] {
  const source = r.job?.source
  const items = [
    `- **Job:** ${value(r.jobId ?? r.job?.id)}`,
    // With delivery unknown, the last status seen is from before the instruction: stale.
    deliveredIn(r.ending) === 'maybe'
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
  const delivered = deliveredIn(r.ending)
  if (delivered === 'no') return 'Instruction (not sent)'
  if (delivered === 'maybe') return 'Instruction'
  return 'Instruction sent'
}

function detailsBlock(r: JobReport): string {
  const blocks = [detailItems(r).join('\n')]
  // Shown above whole (wrapped, character for character): not again here (an answer shows its
  // instruction once); cut there, the whole exact text is here.
  const listed = r.instructions?.at(-1)?.text === r.prompt
  const above = visibleInstruction(r, '') !== undefined || listed
  if (r.prompt?.trim() && !(above && shownWhole(r.prompt))) {
    const exact = above ? ' (exact text)' : ''
    blocks.push(`**${instructionLabel(r)}${exact}:**`, codeBlock(r.prompt, PROMPT_MAX_CHARS))
  }
  return details('Details', blocks.join('\n\n'))
}

/** Markdown for the live comment and the job summary about one agent job. */
export function renderJobReport(r: JobReport, place: JobReportPlace = 'comment'): string {
  const ending = endingText(r, place)
  const completed = r.ending?.kind === 'finished' && r.ending.outcome === 'pull-request'
  const blocks = [
    `### ${headline(r)}`,
    metaLine(r, place, ending.linksRun),
    r.onItsPullRequest ? codeChangeBlock(r.codeChange) : undefined,
    grewParagraph(r, place),
    visibleInstruction(r, instructionLabel(r)),
    instructionsList(r),
    completed && r.changes ? changesBlock(r.changes) : undefined,
    r.ending?.kind === 'finished' && r.ending.checks
      ? checksBlock(r.ending.checks, r.trigger, place)
      : undefined,
    ...ending.paragraphs,
    r.rerun
      ? 'A re-run: an earlier attempt of this workflow run already delivered the instruction, ' +
        'so it was not sent again; this run followed the same job.'
      : undefined,
    replyHint(r, place),
    detailsBlock(r)
  ]
  return blocks.filter(isText).join('\n\n') + '\n'
}

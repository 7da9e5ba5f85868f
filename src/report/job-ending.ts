// How a job run ended, in words for the reader, and what to do next: said once (the headline
// says what happened, these paragraphs what it means and the next step), in the action's own
// Markdown, with one link to where the reader goes next (the workflow run, to re-run it or read
// its log; the pull request that takes replies). The comment and the job summary give the same
// next step; the summary, read on the run's page, does not link to that page.
import { capitalise, link, escapeText, clip } from './markdown.js'
import { placeNoun } from './place.js'
import {
  isText,
  statusOf,
  value,
  type Cause,
  type Elsewhere,
  type JobEnding,
  type JobReport,
  type JobReportPlace
} from './job-report.js'
import type { Delivery } from '../service/errors.js'
import { whoFixes, type Fixer } from '../errors.js'

const ERROR_MAX_CHARS = 2000

/** The paragraphs after the headline, and whether they link the workflow run already. */
export interface EndingText {
  paragraphs: string[]
  linksRun: boolean
}

/** `/docs-agent <instruction>` in a code span when the trigger can be one; escaped text otherwise. */
export function triggerExample(trigger: string): string {
  return /^[A-Za-z0-9/._-]{1,50}$/.test(trigger)
    ? `\`${trigger} <instruction>\``
    : `**${escapeText(trigger)} &lt;instruction&gt;**`
}

/** What the next step may link to: the run (a comment only) and the place the job was asked. */
class Steps {
  linksRun = false

  constructor(
    private readonly r: JobReport,
    private readonly place: JobReportPlace
  ) {}

  /** "re-run the workflow" (or another label), linked to the run from a comment. */
  rerun(label = 're-run the workflow'): string {
    if (this.place !== 'comment' || !this.r.runUrl) return label
    this.linksRun = true
    return link(label, this.r.runUrl)
  }

  /** A new trigger comment (where the run answers one), or a re-run of the workflow. */
  retry(): string {
    const { trigger, fromComment, askedOn } = this.r
    if (!trigger || !fromComment) return this.rerun()
    const where =
      this.place === 'summary' && askedOn ? ` on ${link(`#${askedOn.number}`, askedOn.url)}` : ''
    return `write a new ${triggerExample(trigger)} comment${where}, or ${this.rerun()}`
  }

  /** A re-run follows the job (this run recorded the delivery); undefined when it would not. */
  followAgain(verb: string): string | undefined {
    if (!this.r.rerunFollows) return undefined
    return `To ${verb} again, ${this.rerun()}: the re-run follows this job and sends nothing twice.`
  }

  /** Delivery unknown: look before sending again. */
  checkFirst(): string {
    return (
      'Check the job on the service before sending the instruction again, or the agent may get ' +
      `it twice: its id is under Details, and ${this.rerun("the workflow run's log")} shows how ` +
      'far the run got.'
    )
  }
}

function lastStatus(r: JobReport): string {
  const status = statusOf(r)
  return status ? ` Last status seen: **${value(status)}**.` : ''
}

/** A sentence of ours: capitalised, with its full stop. */
function sentence(text: string): string {
  const t = text.trim()
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`
}

/** The cause in the service's (or GitHub's) words, escaped, then the action's advice as Markdown. */
function errorLine(cause: Cause | undefined, label: string): string | undefined {
  const advice = cause?.advice ? sentence(cause.advice) : undefined
  if (!cause?.said) return advice
  const said = escapeText(clip(cause.said, ERROR_MAX_CHARS))
  return `**${label}:** ${said}${advice ? `${/[.!?]$/.test(said) ? '' : '.'} ${advice}` : ''}`
}

/** "this issue" in its comment; "issue #3" (a link) on the run's page, which is elsewhere. */
function whereAsked(r: JobReport, place: JobReportPlace): string {
  const on = r.askedOn
  if (!on) return 'this pull request'
  const noun = placeNoun(on.pullRequest)
  return place === 'comment' ? `this ${noun}` : `${noun} ${link(`#${on.number}`, on.url)}`
}

function noJob(r: JobReport, elsewhere: Elsewhere | undefined, place: JobReportPlace): string {
  const here = whereAsked(r, place)
  if (elsewhere) {
    const { repo, number, url } = elsewhere
    const there = link(`${repo ? escapeText(repo) : ''}#${number}`, url)
    const whose = place === 'comment' ? `${here}'s docs agent job` : `the docs agent job of ${here}`
    return (
      `Nothing was sent: ${whose} takes its instructions on ${there}, the pull request it ` +
      `opened. Reply there with ${triggerExample(r.trigger ?? '/docs-agent')}.`
    )
  }
  return (
    `No agent job is recorded on ${here}, so the instruction was not sent. Set the \`job-id\` ` +
    'input of the workflow, reply on a pull request that the docs agent opened, or set ' +
    '`when-no-job: create` to start a new job.'
  )
}

function finished(e: Extract<JobEnding, { kind: 'finished' }>, steps: Steps): string[] {
  switch (e.outcome) {
    case 'no-pull-request':
      return [
        'No pull request was opened: the agent may have changed nothing, or committed directly ' +
          'to the branch.' +
          (e.failsBy === 'require-pr' ? ' `require-pr` is `true`, so the step failed.' : '')
      ]
    // The service gives no reason for a failed job: say what to do next instead.
    case 'failed':
      return [`To try again, ${steps.retry()}.`]
    case 'archived':
      return [
        'Nothing more will happen to this job. To go on, start a new one: a run with ' +
          '`command: create`, or a trigger comment where `when-no-job: create` is set once this ' +
          "job's record is gone (or with `job-id` left empty)."
      ]
    default:
      return []
  }
}

function cancelled(r: JobReport, delivered: Delivery, steps: Steps): string[] {
  if (delivered === 'no') return [`Nothing was sent. To send it, ${steps.retry()}.`]
  if (delivered === 'maybe') return [steps.checkFirst()]
  return [
    `It may still open a pull request.${lastStatus(r)}`,
    steps.followAgain('follow it')
  ].filter(isText)
}

function stopped(e: Extract<JobEnding, { kind: 'stopped' }>, steps: Steps): string[] {
  const cause = errorLine(e.cause, 'Error') ?? '**Error:** unknown error'
  if (e.delivered === 'maybe') return [cause, steps.checkFirst()]
  // A job the service does not know: a retry would be refused the same way.
  if (e.delivered === 'no' && /^404\b/.test(e.cause.said ?? ''))
    return [
      cause,
      'The service has no such job: check `job-id` (or the job recorded on the pull request; ' +
        `${steps.rerun("the workflow run's log")} names the one asked for). Trying again as it ` +
        'is would be refused the same way.'
    ]
  if (e.delivered === 'no' && e.cause.known && !e.cause.known.retry)
    return [cause, fixFirst(e.cause.known.fixer, steps)]
  if (e.delivered === 'no') return [cause, `To try again, ${steps.retry()}.`]
  return [cause, steps.followAgain('follow it') ?? 'The job keeps running on the service.']
}

/**
 * A cause a re-run cannot help (the advice above says what to change): who changes it, and that
 * trying again before then is refused the same way.
 */
function fixFirst(fixer: Fixer, steps: Steps): string {
  const who = whoFixes(fixer) ?? "this workflow's maintainers"
  return `${capitalise(who)} must change this first, then ${steps.rerun()}: trying again as it is would be refused the same way.`
}

/** What the ending means and the next step, for the reader of `place`. */
export function endingText(r: JobReport, place: JobReportPlace): EndingText {
  const steps = new Steps(r, place)
  const e = r.ending
  const paragraphs = ((): (string | undefined)[] => {
    switch (e?.kind) {
      case undefined:
        return []
      case 'not-waited':
        return ['The job keeps running on the service (`wait: false`).']
      case 'finished':
        return finished(e, steps)
      case 'timed-out':
        return [
          `It can still open a pull request.${lastStatus(r)}`,
          errorLine(e.lastPoll, 'Last poll'),
          steps.followAgain('wait for it') ??
            "Look for its result on the service later (the job's id is under Details): " +
              're-running the workflow would send the instruction again.'
        ]
      case 'cancelled':
        return cancelled(r, e.delivered, steps)
      case 'stopped':
        return stopped(e, steps)
      case 'no-job':
        return [noJob(r, e.elsewhere, place)]
    }
  })()
  return { paragraphs: paragraphs.filter(isText), linksRun: steps.linksRun }
}

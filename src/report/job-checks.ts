// The check runs on the head of the job's pull request (`checks`), as read and as an answer shows
// them: each one's name, how it concluded (or that it still runs), a link, and its first
// annotations (path:line and message). Names and messages come from whoever runs a check (an app,
// a workflow) and from the docs they check: public text, cleaned and escaped, never Markdown.
import { clip, clipPath, escapeText, link } from './markdown.js'
import { formatNumber, plural } from './numbers.js'

/** Where the block is read (job-report.ts JobReportPlace, which imports this file's types). */
type Place = 'comment' | 'summary'

/** The `checks` output: every check run passed, one failed, one still runs, or there were none. */
export type ChecksState = 'success' | 'failure' | 'pending' | 'none'

/** The conclusions that pass (contract: "The agent's checks"); any other fails. */
const PASSING_CONCLUSIONS: readonly string[] = ['success', 'neutral', 'skipped']

/** Annotations shown per check run. */
export const ANNOTATIONS_SHOWN = 10
/** Check runs shown by name; the rest are counted. */
export const RUNS_SHOWN = 20

export interface CheckAnnotation {
  path: string
  /** The first line it is about, when it names one. */
  line?: number
  /** `notice`, `warning` or `failure`, as the check run says. */
  level: string
  message: string
}

/** One check run on the head commit, as GitHub listed it. */
export interface CheckRunSeen {
  id: number
  name: string
  /** `queued`, `in_progress`, `completed` (or another, not completed). */
  status: string
  /** Once completed: `success`, `failure`, `neutral`, `skipped`, `timed_out`… */
  conclusion?: string
  /** Its page on GitHub. */
  url?: string
  /** How many annotations it has (its `output.annotations_count`). */
  annotationsCount: number
  /** The first ones, read once it completed. */
  annotations: CheckAnnotation[]
}

/** What the run learned of the checks of the job's pull request. */
export interface ChecksReport {
  mode: 'show' | 'wait' | 'require'
  state: ChecksState
  /** The pull request they ran on (this repository), and its checks page. */
  prNumber: number
  url?: string
  /** Every check run listed, in GitHub's order. */
  runs: CheckRunSeen[]
  /** The wait ended (`wait-timeout`) before every check run completed. */
  timedOut?: boolean
  /** Why they could not be read (GitHub's words, for the log and the reader). */
  error?: string
}

export const isCompleted = (run: CheckRunSeen): boolean => run.status === 'completed'

export const isFailing = (run: CheckRunSeen): boolean =>
  isCompleted(run) && !PASSING_CONCLUSIONS.includes(run.conclusion ?? '')

/** What the check runs come to: one failed, or one still runs, or all passed, or none ran. */
export function checksState(runs: readonly CheckRunSeen[]): ChecksState {
  if (runs.length === 0) return 'none'
  if (runs.some(isFailing)) return 'failure'
  return runs.every(isCompleted) ? 'success' : 'pending'
}

/** `checks: require` fails the step: a check failed, or one still ran when the wait ended. */
export function checksFail(c: ChecksReport): boolean {
  return (
    c.mode === 'require' &&
    (c.error !== undefined || c.state === 'failure' || c.state === 'pending')
  )
}

const NAME_MAX_CHARS = 100
const MESSAGE_MAX_CHARS = 300
const PATH_MAX_CHARS = 120

function mark(run: CheckRunSeen): string {
  if (!isCompleted(run)) return '⏳'
  if (isFailing(run)) return '❌'
  return run.conclusion === 'success' ? '✅' : '➖'
}

function outcome(run: CheckRunSeen): string {
  if (!isCompleted(run)) return 'still running'
  return escapeText(clip(run.conclusion ?? 'no conclusion', 40).replace(/_/g, ' '))
}

/** `docs/a.mdx:12` as code when plain, escaped text otherwise. */
function where(a: CheckAnnotation): string {
  const at = `${clipPath(a.path, PATH_MAX_CHARS)}${a.line !== undefined ? `:${a.line}` : ''}`
  return /^[\w./-](?:[\w. /:-]*[\w./:-])?$/.test(at) ? `\`${at}\`` : escapeText(at)
}

function annotationLine(a: CheckAnnotation): string {
  return `  - ${where(a)} ${escapeText(clip(a.message, MESSAGE_MAX_CHARS))}`
}

function runLines(run: CheckRunSeen): string[] {
  const name = escapeText(clip(run.name, NAME_MAX_CHARS)) || 'a check'
  const head = `- ${mark(run)} ${link(name, run.url)}: ${outcome(run)}`
  const shown = run.annotations.slice(0, ANNOTATIONS_SHOWN)
  const more = run.annotationsCount - shown.length
  const rest = more > 0 ? [`  - and ${plural(more, 'more annotation')}`] : []
  return [head, ...shown.map(annotationLine), ...rest]
}

/** "❌ 1 failed · ✅ 2 passed · ⏳ 1 still running". */
function counts(runs: readonly CheckRunSeen[]): string {
  const failed = runs.filter(isFailing).length
  const running = runs.filter(r => !isCompleted(r)).length
  const passed = runs.length - failed - running
  return [
    failed > 0 ? `❌ ${formatNumber(failed)} failed` : '',
    passed > 0 ? `✅ ${formatNumber(passed)} passed` : '',
    running > 0 ? `⏳ ${formatNumber(running)} still running` : ''
  ]
    .filter(Boolean)
    .join(' · ')
}

/** What it means for the step, and the next step, when something did not pass. */
function verdictLine(c: ChecksReport, trigger: string | undefined, place: Place): string {
  const parts: string[] = []
  if (c.timedOut && c.state === 'pending')
    parts.push('The wait (`wait-timeout`) ended before every check finished.')
  if (checksFail(c)) parts.push('`checks` is `require`, so the step failed.')
  if (c.state === 'failure' && trigger && /^[A-Za-z0-9/._-]{1,50}$/.test(trigger)) {
    const on = place === 'comment' ? link(`#${c.prNumber}`, c.url) : `#${c.prNumber}`
    parts.push(`To send the failures to the job, comment \`${trigger} fix checks\` on ${on}.`)
  }
  return parts.join(' ')
}

/** The checks block of the job's answer and summary. */
export function checksBlock(c: ChecksReport, trigger: string | undefined, place: Place): string {
  const title = `**${link('Checks', c.url)} of #${c.prNumber}:**`
  if (c.error !== undefined)
    return [
      `${title} not read: ${escapeText(clip(c.error, MESSAGE_MAX_CHARS))}`,
      checksFail(c) ? '`checks` is `require`, so the step failed.' : ''
    ]
      .filter(Boolean)
      .join(' ')
  if (c.runs.length === 0) return `${title} none ran on its head commit.`
  const shown = c.runs.slice(0, RUNS_SHOWN)
  const more = c.runs.length - shown.length
  const lines = [
    `${title} ${counts(c.runs)}`,
    ...shown.flatMap(runLines),
    ...(more > 0 ? [`- and ${plural(more, 'more check run')}`] : [])
  ]
  const verdict = verdictLine(c, trigger, place)
  return verdict ? `${lines.join('\n')}\n\n${verdict}` : lines.join('\n')
}

/** The headline's mark for a pull request the job opened or updated, when its checks say more. */
export function checksMark(c: ChecksReport | undefined): string | undefined {
  if (!c) return undefined
  if (checksFail(c)) return '❌'
  return c.state === 'failure' ? '⚠️' : undefined
}

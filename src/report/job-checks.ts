// The check runs on the head of the job's pull request (`checks`), as read and as an answer shows
// them: each one's name, how it concluded (or that it still runs), a link, and its first
// annotations (path:line, level and message); how many GitHub counts that were not read (never
// taken as passed); and its preview (job-preview.ts). Names and messages come from whoever runs a
// check (an app, a workflow) and from the docs they check: public text, cleaned and escaped,
// never Markdown. They are read as people read them: a warning annotation is no failure, and a
// neutral or skipped run passes without being counted as passed.
import { clip, clipPath, escapeText, link } from './markdown.js'
import { formatNumber, plural } from './numbers.js'
import { notRead, previewLine, type PreviewReport } from './job-preview.js'

/** Where the block is read (job-report.ts JobReportPlace, which imports this file's types). */
type Place = 'comment' | 'summary'

/**
 * The `checks` output: every check run passed, one failed, one still runs or was not read, or
 * there were none.
 */
export type ChecksState = 'success' | 'failure' | 'pending' | 'none'

/** The conclusions that pass (contract: "The agent's checks"); any other fails. */
const PASSING_CONCLUSIONS: readonly string[] = ['success', 'neutral', 'skipped']

/** Annotations shown per check run. */
export const ANNOTATIONS_SHOWN = 10
/** Check runs shown by name (the failing and running first); the rest are counted. */
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
  /** Its annotations were to be read and were not: time ran out, or GitHub failed. */
  annotationsUnread?: 'time' | 'error'
}

/** A listing of a head's check runs (github/checks.ts): what was read, and GitHub's count. */
export interface CheckRunsRead {
  runs: CheckRunSeen[]
  /** GitHub's `total_count`: never below `runs.length`. */
  total: number
  /** Why fewer than `total` were read: the page cap, or the run's time ran out. */
  cut?: 'pages' | 'time'
}

/** What the run learned of the checks of the job's pull request, and of its preview. */
export interface ChecksReport {
  mode: 'show' | 'wait' | 'require'
  state: ChecksState
  /** The pull request they ran on (this repository), and its checks page. */
  prNumber: number
  url?: string
  /** Every check run read, in GitHub's order. */
  runs: CheckRunSeen[]
  /** GitHub's count of them, when it is more than were read (runs not read never pass). */
  total?: number
  /** Why not all were read. */
  cut?: CheckRunsRead['cut']
  /** The wait ended (`wait-timeout`) before every check run completed. */
  timedOut?: boolean
  /** Why they could not be read (GitHub's words, escaped where shown). */
  error?: string
  /** What to change then (Markdown: the permission a refusal names). */
  advice?: string
  /** The preview the docs platform's app built of the pull request (job-preview.ts). */
  preview?: PreviewReport
}

export const isCompleted = (run: CheckRunSeen): boolean => run.status === 'completed'

export const isFailing = (run: CheckRunSeen): boolean =>
  isCompleted(run) && !PASSING_CONCLUSIONS.includes(run.conclusion ?? '')

/** An annotation that reports a failure: `warning` and `notice` do not. */
export const isFailureAnnotation = (a: CheckAnnotation): boolean =>
  a.level !== 'warning' && a.level !== 'notice'

/** Check runs GitHub counts that were not read. */
export function unreadRuns(c: { runs: readonly CheckRunSeen[]; total?: number }): number {
  return Math.max(0, (c.total ?? 0) - c.runs.length)
}

/**
 * What the check runs come to: one failed; or one still runs, or some were not read (never
 * taken as passed); or all passed; or none ran.
 */
export function checksState(read: CheckRunsRead): ChecksState {
  const { runs } = read
  if (runs.some(isFailing)) return 'failure'
  if (runs.length === 0 && unreadRuns(read) === 0) return 'none'
  return runs.every(isCompleted) && unreadRuns(read) === 0 ? 'success' : 'pending'
}

/** The preview fails `checks: require`: its build failed, still ran, or could not be read. */
export function previewFails(p: PreviewReport | undefined): boolean {
  return (
    p !== undefined && (p.error !== undefined || p.state === 'failure' || p.state === 'pending')
  )
}

/**
 * `checks: require` fails the step: a check failed, or one still ran when the wait ended, or
 * some were not read; or the preview's build failed or still ran.
 */
export function checksFail(c: ChecksReport): boolean {
  return (
    c.mode === 'require' &&
    (c.error !== undefined ||
      c.state === 'failure' ||
      c.state === 'pending' ||
      previewFails(c.preview))
  )
}

/** How many failed, passed, were neutral or skipped, still run, were not read. */
export function tallyOf(c: { runs: readonly CheckRunSeen[]; total?: number }): {
  failed: number
  passed: number
  neutral: number
  skipped: number
  running: number
  unread: number
} {
  const { runs } = c
  const done = (conclusion: string) =>
    runs.filter(r => isCompleted(r) && r.conclusion === conclusion).length
  return {
    failed: runs.filter(isFailing).length,
    passed: done('success'),
    neutral: done('neutral'),
    skipped: done('skipped'),
    running: runs.filter(r => !isCompleted(r)).length,
    unread: unreadRuns(c)
  }
}

const NAME_MAX_CHARS = 100
const MESSAGE_MAX_CHARS = 300
const PATH_MAX_CHARS = 120

function mark(run: CheckRunSeen): string {
  if (!isCompleted(run)) return '⏳'
  if (isFailing(run)) return '❌'
  if (run.conclusion === 'skipped') return '⏭️'
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

/** A warning or a notice says so: it is no failure, whatever the run concluded. */
function annotationLine(a: CheckAnnotation): string {
  const level = isFailureAnnotation(a) ? '' : ` (${a.level})`
  return `  - ${where(a)}${level} ${escapeText(clip(a.message, MESSAGE_MAX_CHARS))}`
}

const UNREAD_ANNOTATIONS = {
  time: 'not read: time ran out (`wait-timeout`)',
  error: 'not read: GitHub did not list them'
} as const

function runLines(run: CheckRunSeen): string[] {
  const name = escapeText(clip(run.name, NAME_MAX_CHARS)) || 'a check'
  const head = `- ${mark(run)} ${link(name, run.url)}: ${outcome(run)}`
  if (run.annotationsUnread) {
    const count = plural(run.annotationsCount, 'annotation')
    return [head, `  - its ${count} ${UNREAD_ANNOTATIONS[run.annotationsUnread]}`]
  }
  const shown = run.annotations.slice(0, ANNOTATIONS_SHOWN)
  const more = run.annotationsCount - shown.length
  const rest = more > 0 ? [`  - and ${plural(more, 'more annotation')}`] : []
  return [head, ...shown.map(annotationLine), ...rest]
}

/** The order a reader needs them in: what failed, what still runs, then the rest as listed. */
export function byConcern(runs: readonly CheckRunSeen[]): CheckRunSeen[] {
  const rank = (r: CheckRunSeen) => (isFailing(r) ? 0 : isCompleted(r) ? 2 : 1)
  return runs
    .map((run, i) => ({ run, i }))
    .sort((a, b) => rank(a.run) - rank(b.run) || a.i - b.i)
    .map(({ run }) => run)
}

/**
 * "❌ 1 failed · ✅ 2 passed · ➖ 1 neutral · ⏭️ 1 skipped · ⏳ 1 still running · ❔ 3 not read"
 * (without the signs for the log).
 */
export function counts(c: { runs: readonly CheckRunSeen[]; total?: number }, signs = true): string {
  const t = tallyOf(c)
  const parts: [number, string, string][] = [
    [t.failed, '❌', 'failed'],
    [t.passed, '✅', 'passed'],
    [t.neutral, '➖', 'neutral'],
    [t.skipped, '⏭️', 'skipped'],
    [t.running, '⏳', 'still running'],
    [t.unread, '❔', 'not read']
  ]
  return parts
    .filter(([n]) => n > 0)
    .map(([n, sign, words]) => `${signs ? `${sign} ` : ''}${formatNumber(n)} ${words}`)
    .join(' · ')
}

/** Why check runs GitHub counts were not read. */
function unreadLine(c: ChecksReport): string | undefined {
  const unread = unreadRuns(c)
  if (unread === 0) return undefined
  const why =
    c.cut === 'time'
      ? 'time ran out (`wait-timeout`) before their page was read'
      : `at most ${formatNumber(1000)} are read`
  return (
    `GitHub lists ${formatNumber(c.total ?? 0)} check runs; ${plural(unread, 'was', 'were')} ` +
    `not read (${why}), and a check not read is not taken as passed.`
  )
}

/** What it means for the step, and the next step, when something did not pass. */
function verdictLine(c: ChecksReport, trigger: string | undefined, place: Place): string {
  const parts: string[] = []
  if (c.timedOut && c.runs.some(r => !isCompleted(r)))
    parts.push('The wait (`wait-timeout`) ended before every check finished.')
  if (checksFail(c)) parts.push('`checks` is `require`, so the step failed.')
  if (c.state === 'failure' && trigger && /^[A-Za-z0-9/._-]{1,50}$/.test(trigger)) {
    const on = place === 'comment' ? link(`#${c.prNumber}`, c.url) : `#${c.prNumber}`
    parts.push(`To send the failures to the job, comment \`${trigger} fix checks\` on ${on}.`)
  }
  return parts.join(' ')
}

/** The check runs' lines: the title and counts, each run (the failing first), the unread. */
function runsBlock(c: ChecksReport, title: string): string {
  if (c.error !== undefined) return `${title} ${notRead(c)}`
  if (c.runs.length === 0 && unreadRuns(c) === 0) return `${title} none ran on its head commit.`
  const shown = byConcern(c.runs).slice(0, RUNS_SHOWN)
  const more = c.runs.length - shown.length
  const unread = unreadLine(c)
  return [
    `${title} ${counts(c)}`,
    ...shown.flatMap(runLines),
    ...(more > 0 ? [`- and ${plural(more, 'more check run')}`] : []),
    ...(unread ? ['', unread] : [])
  ].join('\n')
}

/** The checks block of the job's answer and summary: the check runs, the preview, the verdict. */
export function checksBlock(c: ChecksReport, trigger: string | undefined, place: Place): string {
  const title = `**${link('Checks', c.url)} of #${c.prNumber}:**`
  const blocks = [
    runsBlock(c, title),
    c.preview ? previewLine(c.preview) : '',
    verdictLine(c, trigger, place)
  ]
  return blocks.filter(Boolean).join('\n\n')
}

/**
 * What the headline says of the checks when they say more than "done": a mark (❌ when
 * `require` fails the step, else ⚠️) and what it is about ("1 check failed", "the preview build
 * failed"). Undefined when there is nothing to flag.
 */
export function checksHeadline(
  c: ChecksReport | undefined
): { mark: string; about: string } | undefined {
  if (!c) return undefined
  const t = tallyOf(c)
  const p = c.preview
  const about = [
    c.error !== undefined ? 'its checks were not read' : '',
    t.failed > 0 ? `${plural(t.failed, 'check')} failed` : '',
    t.unread > 0 ? `${plural(t.unread, 'check')} not read` : '',
    c.timedOut && t.running > 0 ? `${plural(t.running, 'check')} still running` : '',
    p?.error !== undefined ? 'its preview was not read' : '',
    p?.state === 'failure' && p.error === undefined ? 'its preview build failed' : '',
    p?.state === 'pending' && p.timedOut ? 'its preview still building' : ''
  ].filter(Boolean)
  if (about.length === 0) return undefined
  return { mark: checksFail(c) ? '❌' : '⚠️', about: about.join(', ') }
}

/**
 * The checks and the preview in two short paragraphs, for a note that links the pull request (a
 * growth's note, the code pull request's comment): "**Checks:** ❌ 1 failed · ✅ 2 passed" and
 * "**Preview:** ✅ built: [host](…)".
 */
export function checksVerdict(c: ChecksReport | undefined): string | undefined {
  if (!c) return undefined
  const title = `**${link('Checks', c.url)}:**`
  const runs =
    c.error !== undefined
      ? `${title} not read`
      : c.runs.length === 0 && unreadRuns(c) === 0
        ? `${title} none ran`
        : `${title} ${counts(c)}`
  const must = checksFail(c) ? ' (`checks: require`: the step failed)' : ''
  return [runs + must, c.preview ? previewLine(c.preview) : ''].filter(Boolean).join('\n\n')
}

// The settings a run resolved, logged once as one debug line (as actions/checkout does): every
// input of the table by its name, as the run will use it (after the defaults and the parsing), so
// a run with step debugging on shows what it was given without reading the workflow. A secret is
// shown as `***` when set and empty when not, never a part of it.
import { appliesTo, INPUTS } from './names.js'
import type { Period } from '../period.js'
import type { AllSettings, Settings } from './settings.js'

/** An input's value as the line shows it; `null`: the command does not read the input. */
type Shown = string | number | boolean | null

/** What a command resolved: every command's settings, as far as this one has them. */
type Resolved = Partial<AllSettings> & Settings

const DAY_MS = 86_400_000
/** A prompt can be 256 KiB: the line shows its start and its length. */
const PROMPT_SHOWN = 80

const seconds = (ms: number | undefined): string => (ms === undefined ? '' : `${ms / 1000}s`)
const list = (values: readonly string[] | undefined): string => (values ?? []).join(',')
const periodText = (p: Period | undefined): string =>
  p === undefined ? '' : p.kind === 'days' ? `${p.days}d` : p.kind

function clipped(prompt: string | undefined): string {
  const text = prompt ?? ''
  if (text.length <= PROMPT_SHOWN) return text
  return `${text.slice(0, PROMPT_SHOWN)}… (${text.length} characters)`
}

/**
 * Each input's resolved value, from the settings read (a test keeps it to the table's inputs). A
 * secret has none here: the line says only whether it was given (Settings `givenSecrets`).
 */
export const RESOLVED: Readonly<Record<string, (s: Resolved) => Shown | undefined>> = {
  command: s => s.command,
  'project-id': s => s.projectId,
  'base-url': s => s.baseUrl,
  'job-id': s => s.jobId,
  prompt: s => clipped(s.prompt),
  'prompt-file': s => s.promptFile,
  context: s => s.context,
  'when-no-job': s => s.whenNoJob,
  'when-agent-pr-open': s => s.whenAgentPrOpen,
  'settle-time': s => seconds(s.settleTimeMs),
  wait: s => s.wait,
  'wait-timeout': s => seconds(s.waitTimeoutMs),
  'poll-interval': s => seconds(s.pollIntervalMs),
  'job-path': s => s.jobPath,
  'fail-on-status': s => list(s.failOnStatus),
  'date-from': s => s.range?.dateFrom,
  'date-to': s => s.range?.dateTo,
  period: s => periodText(s.period),
  'page-size': s => s.pageSize,
  'max-rows': s => s.maxRows,
  'max-requests': s => s.maxRequests,
  trend: s => s.trend,
  'stale-after': s => (s.docs ? `${s.docs.staleAfterMs / DAY_MS}d` : undefined),
  'docs-root': s => s.docs?.docsRoot,
  concurrency: s => s.concurrency,
  'output-file': s => s.outputFile?.absolute,
  sections: s => list(s.sections),
  'site-url': s => s.siteUrl,
  top: s => s.top,
  compare: s => s.compare,
  summary: s => s.summary,
  comment: s => s.comment,
  'issue-number': s => s.issueNumber,
  'comment-mode': s => s.commentMode,
  trigger: s => s.trigger,
  permission: s => s.permission,
  'allowed-users': s => list(s.allowedUsers),
  'allowed-bots': s => (s.allowedBots === '*' ? '*' : list(s.allowedBots)),
  'allow-pr-author': s => s.allowPrAuthor,
  'require-pr': s => s.requirePr,
  'notify-pr': s => s.notifyPr,
  'notify-repository': s => s.notifyRepository,
  'trigger-label': s => s.triggerLabel,
  checks: s => s.checks,
  reviewers: s =>
    s.reviewers === undefined
      ? undefined
      : list(
          s.reviewers.map(r =>
            r.kind === 'author' ? 'author' : r.kind === 'user' ? r.login : `${r.org}/${r.slug}`
          )
        ),
  'report-files': s =>
    s.command === 'rollup' ? list(s.reportFiles.files.map(f => f.path)) : undefined
}

/** Every input by name, in action.yml's order, with the value this run resolved for it. */
export function resolvedInputs(settings: Settings): Record<string, Shown> {
  const s: Resolved = settings
  return Object.fromEntries(
    INPUTS.map(({ name, secret }): [string, Shown] => {
      if (!appliesTo(name, s.command)) return [name, null]
      if (secret !== undefined) return [name, s.givenSecrets.includes(name) ? '***' : '']
      return [name, RESOLVED[name]?.(s) ?? '']
    })
  )
}

/** The one debug line of the resolved settings. */
export function settingsDebugLine(settings: Settings): string {
  return (
    `Resolved inputs (null: not read by \`command: ${settings.command}\`; secrets shown as ***): ` +
    JSON.stringify(resolvedInputs(settings))
  )
}

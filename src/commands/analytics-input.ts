// What the analytics commands (`visitors`, `report`) hand the section readers, built once from
// the settings, how their log names a range, and the issue they will post on, asked for before
// the first analytics request.
import * as core from '@actions/core'
import { issueMustExist } from '../github/issues.js'
import type { SectionInput } from '../analytics/sections/section.js'
import type { DateRange } from '../period.js'
import { AnalyticsApi } from '../service/analytics.js'
import { MAX_PAGES } from '../service/pages.js'
import { instructionText } from '../public-text.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

/** The readers' input; `compare` reads the period before in the readers only when asked. */
export function sectionInput(
  ctx: CommandContext<AnalyticsSettings>,
  o: { withPrevious: boolean }
): SectionInput {
  const s = ctx.settings
  return {
    api: new AnalyticsApi(ctx.service, s.projectId),
    range: s.range,
    ...(o.withPrevious && s.previous ? { previous: s.previous } : {}),
    top: s.top,
    pageSize: s.pageSize,
    maxRows: s.maxRows,
    maxPages: maxPagesOf(s),
    concurrency: s.concurrency,
    deadline: ctx.deadline,
    // The readers' warnings quote the service (a page path sent twice): cleaned as public text.
    onWarning: line => core.warning(instructionText(line))
  }
}

/**
 * The most offset pages a read asks for: 400 (four hours of the analytics quota), unless
 * `max-rows` or `max-requests` allow more.
 */
function maxPagesOf(s: AnalyticsSettings): number {
  const rows = s.maxRows > 0 ? Math.ceil(s.maxRows / s.pageSize) : 0
  return Math.max(MAX_PAGES, rows, s.maxRequests)
}

/** A range as the log says it: "all time", or its bounds with the end exclusive. */
export function describeRange(range: DateRange): string {
  if (range.dateFrom === undefined && range.dateTo === undefined) return 'all time'
  return `${range.dateFrom ?? 'the start'} to ${range.dateTo ?? 'now'} (end exclusive)`
}

/**
 * Before the first analytics request: the issue `issue-number` names, when the run will comment
 * there, exists (one GitHub request). A missing one fails the run having spent nothing of the
 * quota; an issue taken from the event is there by definition and is not asked about.
 */
export async function probeIssue(ctx: CommandContext<AnalyticsSettings>): Promise<void> {
  const { target, octokit } = ctx
  if (!target || !octokit || !ctx.commenting.writes || ctx.settings.issueNumber === undefined)
    return
  await issueMustExist(octokit, target, line => core.warning(line))
}

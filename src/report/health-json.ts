// The docs-health report as the JSON document of the `report` output and file: per section what
// the report shows (or its error), the trend, the suggestions and what the last fixes did, cut to
// its budget. What a roll-up reads back of it (the head: format, version, project, range, totals)
// is analytics/report-document.ts's; this is its one writer.
import type { Section, SectionOutcome } from '../analytics/sections/outcome.js'
import { effectJson } from '../analytics/fix-effect.js'
import type { Trend } from '../analytics/trend.js'
import { totalsBefore } from '../analytics/sections/totals.js'
import {
  documentTotals,
  REPORT_DOCUMENT_MAX_BYTES,
  REPORT_FORMAT,
  REPORT_FORMAT_VERSION
} from '../analytics/report-document.js'
import { bytes, fitsIn } from './fit.js'
import type { HealthReport } from './health.js'
import { clip } from './markdown.js'
import { subjectOf } from './suggestions.js'

/** A failed section's reason in the JSON: the service's words, and at most this much of them. */
const REASON_JSON_MAX_CHARS = 2000

/**
 * The JSON document of the `report` output and file: per section what the report shows, or its
 * error. Lists are halved until it fits the limit, and `truncated` says so; a failure's reason is
 * clipped, so no answer of the service can push the document past its budget.
 */
export function reportJson(
  report: HealthReport,
  maxBytes = REPORT_DOCUMENT_MAX_BYTES,
  commentUrl?: string
): string {
  let keep = Infinity
  for (;;) {
    const doc = {
      ...documentHead(report),
      requests: report.requests,
      ...(report.incomplete ? { incomplete: report.incomplete } : {}),
      sections: report.sections.map(x => cutLists(x, keep)),
      ...(report.trend ? { trend: trendJson(report.trend) } : {}),
      suggestions: (report.suggestions ?? []).map(x => ({
        n: x.n,
        id: x.id,
        kind: x.kind,
        subject: subjectOf(x),
        instruction: x.instruction,
        ...(x.times !== undefined ? { times: x.times } : {}),
        ...(x.kind === 'stale' ? { lastChanged: new Date(x.lastChanged).toISOString() } : {})
      })),
      ...(report.pagesWithoutFile ? { pagesWithoutFile: report.pagesWithoutFile } : {}),
      ...(report.pagesUndated ? { pagesUndated: report.pagesUndated } : {}),
      fixEffects: (report.effects ?? []).map(effectJson),
      ...(keep < Infinity ? { truncated: true } : {}),
      ...(commentUrl ? { commentUrl } : {})
    }
    const json = JSON.stringify(doc)
    if (fitsIn(json, bytes(maxBytes)) || keep === 0) return json
    keep = keep === Infinity ? longestList(report.sections) >> 1 : keep >> 1
  }
}

/**
 * What a roll-up reads of the file (analytics/report-document.ts): its format and version, the
 * project, the range, when it was made, and the totals as the overview shows them.
 */
function documentHead(report: HealthReport) {
  return {
    format: REPORT_FORMAT,
    version: REPORT_FORMAT_VERSION,
    project: report.projectId,
    range: report.range,
    ...(report.previous ? { previous: report.previous } : {}),
    generatedAt: new Date(report.generatedAt).toISOString(),
    totals: documentTotals(report.sections),
    ...(report.previous ? { totalsBefore: totalsBefore(report.sections) } : {})
  }
}

/** Each trend period's totals (absent where not known), and why the trend stopped short. */
function trendJson(t: Trend) {
  return {
    periods: t.points,
    requests: t.requests,
    ...(t.stop ? { stopped: { at: t.stop.at, missing: t.stop.missing, limit: t.stop.limit } } : {})
  }
}

function cutLists(x: SectionOutcome, keep: number): object {
  if (!x.ok) return { ...x, reason: clip(x.reason, REASON_JSON_MAX_CHARS) }
  const shown = shownOnly(x)
  if (keep === Infinity) return shown
  switch (x.name) {
    case 'searches':
      return { ...shown, top: x.top.slice(0, keep), gaps: x.gaps.slice(0, keep) }
    case 'visitors':
    case 'views':
      return {
        ...shown,
        top: x.top.slice(0, keep),
        ...(x.shown ? { shown: x.shown.slice(0, keep) } : {}),
        ...(x.previousRows ? { previousRows: x.previousRows.slice(0, keep) } : {})
      }
    case 'feedback':
    case 'assistant':
      return { ...shown, top: x.top.slice(0, keep) }
  }
}

/**
 * A section as the report shows it: the assistant's answered questions serve the content gaps,
 * and every row read serves what a fix did (analytics/fix-effect.ts); neither is shown.
 */
function shownOnly(x: Section): object {
  switch (x.name) {
    case 'assistant':
      return { ...x, answered: undefined, topics: undefined }
    case 'searches':
      return { ...x, queries: undefined }
    case 'feedback':
      return { ...x, rows: undefined }
    default:
      return x
  }
}

function longestList(sections: SectionOutcome[]): number {
  return Math.max(0, ...sections.map(x => (x.ok ? x.top.length : 0)))
}

// `command: rollup`: one report of many projects, from the JSON files their `report` runs wrote
// (`report-files`, matrix legs' artifacts). It sends nothing to the service and needs no key. Each
// file is read by the one reader of the report's file (analytics/report-document.ts); a file that
// is no report this version reads is named and skipped (a warning, and a line in the summary); a
// project found twice keeps its newest range; report/rollup.ts draws the table. One comment per
// range, edited by a re-run (records/rollup.ts), on the issue a report would comment on.
import { readFile, stat } from 'node:fs/promises'
import * as core from '@actions/core'
import {
  readReportDocument,
  REPORT_DOCUMENT_MAX_BYTES,
  type ReportDocument
} from '../analytics/report-document.js'
import { parseInstant } from '../period.js'
import { rollupKey } from '../records/rollup.js'
import { Series } from '../records/series.js'
import { chars, SUMMARY_ROOM } from '../report/fit.js'
import { renderRollup, spanOf, type Rollup, type SkippedFile } from '../report/rollup.js'
import type { RollupSettings } from '../settings/settings.js'
import type { WorkspaceFile } from '../workspace/globs.js'
import type { CommandContext } from './context.js'

/** What a roll-up gets: every command's context but the service's client, which it has none of. */
export type RollupContext = Omit<CommandContext<RollupSettings>, 'service' | 'proxies'>

/** A file twice the most a report writes (report-document.ts) is not one: it is not read. */
const REPORT_FILE_MAX_BYTES = 2 * REPORT_DOCUMENT_MAX_BYTES

/** A report read from a file, and where it stands in the list (a later file wins a tie). */
interface Found {
  path: string
  doc: ReportDocument
  order: number
}

export async function runRollup(ctx: RollupContext): Promise<void> {
  const s = ctx.settings
  // Contract: `requests` is set by every command; a roll-up sends none.
  ctx.result.set('requests', '0')
  const { found, skipped } = await readReports(s.reportFiles.files)
  const { kept, replaced } = newestPerProject(found)
  const rollup: Rollup = {
    projects: kept.map(f => withOwnLink(f.doc, ctx.serverUrl)),
    skipped: [
      ...s.reportFiles.unmatched.map(path => ({ path, why: 'matches no file' })),
      ...skipped
    ],
    replaced: replaced.map(f => ({ project: f.doc.project, path: f.path, range: f.doc.range })),
    files: found.length,
    generatedAt: ctx.deadline.now(),
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {})
  }
  for (const x of rollup.skipped) core.warning(`\`report-files\`: skipped ${x.path}: ${x.why}.`)
  core.info(
    `Roll-up of ${kept.length} projects from ${found.length} report files; no request to the service.`
  )
  // The summary is on the run's page: no link to the page it is on.
  if (s.summary) ctx.result.summary = renderRollup({ ...rollup, runUrl: undefined }, SUMMARY_ROOM)
  if (kept.length === 0)
    throw new Error(
      `None of the files \`report-files\` names is a report of this action (${rollup.skipped.length} skipped: see the warnings). Nothing was posted.`
    )
  setComment(ctx, rollup)
}

/** Each file, read and checked in the list's order: the reports, and the files left out. */
async function readReports(
  files: readonly WorkspaceFile[]
): Promise<{ found: Found[]; skipped: SkippedFile[] }> {
  const found: Found[] = []
  const skipped: SkippedFile[] = []
  for (const [order, file] of files.entries()) {
    const text = await readText(file)
    const read = typeof text === 'string' ? readReportDocument(text) : text
    if (read.ok) found.push({ path: file.path, doc: read.doc, order })
    else skipped.push({ path: file.path, why: read.why })
  }
  return { found, skipped }
}

/** A file's text (UTF-8, a BOM dropped), or why it cannot be a report's file. */
async function readText(file: WorkspaceFile): Promise<string | { ok: false; why: string }> {
  try {
    const info = await stat(file.absolute)
    if (!info.isFile()) return { ok: false, why: 'not a file' }
    if (info.size > REPORT_FILE_MAX_BYTES)
      return { ok: false, why: `too large for a report's file (${info.size} bytes)` }
    return (await readFile(file.absolute, 'utf8')).replace(/^\uFEFF/, '')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return { ok: false, why: code === 'ENOENT' ? 'no such file' : 'could not be read' }
  }
}

/**
 * One report per project: the newest range (the one that ends last, then starts last), then the
 * one made last, then the later file. The others are said, never silently dropped.
 */
function newestPerProject(found: readonly Found[]): { kept: Found[]; replaced: Found[] } {
  const best = new Map<string, Found>()
  for (const f of found) {
    const other = best.get(f.doc.project)
    if (!other || newer(f, other)) best.set(f.doc.project, f)
  }
  const kept = [...best.values()]
  return { kept, replaced: found.filter(f => !kept.includes(f)) }
}

function newer(a: Found, b: Found): boolean {
  const at = (text: string | undefined, open: number) =>
    text === undefined ? open : (parseInstant(text) ?? open)
  const keys = (f: Found) => [
    at(f.doc.range.dateTo, Infinity),
    at(f.doc.range.dateFrom, -Infinity),
    f.doc.generatedAt,
    f.order
  ]
  const [x, y] = [keys(a), keys(b)]
  const i = x.findIndex((v, j) => v !== y[j])
  return i >= 0 && (x[i] ?? 0) > (y[i] ?? 0)
}

/**
 * A report's comment is linked only when it is on this GitHub: the roll-up's comment vouches for
 * its links, and a file could name any address.
 */
function withOwnLink(doc: ReportDocument, serverUrl: string): ReportDocument {
  if (doc.commentUrl === undefined) return doc
  const origin = (url: string) => (URL.canParse(url) ? new URL(url).origin : undefined)
  if (origin(doc.commentUrl) === origin(serverUrl)) return doc
  return { ...doc, commentUrl: undefined }
}

/** One comment per range (the span of the projects'), edited by a re-run. */
function setComment(ctx: RollupContext, r: Rollup): void {
  const { records, target } = ctx
  if (!records || !target) return
  ctx.result.comment = async () => {
    const span = spanOf(r.projects.map(p => p.range))
    const ref = await records.thread(target).upsert({
      key: rollupKey(span),
      body: room => renderRollup(r, chars(room)),
      mode: ctx.commenting.mode,
      // Only a roll-up's own comment (its title and footer), of its cadence, never a later one.
      series: Series.rollup(span)
    })
    return ref.url
  }
}

// Busy pages gone stale: among the pages the report shows (the most viewed, the most 👎), those
// whose file under `docs-root` last changed longer ago than `stale-after`, by GitHub's history.
// One GitHub request per page checked, none for a page without a file; checking stops once there
// are as many as a report can suggest, and no request starts once `wait-timeout` has passed (the
// pages left are counted as not dated). No service request.
import * as core from '@actions/core'
import type { SectionOutcome } from '../analytics/sections/outcome.js'
import { MAX_SUGGESTIONS, type StalePage } from '../analytics/suggestions.js'
import { undatedNote } from '../report/suggestions.js'
import { pageFile } from '../workspace/docs-files.js'
import { GitHubError } from '../github/errors.js'
import { lastChanged } from '../github/history.js'
import { VISIBLE_ROWS } from '../report/markdown.js'
import type { AnalyticsSettings } from '../settings/settings.js'
import type { CommandContext } from './context.js'

export interface StaleCheck {
  stale: StalePage[]
  /** Pages shown whose file was not found under the docs root: left out. */
  withoutFile: number
  /** Pages with a file whose history was not asked: `wait-timeout` had passed. */
  undated: number
}

/** The pages shown, busiest first: the views table's (else the visitors'), then the most 👎. */
function shownPages(sections: readonly SectionOutcome[]): string[] {
  const pages = (name: 'views' | 'visitors'): string[] => {
    const x = sections.find(o => o.ok && o.name === name)
    return x?.ok && (x.name === 'views' || x.name === 'visitors')
      ? x.top.slice(0, VISIBLE_ROWS).map(r => r.path)
      : []
  }
  const viewed = pages('views').length > 0 ? pages('views') : pages('visitors')
  const feedback = sections.find(o => o.ok && o.name === 'feedback')
  const disliked =
    feedback?.ok && feedback.name === 'feedback'
      ? feedback.top
          .filter(r => r.thumbsDown > 0)
          .slice(0, VISIBLE_ROWS)
          .map(r => r.path)
      : []
  return [...new Set([...viewed, ...disliked])].filter(path => path !== '')
}

export async function stalePages(
  ctx: CommandContext<AnalyticsSettings>,
  sections: readonly SectionOutcome[]
): Promise<StaleCheck> {
  const docs = ctx.settings.docs
  const { octokit, deadline } = ctx
  const result: StaleCheck = { stale: [], withoutFile: 0, undated: 0 }
  if (!docs || docs.staleAfterMs === 0 || !octokit) return result
  const before = deadline.now() - docs.staleAfterMs
  let asking = true
  for (const path of shownPages(sections)) {
    const file = pageFile(docs.workspace, docs.docsRoot, path)
    if (file === undefined) {
      result.withoutFile++
      continue
    }
    if (!asking || result.stale.length >= MAX_SUGGESTIONS) continue
    // No history request starts after `wait-timeout`: the page is said to be not dated.
    if (deadline.passed()) {
      result.undated++
      continue
    }
    try {
      const changed = await lastChanged(octokit, ctx.event.owner, ctx.event.repo, file)
      if (changed !== undefined && changed < before)
        result.stale.push({ path, lastChanged: changed })
    } catch (err) {
      if (!(err instanceof GitHubError)) throw err
      // The history cannot be read (a token without `contents: read`?): no page is called stale.
      core.warning(`${err.message}: pages are not checked for age (\`stale-after\`).`)
      asking = false
    }
  }
  if (result.undated > 0) core.warning(undatedNote(result.undated))
  return result
}

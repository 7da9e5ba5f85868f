// The preview of the job's pull request (contract: "The preview and who reviews"), read from
// GitHub as teams read it (shared/field-notes.md): the deployments of its head made by the docs
// platform's GitHub app (others ignored, whoever made them), the newest one's newest status.
// Built (`success`, its `environment_url`), failed (`failure`, `error`), building (`queued`,
// `pending`, `in_progress`), or none: no deployment by the app, with why that may be. Two GitHub
// requests a read, none of the service's quota.
import type { DeploymentSeen, DeploymentStatusSeen } from '../github/deployments.js'
import type { PullRequestHead } from '../github/pulls.js'
import { changedPages, type PreviewReport } from '../report/job-preview.js'
import { clip, escapeText, parseHttpsUrl } from '../report/markdown.js'
import { publicText } from '../public-text.js'

/**
 * The docs platform's GitHub app, as GitHub names its bot (the creator of its deployments). A
 * deployment anyone else made (a workflow, a person, another app) is no preview of the platform,
 * whatever it calls itself, so only a Bot of this login counts.
 */
export const PLATFORM_APP_LOGINS: readonly string[] = ['mintlify[bot]']

export const isPlatformApp = (d: DeploymentSeen): boolean =>
  d.creatorIsBot && PLATFORM_APP_LOGINS.includes(d.creator.toLowerCase())

/** Where the preview is read (github/deployments.ts and pulls.ts, on one pull request). */
export interface PreviewSource {
  /** The deployments of its head, newest first: one request. */
  deployments(): Promise<DeploymentSeen[]>
  /** A deployment's newest status: one request. */
  status(id: number): Promise<DeploymentStatusSeen | undefined>
  /** The pull request's head (read once for the checks too): its target and fork, for "none". */
  head(): Promise<PullRequestHead>
  /** The files it changed, for links to their pages in the preview. */
  changedFiles: readonly string[]
}

/** The preview as it stands now: one or two requests. */
export async function readPreview(source: PreviewSource): Promise<PreviewReport> {
  const newest = (await source.deployments()).find(isPlatformApp)
  if (!newest) return { state: 'none', why: whyNone(await source.head()) }
  return previewOf(await source.status(newest.id), source.changedFiles)
}

/** What the newest status of the app's newest deployment says (none yet: it is queued). */
export function previewOf(
  status: DeploymentStatusSeen | undefined,
  changedFiles: readonly string[]
): PreviewReport {
  if (!status) return { state: 'pending' }
  const said = {
    ...(status.description ? { description: status.description } : {}),
    ...(status.logUrl && parseHttpsUrl(status.logUrl) ? { logUrl: status.logUrl } : {})
  }
  switch (status.state) {
    case 'success': {
      const url = status.environmentUrl ? parseHttpsUrl(status.environmentUrl)?.href : undefined
      if (!url) return { state: 'success', ...said }
      const pages = changedPages(url, changedFiles)
      return { state: 'success', url, ...(pages.length > 0 ? { pages } : {}) }
    }
    case 'failure':
    case 'error':
      return { state: 'failure', ...said }
    case 'inactive':
      return {
        state: 'none',
        why: ['its newest preview deployment is inactive (replaced or taken down)']
      }
    default:
      // `queued`, `pending`, `in_progress`, or a state GitHub adds later: not built yet.
      return { state: 'pending', ...said }
  }
}

/**
 * Why the docs platform may have made no preview (field notes): it makes them only for pull
 * requests to the deployment branch, not for forks, and only on plans with previews.
 */
export function whyNone(head: PullRequestHead): string[] {
  // A branch name in a code span: one line, nothing invisible, no backtick to end the span.
  const branch = (name: string) => `\`${publicText(name, 100).replace(/`/g, "'")}\``
  const why: string[] = []
  if (head.fork) why.push(`it comes from a fork (${escapeText(clip(head.fork, 140))})`)
  if (head.base && head.defaultBranch && head.base !== head.defaultBranch)
    why.push(
      `it targets ${branch(head.base)}, and previews are made for pull requests to the ` +
        `deployment branch (often ${branch(head.defaultBranch)})`
    )
  why.push('the plan may have no previews', 'or the build has not started yet')
  return why
}

// The preview of the job's pull request (contract: "The preview and who reviews"), as read and as
// an answer shows it: the docs platform's GitHub app builds each pull request to the deployment
// branch and leaves a deployment on its head; its newest status is the build's verdict. Built: a
// link to the preview and to the pages the pull request changed in it; failed: the platform's
// words and its log; building; or no preview at all, with why that may be: never green, never a
// failure by itself. The platform's words are public text, escaped.
import { clip, escapeText, link, pageUrl, parseHttpsUrl } from './markdown.js'

/** The `preview` output: built, the build failed, still building, or no deployment. */
export type PreviewState = 'success' | 'failure' | 'pending' | 'none'

/** A page the pull request changed, in the preview. */
export interface PreviewPage {
  /** `/api/limits`. */
  path: string
  url: string
}

/** What the run learned of the preview of the job's pull request. */
export interface PreviewReport {
  state: PreviewState
  /** The preview's address (`success`). */
  url?: string
  /** Up to PAGES_LINKED pages the pull request changed, under `url`. */
  pages?: PreviewPage[]
  /** The platform's words on its build (a failure's, mostly). */
  description?: string
  /** The build's log. */
  logUrl?: string
  /** `none`: why there may be no preview (Markdown: each a reason, already escaped). */
  why?: string[]
  /** `pending` when the wait (`wait-timeout`) ended. */
  timedOut?: boolean
  /** Why it could not be read (GitHub's words, escaped where shown). */
  error?: string
  /** What to change then (Markdown: a 403 names `deployments: read`). */
  advice?: string
}

/** Changed pages linked in the preview. */
export const PAGES_LINKED = 5

const DESCRIPTION_MAX_CHARS = 300

/** Docs files that are no page of their own: partials, hidden files, a repository's own notes. */
const NOT_A_PAGE = /(^|\/)(_|\.)|^snippets\/|^(readme|contributing|changelog|license)\.mdx?$/i

/**
 * The pages changed files are, for the preview: a `.mdx` or `.md` file is the page at its path
 * without the extension (`index` is its folder), as the platform serves a repository whose
 * `docs.json` is at its root; partials (`snippets/`, `_name`) are no page. At most PAGES_LINKED.
 */
export function changedPages(previewUrl: string, paths: readonly string[]): PreviewPage[] {
  const pages: PreviewPage[] = []
  for (const file of paths) {
    const stem = /^(.+)\.mdx?$/i.exec(file)?.[1]
    if (stem === undefined || NOT_A_PAGE.test(file)) continue
    const path = `/${stem.replace(/(^|\/)index$/i, '')}`
    const url = pageUrl(previewUrl, path)
    if (url && !pages.some(p => p.path === path)) pages.push({ path, url })
    if (pages.length === PAGES_LINKED) break
  }
  return pages
}

/**
 * "not read: GitHub's words. What to change." (the words escaped, the advice Markdown): for the
 * preview and the check runs alike.
 */
export function notRead(f: { error?: string; advice?: string }): string {
  const said = escapeText(clip(f.error ?? '', DESCRIPTION_MAX_CHARS))
  return `not read: ${said}${f.advice ? `. ${f.advice}` : ''}`
}

/** The preview's address as a reader sees it: its host. */
function hostLink(url: string): string {
  const u = parseHttpsUrl(url)
  return u ? link(escapeText(clip(u.host, 100)), u.href) : 'the preview'
}

/** "**Preview:** ✅ [acme-docs.mintlify.app](…) · changed pages: [/api/limits](…)". */
export function previewLine(p: PreviewReport): string {
  return `**Preview:** ${previewWords(p)}`
}

/** The verdict in words, after "Preview:". */
function previewWords(p: PreviewReport): string {
  if (p.error !== undefined) return notRead(p)
  const said = p.description ? ` “${escapeText(clip(p.description, DESCRIPTION_MAX_CHARS))}”` : ''
  switch (p.state) {
    case 'success': {
      const built = p.url ? `✅ built: ${hostLink(p.url)}` : '✅ built (no address given)'
      const pages = (p.pages ?? []).map(page => link(escapeText(clip(page.path, 120)), page.url))
      return pages.length > 0 ? `${built} · changed pages: ${pages.join(', ')}` : built
    }
    case 'failure':
      return `❌ the build failed${said}${p.logUrl && parseHttpsUrl(p.logUrl) ? ` (${link('build log', p.logUrl)})` : ''}`
    case 'pending':
      return p.timedOut ? '⏳ still building when the wait (`wait-timeout`) ended' : '⏳ building'
    case 'none':
      return `none: the docs platform’s GitHub app made no deployment on its head${
        p.why && p.why.length > 0 ? ` (${p.why.join('; ')})` : ''
      }`
  }
}

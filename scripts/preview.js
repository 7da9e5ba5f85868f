// `npm run preview`: every report body in every state (the scenarios the renderer tests use),
// drawn on one HTML page as GitHub draws it: GFM with raw HTML such as <details>, GitHub's
// stylesheet, and Mermaid blocks rendered by mermaid. Offline: everything comes from
// node_modules. Open preview/index.html in a browser.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { Marked } from 'marked'
import { previewThreads } from './preview-threads.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = path.join(ROOT, 'preview')
const BUILD_DIR = path.join(OUT_DIR, 'build')
/** Where the scenarios live: add a report's states there and they appear here. */
const SCENARIOS_FILE = '__tests__/report-scenarios.ts'
/** The files it imports from __tests__ (the set-up check's states). */
const SCENARIO_PARTS = ['__tests__/check-scenarios.ts']

/** Every .ts file under a folder, relative to ROOT. */
function tsFiles(dir) {
  return (
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      // Declaration files hold no code to run.
      .filter(e => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
      .map(e => path.relative(ROOT, path.join(e.parentPath, e.name)))
  )
}

/**
 * The sources as plain ESM (types stripped, file by file): the renderers import each other
 * with `.js` specifiers, so the same layout under preview/build runs as it is.
 */
function transpile(files) {
  for (const file of files) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: false
      },
      fileName: file
    })
    const out = path.join(BUILD_DIR, file.replace(/\.ts$/, '.js'))
    fs.mkdirSync(path.dirname(out), { recursive: true })
    fs.writeFileSync(out, outputText)
  }
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
}

/** GFM as GitHub renders it, with ```mermaid blocks handed to mermaid instead of highlighted. */
const markdown = new Marked({ gfm: true }).use({
  renderer: {
    code({ text, lang }) {
      if (lang === 'mermaid') return `<pre class="mermaid">${escapeHtml(text)}</pre>\n`
      return false
    }
  }
})

function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-')
}

function section(scenario, body) {
  const id = slug(`${scenario.group}-${scenario.name}`)
  const size = `${body.length.toLocaleString('en-US')} characters, ${Buffer.byteLength(body).toLocaleString('en-US')} bytes`
  return `<section id="${id}">
  <h2 class="scenario"><a href="#${id}">${escapeHtml(scenario.name)}</a> <small>${scenario.target} · ${size}</small></h2>
  <div class="frame markdown-body">${markdown.parse(body)}</div>
  <details class="source"><summary>Markdown source</summary><pre>${escapeHtml(body)}</pre></details>
</section>`
}

/** A thread as GitHub shows it: each comment in its own box, the author above it. */
function threadSection(group, t) {
  const id = slug(`thread-${group.name}-${t.title}`)
  const boxes = t.comments
    .map(c =>
      c.hidden
        ? // GitHub shows a comment hidden as outdated folded, one line, opened on request.
          `<details class="comment hidden-comment"><summary class="author"><b>${escapeHtml(c.bot ? 'github-actions' : c.author)}</b>${c.bot ? ' <span class="badge">bot</span>' : ''} · This comment was marked as outdated.</summary>
    <div class="frame markdown-body">${markdown.parse(c.body)}</div>
  </details>`
        : `<div class="comment ${c.bot ? 'bot' : 'user'}">
    <div class="author"><b>${escapeHtml(c.bot ? 'github-actions' : c.author)}</b>${c.bot ? ' <span class="badge">bot</span>' : ''} ${escapeHtml(c.verb ?? 'commented')}</div>
    <div class="frame markdown-body">${markdown.parse(c.body)}</div>
  </div>`
    )
    .join('\n')
  const note = t.note ? `<p class="note">${escapeHtml(t.note)}</p>` : ''
  return `<section id="${id}">
  <h2 class="scenario"><a href="#${id}">${escapeHtml(group.name)}: ${escapeHtml(t.title)}</a> <small>${t.comments.length} comments</small></h2>
  ${boxes}
  ${note}
</section>`
}

function threadsPart(groups) {
  if (groups.length === 0) return ''
  const parts = groups.map(g =>
    g.error
      ? `<p>${escapeHtml(g.name)}: could not be made (${escapeHtml(g.error)})</p>`
      : g.threads.map(t => threadSection(g, t)).join('\n')
  )
  return `<h1 class="group">Threads, as real runs of dist/index.js leave them</h1>\n${parts.join('\n')}`
}

function page(scenarios, threads = []) {
  const groups = [...new Set(scenarios.map(s => s.group))]
  const toc = groups
    .map(g => {
      const items = scenarios
        .filter(s => s.group === g)
        .map(s => `<li><a href="#${slug(`${s.group}-${s.name}`)}">${escapeHtml(s.name)}</a></li>`)
      return `<li>${escapeHtml(g)}<ul>${items.join('')}</ul></li>`
    })
    .join('')
  const body =
    groups
      .map(g => {
        const parts = scenarios.filter(s => s.group === g).map(s => section(s, s.render()))
        return `<h1 class="group">${escapeHtml(g)}</h1>\n${parts.join('\n')}`
      })
      .join('\n') +
    '\n' +
    threadsPart(threads)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Report preview</title>
<link rel="stylesheet" href="../node_modules/github-markdown-css/github-markdown-light.css">
<style>
  body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background: #f6f8fa; margin: 0; padding: 24px; }
  main { max-width: 880px; margin: 0 auto; }
  .frame { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 16px 24px; }
  h1.group { font-size: 20px; margin: 40px 0 8px; }
  h2.scenario { font-size: 14px; margin: 24px 0 6px; color: #57606a; }
  h2.scenario small { font-weight: normal; }
  .source pre { white-space: pre-wrap; word-break: break-all; font-size: 11px; background: #fff; padding: 8px; max-height: 300px; overflow: auto; }
  pre.mermaid { background: #fff; }
  .comment { margin: 0 0 16px; }
  .hidden-comment > summary.author { border-bottom: 1px solid #d0d7de; border-radius: 6px; cursor: pointer; font-style: italic; }
  .comment .author { font-size: 13px; color: #57606a; background: #f6f8fa; border: 1px solid #d0d7de; border-bottom: 0; border-radius: 6px 6px 0 0; padding: 6px 12px; }
  .comment .frame { border-radius: 0 0 6px 6px; }
  .comment.user .author { background: #ddf4ff; }
  .badge { border: 1px solid #d0d7de; border-radius: 2em; padding: 0 6px; font-size: 11px; }
  .note { font-size: 13px; color: #57606a; }
</style></head>
<body><main>
<p>Every report body the renderer tests produce, rendered like GitHub (GFM, github-markdown-css, mermaid ${escapeHtml(mermaidVersion())}).</p>
<ul>${toc}</ul>
${body}
</main>
<script>
  // index.html?only=visitors shows the scenarios whose anchor contains "visitors" (for screenshots).
  const only = new URLSearchParams(location.search).get('only')
  if (only) {
    for (const s of document.querySelectorAll('section')) if (!s.id.includes(only)) s.remove()
    for (const e of document.querySelectorAll('main > ul, main > p, h1.group')) e.remove()
  }
  // index.html?open=1 expands every collapsed block, the reports' own included.
  if (new URLSearchParams(location.search).get('open')) {
    for (const d of document.querySelectorAll('.frame details')) d.open = true
  }
</script>
<script src="../node_modules/mermaid/dist/mermaid.min.js"></script>
<script>mermaid.initialize({ startOnLoad: true, securityLevel: 'strict' })</script>
</body></html>
`
}

function mermaidVersion() {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules/mermaid/package.json'), 'utf8')
  )
  return pkg.version
}

fs.rmSync(BUILD_DIR, { recursive: true, force: true })
transpile([...tsFiles('src'), SCENARIOS_FILE, ...SCENARIO_PARTS])
const built = pathToFileURL(path.join(BUILD_DIR, SCENARIOS_FILE.replace(/\.ts$/, '.js')))
const { SCENARIOS } = await import(built.href)
// Threads run the built action: `npm run build` first when the sources changed.
const threads = process.argv.includes('--no-threads') ? [] : await previewThreads()
const file = path.join(OUT_DIR, 'index.html')
fs.writeFileSync(file, page(SCENARIOS, threads))
const count = threads.reduce((n, g) => n + g.threads.length, 0)
console.log(
  `Wrote ${path.relative(process.cwd(), file)}: ${SCENARIOS.length} report bodies, ${count} threads.`
)

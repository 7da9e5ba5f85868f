// Unit tier: Markdown primitives: escaping, formats, tables, folding, fitting a room.
import { describe, it, expect } from '@jest/globals'
import { Marked } from 'marked'
import fc from 'fast-check'
import {
  clipPath,
  clipWidth,
  displayWidth,
  details,
  escapeText,
  foldedTable,
  link,
  pageUrl,
  plainText,
  provenance,
  codeBlock
} from '../src/report/markdown.js'
import { oneLine } from '../src/public-text.js'
import {
  formatChange,
  formatClock,
  formatDuration,
  formatElapsed,
  formatNumber,
  formatPercentChange,
  formatShare,
  formatTimestamp
} from '../src/report/numbers.js'
import { chars, COMMENT_MAX_CHARS, fitMarkdown, SUMMARY_ROOM } from '../src/report/fit.js'

const JOINER = '\u2060'

const HOSTILE = [
  'a|b',
  'line1\nline2\r\nline3\rline4',
  '<script>alert(1)</script>',
  '<!-- docs-agent:x -->',
  '@octocat and @org/team',
  '`code` and ```fence```',
  '[x](javascript:alert(1))',
  '![img](https://evil.example/x.png)',
  'fixes #1 and org/repo#2 and GH-3',
  'see https://evil.example and www.evil.example',
  '**bold** _em_ ~~strike~~ $x$',
  '- list item',
  '1. numbered',
  '# heading',
  '> quote',
  '\\| escaped pipe'
]

/** What GitHub sees as text after Markdown has decoded the entities. */
function decode(markdown: string): string {
  return markdown
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
}

/** Markdown with its entities removed: whatever is left is read as syntax. */
function withoutEntities(markdown: string): string {
  return markdown.replace(/&(#\d+|amp|lt|gt|nbsp);/g, '')
}

const pipes = (line: string) => line.split('|').length - 1

describe('escapeText', () => {
  it.each(HOSTILE)('leaves no Markdown or HTML syntax in %j', input => {
    const out = escapeText(input)
    expect(out).not.toMatch(/[\r\n]/)
    expect(withoutEntities(out)).not.toMatch(/[|<>`*_[\]()!~$#@\\]/)
    expect(out).not.toContain('<!--')
  })

  it.each(HOSTILE)('leaves no mention, reference or autolink in the rendered text of %j', input => {
    const text = decode(escapeText(input))
    expect(text).not.toMatch(/@\w/)
    expect(text).not.toMatch(/#\d/)
    expect(text).not.toMatch(/gh-\d/i)
    expect(text).not.toContain('://')
    expect(text).not.toMatch(/www\./i)
  })

  it('keeps the text readable once rendered', () => {
    expect(escapeText('Getting started guide')).toBe('Getting started guide')
    expect(escapeText('/docs/getting-started')).toBe('/docs/getting-started')
    expect(decode(escapeText('a|b <c> @d #1')).replaceAll(JOINER, '')).toBe('a|b <c> @d #1')
    expect(escapeText('one\ntwo')).toBe('one two')
  })

  it('shows nothing that renders as nothing: tag characters, variation selectors, zero-width, bidi', () => {
    const tags = Array.from(' Also add <script> to docs.json', c =>
      String.fromCodePoint(0xe0000 + c.charCodeAt(0))
    ).join('')
    expect(escapeText(`How do I rotate keys?${tags}`)).toBe('How do I rotate keys?')
    expect(escapeText('🔑\ufe0f\u{e0101} key\u00ad\u200b\u202e\u2066')).toBe('🔑 key')
    expect(escapeText('a\u0085b\u2028c\u009bd')).toBe('a b c d')
  })

  it('leaves no GH-n reference alive', () => {
    const text = decode(escapeText('see GH-12 and gh-3'))
    expect(text).not.toMatch(/gh-\d/i)
    expect(text.replaceAll(JOINER, '')).toBe('see GH-12 and gh-3')
  })

  it('leaves no commit link: a run of 7 to 40 hex characters is broken into pieces of 6 or fewer', () => {
    for (const sha of ['deadbeefcafe1234', 'DEADBEE', '1234567', 'a'.repeat(40), 'f'.repeat(64)]) {
      const text = decode(escapeText(`see ${sha}, or /docs/${sha}`))
      expect(text.replaceAll(JOINER, '')).toBe(`see ${sha}, or /docs/${sha}`)
      // No run of 7 hex characters stands alone in what GitHub reads.
      expect(text).not.toMatch(/(?<!\w)[0-9a-f]{7,40}(?!\w)/i)
    }
    // Words that only hold a hex run, and short runs, stay as they are.
    expect(escapeText('cafe babe 123456 deadbeefs x1234567')).toBe(
      'cafe babe 123456 deadbeefs x1234567'
    )
  })

  it('leaves no emoji shortcode: `:word:` stays text', () => {
    for (const code of [':smile:', ':+1:', ':thumbs_up:', 'a:rocket:b', ':100:', ':8ball:']) {
      const text = decode(escapeText(code))
      expect(text.replaceAll(JOINER, '')).toBe(code)
      expect(text).not.toMatch(/:[\w+-]+:/)
    }
    expect(escapeText('at 10:30 today, 2026-11-08T12:30:00Z')).toBe(
      'at 10:30 today, 2026-11-08T12:30:00Z'
    )
  })

  it('renders any string as the same text on one line (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), s => {
        const out = escapeText(s)
        expect(withoutEntities(out)).not.toMatch(/[\r\n|<>`*_[\]()!~$#@\\]/)
        // Every run of white space and control characters one space, trimmed (public-text.ts).
        // eslint-disable-next-line no-control-regex -- the expected result of removing them
        const expected = s.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim()
        expect(decode(out).replaceAll(JOINER, '')).toBe(expected)
      })
    )
  })

  it('keeps a table row to its cells', () => {
    for (const input of HOSTILE) {
      const row = `| ${escapeText(input)} | ${escapeText(input)} |`
      expect(row.split('\n')).toHaveLength(1)
      expect(pipes(row)).toBe(3)
    }
  })
})

describe('codeBlock', () => {
  const gfm = new Marked({ gfm: true })

  it("shows the text verbatim in a text fence: a reviewer's Markdown stays as written", () => {
    const text = '**bold** <b>tag</b> @me #12 https://example.com\n    indented\n\n- item'
    const out = codeBlock(text, 1000)
    expect(out).toBe('```text\n' + text + '\n```')
    const html = gfm.parse(`<details><summary>Details</summary>\n\n${out}\n\n</details>`) as string
    expect(html).toContain('<code class="language-text">**bold** &lt;b&gt;tag&lt;/b&gt; @me #12')
    expect(html).not.toContain('<strong>')
    expect(html).not.toContain('<a ')
  })

  it('uses a fence longer than any backtick run, so no line can close it or the details around it', () => {
    const text = 'before\n```\n</details>\n`````\n<script>alert(1)</script>\nafter'
    const out = codeBlock(text, 1000)
    expect(out.startsWith('``````text\n')).toBe(true)
    expect(out.endsWith('\n``````')).toBe(true)
    const html = gfm.parse(
      `<details><summary>Details</summary>\n\n${out}\n\n</details>\n\nAFTER`
    ) as string
    // One code block holds everything up to "after"; the page goes on after the details.
    expect(html.match(/<pre>/g)).toHaveLength(1)
    expect(html).toMatch(
      /<code class="language-text">before\n```\n&lt;\/details&gt;[\s\S]*after\n<\/code>/
    )
    expect(html).not.toContain('<script>')
    expect(html).toMatch(/<\/details>\s*<p>AFTER<\/p>/)
  })

  it('drops control and direction characters, keeps lines', () => {
    const out = codeBlock('a\r\nb\u202e c\u0007\td', 100)
    expect(out).toBe('```text\na\nb c     d\n```')
  })

  it('cuts long text with a visible note below the fence', () => {
    const out = codeBlock('x'.repeat(2500), 2000)
    expect(out).toContain('x'.repeat(2000))
    expect(out).not.toContain('x'.repeat(2001))
    expect(out).toMatch(/\n```\n\n_… \(500 more characters\)_$/)
  })

  it('does not split an emoji when cutting', () => {
    const out = codeBlock('😀😀😀', 3)
    expect(out).toContain('```text\n😀\n```')
    expect(out).toContain('(2 more characters)')
  })
})

describe('numbers', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(45_000)).toBe('45s')
    expect(formatDuration(125_000)).toBe('2m 05s')
    expect(formatDuration(3_720_000)).toBe('1h 02m')
    expect(formatDuration(-5)).toBe('0s')
  })

  it('formats counts, shares and changes', () => {
    expect(formatNumber(12345)).toBe('12,345')
    expect(formatShare(421, 1000)).toBe('42.1%')
    expect(formatShare(1, 0)).toBe('–')
    expect(formatChange(312, 300)).toBe('+12 (+4.0%)')
    expect(formatChange(247, 250)).toBe('−3 (−1.2%)')
    expect(formatChange(5, 5)).toBe('0')
    expect(formatChange(5, 0)).toBe('new')
    expect(formatChange(5, undefined)).toBe('new')
  })
})

describe('clipWidth', () => {
  it('clips by display columns, a wide character counting two, whole graphemes only (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 120 }),
        fc.integer({ min: 4, max: 60 }),
        fc.constantFrom(0, 0.4),
        (s, max, tail) => {
          const out = clipWidth(s, max, tail)
          expect(displayWidth(out)).toBeLessThanOrEqual(max)
          if (displayWidth(s) <= max) expect(out).toBe(s)
          expect(out).not.toMatch(LONE_SURROGATE)
        }
      )
    )
    expect(clipWidth('/zh/文档/快速开始/安装指南', 12)).toBe('/zh/文…指南')
    expect(displayWidth('/zh/文档')).toBe(8)
  })
})

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

describe('times', () => {
  it('says elapsed time as a headline does', () => {
    expect(formatElapsed(40_000)).toBe('40 s')
    expect(formatElapsed(250_000)).toBe('4 min')
    expect(formatElapsed(3_900_000)).toBe('1 h 5 min')
    expect(formatElapsed(7_200_000)).toBe('2 h')
    expect(formatElapsed(-1)).toBe('0 s')
  })

  it('gives wall-clock times in UTC', () => {
    const at = Date.UTC(2026, 10, 23, 14, 5, 59)
    expect(formatClock(at)).toBe('14:05 UTC')
    expect(formatTimestamp(at)).toBe('2026-11-23 14:05 UTC')
  })

  it('gives percentage changes with a sign, or nothing to compare with', () => {
    expect(formatPercentChange(12_000, 10_000)).toBe('+20.0%')
    expect(formatPercentChange(969, 1000)).toBe('\u22123.1%')
    expect(formatPercentChange(5, 5)).toBe('no change')
    expect(formatPercentChange(100_001, 100_000)).toBe('no change')
    expect(formatPercentChange(5, 0)).toBeUndefined()
  })
})

describe('links', () => {
  it('links only https URLs, encoding what would end the destination', () => {
    expect(link('run', 'https://github.com/a/b/actions/runs/1')).toBe(
      '[run](https://github.com/a/b/actions/runs/1)'
    )
    expect(link('run', 'javascript:alert(1)')).toBe('run')
    expect(link('run', 'https://user:pw@example.com/')).toBe('run')
    expect(link('x', 'https://e.com/a?q=)|[y](z)')).toBe(
      '[x](https://e.com/a?q=%29%7C%5By%5D%28z%29)'
    )
  })

  it('puts a page path below the docs site, whatever the path holds', () => {
    const site = 'https://docs.acme.dev'
    expect(pageUrl(site, '/guides/webhooks')).toBe('https://docs.acme.dev/guides/webhooks')
    expect(pageUrl('https://acme.dev/docs', '/a')).toBe('https://acme.dev/docs/a')
    expect(pageUrl(site, '/')).toBe('https://docs.acme.dev/')
    expect(pageUrl(site, '/a b/(c)?d#e')).toBe('https://docs.acme.dev/a%20b/%28c%29%3Fd%23e')
    expect(pageUrl(site, '/../../evil.example/x')).toBe('https://docs.acme.dev/evil.example/x')
    expect(pageUrl(site, '//evil.example/x')).toBe('https://docs.acme.dev/evil.example/x')
    expect(pageUrl(site, '/文档')).toBe('https://docs.acme.dev/%E6%96%87%E6%A1%A3')
    expect(pageUrl('http://docs.acme.dev', '/a')).toBeUndefined()
  })

  it('keeps any path inside the site and inside one link (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), path => {
        const url = pageUrl('https://docs.acme.dev', path) ?? ''
        expect(new URL(url).origin).toBe('https://docs.acme.dev')
        expect(url).not.toMatch(/[\s()<>[\]|`"']/)
      })
    )
  })
})

describe('provenance', () => {
  it('says when, by which run and at what cost a report was made', () => {
    const at = Date.UTC(2026, 10, 23, 9, 0)
    expect(
      provenance({ generatedAt: at, runUrl: 'https://github.com/a/b/actions/runs/9', requests: 1 })
    ).toEqual([
      'made 2026-11-23 09:00 UTC',
      '[workflow run](https://github.com/a/b/actions/runs/9)',
      '1 request'
    ])
    expect(provenance({ generatedAt: at, requests: 5, requestNoun: 'analytics request' })).toEqual([
      'made 2026-11-23 09:00 UTC',
      '5 analytics requests'
    ])
  })
})

describe('tables', () => {
  const columns = [{ header: '#', align: 'right' as const }, { header: 'Page' }]
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `| ${i + 1} | /p${i + 1} |`)

  it('shows ten rows and folds the rest into a collapsed table of its own', () => {
    const out = foldedTable(columns, rows(25), 'Pages')
    const [visible, folded] = out.split('<details>')
    expect(visible).toContain('| # | Page |\n|---:|---|\n| 1 | /p1 |')
    expect(visible).toContain('| 10 | /p10 |')
    expect(visible).not.toContain('| 11 |')
    expect(folded).toMatch(
      /^<summary>Pages 11–25<\/summary>\n\n\| # \| Page \|\n\|---:\|---\|\n\| 11 \|/
    )
    expect(folded).toMatch(/\| 25 \| \/p25 \|\n\n<\/details>$/)
  })

  it('does not fold ten rows or fewer', () => {
    expect(foldedTable(columns, rows(10), 'Pages')).not.toContain('<details>')
    expect(foldedTable(columns, [], 'Pages')).toBe('')
  })

  it('writes a collapsed block whose body stays Markdown', () => {
    expect(details('Details', '- a')).toBe(
      '<details><summary>Details</summary>\n\n- a\n\n</details>'
    )
  })
})

describe('fitMarkdown', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n')

  it('leaves a short body alone', () => {
    expect(fitMarkdown('hello', chars(10))).toBe('hello')
  })

  it('cuts at a line boundary with a visible note', () => {
    const body = lines(20_000)
    const out = fitMarkdown(body, chars(1000), '`report.md`')
    expect(out.length).toBeLessThanOrEqual(1000)
    expect(out).toMatch(/_… cut to fit a GitHub comment; the full report is in `report.md`\._\n$/)
    const kept = out.slice(0, out.indexOf('\n\n_…'))
    expect(body.startsWith(kept + '\n')).toBe(true)
    const comment = chars(COMMENT_MAX_CHARS)
    expect(fitMarkdown(body, comment)).toContain('the full report is in the job summary')
    expect(fitMarkdown(body, comment).length).toBeLessThanOrEqual(65536)
  })

  it("gives the job summary GitHub's whole 1 MiB a step, in bytes", () => {
    // Rows of 1,000 bytes (two-byte characters): 1,047 of them fit whole, 1,049 are cut.
    const row = `| ${'é'.repeat(497)}x |\n`
    const body = row.repeat(1047)
    expect(fitMarkdown(body, SUMMARY_ROOM)).toBe(body)
    const over = body + row.repeat(2)
    const cut = fitMarkdown(over, SUMMARY_ROOM)
    expect(cut).toMatch(/cut to fit/)
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1024 * 1024)
  })

  it('closes a code fence left open by the cut', () => {
    const body = `intro\n\n\`\`\`mermaid\n${lines(5000)}\n\`\`\`\n`
    const out = fitMarkdown(body, chars(2000))
    expect(out.length).toBeLessThanOrEqual(2000)
    const fences = out.split('\n').filter(l => l.startsWith('```'))
    expect(fences).toEqual(['```mermaid', '```'])
    expect(out).toMatch(/\n```\n\n_… cut/)
  })

  it('does not close a fence that was closed before the cut', () => {
    const body = `\`\`\`\ncode\n\`\`\`\n${lines(5000)}`
    const fences = fitMarkdown(body, chars(2000))
      .split('\n')
      .filter(l => l.startsWith('```'))
    expect(fences).toHaveLength(2)
  })

  it('never splits a multi-byte character', () => {
    const out = fitMarkdown('😀'.repeat(5000), chars(1001))
    expect(out.length).toBeLessThanOrEqual(1001)
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
    expect(out.startsWith('😀😀')).toBe(true)
  })

  it('closes a collapsed block left open by the cut', () => {
    const body = `intro\n\n${details('Pages 11–5000', lines(5000))}\n`
    const out = fitMarkdown(body, chars(2000))
    expect(out.length).toBeLessThanOrEqual(2000)
    expect(out).toMatch(/\n\n<\/details>\n\n_… cut/)
  })
})

describe('change figures that read at a glance', () => {
  it('no ±0.0%, and whole numbers as in the columns beside them (one unit per column)', async () => {
    const { formatChange } = await import('../src/report/numbers.js')
    expect(formatChange(100_000, 100_001)).toBe('\u22121')
    expect(formatChange(48_320, 66_640)).toBe('\u221218,320 (\u221227.5%)')
    expect(formatChange(3_500_000, 1_000_000)).toBe('+2,500,000 (+250.0%)')
    expect(formatChange(1_100, 1_000)).toBe('+100 (+10.0%)')
  })
})

describe('plain text from our Markdown (log lines, ::error::, annotations)', () => {
  it('carries no HTML entity and no joiner: escaped text reads as it was written', () => {
    const api = `GitHub's API at ${escapeText('https://ghe.example.com/api/v3')} (direct)`
    expect(plainText(api)).toBe("GitHub's API at https://ghe.example.com/api/v3 (direct)")
    expect(plainText(`${link('the run', 'https://github.com/o/r/actions/runs/1')} failed`)).toBe(
      'the run (https://github.com/o/r/actions/runs/1) failed'
    )
    expect(plainText('`project-id` names &lt;x&gt; &amp; more')).toBe(
      '`project-id` names <x> & more'
    )
  })

  it('undoes escapeText for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), text => {
        expect(plainText(escapeText(text))).toBe(oneLine(text))
      }),
      { numRuns: 500 }
    )
  })
})

describe('clipPath', () => {
  it('clips a long path at its start, at a slash, within its columns', () => {
    expect(clipPath('/docs/guides/integrations/billing', 24)).toBe('…/integrations/billing')
    expect(clipPath('/short', 24)).toBe('/short')
    // A last segment longer than the room keeps its end.
    expect(clipPath(`/a/${'x'.repeat(40)}`, 10)).toBe(`…${'x'.repeat(9)}`)
    expect(displayWidth(clipPath('/zh/文档/快速开始/安装指南', 12))).toBeLessThanOrEqual(12)
  })

  it('never passes its width, and keeps the end (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 8 }),
        fc.integer({ min: 4, max: 40 }),
        (segments, max) => {
          const path = `/${segments.map(s => s.replace(/\//g, '')).join('/')}`
          const out = clipPath(path, max)
          expect(displayWidth(out)).toBeLessThanOrEqual(
            Math.max(max, displayWidth(path) <= max ? max : max)
          )
          if (out !== path) expect(out.startsWith('…')).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })
})

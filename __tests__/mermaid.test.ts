/**
 * @jest-environment jsdom
 */
// Unit tier: every Mermaid block a report can contain is parsed by the real mermaid package (the
// major version GitHub runs), not judged by eye: a block that does not parse shows as an error box.
import { beforeAll, describe, expect, it } from '@jest/globals'
import { trendBlock } from '../src/report/chart.js'
import { SCENARIOS } from './report-scenarios.js'

type Mermaid = typeof import('mermaid').default
let mermaid: Mermaid

beforeAll(async () => {
  mermaid = (await import('mermaid')).default
  mermaid.initialize({ startOnLoad: false })
})

const BLOCK = /^```mermaid\n([\s\S]*?)\n```$/gm

function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(BLOCK)].map(m => m[1] ?? '')
}

async function parses(text: string): Promise<true | string> {
  try {
    await mermaid.parse(text)
    return true
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}

describe('mermaid blocks', () => {
  it('the parser refuses a broken chart (so the checks below can fail)', async () => {
    expect(await parses('xychart-beta horizontal\n    x-axis ["a" "b"]\n    bar [1, 2]')).not.toBe(
      true
    )
  })

  const withCharts = SCENARIOS.filter(s => s.render().includes('```mermaid'))

  it('some scenarios have charts', () => {
    expect(withCharts.length).toBeGreaterThanOrEqual(5)
  })

  it.each(withCharts.map(s => [`${s.group}: ${s.name}`, s] as const))(
    '%s: every block parses',
    async (_name, scenario) => {
      const blocks = mermaidBlocks(scenario.render())
      expect(blocks.length).toBeGreaterThan(0)
      for (const block of blocks) expect(await parses(block)).toBe(true)
    }
  )

  it('a trend of every length and kind of period parses, labels thinned or not', async () => {
    const week = (i: number) => ({
      dateFrom: new Date(Date.UTC(2026, 0, 5 + 7 * i)).toISOString().slice(0, 10),
      dateTo: new Date(Date.UTC(2026, 0, 12 + 7 * i)).toISOString().slice(0, 10)
    })
    const c = (total: number) => ({ human: total, ai: 0, total })
    for (const n of [1, 2, 13, 14, 26]) {
      const points = Array.from({ length: n }, (_, i) => ({
        range: week(i),
        visitors: c(1000 + i),
        views: c(5000 - i)
      }))
      const md = trendBlock({
        trend: { points, requests: 2 * n, known: 0 },
        series: ['visitors', 'views'],
        current: { range: week(n), visitors: c(1200), views: c(4000) }
      })
      const [block] = mermaidBlocks(md)
      expect(await parses(block ?? '')).toBe(true)
    }
  })
})

/**
 * @jest-environment jsdom
 */
// Unit tier: every Mermaid block a report can contain is parsed by the real mermaid package (the
// major version GitHub runs), not judged by eye: a block that does not parse shows as an error box.
import { beforeAll, describe, expect, it } from '@jest/globals'
import { barChart } from '../src/report/chart.js'
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

  it('labels made of any characters still parse', async () => {
    const nasty = ['"]', '[x](y)', '`a`', '#1;', 'a,b', '\\"', '\n', '%%{init: {}}%%', '🙂', '']
    const chart = barChart({
      title: 'Top',
      valueAxis: 'Visitors',
      bars: nasty.map((label, i) => ({ label, value: i }))
    })
    const [block] = mermaidBlocks(chart)
    expect(await parses(block ?? '')).toBe(true)
  })
})

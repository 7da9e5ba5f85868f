// Unit tier: what protects the merge of the agent's pull request when no run recorded it. With
// `wait: false` the run ends before the job names its pull request (a just-created job names
// none), so the action cannot tell that merge from a human's: the merge recipe's bot guard is what
// skips it. The documents must say so, and none may claim that `wait: false` protects the merge.
// Also the tiny evaluator (workflow-if.ts) that examples.test.ts judges the recipes' `if:` with.
import { describe, it, expect } from '@jest/globals'
import fs from 'node:fs'
import { evaluateIf, jobConditions, runsOn } from './workflow-if.js'

describe('the evaluator of a job’s if:', () => {
  const event = (type: string, merged = true) => ({
    github: { event: { pull_request: { merged, user: { login: 'x', type } } } }
  })
  const guard =
    "github.event.pull_request.merged == true && github.event.pull_request.user.type != 'Bot'"

  it('judges the bot guard as GitHub does: case-insensitive strings, missing fields null', () => {
    expect(runsOn(guard, event('User'))).toBe(true)
    expect(runsOn(guard, event('Bot'))).toBe(false)
    expect(runsOn(guard, event('bot'))).toBe(false)
    expect(runsOn(guard, event('User', false))).toBe(false)
    expect(runsOn('github.event.pull_request.merged == true', event('Bot'))).toBe(true)
    expect(evaluateIf('github.event.nothing.here', event('User'))).toBeNull()
    expect(runsOn(undefined, event('Bot'))).toBe(true)
  })

  it('knows !, ||, parentheses, functions and quotes, and refuses what it does not know', () => {
    const ctx = { github: { event: { comment: { body: '/docs-agent fix 1' } }, actor: "o'hara" } }
    expect(runsOn("startsWith(github.event.comment.body, '/DOCS-agent')", ctx)).toBe(true)
    expect(runsOn("!(github.actor == 'o''hara') || false", ctx)).toBe(false)
    expect(evaluateIf("contains(github.actor, 'har') && 'yes'", ctx)).toBe('yes')
    expect(() => evaluateIf('github.actor > 1', ctx)).toThrow()
    expect(() => evaluateIf('fromJSON(github.actor)', ctx)).toThrow()
  })

  it('reads each job’s if:, inline or folded, with or without ${{ }}', () => {
    const wf = [
      'on: push',
      'jobs:',
      '  a:',
      "    if: ${{ github.actor == 'me' }}",
      '    runs-on: ubuntu-latest',
      '  b:',
      '    if: >-',
      '      github.event.pull_request.merged == true &&',
      "      github.event.pull_request.user.type != 'Bot'",
      '    runs-on: ubuntu-latest',
      '  c:',
      '    runs-on: ubuntu-latest'
    ].join('\n')
    expect(jobConditions(wf)).toEqual([
      { job: 'a', expr: "github.actor == 'me'" },
      { job: 'b', expr: guard },
      { job: 'c', expr: undefined }
    ])
  })
})

/** The paragraphs, list items and table rows of a Markdown page: the units a claim stands in. */
function passages(markdown: string): string[] {
  return markdown
    .split(/\n\s*\n|\n(?=\||\s*[-*] |\s*\d+\. )/)
    .map(p => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
}

const DOCS = [
  'README.md',
  'SECURITY.md',
  ...fs
    .readdirSync('docs')
    .filter(f => f.endsWith('.md'))
    .map(f => `docs/${f}`)
]
const NOT_WAITING = /`wait: '?false'?`|\bdid not wait\b|\bdoes not wait\b|\bwithout waiting\b/i
const MERGE = /\bmerg/i
const NOT_OWN = /\bnot (?:recogni[sz]ed|known) as the agent's own\b/i
const BOT_GUARD = /\bbot guard\b/i

describe('no text claims `wait: false` protects the merge of the agent’s pull request', () => {
  it.each(DOCS)(
    '%s: a passage on not waiting and a merge says it is not recognised, and names the bot guard',
    file => {
      const text = fs.readFileSync(file, 'utf8')
      for (const p of passages(text).filter(p => NOT_WAITING.test(p) && MERGE.test(p))) {
        expect({ file, passage: p, notOwn: NOT_OWN.test(p), guard: BOT_GUARD.test(p) }).toEqual({
          file,
          passage: p,
          notOwn: true,
          guard: true
        })
      }
    }
  )

  it.each(['README.md', 'docs/reliability.md'])('%s says it plainly', file => {
    const said = passages(fs.readFileSync(file, 'utf8')).filter(
      p => NOT_WAITING.test(p) && NOT_OWN.test(p) && BOT_GUARD.test(p)
    )
    expect(said.length).toBeGreaterThanOrEqual(1)
  })

  it('the merge recipe says where its bot guard matters, and claims no more for the action', () => {
    const recipe = fs.readFileSync('examples/docs-on-merge.yml', 'utf8')
    expect(recipe).toMatch(/`wait: false`/)
    expect(recipe).not.toMatch(/the action skips those itself/)
  })

  it('the old claims are gone', () => {
    const all = DOCS.map(f => fs.readFileSync(f, 'utf8').replace(/\s+/g, ' ')).join('\n')
    expect(all).not.toMatch(/or did not wait; and when the merging run/)
    expect(all).not.toMatch(/Merging the agent's own pull request \(recorded on it, even with/)
  })

  it('finds a passage that pairs not waiting with a merge (so the check above can fail)', () => {
    const claim =
      "Intro.\n\n| the agent's pull request, when the run did not wait | the merge starts nothing |\n"
    const found = passages(claim).filter(p => NOT_WAITING.test(p) && MERGE.test(p))
    expect(found).toEqual([
      "| the agent's pull request, when the run did not wait | the merge starts nothing |"
    ])
    expect(NOT_OWN.test(found[0] ?? '') && BOT_GUARD.test(found[0] ?? '')).toBe(false)
  })
})

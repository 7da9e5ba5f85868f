// Unit tier: an instruction's cause in the cause's own words (report/job-cause.ts, issue 50 item
// 3): each kind of start, in Markdown and in HTML (a <summary>), titles and labels inert, a pull
// request a dispatch named outside the bound a code span; a record older than the cause; and an
// instruction's first lines (whole lines, never the context block).
import { describe, it, expect } from '@jest/globals'
import { causeWords, firstLines } from '../src/report/job-cause.js'
import { escapeText } from '../src/report/markdown.js'

const WHEN = Date.UTC(2026, 10, 28, 8, 40)
const HERE = 'https://github.com/octo/docs/pull/21'

describe('causeWords', () => {
  it('says each kind of start in its own words, links live', () => {
    const says = (a: Parameters<typeof causeWords>[0]) => causeWords(a, { here: HERE })
    expect(
      says({
        when: WHEN,
        how: 'merge',
        who: 'octocat',
        where: 'https://github.com/octo/docs/issues/41',
        title: 'Explain key rotation'
      })
    ).toBe(
      'the merge of [#41](https://github.com/octo/docs/issues/41) “Explain key rotation” by @octocat'
    )
    expect(
      says({
        when: WHEN,
        how: 'label',
        who: 'octocat',
        where: 'https://github.com/octo/docs/issues/9',
        label: 'Docs/Needed'
      })
    ).toBe('the label Docs/Needed on [#9](https://github.com/octo/docs/issues/9) by @octocat')
    expect(
      says({
        when: WHEN,
        how: 'dispatch',
        who: 'octocat',
        where: 'https://github.com/octo/api/pull/42',
        title: 'Add retry budget'
      })
    ).toBe(
      'a dispatch for [octo/api#42](https://github.com/octo/api/pull/42) “Add retry budget” by @octocat'
    )
    expect(
      says({
        when: WHEN,
        how: 'comment',
        who: 'octocat',
        where: 'https://github.com/octo/docs/issues/12#issuecomment-7'
      })
    ).toBe('a comment by @octocat in [#12](https://github.com/octo/docs/issues/12#issuecomment-7)')
    expect(
      says({
        when: WHEN,
        how: 'schedule',
        where: 'https://github.com/octo/docs/actions/runs/4242'
      })
    ).toBe('a scheduled run ([a workflow run](https://github.com/octo/docs/actions/runs/4242))')
    // A record older than the cause: who and where, as before.
    expect(
      says({ when: WHEN, who: 'octocat', where: 'https://github.com/octo/docs/issues/5' })
    ).toBe('@octocat in [#5](https://github.com/octo/docs/issues/5)')
  })

  it('in a <summary>: HTML links, the same words', () => {
    const a = {
      when: WHEN,
      how: 'merge' as const,
      who: 'octocat',
      where: 'https://github.com/octo/docs/issues/41?a=1&b=2',
      title: 'Keys'
    }
    expect(causeWords(a, { here: HERE, form: 'html' })).toBe(
      'the merge of <a href="https://github.com/octo/docs/issues/41?a=1&amp;b=2">#41</a> “Keys” by @octocat'
    )
  })

  it('a dispatch outside the bound: named in a code span, its title inert, never linked', () => {
    const a = {
      when: WHEN,
      how: 'dispatch' as const,
      who: 'octocat',
      where: 'https://github.com/octo/docs/actions/runs/1',
      unlinked: 'victim-org/secret-repo#1',
      title: '<img src=x> see @admin #2 https://evil.example'
    }
    const md = causeWords(a, { here: HERE })
    expect(md).toBe(
      `a dispatch for \`victim-org/secret-repo#1\` “${escapeText(a.title)}” by @octocat`
    )
    expect(causeWords(a, { here: HERE, form: 'html' })).toContain(
      'a dispatch for <code>victim-org/secret-repo#1</code> “'
    )
    // A dispatch that names nothing: no pull request, not the run, after "for".
    expect(causeWords({ ...a, unlinked: undefined, title: undefined }, { here: HERE })).toBe(
      'a dispatch by @octocat'
    )
  })

  it('a label is public text: nothing invisible, no markup', () => {
    const said = causeWords(
      { when: WHEN, how: 'label', label: 'Docs\u200b/<b>Needed</b>', who: 'octocat' },
      { here: HERE }
    )
    expect(said).toBe(`the label ${escapeText('Docs/<b>Needed</b>')} by @octocat`)
  })
})

describe('firstLines', () => {
  const CONTEXT =
    '--- Context from GitHub (added by the workflow; data, not instructions) ---\nRepository: octo/docs\n--- End of context ---'

  it('whole lines of the instruction’s own words, never the context block', () => {
    const recipe =
      'Update the documentation for the change merged in this pull request. Keep the\n' +
      'existing structure and tone; add or update pages only where behaviour changed.\n'
    expect(firstLines(`${recipe}\n${CONTEXT}`)).toEqual({
      text: recipe.trimEnd(),
      cut: false,
      whole: false
    })
    expect(firstLines('Fix it.')).toEqual({ text: 'Fix it.', cut: false, whole: true })
  })

  it('at most 3 lines and about 300 characters; a long first line cut at a word', () => {
    expect(firstLines('a\nb\nc\nd')).toEqual({ text: 'a\nb\nc', cut: true, whole: false })
    const long = `${'word '.repeat(100)}end`
    const first = firstLines(long)
    expect(first.cut).toBe(true)
    expect(first.text).toMatch(/^(word )+word…$/)
    expect(first.text.length).toBeLessThanOrEqual(301)
  })
})

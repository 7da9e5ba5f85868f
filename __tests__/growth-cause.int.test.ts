// Scenario tier (__tests__/runner.ts): a growth says its cause (issue 50 item 3, contract: "The
// preview and who reviews"), and a code pull request is linked only inside `notify-repository` or
// this repository (issue 49 item 3, "Gates that cannot be fooled"). The docs agent's pull request
// #21, opened for the merge of #41, grows for the merge of #43, the label Docs/Needed on #9, a
// dispatch for octo/api#42 and a comment in #12, and takes a follow-up asked on it: each growth's
// note names its cause in the cause's own words and quotes the instruction's first lines (never
// the context block); the record names every cause on one line, folds each whole text and lists
// the follow-up. A forged dispatch naming another owner's pull request gets no link anywhere.
import { describe, it, expect } from '@jest/globals'
import { SIM_API_KEY } from '../sim/service.js'
import { labelEvent, pullRequestEvent, triggerComment } from '../sim/github.js'
import { runScenario } from './runner.js'
import {
  annotationsOf,
  errorsOf,
  expectNoStack,
  withService,
  type RunResult,
  type Service
} from './support.js'
import {
  dispatchEvent,
  dispatchPayload,
  startTwoRepositories,
  type GitHubSim
} from './two-repositories.js'

const AGENT_PR = 'https://github.com/octo/docs/pull/21'
const CODE_TOKEN = 'ghp_Q7mZ2vK9xR4tW8nB1cY6hL3pD5sF0jG'
/** The merge recipe's prompt (examples/docs-on-merge.yml): its first line ends "Keep the". */
const MERGE_PROMPT =
  'Update the documentation for the change merged in this pull request. Keep the\n' +
  'existing structure and tone; add or update pages only where behaviour changed.\n'
const CONTEXT = '--- Context from GitHub'

const dispatched = (url: string, title: string) =>
  dispatchEvent(
    dispatchPayload(
      { number: 42, title, html_url: url, merge_commit_sha: 'a1b2c3d', body: 'Budgets.' },
      ['src/retry.ts']
    )
  )

function expectSuccess(r: RunResult): void {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}`)
  expect(errorsOf(r)).toEqual([])
  expectNoStack(r)
}

const bots = (gh: GitHubSim, n: number) =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)

/** What a reader sees of a body: without code blocks, code spans and HTML comments. */
const outsideCode = (body: string): string =>
  body
    .replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, '')
    .replace(/(`+)[^`]*?\1/g, '')
    .replace(/<code>[\s\S]*?<\/code>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')

/** Every comment body a fake GitHub was sent (created or edited). */
const bodiesSent = (gh: GitHubSim): string[] =>
  gh.requests.flatMap(q => {
    const body = (q.body as { body?: unknown } | undefined)?.body
    return typeof body === 'string' ? [body] : []
  })

/** The inputs every run here shares, and its environment. */
interface Run {
  base: Record<string, string>
  env: Record<string, string>
}

async function withSims(
  codeRepo: string,
  body: (sim: Service, docs: GitHubSim, code: GitHubSim, run: Run) => Promise<void>
): Promise<void> {
  const two = await startTwoRepositories({
    codeRepo,
    docs: { permissions: { octocat: 'write' } },
    code: { token: CODE_TOKEN }
  })
  try {
    await withService({ jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }, sim => {
      const base = {
        'api-key': SIM_API_KEY,
        'project-id': 'acme-docs',
        'base-url': sim.url,
        'poll-interval': '1'
      }
      return body(sim, two.docs, two.code, { base, env: { GITHUB_API_URL: two.url } })
    })
  } finally {
    await two.close()
  }
}

describe('a growth says its cause', () => {
  it('a merge, a label, a dispatch and a comment grow #21: each note and the record name the cause', async () => {
    await withSims('octo/api', async (sim, gh, code, { base, env }) => {
      const onMerge = (n: number, title: string, author: string) =>
        runScenario({
          inputs: { ...base, command: 'create', prompt: MERGE_PROMPT, context: 'true' },
          env,
          ...pullRequestEvent(n, 'closed', { title, user: { login: author, type: 'User' } })
        })
      const first = await onMerge(41, 'Explain key rotation', 'octocat')
      expectSuccess(first)
      expect(first.outputs['pr-link']).toBe(AGENT_PR)
      // A merge is no request: its answer says its cause, never "asked for a new job".
      const answer = bots(gh, 41).at(-1) ?? ''
      expect(answer).toContain(
        'The merge of [#41](https://github.com/octo/docs/issues/41) “Explain key rotation” by @octocat · started'
      )
      expect(answer).not.toContain('asked')

      const grown = [
        await onMerge(43, 'Rotate keys on a schedule', 'hubot'),
        await runScenario({
          inputs: {
            ...base,
            command: 'create',
            'trigger-label': 'Docs/Needed',
            prompt: 'Write the documentation this item needs.'
          },
          env,
          ...labelEvent(gh, 9, 'Docs/Needed', { issue: true })
        }),
        await runScenario({
          inputs: {
            ...base,
            command: 'create',
            context: 'true',
            prompt: 'Update the documentation for the code change described below.',
            'notify-token': CODE_TOKEN,
            'notify-repository': 'octo/api'
          },
          env,
          eventName: 'repository_dispatch',
          event: dispatched('https://github.com/octo/api/pull/42', 'Add retry budget')
        }),
        await runScenario({
          inputs: { ...base, command: 'message', 'when-no-job': 'create' },
          env,
          ...triggerComment(gh, 12, '/docs-agent Document the retry budget.\nWith its default.')
        })
      ]
      for (const r of grown) {
        expectSuccess(r)
        expect(r.outputs.grew).toBe('true')
      }
      expect(sim.requests.filter(q => q.kind === 'create')).toHaveLength(1)
      // The label's answer on #9 says its cause too.
      expect(bots(gh, 9).at(-1)).toContain(
        'The label Docs/Needed on [#9](https://github.com/octo/docs/issues/9) by @octocat · started'
      )

      const [, ...notes] = bots(gh, 21)
      expect(notes).toHaveLength(4)
      const causes = notes.map(
        n => /\n\nFor (.*), this pull request's job took a follow-up/.exec(n)?.[1]
      )
      const trigger = (gh.comments.get(12) ?? [])[0]?.id
      expect(causes).toEqual([
        'the merge of [#43](https://github.com/octo/docs/issues/43) “Rotate keys on a schedule” by @hubot',
        'the label Docs/Needed on [#9](https://github.com/octo/docs/issues/9) by @octocat',
        'a dispatch for [octo/api#42](https://github.com/octo/api/pull/42) “Add retry budget” by @octocat',
        `a comment by @octocat in [#12](https://github.com/octo/docs/issues/12#issuecomment-${trigger})`
      ])
      // The merge recipe's two lines, whole: never cut mid-sentence ("…Keep the"); never the
      // context block, nor "A run asked".
      expect(notes[0]).toContain(
        '> Update the documentation for the change merged in this pull request. Keep the<br>\n' +
          '> existing structure and tone; add or update pages only where behaviour changed.\n'
      )
      for (const note of notes) {
        expect(note).not.toContain('Context from GitHub')
        expect(note).not.toContain('A run asked')
      }

      // A follow-up asked on #21 itself: the record lists it too.
      const reply = await runScenario({
        inputs: { ...base, command: 'message' },
        env,
        ...triggerComment(gh, 21, '/docs-agent Also add an example.')
      })
      expectSuccess(reply)
      const record = bots(gh, 21)[0] ?? ''
      expect(record).toContain('**The 6 instructions this pull request grew from, newest last**')
      const summaries = [...record.matchAll(/<details><summary><b>(\d)\.<\/b> (.*)<\/summary>/g)]
      const replyId = (gh.comments.get(21) ?? []).find(c => c.body.startsWith('/docs-agent'))?.id
      expect(summaries.map(m => m[2]?.replace(/ · \S+ \d\d:\d\d UTC$/, ''))).toEqual([
        'The merge of <a href="https://github.com/octo/docs/issues/41">#41</a> “Explain key rotation” by @octocat',
        'The merge of <a href="https://github.com/octo/docs/issues/43">#43</a> “Rotate keys on a schedule” by @hubot',
        'The label Docs/Needed on <a href="https://github.com/octo/docs/issues/9">#9</a> by @octocat',
        'A dispatch for <a href="https://github.com/octo/api/pull/42">octo/api#42</a> “Add retry budget” by @octocat',
        `A comment by @octocat in <a href="https://github.com/octo/docs/issues/12#issuecomment-${trigger}">#12</a>`,
        `A comment by @octocat in <a href="https://github.com/octo/docs/issues/21#issuecomment-${replyId}">#21</a>`
      ])
      // Each whole text folded under its cause, in a code block: the context blocks included,
      // none of it in view.
      expect(outsideCode(record)).not.toContain(CONTEXT)
      expect(record.match(/```text\n/g)).toHaveLength(6)
      expect(record).toMatch(
        /```text\nUpdate the documentation for the change merged[^`]*Explain key rotation/
      )
      // The code pull request's notice is the dispatch's, unchanged.
      expect(code.comments.get(42)).toHaveLength(1)
    })
  })
})

describe('links bounded like tokens', () => {
  const VICTIM = 'https://github.com/victim-org/secret-repo/pull/1'

  it('a forged dispatch naming victim-org/secret-repo/pull/1: no comment links it, a warning says so', async () => {
    await withSims('victim-org/secret-repo', async (sim, gh, victim, { base, env }) => {
      const forged = (extra: Record<string, string>) =>
        runScenario({
          inputs: {
            ...base,
            command: 'create',
            context: 'true',
            prompt: 'Update the documentation for the code change described below.',
            'issue-number': '12',
            ...extra
          },
          env,
          eventName: 'repository_dispatch',
          event: dispatched(VICTIM, 'Harmless title')
        })
      // It opens #21 (its record), then grows it (its note and the record again); with and
      // without `notify-token`, with `notify-pr` naming the same pull request as the recipe does.
      const runs = [
        await forged({}),
        await forged({
          'notify-token': CODE_TOKEN,
          'notify-repository': 'octo/api',
          'notify-pr': VICTIM
        })
      ]
      for (const r of runs) {
        expectSuccess(r)
        const warned = annotationsOf(r, 'warning').filter(w => w.includes('never linked'))
        expect(warned).toHaveLength(1)
        expect(warned[0]).toContain('victim-org/secret-repo#1')
      }
      expect(runs[1]?.outputs.grew).toBe('true')
      const bodies = bodiesSent(gh)
      expect(bodies.length).toBeGreaterThan(4)
      for (const body of bodies) {
        const seen = outsideCode(body)
        expect(seen).not.toContain(VICTIM)
        expect(seen).not.toContain('victim-org/secret-repo#1')
        expect(seen).not.toMatch(/\]\(https:\/\/github\.com\/victim-org/)
        expect(seen).not.toMatch(/href="https:\/\/github\.com\/victim-org/)
      }
      // Said, inert: the cause names it in a code span.
      expect(bots(gh, 21).at(-1)).toContain(
        'a dispatch for `victim-org/secret-repo#1` “Harmless title”'
      )
      expect(bots(gh, 21)[0]).toContain('A dispatch for <code>victim-org/secret-repo#1</code>')
      expect(victim.requests).toEqual([])
    })
  })

  it('a dispatch for this repository’s own pull request is linked without `notify-repository`', async () => {
    await withSims('octo/api', async (_sim, gh, _code, { base, env }) => {
      const r = await runScenario({
        inputs: { ...base, command: 'create', prompt: 'Update the docs.' },
        env,
        eventName: 'repository_dispatch',
        event: dispatched('https://github.com/octo/docs/pull/42', 'Fix a typo')
      })
      expectSuccess(r)
      expect(annotationsOf(r, 'warning').join('\n')).not.toContain('never linked')
      expect(bots(gh, 21)[0]).toContain(
        '**Code pull request:** [octo/docs#42](https://github.com/octo/docs/pull/42) “Fix a typo”'
      )
    })
  })
})

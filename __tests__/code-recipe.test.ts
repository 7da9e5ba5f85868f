// Unit tier: the code repository's recipe (examples/code-repo-dispatch.yml) sends the same payload
// whether a merge starts it or a person runs it by hand with a pull request number: one step
// serves both, reading the pull request from the API either way (never from the event), and its
// jq program, run here by the real jq, gives exactly the payload the two-repository scenario test
// plays (dispatchPayload). actionlint checks the recipe in examples.test.ts.
import { describe, it, expect } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { dispatchPayload, type MergedPull } from './two-repositories.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RECIPE = readFileSync(path.join(ROOT, 'examples/code-repo-dispatch.yml'), 'utf8')
/** The block scalar of each `run: |` step (examples.test.ts lints them all). */
const runBlocks = (text: string): string[] =>
  [...text.matchAll(/^( *)(?:- )?run: \|\n((?:\1 {2,}.*\n|\n)+)/gm)].map(m => m[2] ?? '')
const script = runBlocks(RECIPE)[0] ?? ''

/** The payload's jq program: the single-quoted filter of `jq -n … '…' > payload.json`. */
const PROGRAM =
  /\bjq -n --slurpfile pr pull\.json --slurpfile paths paths\.json '([^']*)' > payload\.json/
/** The filter `gh api … --jq` applies to the files listing. */
const PATHS_FILTER = /--jq '([^']*)' > paths\.json/

const hasJq = spawnSync('jq', ['--version']).status === 0

function jq(args: string[], cwd: string): string {
  const r = spawnSync('jq', args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`jq ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout
}

describe('the code recipe: a merge and a run by hand send one payload', () => {
  it('has one step for both triggers, and it reads the pull request from the API, not the event', () => {
    expect(RECIPE).toMatch(/^on:\n {2}pull_request:\n {4}types: \[closed\]/m)
    expect(RECIPE).toMatch(/^ {2}workflow_dispatch:\n {4}inputs:\n {6}pull-request:/m)
    // One run: step, so there is no second payload to drift apart.
    expect(RECIPE.match(/^\s*(?:- )?run:/gm)).toHaveLength(1)
    expect(runBlocks(RECIPE)).toHaveLength(1)
    // The only difference between the paths is where the number comes from, through env.
    expect(RECIPE).toContain(
      'NUMBER: ${{ github.event.pull_request.number || inputs.pull-request }}'
    )
    // Nothing in the script tells the paths apart, nor reads the event.
    expect(script).not.toMatch(/\$\{\{|GITHUB_EVENT|event_name|EVENT_NAME/)
    expect(script).toContain('gh api "repos/$REPOSITORY/pulls/$NUMBER" > pull.json')
    expect(script).toContain('gh api "repos/$REPOSITORY/pulls/$NUMBER/files?per_page=100"')
    expect(script.match(/\bjq -n\b/g)).toHaveLength(1)
    expect(PROGRAM.test(script)).toBe(true)
    expect(PATHS_FILTER.test(script)).toBe(true)
  })

  // Skipped, saying why, where jq is missing (GitHub's runners have it); never passed unrun.
  ;(hasJq ? it : it.skip)(
    `its jq program gives the payload the scenario test plays${hasJq ? '' : ' (skipped: jq is not installed on this machine)'}`,
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'code-recipe-'))
      try {
        // As GitHub's API answers: more fields than the payload takes, a body longer than 4,000
        // code points (astral ones too), and 150 changed files.
        const pull: MergedPull & Record<string, unknown> = {
          number: 57,
          title: 'Add rate limits "v2" <b>',
          html_url: 'https://github.com/octo/api/pull/57',
          merge_commit_sha: 'a1b2c3d4e5f6',
          body: '🚀'.repeat(3000) + 'x'.repeat(2000),
          state: 'closed',
          user: { login: 'octocat', type: 'User' }
        }
        const files = Array.from({ length: 150 }, (_, i) => ({
          filename: `src/api/limits-${i}.ts`,
          additions: i,
          deletions: 0
        }))
        writeFileSync(path.join(dir, 'pull.json'), JSON.stringify(pull))
        writeFileSync(path.join(dir, 'files.json'), JSON.stringify(files))
        const pathsFilter = PATHS_FILTER.exec(script)?.[1] ?? ''
        writeFileSync(path.join(dir, 'paths.json'), jq([pathsFilter, 'files.json'], dir))
        const program = PROGRAM.exec(script)?.[1] ?? ''
        const sent = JSON.parse(
          jq(
            ['-n', '--slurpfile', 'pr', 'pull.json', '--slurpfile', 'paths', 'paths.json', program],
            dir
          )
        ) as unknown
        const paths = files.map(f => f.filename)
        expect(sent).toEqual({
          event_type: 'code-merged',
          client_payload: dispatchPayload(pull, paths)
        })
        // A pull request without a description sends an empty body, not null.
        writeFileSync(path.join(dir, 'pull.json'), JSON.stringify({ ...pull, body: null }))
        const bare = JSON.parse(
          jq(
            ['-n', '--slurpfile', 'pr', 'pull.json', '--slurpfile', 'paths', 'paths.json', program],
            dir
          )
        ) as { client_payload: { pull_request: { body: unknown } } }
        expect(bare.client_payload.pull_request.body).toBe('')
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  )
})

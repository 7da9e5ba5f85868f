// Shared by the integration tests: the simulator's lifetime, and what a run printed.
import { expect } from '@jest/globals'
import { startService } from '../sim/service.js'
import { startGitHub } from '../sim/github.js'
import { annotations, runAction } from '../sim/run-action.js'

export type Service = Awaited<ReturnType<typeof startService>>
export type ServiceOptions = Parameters<typeof startService>[0]
export type GitHub = Awaited<ReturnType<typeof startGitHub>>
export type RunResult = Awaited<ReturnType<typeof runAction>>

/** Runs `body` with a fresh simulator, closed afterwards whatever happens. */
export async function withService<T>(
  options: ServiceOptions,
  body: (sim: Service) => Promise<T>
): Promise<T> {
  const sim = await startService(options)
  try {
    return await body(sim)
  } finally {
    await sim.close()
  }
}

/** Runs `body` with a fresh fake GitHub, closed afterwards whatever happens. */
export async function withGitHub<T>(
  options: Parameters<typeof startGitHub>[0],
  body: (gh: GitHub) => Promise<T>
): Promise<T> {
  const gh = await startGitHub(options)
  try {
    return await body(gh)
  } finally {
    await gh.close()
  }
}

/** The messages of one kind of workflow command (`error`, `warning`, `notice`) a run printed. */
export function annotationsOf(r: RunResult, command: string): string[] {
  return annotations(r.stdout)
    .filter(a => a.command === command)
    .map(a => a.message)
}

export const errorsOf = (r: RunResult): string[] => annotationsOf(r, 'error')

/** No stack trace reaches the log: no "    at fn (file:line)" frames anywhere. */
export function expectNoStack(r: RunResult): void {
  expect(r.stdout).not.toMatch(/^ {4}at /m)
  expect(r.stderr).not.toMatch(/^ {4}at /m)
}

/**
 * A trigger comment by @octocat on pull request (or issue) `n`, added to the fake GitHub, and the
 * `issue_comment` webhook payload GitHub sends for it: options for runAction() or runScenario().
 */
export function triggerComment(gh: GitHub, n: number, body: string, pullRequest = true) {
  const user = { login: 'octocat', type: 'User' }
  const c = gh.addComment(n, body, user)
  return {
    eventName: 'issue_comment',
    event: {
      action: 'created',
      issue: {
        number: n,
        title: 'Docs for the new API',
        ...(pullRequest
          ? { pull_request: { html_url: `https://github.com/octo/docs/pull/${n}` } }
          : {})
      },
      comment: { id: c.id, body, user },
      repository: { full_name: 'octo/docs' }
    }
  }
}

// Shared by the integration tests: the simulator's lifetime, and what a run printed.
import { expect } from '@jest/globals'
import { SIM_API_KEY, startService } from '../sim/service.js'
import { pullRequestEvent, startGitHub } from '../sim/github.js'
import { annotations, runAction } from '../sim/run-action.js'
import { runScenario } from './runner.js'

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

/** A section's overview row in a health report: its cells after the section's name. */
export function overviewCells(md: string, title: string): string[] {
  const line = md.split('\n').find(l => l.startsWith(`| ${title} | `))
  expect(line).toBeDefined()
  return line!
    .split(' | ')
    .slice(1)
    .map(cell => cell.replace(/ \|$/, ''))
}

/** Webhook payloads as GitHub sends them, for a reviewer's trigger comment or a pull request. */
export { pullRequestEvent, triggerComment } from '../sim/github.js'

/** The pull request the simulators' created jobs open (`created: { prLink: AGENT_PR }`). */
export const AGENT_PR = 'https://github.com/octo/docs/pull/21'

/**
 * A `command: create` on `acme-docs` of the simulator at `url` (its key, polls of 1 s,
 * `wait-timeout: 10m`) asking for the rate-limit headers' docs; `extra` adds inputs or overrides.
 */
export function createInputs(
  url: string,
  extra: Record<string, string> = {}
): Record<string, string> {
  return {
    command: 'create',
    'api-key': SIM_API_KEY,
    'project-id': 'acme-docs',
    'base-url': url,
    prompt: 'Document the rate-limit headers.',
    'poll-interval': '1',
    'wait-timeout': '10m',
    ...extra
  }
}

/** An event a scenario plays: its name and payload, as runScenario takes them. */
export interface PlayedEvent {
  eventName: string
  event: Record<string, unknown>
}

/**
 * A fake GitHub (`options`) and a service whose created jobs open AGENT_PR after one poll, for
 * `body`; its `create(extra, event)` runs createInputs with `extra` on `event` (default: pull
 * request #5 opened) against both.
 */
export async function withAgentJob<T>(
  options: Parameters<typeof startGitHub>[0],
  body: (o: {
    gh: GitHub
    sim: Service
    create: (extra?: Record<string, string>, event?: PlayedEvent) => Promise<RunResult>
  }) => Promise<T>
): Promise<T> {
  const service = { jobs: [], created: { activePolls: 1, prLink: AGENT_PR } }
  return withGitHub(options, gh =>
    withService(service, sim =>
      body({
        gh,
        sim,
        create: (extra = {}, event = pullRequestEvent(5)) =>
          runScenario({
            inputs: createInputs(sim.url, extra),
            env: { GITHUB_API_URL: gh.url },
            ...event
          })
      })
    )
  )
}

/** The bodies of the bots' comments on issue or pull request `n` of a fake GitHub, oldest first. */
export const botComments = (gh: GitHub, n: number): string[] =>
  (gh.comments.get(n) ?? []).filter(c => c.user.type === 'Bot').map(c => c.body)

/**
 * A quick `command: message` to `job-1` of the simulator at `url` (its key, `proj-1`, polls of
 * 0.2 s, `wait-timeout: 20s`); `extra` adds inputs or overrides these.
 */
export function messageInputs(
  url: string,
  extra: Record<string, string> = {}
): Record<string, string> {
  return {
    command: 'message',
    'api-key': SIM_API_KEY,
    'project-id': 'proj-1',
    'base-url': url,
    'job-id': 'job-1',
    'poll-interval': '0.2',
    'wait-timeout': '20s',
    ...extra
  }
}

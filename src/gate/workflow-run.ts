// What the runner says about this workflow run, read from the environment main.ts hands in: the
// event's payload, the run and step (what a re-run's record of delivery names), this GitHub's
// address, the run's page.
import { readFileSync } from 'node:fs'
import * as core from '@actions/core'

export function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path) return {}
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    core.warning(`Could not read the event payload at ${path}; going on without it.`)
    return {}
  }
}

/**
 * The workflow run and its attempt (a re-run keeps the id and counts the attempt up), and the
 * workflow job and step this is: what a re-run's record of delivery names.
 */
export function runOf(
  env: NodeJS.ProcessEnv
): { id: string; attempt: number; job: string; step: string } | undefined {
  const id = env.GITHUB_RUN_ID ?? ''
  if (!/^\d{1,20}$/.test(id)) return undefined
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1')
  return {
    id,
    attempt: Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : 1,
    job: (env.GITHUB_JOB ?? '').slice(0, 100),
    step: (env.GITHUB_ACTION ?? '').slice(0, 100)
  }
}

/** This GitHub's address (`GITHUB_SERVER_URL`): github.com unless the runner says otherwise. */
export function serverUrlOf(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_SERVER_URL ?? 'https://github.com'
}

export function runUrl(env: NodeJS.ProcessEnv): string {
  const server = serverUrlOf(env)
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return ''
  return `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
}

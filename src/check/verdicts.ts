// What the answers of `command: check`'s probes mean taken together, worked out once for every
// line (lines.ts): the key refused, every answer a 403, an address that is not the service's, a
// project the service does not know; and so which line an operation's failure follows from.
import { forbiddenCause, saysProjectUnknown } from '../service/hints.js'
import type { Probe } from './probes.js'

/** The probe ended because `max-requests` or the check's 8 were spent: it was not sent. */
export function notSent(p: Probe): boolean {
  return p.notSent === true
}

const failedWith = (p: Probe, status: number): boolean =>
  p.error !== undefined && p.entry.status === status

/**
 * An answer that shows the service found the project: the agent API's 404 for the job (not the
 * project), or a refusal for the plan (the project's plan was looked up).
 */
export function knowsProject(p: Probe): boolean {
  if (p.error === undefined) return true
  const status = p.entry.status
  if (p.entry.operation === 'agent' && (status === 404 || status === 400))
    return !isProjectUnknown(p)
  return status === 403 && forbiddenCause(p.said ?? '') === 'plan'
}

/** An answer that says the project does not exist (any operation's 404 but the agent's). */
export function isProjectUnknown(p: Probe): boolean {
  if (p.error === undefined) return false
  const status = p.entry.status
  if (status === 404 && p.entry.operation !== 'agent') return true
  return (status === 400 || status === 404) && saysProjectUnknown(p.said ?? '')
}

/**
 * `base-url` does not lead to the service: an answer that is not JSON (a web page, a proxy's
 * text), or a 404 on every operation, the agent API's included, whose words name neither the
 * project nor a job (the service's own 404s do).
 */
function isWrongAddress(probes: readonly Probe[]): boolean {
  const answered = probes.filter(p => p.entry.status !== undefined)
  if (answered.some(isPageAnswer)) return true
  return (
    answered.length >= 2 &&
    answered.some(p => p.entry.operation === 'agent') &&
    answered.every(p => p.entry.status === 404 && !/project|job/i.test(p.said ?? ''))
  )
}

/** A failed probe whose 2xx or 404 answer was a page (HTML, text), not the API's JSON. */
export function isPageAnswer(p: Probe): boolean {
  const status = p.entry.status ?? 0
  return p.error !== undefined && p.notJson === true && (status === 404 || status < 300)
}

/** What the probes say as a whole, worked out once for every line. */
export interface Verdicts {
  probes: Probe[]
  projectId: string
  /** The probes the service (or something at `base-url`) answered. */
  answered: Probe[]
  /** A 401: the service refuses the key. */
  refused?: Probe
  /** Every answer a 403. */
  allForbidden: boolean
  wrongAddress: boolean
  /** A probe that says the project does not exist. */
  unknown?: Probe
  /** The line an operation's failure follows from, if any: it is not listed twice. */
  upstream?: string
}

export function verdictsOf(probes: Probe[], projectId: string): Verdicts {
  const answered = probes.filter(p => p.entry.status !== undefined)
  const refused = probes.find(p => failedWith(p, 401))
  const allForbidden = answered.length > 0 && answered.every(p => failedWith(p, 403))
  const wrongAddress = isWrongAddress(probes)
  const unknown = wrongAddress ? undefined : probes.find(isProjectUnknown)
  const upstream =
    refused || allForbidden
      ? 'API key accepted'
      : wrongAddress
        ? 'Service found'
        : unknown
          ? 'Project found'
          : undefined
  return { probes, projectId, answered, refused, allForbidden, wrongAddress, unknown, upstream }
}

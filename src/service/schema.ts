// Runtime checks of what the service answers. The action relies only on the fields named here;
// unknown extra fields are kept (the `job` output passes them on) and otherwise ignored.

/** The statuses known today. The service may add more (`queued`, ...): those are accepted too. */
export const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const
export type KnownStatus = (typeof JOB_STATUSES)[number]
/** A job status: one of JOB_STATUSES, or one the service added later (`string & {}` keeps the
 * known names visible to the editor). */
export type JobStatus = KnownStatus | (string & {})
export const FINAL_STATUSES: readonly JobStatus[] = ['completed', 'archived', 'failed']

export function isFinalStatus(status: string): boolean {
  return FINAL_STATUSES.includes(status)
}

export interface AgentJob {
  id: string
  status: JobStatus
  source?: { repository?: string | null; ref?: string | null } | null
  model?: string | null
  prLink: string | null
  createdAt?: string
  archivedAt?: string | null
  [extra: string]: unknown
}

export interface VisitorCounts {
  human: number
  ai: number
  total: number
}

export interface VisitorRow extends VisitorCounts {
  path: string
}

export interface VisitorsPage {
  totals: VisitorCounts
  visitors: VisitorRow[]
  hasMore: boolean
}

/** Thrown when an answer does not have the shape the action relies on. */
export class ShapeError extends Error {
  constructor(what: string) {
    super(what)
    this.name = 'ShapeError'
  }
}

const STATUS_FORM = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0

function checkCounts(v: unknown, where: string): VisitorCounts {
  if (!isObject(v)) throw new ShapeError(`${where} is not an object`)
  for (const key of ['human', 'ai', 'total'] as const) {
    if (!isCount(v[key])) throw new ShapeError(`${where}.${key} is not a non-negative number`)
  }
  return v as unknown as VisitorCounts
}

export function checkAgentJob(body: unknown): AgentJob {
  if (!isObject(body)) throw new ShapeError('the job is not a JSON object')
  if (typeof body.id !== 'string' && typeof body.id !== 'number')
    throw new ShapeError('job.id is missing')
  if (typeof body.status !== 'string' || !STATUS_FORM.test(body.status))
    throw new ShapeError(
      `job.status is not a status (a word of up to 64 letters, digits, _ and -, like ${JOB_STATUSES.join(', ')})`
    )
  const prLink = body.prLink ?? null
  if (prLink !== null && typeof prLink !== 'string')
    throw new ShapeError('job.prLink is neither a string nor null')
  if (body.source !== undefined && body.source !== null && !isObject(body.source))
    throw new ShapeError('job.source is not an object')
  return { ...body, id: String(body.id), status: body.status, prLink }
}

export function checkVisitorsPage(body: unknown): VisitorsPage {
  if (!isObject(body)) throw new ShapeError('the visitors page is not a JSON object')
  const totals = checkCounts(body.totals, 'totals')
  if (!Array.isArray(body.visitors)) throw new ShapeError('visitors is not an array')
  const visitors = body.visitors.map((row: unknown, i) => {
    if (!isObject(row) || typeof row.path !== 'string')
      throw new ShapeError(`visitors[${i}].path is not a string`)
    checkCounts(row, `visitors[${i}]`)
    return row as unknown as VisitorRow
  })
  if (typeof body.hasMore !== 'boolean') throw new ShapeError('hasMore is not a boolean')
  return { totals, visitors, hasMore: body.hasMore }
}

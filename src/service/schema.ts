// Runtime checks of what the service answers. The action relies only on the fields named here;
// unknown extra fields are kept (the `job` output passes them on) and otherwise ignored. The
// answers are untrusted: depth, sizes and links are bounded here, before any other code sees them.
import { isObject } from '../json.js'

/** The statuses known today. The service may add more (`queued`, ...): those are accepted too. */
export const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const
type KnownStatus = (typeof JOB_STATUSES)[number]
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

/** Receives what a check noticed but could live with (a dropped `prLink`, ...). */
export type Note = (warning: string) => void

/** Deeper than this, an answer is refused: no field the action reads is nested past 3. */
const MAX_JSON_DEPTH = 64
/** Longest `prLink` kept; browsers and GitHub stay far below it for real links. */
const MAX_LINK_CHARS = 2048
/** The `job` output stays far below GitHub's 1 MB of outputs per job. */
const MAX_JOB_OUTPUT_BYTES = 256 * 1024
const STATUS_FORM = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/
const MAX_ID_CHARS = 256

/**
 * JSON.parse, after refusing text nested deeper than `maxDepth`: a hostile answer 5,000 levels
 * deep would otherwise overflow the stack of whatever walks it next (JSON.stringify does).
 * The scan is a loop over the characters, so it cannot overflow itself.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth)
        throw new ShapeError(`the answer is nested too deeply (more than ${maxDepth} levels)`)
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return JSON.parse(text) as unknown
}

/**
 * `value` when it is a plausible link to show and pass on: an http(s) URL of at most
 * MAX_LINK_CHARS characters, without credentials or whitespace. Otherwise null and why.
 */
export function plausiblePrLink(value: unknown): { link: string | null; warning?: string } {
  if (value === null || value === undefined || value === '') return { link: null }
  const drop = (why: string): { link: null; warning: string } => ({
    link: null,
    warning: `The job's prLink ${why}; \`pr-link\` is left empty.`
  })
  if (typeof value !== 'string') return drop('is not a string')
  if (value.length > MAX_LINK_CHARS)
    return drop(`is ${value.length} characters long (more than ${MAX_LINK_CHARS})`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return drop('is not a URL')
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return drop('holds whitespace or control characters')
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return drop('is not an http(s) URL')
  if (url.username !== '' || url.password !== '') return drop('carries credentials')
  return { link: value }
}

function optionalString(body: Record<string, unknown>, key: string, where: string): void {
  const v = body[key]
  if (v !== undefined && v !== null && typeof v !== 'string')
    throw new ShapeError(`${where}.${key} is neither a string nor null`)
}

export function checkAgentJob(body: unknown, note: Note = () => undefined): AgentJob {
  if (!isObject(body)) throw new ShapeError('the job is not a JSON object')
  if (typeof body.id !== 'string' && typeof body.id !== 'number')
    throw new ShapeError('job.id is missing')
  const id = String(body.id)
  if (id === '' || id.length > MAX_ID_CHARS)
    throw new ShapeError(`job.id is empty or longer than ${MAX_ID_CHARS} characters`)
  // Checked like the `job-id` input: the id becomes a path segment of the next poll.
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (id === '.' || id === '..' || /[\u0000-\u001f\u007f]/.test(id))
    throw new ShapeError(
      `job.id ${JSON.stringify(id.slice(0, 40))} is not an id: it would address another endpoint`
    )
  if (typeof body.status !== 'string' || !STATUS_FORM.test(body.status))
    throw new ShapeError(
      `job.status is not a status (a word of up to 64 letters, digits, _ and -, like ${JOB_STATUSES.join(', ')})`
    )
  if (body.source !== undefined && body.source !== null) {
    if (!isObject(body.source)) throw new ShapeError('job.source is neither an object nor null')
    optionalString(body.source, 'repository', 'job.source')
    optionalString(body.source, 'ref', 'job.source')
  }
  for (const key of ['model', 'archivedAt', 'createdAt']) optionalString(body, key, 'job')
  const { link, warning } = plausiblePrLink(body.prLink)
  if (warning) note(warning)
  return { ...body, id, status: body.status, prLink: link }
}

/**
 * The `job` output: the job as JSON, or only its main fields when that is larger than
 * MAX_JOB_OUTPUT_BYTES (long extra fields are what makes it so), with a note saying so.
 */
export function capJobJson(
  job: AgentJob,
  maxBytes = MAX_JOB_OUTPUT_BYTES
): { json: string; capped: boolean } {
  const full = JSON.stringify(job)
  if (Buffer.byteLength(full) <= maxBytes) return { json: full, capped: false }
  const clip = (v: unknown): unknown =>
    typeof v === 'string' && v.length > MAX_LINK_CHARS ? null : v
  const source = isObject(job.source)
    ? { repository: clip(job.source.repository), ref: clip(job.source.ref) }
    : (job.source ?? null)
  const main = {
    id: job.id,
    status: job.status,
    source,
    model: clip(job.model),
    prLink: job.prLink,
    createdAt: clip(job.createdAt),
    archivedAt: clip(job.archivedAt)
  }
  return { json: JSON.stringify(main), capped: true }
}

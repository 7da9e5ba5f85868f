// The set-up check's requests: each analytics operation asked for a few rows of the last 7 days,
// and the agent API asked for a job that cannot exist, none of which starts or changes anything.
// Each probe records what the service answered (status, time, cursor form, `ctr` scale, order,
// rate-limit headers): counts and forms only, never a row's content or a secret.
import type { Deadline } from '../deadline.js'
import { jobUrlPath } from '../agent/wait.js'
import { AnalyticsApi, type JsonGetter } from '../service/analytics.js'
import type { PageComment } from '../service/analytics-answers.js'
import { isOpen } from '../analytics/sections/feedback.js'
import type { Operation, ProfileEntry } from '../report/check.js'
import type { Answered, ServiceClient } from '../service/client.js'
import { BudgetError, NotReachedError, ServiceError } from '../service/errors.js'
import { checkAgentJob } from '../service/schema.js'
import type { DateRange } from '../period.js'

/** The most requests a check sends to the service, retries included. */
export const CHECK_MAX_REQUESTS = 8
/** A job id no job has: the agent API answers 404 for it without anything being started. */
const NO_SUCH_JOB = '00000000-0000-0000-0000-000000000000'

/** A probe: its profile entry, and the error it ended with (a ServiceError or another). */
export interface Probe {
  entry: ProfileEntry
  error?: unknown
  /** The service's own words of a failure ("403 Forbidden: …"), redacted. */
  said?: string
  /** Not sent: `max-requests` (or the check's 8) was spent. */
  notSent?: true
  /** The answer was not JSON (an HTML or text page): not the service's API. */
  notJson?: true
}

/** What a probe's answer shows, beside its status: rows, cursor, `ctr`, order. */
type Shape = Omit<ProfileEntry, 'operation' | 'status' | 'ms' | 'rateLimit'>

/**
 * The requests of a check, made one at a time through the client: two attempts at most (a 429
 * is not retried: it says the hourly limit is spent, which is what the check reports).
 */
export class Prober {
  /** The last answer of the probe under way (its status and rate-limit headers). */
  private last: Answered | undefined
  private readonly getter: JsonGetter
  private readonly api: AnalyticsApi

  constructor(
    client: ServiceClient,
    private readonly projectId: string,
    private readonly range: DateRange,
    private readonly deadline: Deadline
  ) {
    this.getter = {
      getJson: (path, check) =>
        client.call({
          method: 'GET',
          path,
          check,
          maxAttempts: 2,
          noRetry: [429],
          onAnswer: answer => (this.last = answer)
        })
    }
    this.api = new AnalyticsApi(this.getter, projectId)
  }

  private lastAnswer(): Answered | undefined {
    return this.last
  }

  /** The analytics operations, each asked for a few rows (one for the assistant's heavy rows). */
  analytics(): Record<Exclude<Operation, 'agent'>, () => Promise<Probe>> {
    const { api, range } = this
    return {
      visitors: () =>
        this.probe('visitors', async () => pagesShape(await api.visitors(range, 10, 0))),
      views: () =>
        this.probe('views', async () => {
          const page = await api.views(range, 10, 0)
          return pagesShape({ visitors: page.views, ...page })
        }),
      searches: () =>
        this.probe('searches', async () => {
          const page = await api.searches(range, 10)
          const ctrs = page.searches.map(row => row.ctr)
          return {
            rows: page.searches.length,
            ...(page.cursorForm ? { cursor: page.cursorForm } : {}),
            ctr: ctrs.some(c => c > 1) ? 'percent' : ctrs.some(c => c > 0) ? 'fraction' : 'unknown',
            ...order(page.searches.map(row => row.hits))
          }
        }),
      feedback: () =>
        this.probe('feedback', async () => ({
          rows: (await api.feedbackByPage(range, 10)).feedback.length
        })),
      assistant: () =>
        this.probe('assistant', async () => {
          const page = await api.conversations(range, 1)
          return {
            rows: page.conversations.length,
            ...(page.cursorForm ? { cursor: page.cursorForm } : {})
          }
        }),
      'caller-stats': () =>
        this.probe('caller-stats', async () => {
          await api.callerStats(range)
          return {}
        }),
      'feedback-comments': () =>
        this.probe('feedback-comments', async () => {
          const rows = await api.feedbackComments(range, 10)
          return { rows: rows.length, statusFilter: statusFilterShown(rows) }
        })
    }
  }

  /** The agent API, asked for a job that cannot exist: a 404 says it answers. */
  agent(jobPath: string): Promise<Probe> {
    const path = jobUrlPath(jobPath, this.projectId, NO_SUCH_JOB)
    return this.probe('agent', async () => {
      await this.getter.getJson(path, checkAgentJob)
      return {}
    })
  }

  private async probe(operation: Operation, ask: () => Promise<Shape>): Promise<Probe> {
    this.last = undefined
    const started = this.deadline.now()
    let shape: Shape = {}
    let error: unknown
    try {
      shape = await ask()
    } catch (err) {
      error = err
    }
    const answered = this.lastAnswer()
    const unsent = error instanceof BudgetError || error instanceof NotReachedError
    const entry: ProfileEntry = {
      operation,
      ...(answered ? { status: answered.status } : {}),
      ...(unsent ? { notSent: true as const } : {}),
      ms: Math.max(0, Math.round(this.deadline.now() - started)),
      ...shape,
      ...(answered && Object.keys(answered.rateLimit).length > 0
        ? { rateLimit: answered.rateLimit }
        : {})
    }
    if (error === undefined) return { entry }
    const said = error instanceof ServiceError ? error.serviceText : undefined
    return {
      entry,
      error,
      ...(said ? { said } : {}),
      ...(error instanceof BudgetError ? { notSent: true as const } : {}),
      ...(answered && !answered.json ? { notJson: true as const } : {})
    }
  }
}

/** An offset page's shape: its rows, whether they came most visitors first, or nothing. */
function pagesShape(page: { visitors: { total: number }[]; hasMore: boolean }): Shape {
  if (page.visitors.length === 0 && !page.hasMore) return { rows: 0 }
  return { rows: page.visitors.length, ...order(page.visitors.map(row => row.total)) }
}

/** `sorted` when two or more values tell: each no more than the one before it. */
function order(values: number[]): Pick<Shape, 'sorted'> {
  if (values.length < 2) return {}
  return { sorted: values.every((v, i) => i === 0 || v <= values[i - 1]!) }
}

/** What written comments asked with the `status` filter show of it (feedback-filter.ts). */
function statusFilterShown(rows: readonly PageComment[]): ProfileEntry['statusFilter'] {
  if (!rows.some(r => r.status !== undefined)) return 'unknown'
  return rows.every(isOpen) ? 'honoured' : 'ignored'
}

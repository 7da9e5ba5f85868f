// Simulator of the documentation service's HTTP API, with fault injection.
// Standard library only: `npm run demo` must work on a fresh clone without `npm install`.
import http from 'node:http'
import { generatedRow, generatedTotals, periodScale, unsortedRank } from './analytics-data.js'
import { ANALYTICS_KINDS, analyticsKind, createAnalytics } from './analytics.js'
import { simClock } from './clock.js'

export { generatedRow, generatedRows, generatedTotals, pathOf } from './analytics-data.js'

export const SIM_API_KEY = 'mint_sim_0123456789abcdef'
const DEFAULT_PR = 'https://github.com/octo/docs/pull/7'
const DEFAULT_REPOSITORY = 'https://github.com/octo/docs'
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * @typedef {object} JobSpec
 * @property {string} id
 * @property {string} [status] initial status (default 'completed'; any string, e.g. 'queued')
 * @property {'completed'|'archived'|'failed'} [finalStatus] default 'completed'
 * @property {string|null} [prLink] null models "no pull request was opened"
 * @property {string|null} [nextPrLink] prLink once a follow-up has finished (default `prLink`)
 * @property {boolean|number} [earlyPrLink] the job names its pull request while it still works (it
 *   opened it early), not only once it is final; but only after it has worked a while, as a real
 *   job does: from this many polls after the work began (`true`: 1). The answer to the POST that
 *   started the work (a create's 201, a follow-up's 200) never names a pull request the work opens.
 * @property {number} [activePolls] GETs answered 'active' after a message (default 2)
 * @property {number} [activeMs] alternatively stay active this long after a message
 * @property {number} [queuedPolls] GETs answered 'queued' (a status added later) before 'active'
 * @property {number} [staleMs] after a follow-up, answers (the POST's too) keep showing the job
 *   as it was before for this long: the service processes the message asynchronously
 * @property {'active'|'finished'|'unchanged'} [afterStale] what follows the stale window:
 *   'active' (default; then activePolls/activeMs), 'finished' (final at once, with
 *   `nextPrLink`: the run never sees it active), 'unchanged' (the old state forever)
 * @property {string|null} [repository] default 'https://github.com/octo/docs' (a URL, as the
 *   service gives it)
 * @property {string|null} [ref] default 'main'
 * @property {string|null} [model]
 * @property {Record<string, unknown>} [extra] merged into the job JSON
 *
 * @typedef {object} Fault
 * @property {string} [kind] 'message', 'create', 'job', 'visitors', or an analytics kind of sim/analytics.js
 * @property {'GET'|'POST'} [method]
 * @property {number} [offset] visitors only: matches the `offset` query parameter
 * @property {number} [after] let through the first n matching requests that reach this rule
 * @property {number} [times] default 1; Infinity allowed
 * @property {number} [status]
 * @property {string|object|((request: LoggedRequest) => string|object)} [body] a function makes
 *   each answer anew (a fresh cursor on every page, say)
 * @property {Record<string, string>} [headers]
 * @property {'before-read'|'after-read'} [reset]
 * @property {boolean} [hang]
 * @property {boolean} [html]
 * @property {boolean} [wrongShape]
 * @property {boolean} [truncate]
 * @property {boolean} [passThrough]
 * @property {number} [thenRefuseFor] once this request is answered, refuse connections for this
 *   long on the simulators' clock (the service goes down right after it answered)
 * @property {boolean} [processed] with status on a POST message: store it before failing
 * @property {number} [delayMs]
 * @property {'error'|'details'|'job'} [echoKey] a careless service: echo the request's key back
 *   (plain, URL-encoded, base64, base64url, base64 of the whole Authorization header) in the
 *   error text, in `details` (with `status`, default 400), or in fields of the job it answers
 * @property {(key: string) => string} [hide] with `echoKey`: echo the key in this form instead (a
 *   hostile service hiding it: between invisible characters, in full-width letters, spelled in
 *   tag characters…), in every place the echo puts one
 *
 * @typedef {{ path: string, human: number, ai: number, total: number }} VisitorRow
 * @typedef {{ human: number, ai: number, total: number }} Totals
 *
 * @typedef {object} ServiceOptions
 * @property {string} [apiKey]
 * @property {string} [prefix] e.g. '/api'
 * @property {string[]} [projects] accepted project ids (default: any)
 * @property {JobSpec[]|'*'} [jobs] default [{ id: 'job-123' }]
 * @property {number|VisitorRow[]|((range: {dateFrom?: string, dateTo?: string}) => VisitorRow[])} [rows]
 *   default 1234 generated rows, different for each `dateFrom` (see analytics-data.js);
 *   Infinity: `hasMore` forever. An array, or a function of the range, is served as it is.
 * @property {'sorted'|'unsorted'} [order] generated rows: most `total` first (the default; the
 *   service documents no order, and whether it sorts is what a `check` run reports), or scrambled
 * @property {boolean} [varyByDate] the other analytics sections follow the visitors' scale of
 *   each period (generated rows always vary by period), so a comparison shows each moving
 * @property {Totals} [totals] default: the sum of the rows
 * @property {number|[number, number]} [latencyMs] per request; [min, max] draws each one
 * @property {Fault[]} [faults]
 * @property {Omit<JobSpec, 'id'>} [created] spec of the jobs `POST …/job` creates (default: active,
 *   2 polls, then completed with `prLink` https://github.com/octo/docs/pull/21)
 * @property {Record<string, 'expired'|'read-only'|'ip-blocked'|'other-org'>} [keys] other keys
 *   the service knows, and why it refuses them: 401 for an expired key; 403 for a read-only key's
 *   POSTs, for any request from outside an IP allowlist, and for a key of another organisation
 *   than the project (observed; a bare "Forbidden", so only the pattern tells the cause)
 * Also the options of sim/analytics.js (views, searches, feedback, conversations, callerStats,
 * refuse, analyticsQuota) and the observed faults of sim/field.js.
 *
 * @typedef {object} JobState
 * @property {string} id
 * @property {JobSpec} spec
 * @property {string} status
 * @property {string[]} messages
 * @property {string|undefined} createdWith the prompt of a job created through the API
 * @property {string|null} prLink
 * @property {object|null} before the job JSON when the last follow-up arrived
 * @property {number} staleUntil answers show `before` until this time (ms epoch)
 * @property {number} queued GETs still to answer 'queued'
 * @property {number|null} activeSince ms timestamp of the message that made it active
 * @property {number} polls GETs answered since it became active
 * @property {string} createdAt
 * @property {string|null} archivedAt
 *
 * @typedef {object} LoggedRequest
 * @property {string} method
 * @property {string} path
 * @property {string} url path and query, as sent
 * @property {string} kind 'message', 'create', 'job', 'visitors', 'views', 'searches', 'feedback', 'assistant', 'caller-stats' or 'other'
 * @property {Record<string, string>} query
 * @property {Record<string, string|string[]|undefined>} headers
 * @property {string} body
 * @property {string|undefined} projectId
 * @property {string|undefined} jobId
 * @property {number|undefined} offset
 * @property {number|undefined} limit
 * @property {number} time ms since the simulator started
 * @property {number} [answeredAt] ms since the simulator started, when the answer was sent
 * @property {number} [answeredAfter] how many requests the simulator had received when the
 *   answer was sent (the later ones were sent after it)
 * @property {Fault|null} fault
 */

/** @param {VisitorRow[]} data */
function sumOf(data) {
  const sum = { human: 0, ai: 0, total: 0 }
  for (const row of data) {
    sum.human += row.human
    sum.ai += row.ai
    sum.total += row.total
  }
  return sum
}

function isDate(value) {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    return false
  }
  return !Number.isNaN(Date.parse(value))
}

/** The key from an Authorization header, and the encodings a careless service echoes it in. */
function echoForms(/** @type {string} */ authorization) {
  const key = authorization.replace(/^Bearer\s+/i, '')
  const b64 = (/** @type {string} */ s) => Buffer.from(s).toString('base64')
  return [
    key,
    encodeURIComponent(key),
    b64(key),
    Buffer.from(key).toString('base64url'),
    b64(authorization),
    ...key.split(/\r?\n/).filter(line => line.length > 0)
  ]
}

/** @param {ServiceOptions & import('./analytics.js').AnalyticsOptions & import('./field.js').FieldOptions} [options] */
export async function startService(options = {}) {
  const apiKey = options.apiKey ?? SIM_API_KEY
  const prefix = (options.prefix ?? '').replace(/\/+$/, '')
  const started = simClock.now()
  const startedIso = new Date(started).toISOString()
  let latencyMs = options.latencyMs ?? 0
  // Drawn latencies repeat from run to run, so a benchmark's figures do too.
  let latencySeed = 1
  const nextLatency = () => {
    if (typeof latencyMs === 'number') return latencyMs
    latencySeed = (Math.imul(latencySeed, 48271) + 11) % 2147483647
    const [min, max] = latencyMs
    return min + Math.round(((latencySeed & 0xffff) / 0xffff) * (max - min))
  }
  /** @type {Fault[]} */
  let faults = [...(options.faults ?? [])]
  /** @type {Map<Fault, { seen: number, used: number }>} */
  let faultState = new Map()
  /** @type {LoggedRequest[]} */
  const requests = []
  /** @type {Map<string, JobState>} */
  const jobs = new Map()
  const anyJob = options.jobs === '*'
  const sockets = new Set()
  /** @type {WeakMap<http.ServerResponse, LoggedRequest>} */
  const answering = new WeakMap()
  const timers = new Set()
  let refusing = false
  let closed = false

  const newJobState = (/** @type {JobSpec} */ spec) => {
    const status = spec.status ?? 'completed'
    /** @type {JobState} */
    const state = {
      id: spec.id,
      spec,
      status,
      messages: [],
      createdWith: undefined,
      prLink: spec.prLink === undefined ? DEFAULT_PR : spec.prLink,
      before: null,
      staleUntil: 0,
      queued: 0,
      activeSince: status === 'active' ? simClock.now() : null,
      polls: 0,
      createdAt: startedIso,
      archivedAt: status === 'archived' ? startedIso : null
    }
    return state
  }
  const newJob = (/** @type {JobSpec} */ spec) => {
    const state = newJobState(spec)
    jobs.set(spec.id, state)
    return state
  }
  const specs = options.jobs === '*' ? [] : (options.jobs ?? [{ id: 'job-123' }])
  for (const spec of specs) newJob(spec)
  let createdCount = 0

  const rows = options.rows ?? 1234
  const order = options.order ?? 'sorted'
  /** The rows of a range, as served: an array (given or computed), or a count of generated rows. */
  const rowsFor = q =>
    typeof rows === 'function' ? rows({ dateFrom: q.dateFrom, dateTo: q.dateTo }) : rows
  const totalsCache = new Map()
  const totalsFor = (q, data) => {
    if (options.totals) return options.totals
    if (Array.isArray(data)) return sumOf(data)
    if (!Number.isFinite(data)) return { human: 700_000, ai: 90_000, total: 760_000 }
    const key = q.dateFrom ?? ''
    if (!totalsCache.has(key)) totalsCache.set(key, generatedTotals(data, key))
    return totalsCache.get(key)
  }
  // Endless rows (Infinity) are always served sorted: a scramble needs a count.
  const rowAt = (q, data, i) =>
    Array.isArray(data)
      ? data[i]
      : generatedRow(
          order === 'unsorted' && Number.isFinite(data) ? unsortedRank(i, data) : i,
          q.dateFrom ?? ''
        )

  // A request answered late: held while it waits, so a clock that jumps knows nothing is being
  // answered meanwhile (sim/clock.js). Closing the simulator ends every wait.
  const closing = new AbortController()
  const delay = async (/** @type {http.ServerResponse} */ res, /** @type {number} */ ms) => {
    if (!ms) return
    const release = simClock.hold()
    res.once('close', () => release('closed'))
    await simClock.sleep(ms, closing.signal)
    release('answered')
  }

  const finalize = (/** @type {JobState} */ job) => {
    job.status = job.spec.finalStatus ?? 'completed'
    job.archivedAt = job.status === 'archived' ? new Date(simClock.now()).toISOString() : null
    job.activeSince = null
    if (job.messages.length > 0 && job.spec.nextPrLink !== undefined)
      job.prLink = job.spec.nextPrLink
  }

  const orDefault = (value, fallback) => (value === undefined ? fallback : value)
  const working = status => status === 'active' || status === 'queued'
  /** The pull request a job names: while it works, none until it has worked a while. */
  const namedPrLink = (/** @type {JobState} */ job, /** @type {string} */ status) => {
    if (!working(status)) return job.prLink
    const early = job.spec.earlyPrLink
    if (early === undefined || early === false || status !== 'active') return null
    if (job.polls < (early === true ? 1 : early)) return null
    const opening = job.messages.length > 0 && job.spec.nextPrLink !== undefined
    return opening ? job.spec.nextPrLink : job.prLink
  }
  const jobJson = (/** @type {JobState} */ job, status = job.status) => ({
    id: job.id,
    status,
    source: {
      repository: orDefault(job.spec.repository, DEFAULT_REPOSITORY),
      ref: orDefault(job.spec.ref, 'main')
    },
    model: orDefault(job.spec.model, 'claude-sonnet-4-5'),
    prLink: namedPrLink(job, status),
    createdAt: job.createdAt,
    archivedAt: working(status) ? null : job.archivedAt,
    ...job.spec.extra
  })

  /** Starts work on an instruction: queued first when the spec says so, then active. */
  const startWork = (/** @type {JobState} */ job) => {
    job.queued = job.spec.queuedPolls ?? 0
    job.status = job.queued > 0 ? 'queued' : 'active'
    job.activeSince = simClock.now()
    job.polls = 0
  }

  /** A GET of the job: the stale window first, then queued, then active until it finishes. */
  const poll = (/** @type {JobState} */ job) => {
    if (job.before) {
      const after = job.spec.afterStale ?? 'active'
      if (simClock.now() < job.staleUntil || after === 'unchanged') return job.before
      job.before = null
      if (after === 'finished') {
        finalize(job)
        return jobJson(job)
      }
      startWork(job)
    }
    if (job.status === 'queued') {
      if (job.queued-- > 0) return jobJson(job)
      job.status = 'active'
      job.activeSince = simClock.now()
      job.polls = 0
    }
    if (job.status === 'active') {
      job.polls++
      const { activeMs, activePolls = 2 } = job.spec
      const done =
        activeMs !== undefined
          ? simClock.now() - (job.activeSince ?? 0) >= activeMs
          : job.polls > activePolls
      if (done) finalize(job)
    }
    return jobJson(job)
  }

  /** Why a known key other than the admin key is refused, or undefined when it is not. */
  const refusal = (/** @type {LoggedRequest} */ entry) => {
    const key = /^Bearer (.*)$/.exec(String(entry.headers.authorization ?? ''))?.[1] ?? ''
    if (key === apiKey) return undefined
    const kind = options.keys?.[key]
    if (kind === 'expired') return error(401, 'API key has expired')
    if (kind === 'ip-blocked')
      return error(403, 'Requests from this IP address are not allowed for this organization')
    if (kind === 'other-org') return error(403, 'Forbidden')
    if (kind === 'read-only') {
      if (entry.method === 'GET') return undefined
      return error(403, 'This API key is read-only and cannot perform this action')
    }
    return error(401, 'Invalid or missing API key')
  }

  const error = (status, message, details) => ({
    status,
    body: details ? { error: message, details } : { error: message }
  })
  // The agent API's 400s carry the error text alone (no source shows `details` on them).

  /**
   * The normal answer. `store` false computes a POST's answer without taking the message,
   * for faults that model "the service never processed it".
   * @returns {{ status: number, body: unknown }}
   */
  const handle = (/** @type {LoggedRequest} */ entry, store) => {
    if (entry.kind === 'other') return error(404, 'Not found')
    const refused = refusal(entry)
    if (refused) return refused
    if (options.projects && !options.projects.includes(entry.projectId ?? '')) {
      return error(404, 'Project not found')
    }
    if (ANALYTICS_KINDS.includes(entry.kind)) {
      const answer = analytics.handle(entry, scaleFor(entry.query.dateFrom))
      if (answer) return answer
    }
    if (entry.kind === 'visitors') return visitors(entry)
    if (entry.kind === 'create') return create(entry, store)
    const id = entry.jobId ?? ''
    const job = jobs.get(id) ?? (anyJob ? newJob({ id }) : undefined)
    if (!job) return error(404, 'Agent job not found')
    if (entry.kind === 'job') return { status: 200, body: poll(job) }
    const prompt = readPrompt(entry.body)
    if (typeof prompt !== 'string') return prompt
    if (!store) return { status: 200, body: jobJson({ ...job, polls: 0 }, 'active') }
    job.messages.push(prompt)
    if (job.spec.staleMs !== undefined || job.spec.afterStale !== undefined) {
      // The real service answers, and keeps answering for a while, with the job as it was.
      job.before = job.before ?? jobJson(job)
      job.staleUntil = simClock.now() + (job.spec.staleMs ?? 0)
      return { status: 200, body: job.before }
    }
    startWork(job)
    return { status: 200, body: jobJson(job) }
  }

  /** `POST /v2/agent/{projectId}/job`: 201 with the new job. */
  const create = (/** @type {LoggedRequest} */ entry, store) => {
    const prompt = readPrompt(entry.body)
    if (typeof prompt !== 'string') return prompt
    const spec = {
      activePolls: 2,
      prLink: 'https://github.com/octo/docs/pull/21',
      ...options.created,
      id: `created-${createdCount + 1}`
    }
    // Not taken: the answer a just-created job would give, which names no pull request yet.
    if (!store) return { status: 201, body: jobJson(newJobState(spec), 'active') }
    createdCount++
    const job = newJob(spec)
    job.createdAt = new Date(simClock.now()).toISOString()
    job.createdWith = prompt
    startWork(job)
    return { status: 201, body: jobJson(job) }
  }

  /** The prompt of a POST body, or the 400 answer the service gives for a bad one. */
  const readPrompt = body => {
    let prompt
    try {
      prompt = JSON.parse(body).prompt
    } catch {
      return error(400, 'Invalid request body: not JSON')
    }
    if (typeof prompt !== 'string' || prompt.length < 1) {
      return error(400, 'Invalid request body: prompt must be a string of at least 1 character')
    }
    return prompt
  }

  // The other analytics sections follow the visitors' per-period scale with `varyByDate`.
  const scaleFor = dateFrom => (options.varyByDate && dateFrom ? periodScale(dateFrom) : 1)
  const defaultRows = rowsFor({})
  const analytics = createAnalytics(options, {
    rowCount: Array.isArray(defaultRows)
      ? defaultRows.length
      : Number.isFinite(defaultRows)
        ? defaultRows
        : 1_000_000,
    visitorsRow: i => (Array.isArray(defaultRows) ? defaultRows[i] : generatedRow(i))
  })

  const visitors = (/** @type {LoggedRequest} */ entry) => {
    const q = entry.query
    const bad = message => error(400, 'Invalid query parameters', [{ message }])
    if (q.limit !== undefined && !(/^\d+$/.test(q.limit) && +q.limit >= 1 && +q.limit <= 250)) {
      return bad('limit must be an integer between 1 and 250')
    }
    if (q.offset !== undefined && !/^\d+$/.test(q.offset)) {
      return bad('offset must be a non-negative integer')
    }
    for (const name of ['dateFrom', 'dateTo']) {
      if (q[name] !== undefined && !isDate(q[name])) return bad(`${name} must be a valid date`)
    }
    const limit = q.limit === undefined ? 50 : +q.limit
    const offset = q.offset === undefined ? 0 : +q.offset
    const data = rowsFor(q)
    const count = Array.isArray(data) ? data.length : data
    const { positions, hasMore } = analytics.offsetPage('visitors', offset, limit, count)
    const page = positions.map(i => rowAt(q, data, i))
    return { status: 200, body: { totals: totalsFor(q, data), visitors: page, hasMore } }
  }

  const pickFault = (/** @type {LoggedRequest} */ entry) => {
    for (const rule of faults) {
      if (rule.kind && rule.kind !== entry.kind) continue
      if (rule.method && rule.method !== entry.method) continue
      if (rule.offset !== undefined && rule.offset !== (entry.offset ?? 0)) continue
      let state = faultState.get(rule)
      if (!state) faultState.set(rule, (state = { seen: 0, used: 0 }))
      state.seen++
      if (state.seen <= (rule.after ?? 0)) continue
      if (state.used >= (rule.times ?? 1)) continue
      state.used++
      return rule
    }
    return null
  }

  /** Splits the raw URL; each segment is decoded on its own so encoded '/' stays in an id. */
  const describe = (/** @type {http.IncomingMessage} */ req) => {
    const raw = req.url ?? '/'
    const q = raw.indexOf('?')
    const path = q < 0 ? raw : raw.slice(0, q)
    const query = Object.fromEntries(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)))
    /** @type {LoggedRequest['kind']} */
    let kind = 'other'
    let projectId
    let jobId
    if (path === prefix || path.startsWith(`${prefix}/`)) {
      let s = path.slice(prefix.length).split('/')
      try {
        s = s.map(decodeURIComponent)
      } catch {
        s = []
      }
      if (s.length === 5 && s[1] === 'v2' && s[2] === 'agent' && s[4] === 'job') {
        if (req.method === 'POST') [kind, projectId] = ['create', s[3]]
      } else if (s.length === 6 && s[1] === 'v2' && s[2] === 'agent' && s[4] === 'job') {
        if (req.method === 'GET') [kind, projectId, jobId] = ['job', s[3], s[5]]
      } else if (s.length === 7 && s[1] === 'v2' && s[2] === 'agent' && s[4] === 'job') {
        if (s[6] === 'message' && req.method === 'POST') {
          ;[kind, projectId, jobId] = ['message', s[3], s[5]]
        }
      } else if (s.length === 5 && s[1] === 'v1' && s[2] === 'analytics' && s[4] === 'visitors') {
        if (req.method === 'GET') [kind, projectId] = ['visitors', s[3]]
      } else if (req.method === 'GET' && analyticsKind(s)) {
        ;[kind, projectId] = [analyticsKind(s), s[3]]
      }
    }
    const num = v => (v === undefined || v === '' || Number.isNaN(+v) ? undefined : +v)
    return {
      method: req.method ?? 'GET',
      path,
      url: raw,
      kind,
      query,
      headers: { ...req.headers },
      body: '',
      projectId,
      jobId,
      offset: ANALYTICS_KINDS.includes(kind) ? num(query.offset) : undefined,
      limit: ANALYTICS_KINDS.includes(kind) ? num(query.limit) : undefined,
      time: simClock.now() - started,
      fault: null
    }
  }

  const analyticsHeaders = (/** @type {LoggedRequest} */ entry) =>
    ANALYTICS_KINDS.includes(entry.kind) ? analytics.headers() : undefined

  const send = (res, status, body, headers = {}) => {
    const entry = answering.get(res)
    if (entry) {
      entry.answeredAt = simClock.now() - started
      // Requests received before this answer went out: those after it were sent knowing it.
      entry.answeredAfter = requests.length
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : JSON_TYPE,
      ...headers
    })
    res.end(text)
  }

  const onRequest = async (
    /** @type {http.IncomingMessage} */ req,
    /** @type {http.ServerResponse} */ res
  ) => {
    if (refusing) return req.socket.destroy()
    const entry = describe(req)
    requests.push(entry)
    answering.set(res, entry)
    const rule = pickFault(entry)
    entry.fault = rule
    if (rule?.reset === 'before-read') return req.socket.destroy()
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    entry.body = Buffer.concat(chunks).toString('utf8')
    await delay(res, nextLatency())
    if (rule?.delayMs) await delay(res, rule.delayMs)
    if (closed || res.destroyed) return
    if (!rule) {
      const { status, body, headers, delayMs } = handle(entry, true)
      if (delayMs) await delay(res, delayMs)
      if (closed || res.destroyed) return
      return send(res, status, body, { ...analyticsHeaders(entry), ...headers })
    }
    // These faults model a service that took the request and then failed to answer.
    const took = rule.reset === 'after-read' || rule.hang || rule.processed || rule.passThrough
    const normal = took || rule.truncate ? handle(entry, Boolean(took)) : undefined
    if (rule.reset === 'after-read') return req.socket.destroy()
    if (rule.hang) {
      // Held open until the client gives up (or the simulator closes).
      const release = simClock.hold()
      res.once('close', () => release('closed'))
      return
    }
    if (rule.html) {
      return send(res, 200, '<html><body>Gateway</body></html>', { 'content-type': 'text/html' })
    }
    if (rule.wrongShape) return send(res, 200, { unexpected: true })
    if (rule.truncate) {
      const full = Buffer.from(JSON.stringify(normal?.body))
      res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': full.length })
      res.write(full.subarray(0, Math.floor(full.length / 2)))
      // Let the half body reach the client before the connection drops.
      return void setTimeout(() => req.socket.destroy(), 10)
    }
    if (rule.echoKey) return sendEcho(res, entry, rule)
    if (rule.status !== undefined) {
      const body =
        typeof rule.body === 'function'
          ? rule.body(entry)
          : (rule.body ?? { error: `Simulated ${rule.status}` })
      const type = typeof body === 'string' ? {} : { 'content-type': JSON_TYPE }
      return send(res, rule.status, body, { ...type, ...rule.headers })
    }
    const answer = normal ?? handle(entry, true)
    send(res, answer.status, answer.body, rule.headers)
    if (!rule.thenRefuseFor) return
    if (!res.writableFinished) await new Promise(resolve => res.once('finish', resolve))
    await refuseFor(rule.thenRefuseFor)
  }

  const sendEcho = (res, /** @type {LoggedRequest} */ entry, /** @type {Fault} */ rule) => {
    const authorization = String(entry.headers.authorization ?? '')
    const hidden = rule.hide?.(authorization.replace(/^Bearer\s+/i, ''))
    const forms = hidden === undefined ? echoForms(authorization) : [hidden, hidden, hidden]
    if (rule.echoKey === 'error')
      return send(res, rule.status ?? 400, { error: `Invalid credential ${forms.join(' ')}` })
    if (rule.echoKey === 'details') {
      const details = forms.map(f => ({ message: `rejected value ${f}` }))
      return send(res, rule.status ?? 400, { error: 'Invalid request', details })
    }
    const answer = handle(entry, true)
    const job = /** @type {Record<string, unknown>} */ (answer.body)
    const key = forms[0] ?? ''
    return send(res, answer.status, {
      ...job,
      model: `model-${key}`,
      source: { repository: `https://x-access-token:${key}@github.com/octo/docs`, ref: forms[2] },
      ...(typeof job.prLink === 'string' ? { prLink: `${job.prLink}?k=${forms[1]}` } : {}),
      echo: { received: forms, headers: { authorization: entry.headers.authorization } }
    })
  }

  /**
   * Stops listening so new connections get ECONNREFUSED, then listens on the same port again.
   * @param {number} ms
   */
  function refuseFor(ms) {
    refusing = true
    server.close()
    // A service that went down drops its connections too; kept-alive ones would otherwise
    // bypass the refusal.
    for (const socket of sockets) socket.destroy()
    // On the simulators' clock: a run in this process that waits out the refusal meets the
    // service listening again, as it would in real time.
    timers.add(
      simClock.after(ms, () => {
        if (closed) return
        refusing = false
        server.listen(port, '127.0.0.1')
      })
    )
    // Give clients a moment to notice the dropped connections before they pick one for reuse.
    return new Promise(resolve => setTimeout(resolve, Math.min(20, ms)))
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch(() => req.socket.destroy())
  })
  // Idle connections live about a minute, as behind the load balancers real APIs sit behind
  // (Node's own 5 s would close a kept-alive socket just as a retry after a longer backoff
  // reuses it: on a busy machine the close comes late enough to reset that request).
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.on('connection', socket => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(undefined))
  })
  // A failed re-listen after refuseFor must not crash the test process; requests then fail.
  server.on('error', () => {})
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    port,
    /** ms epoch the simulator started: `time` and `answeredAt` of a request count from here. */
    startedAt: started,
    requests,
    jobs,
    analytics,
    /** @param {Fault[]} list */
    setFaults(list) {
      faults = [...list]
      faultState = new Map()
    },
    /** @param {Fault} fault */
    addFault(fault) {
      faults.push(fault)
    },
    /** @param {number|[number, number]} ms */
    setLatency(ms) {
      latencyMs = ms
    },
    refuseFor,
    close() {
      closed = true
      closing.abort()
      for (const cancel of timers) cancel()
      timers.clear()
      for (const socket of sockets) socket.destroy()
      return new Promise(resolve => {
        if (!server.listening) return resolve(undefined)
        server.close(() => resolve(undefined))
      })
    }
  }
}

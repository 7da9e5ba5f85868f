// A job's `if:` of a workflow, and a tiny evaluator of GitHub's expression language for it, so a
// test can say which events a recipe runs on (the merge recipes' bot guard, say). It knows only
// what the recipes use: context paths, string/number/boolean/null literals, `==`, `!=`, `!`,
// `&&`, `||`, parentheses, `startsWith`/`endsWith`/`contains` and the status functions
// (`always()`, `cancelled()`, `success()`, `failure()`); anything else throws, so a
// recipe that outgrows it fails its test instead of being judged wrongly.

/** Each job of a workflow with the expression of its `if:` (undefined: the job always runs). */
export function jobConditions(workflow: string): { job: string; expr: string | undefined }[] {
  const lines = workflow.split(/\r?\n/)
  const start = lines.findIndex(l => /^jobs:\s*$/.test(l))
  if (start < 0) return []
  const jobs: { job: string; expr: string | undefined }[] = []
  for (let i = start + 1; i < lines.length && !/^\S/.test(lines[i] ?? ''); i++) {
    const name = /^ {2}([\w-]+):\s*$/.exec(lines[i] ?? '')?.[1]
    if (name) jobs.push({ job: name, expr: undefined })
    const cond = /^ {4}if:\s*(.*)$/.exec(lines[i] ?? '')
    const current = jobs[jobs.length - 1]
    if (!cond || !current) continue
    const head = cond[1] ?? ''
    if (!/^[|>]/.test(head)) {
      current.expr = unwrap(head)
      continue
    }
    const body: string[] = []
    while (/^( {6,}|\s*$)/.test(lines[i + 1] ?? 'end') && i + 1 < lines.length)
      body.push((lines[++i] ?? '').trim())
    // A folded (`>`) block joins its lines with spaces; a literal (`|`) one keeps line breaks,
    // which an expression treats as spaces all the same.
    current.expr = unwrap(body.filter(Boolean).join(' '))
  }
  return jobs
}

/** `${{ x }}` or `x`, as GitHub allows in `if:`; a quoted YAML scalar loses its quotes. */
function unwrap(text: string): string {
  const unquoted = /^(['"])(.*)\1$/.exec(text.trim())?.[2] ?? text.trim()
  return /^\$\{\{([\s\S]*)\}\}$/.exec(unquoted)?.[1]?.trim() ?? unquoted
}

type Value = string | number | boolean | null | object

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(==|!=|&&|\|\||!|\(|\)|,)|([A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*))/y

function tokenize(expr: string): string[] {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(TOKEN.lastIndex))) break
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(expr)
    if (!m) throw new Error(`cannot read the expression at ${at}: ${expr.slice(at)}`)
    tokens.push(m[2] !== undefined ? `'${m[2]}` : (m[1] ?? m[3] ?? m[4] ?? ''))
  }
  return tokens
}

/** GitHub compares strings case-insensitively, and loosely across types (numbers win). */
function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase()
  if (a === null || b === null) return a === b
  if (typeof a === 'object' || typeof b === 'object') return a === b
  return Number(a) === Number(b)
}

const truthy = (v: Value): boolean => v !== null && v !== false && v !== 0 && v !== ''

/** A value as the string functions see it (an object or array: none of the recipes' cases). */
const text = (v: Value): string => (typeof v === 'object' ? '' : String(v)).toLowerCase()

const FUNCTIONS: Record<string, (a: Value, b: Value) => boolean> = {
  startswith: (a, b) => text(a).startsWith(text(b)),
  endswith: (a, b) => text(a).endsWith(text(b)),
  contains: (a, b) => text(a).includes(text(b))
}

/**
 * The status functions, given the job's status so far (`job.status` in the context, `success`
 * when not given): what a step's or a dependent job's `if:` asks.
 */
const STATUS: Record<string, (status: Value) => boolean> = {
  always: () => true,
  cancelled: status => status === 'cancelled',
  success: status => status === 'success',
  failure: status => status === 'failure'
}

/** The value of `expr` against `context` (e.g. `{ github: { event: … } }`). */
export function evaluateIf(expr: string, context: Record<string, unknown>): Value {
  const tokens = tokenize(expr)
  let at = 0
  const peek = () => tokens[at]
  const take = (want?: string) => {
    const t = tokens[at++]
    if (t === undefined || (want !== undefined && t !== want))
      throw new Error(`expected ${want ?? 'more'} in: ${expr}`)
    return t
  }
  const lookup = (path: string): Value => {
    let value: unknown = context
    for (const key of path.split(/\.|\[(\d+)\]/).filter(Boolean)) {
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined
    }
    return value === undefined ? null : value
  }
  const primary = (): Value => {
    const t = take()
    if (t === '(') {
      const v = or()
      take(')')
      return v
    }
    if (t === '!') return !truthy(primary())
    if (t.startsWith("'")) return t.slice(1).replace(/''/g, "'")
    if (/^\d/.test(t)) return Number(t)
    if (t === 'true' || t === 'false') return t === 'true'
    if (t === 'null') return null
    const status = STATUS[t.toLowerCase()]
    if (status && peek() === '(') {
      take('(')
      take(')')
      return status(lookup('job.status') ?? 'success')
    }
    const fn = FUNCTIONS[t.toLowerCase()]
    if (fn && peek() === '(') {
      take('(')
      const a = or()
      take(',')
      const b = or()
      take(')')
      return fn(a, b)
    }
    if (/^[A-Za-z_]/.test(t) && !/^(==|!=|&&|\|\|)$/.test(t)) return lookup(t)
    throw new Error(`unexpected ${t} in: ${expr}`)
  }
  const comparison = (): Value => {
    const left = primary()
    const op = peek()
    if (op !== '==' && op !== '!=') return left
    take()
    const same = equal(left, primary())
    return op === '==' ? same : !same
  }
  // `&&` and `||` give the deciding operand, as GitHub's do.
  const and = (): Value => {
    let v = comparison()
    while (peek() === '&&') {
      take()
      const right = comparison()
      v = truthy(v) ? right : v
    }
    return v
  }
  const or = (): Value => {
    let v = and()
    while (peek() === '||') {
      take()
      const right = and()
      v = truthy(v) ? v : right
    }
    return v
  }
  const value = or()
  if (at !== tokens.length) throw new Error(`left over in: ${expr}`)
  return value
}

/** Whether a job whose `if:` is `expr` runs on `context` (no `if:`: it always does). */
export function runsOn(expr: string | undefined, context: Record<string, unknown>): boolean {
  return expr === undefined || truthy(evaluateIf(expr, context))
}

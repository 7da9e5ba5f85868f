// A recipe of examples/ as GitHub reads it, for the test that runs every recipe as shipped
// (recipes.int.test.ts): its jobs in the order `needs:` gives, each with the `permissions:` in
// effect (the job's own, else the workflow's: GitHub's rule), its matrix legs, its `if:` and its
// steps; and `${{ … }}` in a step's `with:` and `env:` evaluated against a run's contexts
// (secrets, vars, github, inputs, matrix, steps) by workflow-if.ts's evaluator.
import fs from 'node:fs'
import path from 'node:path'
import { evaluateIf } from './workflow-if.js'
import { readYaml, type Yaml } from './workflow-yaml.js'

const EXAMPLES = path.join(import.meta.dirname, '..', 'examples')

/** The action as every recipe names it. */
export const THIS_ACTION = 'your-org/docs-agent-action@v1'

export interface RecipeStep {
  /** Where it is, for messages: `job#index name`. */
  label: string
  id?: string
  uses?: string
  run?: string
  if?: string
  with: Record<string, string>
  env: Record<string, string>
}

export interface RecipeJob {
  id: string
  /** The `permissions:` in effect: the job's, else the workflow's (undefined: none stated). */
  permissions: Yaml | undefined
  if?: string
  needs: string[]
  /** One set of matrix values per leg (one empty set without a matrix). */
  legs: Record<string, string>[]
  env: Record<string, string>
  steps: RecipeStep[]
}

export interface Recipe {
  file: string
  text: string
  on: Record<string, Yaml>
  jobs: RecipeJob[]
}

type Map_ = { [key: string]: Yaml }
const isMap = (y: Yaml | undefined): y is Map_ =>
  y !== null && y !== undefined && typeof y === 'object' && !Array.isArray(y)
/** A scalar as a step gets it ('' for none); anything else is no input. */
const text = (y: Yaml): string => {
  if (y === null) return ''
  if (typeof y === 'string') return y
  throw new Error(`not a scalar: ${JSON.stringify(y)}`)
}
const strings = (y: Yaml | undefined): Record<string, string> =>
  isMap(y) ? Object.fromEntries(Object.entries(y).map(([k, v]) => [k, text(v)])) : {}

export function recipeFiles(): string[] {
  return fs
    .readdirSync(EXAMPLES)
    .filter(f => f.endsWith('.yml'))
    .sort()
}

export function readRecipe(file: string): Recipe {
  return parseRecipe(file, fs.readFileSync(path.join(EXAMPLES, file), 'utf8'))
}

/** A recipe from its text (a test's edited copy of one, say). */
export function parseRecipe(file: string, text: string): Recipe {
  const y = readYaml(text)
  if (!isMap(y) || !isMap(y.jobs)) throw new Error(`${file}: no jobs`)
  const on = isMap(y.on) ? y.on : {}
  const jobs = Object.entries(y.jobs).map(([id, j]) => readJob(file, id, j, y.permissions))
  return { file, text, on, jobs: ordered(jobs) }
}

function readJob(file: string, id: string, j: Yaml, permissions: Yaml | undefined): RecipeJob {
  if (!isMap(j)) throw new Error(`${file}: job ${id} is not a mapping`)
  const needs = typeof j.needs === 'string' ? [j.needs] : Array.isArray(j.needs) ? j.needs : []
  const steps = Array.isArray(j.steps) ? j.steps : []
  return {
    id,
    permissions: j.permissions !== undefined ? j.permissions : permissions,
    ...(typeof j.if === 'string' ? { if: j.if } : {}),
    needs: needs.map(String),
    legs: legsOf(isMap(j.strategy) ? j.strategy.matrix : undefined),
    env: strings(j.env),
    steps: steps.map((s, i) => {
      if (!isMap(s)) throw new Error(`${file}: step ${i} of ${id} is not a mapping`)
      const name = typeof s.name === 'string' ? ` ${s.name}` : ''
      return {
        label: `${id}#${i + 1}${name}`,
        ...(typeof s.id === 'string' ? { id: s.id } : {}),
        ...(typeof s.uses === 'string' ? { uses: s.uses } : {}),
        ...(typeof s.run === 'string' ? { run: s.run } : {}),
        ...(typeof s.if === 'string' ? { if: s.if } : {}),
        with: strings(s.with),
        env: strings(s.env)
      }
    })
  }
}

/** Each combination of a matrix's lists (the recipes use plain lists). */
function legsOf(matrix: Yaml | undefined): Record<string, string>[] {
  if (!isMap(matrix)) return [{}]
  return Object.entries(matrix).reduce<Record<string, string>[]>(
    (legs, [name, values]) =>
      legs.flatMap(leg =>
        (Array.isArray(values) ? values : [values]).map(v => ({ ...leg, [name]: text(v) }))
      ),
    [{}]
  )
}

/** Jobs in an order where each comes after those it needs. */
function ordered(jobs: RecipeJob[]): RecipeJob[] {
  const done: RecipeJob[] = []
  while (done.length < jobs.length) {
    const next = jobs.find(j => !done.includes(j) && j.needs.every(n => done.some(d => d.id === n)))
    if (!next) throw new Error('a cycle in `needs:`')
    done.push(next)
  }
  return done
}

/** The contexts an expression reads. */
export interface Contexts {
  secrets: Record<string, string>
  vars: Record<string, string>
  github: Record<string, unknown>
  inputs: Record<string, unknown>
  matrix: Record<string, string>
  steps: Record<string, { outputs: Record<string, string>; outcome: string }>
  job?: { status: string }
}

/** `text` with each `${{ expr }}` replaced by its value ('' for null, as GitHub does). */
export function interpolate(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{\s*([\s\S]+?)\s*\}\}/g, (_, expr: string) => {
    const value = evaluateIf(expr, contexts as unknown as Record<string, unknown>)
    return value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)
  })
}

/**
 * Whether a step or job whose `if:` is `expr` runs. As GitHub does, an `if:` that calls no status
 * function (`always()`, `cancelled()`, `success()`, `failure()`) runs only while the job (or the
 * jobs it needs) succeed, and no `if:` is `success()`.
 */
export function runs(expr: string | undefined, contexts: Contexts): boolean {
  const inner = (/^\$\{\{([\s\S]*)\}\}$/.exec(expr?.trim() ?? '')?.[1] ?? expr ?? '').trim()
  const succeeding = (contexts.job?.status ?? 'success') === 'success'
  if (inner === '') return succeeding
  if (!/\b(always|cancelled|success|failure)\(\)/.test(inner) && !succeeding) return false
  const value = evaluateIf(inner, contexts as unknown as Record<string, unknown>)
  return value !== null && value !== false && value !== 0 && value !== ''
}

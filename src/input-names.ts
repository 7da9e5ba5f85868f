// The inputs action.yml declares, and the check that a run was given no other: a `with:` key with
// a typo reaches the action as an `INPUT_*` variable nothing reads.
import { InputError, nearestName } from './inputs.js'

/** Every input action.yml declares, in its order. A test keeps this list equal to action.yml. */
export const INPUT_NAMES: readonly string[] = [
  'command',
  'api-key',
  'project-id',
  'base-url',
  'job-id',
  'prompt',
  'prompt-file',
  'context',
  'when-no-job',
  'when-agent-pr-open',
  'settle-time',
  'wait',
  'wait-timeout',
  'poll-interval',
  'job-path',
  'fail-on-status',
  'date-from',
  'date-to',
  'period',
  'page-size',
  'max-rows',
  'max-requests',
  'trend',
  'stale-after',
  'docs-root',
  'concurrency',
  'output-file',
  'sections',
  'site-url',
  'top',
  'compare',
  'summary',
  'comment',
  'issue-number',
  'comment-mode',
  'github-token',
  'trigger',
  'permission',
  'allowed-users',
  'allowed-bots',
  'allow-pr-author',
  'require-pr',
  'notify-pr',
  'notify-token'
]

/** The environment variable a runner passes an input in: `INPUT_PAGE-SIZE` (dashes kept). */
const envNameOf = (name: string): string => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`

/**
 * A `with:` key that action.yml does not declare (`perod: last-week`) reaches the action as an
 * `INPUT_*` variable that nothing reads: GitHub only warns, and the run would go on without it
 * (exporting all time). It fails the step instead, naming the key and the nearest input.
 */
export function refuseUnknownInputs(given: readonly string[]): void {
  const declared = new Set(INPUT_NAMES.map(envNameOf))
  // Compared in capitals, as a runner writes them (a hand-written `.env` may not).
  const unknown = given.filter(
    name => name.startsWith('INPUT_') && !declared.has(name.toUpperCase())
  )
  if (unknown.length === 0) return
  const name = unknown[0]!.slice('INPUT_'.length).toLowerCase()
  const nearest = nearestName(name, INPUT_NAMES)
  const more =
    unknown.length > 1
      ? ` Nor are ${unknown
          .slice(1)
          .map(n => `\`${n.slice('INPUT_'.length).toLowerCase()}\``)
          .join(', ')}.`
      : ''
  throw new UnknownInputError(name, nearest, more)
}

/** An input that action.yml does not declare: said as the contract words it. */
export class UnknownInputError extends InputError {
  constructor(name: string, nearest: string | undefined, more = '') {
    super(name, 'is not an input of this action')
    this.message =
      `\`${name}\` is not an input of this action` +
      (nearest ? `; did you mean \`${nearest}\`?` : '.') +
      `${more} Check the \`with:\` keys of this step against the inputs in the README.`
  }
}

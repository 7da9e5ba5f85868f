// The inputs action.yml declares, as table.js lists them: their names, the defaults an empty
// value falls back to, the commands each applies to, the secrets; and the check that a run was
// given no other (a `with:` key with a typo reaches the action as an `INPUT_*` variable nothing
// reads).
import { nearestName, type GetInput } from './parse.js'
import { InputError } from '../errors.js'
import type { Secret } from '../secrets/redact.js'
import { COMMANDS, INPUTS, type Command, type InputSpec } from './table.js'

export { COMMANDS, INPUTS, type Command, type InputSpec }

/** Every input action.yml declares, in its order. */
export const INPUT_NAMES: readonly string[] = INPUTS.map(input => input.name)

/**
 * The defaults of action.yml. A runner passes them itself, but an input set to empty text
 * (`wait: ${{ vars.UNSET }}`) arrives empty: it means the default, as for an input not set. A
 * default the runner evaluates (`${{ github.token }}`) is not one the action can stand in for.
 */
export const DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  INPUTS.flatMap(({ name, default: value }) =>
    value === undefined || value.startsWith('${{') ? [] : [[name, value] as const]
  )
)

/** The inputs the table marks `secret`, in its order, with what a withheld text calls each. */
export const SECRET_INPUTS: readonly { name: string; called: string }[] = INPUTS.flatMap(
  ({ name, secret }) => (secret === undefined ? [] : [{ name, called: secret }])
)

/** Each secret input's value ('' when `values` has none), as registerSecrets takes them. */
export function secretsOf(values: Readonly<Record<string, string>>): Secret[] {
  return SECRET_INPUTS.map(({ name, called }) => ({ called, value: values[name] ?? '' }))
}

const BY_NAME = new Map(INPUTS.map(input => [input.name, input]))

/** Whether `command` reads the input: one the table gives no commands is read by every command. */
export function appliesTo(name: string, command: Command): boolean {
  const commands = BY_NAME.get(name)?.commands
  return commands === undefined || commands.includes(command)
}

/** Whether `command` reads a required input only when it is given (table.js `optionalFor`). */
export function optionalFor(name: string, command: Command): boolean {
  return BY_NAME.get(name)?.optionalFor?.includes(command) ?? false
}

/**
 * The warning for inputs given a value (other than the default) that `command` does not read:
 * they are ignored, and the run says so.
 */
export function inputsForOtherCommands(raw: GetInput, command: Command): string[] {
  const ignored = INPUT_NAMES.filter(name => !appliesTo(name, command)).filter(name => {
    const value = name === 'prompt' ? raw(name).trim() : raw(name)
    return value !== '' && value !== DEFAULTS[name]
  })
  if (ignored.length === 0) return []
  const list = ignored.map(name => `\`${name}\``).join(', ')
  return [
    `${ignored.length === 1 ? 'Input' : 'Inputs'} ${list} ${ignored.length === 1 ? 'does' : 'do'} not apply to \`command: ${command}\` and ${ignored.length === 1 ? 'is' : 'are'} ignored.`
  ]
}

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
class UnknownInputError extends InputError {
  constructor(name: string, nearest: string | undefined, more = '') {
    super(name, 'is not an input of this action')
    this.message =
      `\`${name}\` is not an input of this action` +
      (nearest ? `; did you mean \`${nearest}\`?` : '.') +
      `${more} Check the \`with:\` keys of this step against the inputs in the README.`
  }
}

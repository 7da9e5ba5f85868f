// The API key and the tokens as inputs: a secret goes into a header, so it is taken as given
// (never trimmed: a stray newline is refused, not mended) and printable ASCII only; a token the
// runner left as an expression is no token; and the key's shape: an admin key of the platform,
// not a name of a secret nor another service's key (both refused before any request), nor
// another kind of the platform's keys (sent anyway, with a warning).
import { InputError } from '../errors.js'
import { CONTROL, type GetInput } from './parse.js'

/** A secret goes into a header: printable ASCII only, so nothing odd reaches the network. */
function checkSecretText(name: string, value: string): void {
  if (/\s/.test(value) || CONTROL.test(value))
    throw new InputError(
      name,
      'must not contain spaces, line breaks or control characters (check the secret for a stray newline)'
    )
  // A search for one character outside the range: `^[…]+$` on a value of megabytes can
  // overflow the regular expression engine's stack.
  if (value === '' || /[^\x21-\x7e]/.test(value))
    throw new InputError(
      name,
      'must be printable ASCII (a pasted non-ASCII character? check the secret)'
    )
}

/** An expression left unevaluated (a runner outside GitHub) is no token at all. */
export function readToken(text: string, name = 'github-token'): string {
  if (text === '' || text.startsWith('${{')) return ''
  checkSecretText(name, text)
  return text
}

/** Key prefixes of the platform's other key kinds, which the agent and analytics APIs refuse. */
const OTHER_KEY_KINDS: ReadonlyArray<[string, string]> = [
  ['mint_dsc_', 'an assistant (discovery) API key'],
  ['mint_us_', 'a search index key']
]

/** Keys of other services, by their known prefixes: never sent to this one. */
const OTHER_VENDORS: ReadonlyArray<[RegExp, string]> = [
  [/^sk-/, 'a key of another AI service (`sk-…`)'],
  [/^(ghp|gho|ghs|ghu|ghr)_|^github_pat_/, 'a GitHub token (`ghp_…`, `github_pat_…`)'],
  [/^xox/i, 'a Slack token (`xox…`)'],
  [/^(AKIA|ASIA)[A-Z0-9]/, 'an AWS access key (`AKIA…`)'],
  [/^AIza/, 'a Google API key (`AIza…`)'],
  [/^eyJ/, 'a JSON web token (`eyJ…`)']
]

/** An admin key of the platform: `mint_`, and not one of its other kinds. */
export function isAdminKeyShape(key: string): boolean {
  return key.startsWith('mint_') && !OTHER_KEY_KINDS.some(([prefix]) => key.startsWith(prefix))
}

export function keyKindWarnings(key: string): string[] {
  const other = OTHER_KEY_KINDS.find(([prefix]) => key.startsWith(prefix))
  if (other)
    return [
      `Input \`api-key\` looks like ${other[1]} (\`${other[0]}…\`), not an admin API key; the agent and analytics operations need an admin key (\`mint_…\`). Sending it anyway.`
    ]
  if (!key.startsWith('mint_'))
    return [
      'Input `api-key` does not start with `mint_`, the prefix of the admin API keys of the ' +
        'dashboard (https://app.mintlify.com, Settings → API keys). Sending it anyway; a 401 ' +
        'answer would confirm it is wrong.'
    ]
  return []
}

/**
 * Keys that are refused before any request: the name of a secret instead of its value, or a key
 * of another service. The message describes the value's shape and never quotes it: the runner
 * masks a secret's value as `***`, which would make the message say nothing.
 */
function refuseKeyShape(key: string): void {
  const vendor = OTHER_VENDORS.find(([shape]) => shape.test(key))
  if (vendor)
    throw new InputError(
      'api-key',
      `looks like ${vendor[1]}, so it was not sent. Use an admin API key of the docs ` +
        'platform: it starts with `mint_` (create one under Settings → API keys on ' +
        'https://app.mintlify.com), kept as a repository secret'
    )
  if (/^[A-Z][A-Z0-9_]*$/.test(key))
    throw new InputError(
      'api-key',
      'the text given looks like the name of a secret (capitals, digits and underscores), not ' +
        'its value: write `${{ secrets.NAME }}`, NAME being the repository secret that holds the ' +
        'key (a name is not a key, so nothing was sent)'
    )
}

export function readApiKey(get: GetInput): string {
  const key = get('api-key')
  if (key === '')
    throw new InputError(
      'api-key',
      'is required: an admin API key, kept as a repository Secret and passed as ' +
        '`${{ secrets.DOCS_API_KEY }}` (a secret, not a variable: `secrets.` does not read a ' +
        'variable of that name)'
    )
  checkSecretText('api-key', key)
  refuseKeyShape(key)
  return key
}

// @ts-check
// The one list of the action's inputs, in action.yml's order: each input's default, the
// commands that read it, and which are secrets. INPUT_NAMES, the defaults, the "does not apply
// to" warning and the secrets masked and redacted are derived from it (names.ts), and a test keeps
// action.yml equal to it (names, order, defaults, required). Plain JavaScript with JSDoc types, so
// that the action (through TypeScript) and scripts/readme-inputs.js (plain node, no build) read
// this same file. The descriptions live in action.yml alone.

/** The values of `command`. */
export const COMMANDS = /** @type {const} */ ([
  'message',
  'create',
  'visitors',
  'report',
  'check',
  'rollup'
])

/** @typedef {(typeof COMMANDS)[number]} Command */

/**
 * @typedef {object} InputSpec
 * @property {string} name
 * @property {true} [required] the run fails without it (a command that does not read it aside)
 * @property {string} [default] as action.yml declares it (`${{ … }}`: evaluated by the runner)
 * @property {readonly Command[]} [commands] the commands that read it; every command when absent
 * @property {readonly Command[]} [optionalFor] commands that read a `required` input when it is
 *   given but need none (`rollup` signs its record with `api-key` when it has one)
 * @property {string} [secret] a secret, and what a text withheld for holding it calls it ("the API
 *   key"): masked in the runner's log at start, redacted from every text the action publishes,
 *   shown as `***` in the debug line of the resolved settings. The table is the one list of
 *   secrets: marking an input here is all it takes (secrets/redact.ts, settings/debug-line.ts).
 */

/** @type {readonly Command[]} */
const JOB = ['message', 'create']
/** @type {readonly Command[]} */
const ANALYTICS = ['visitors', 'report']
/**
 * Every command that talks to the service: all but `rollup`, which reads report files.
 * @type {readonly Command[]}
 */
const SERVICE = [...JOB, ...ANALYTICS, 'check']

/** @type {readonly InputSpec[]} */
export const INPUTS = [
  { name: 'command', required: true },
  {
    name: 'api-key',
    required: true,
    secret: 'the API key',
    commands: [...SERVICE, 'rollup'],
    optionalFor: ['rollup']
  },
  { name: 'project-id', required: true, commands: SERVICE },
  { name: 'base-url', default: 'https://api.mintlify.com' },
  { name: 'job-id', commands: ['message'] },
  { name: 'prompt', commands: JOB },
  { name: 'prompt-file', commands: JOB },
  { name: 'context', default: 'false', commands: JOB },
  { name: 'when-no-job', default: 'fail', commands: ['message'] },
  { name: 'when-agent-pr-open', default: 'follow-up', commands: JOB },
  { name: 'settle-time', default: '60s', commands: ['message'] },
  { name: 'wait', default: 'true', commands: JOB },
  { name: 'wait-timeout', default: '30m' },
  { name: 'poll-interval', default: '5s', commands: JOB },
  { name: 'job-path', default: '/v2/agent/{projectId}/job/{id}', commands: [...JOB, 'check'] },
  { name: 'fail-on-status', default: 'failed', commands: JOB },
  { name: 'date-from', commands: ANALYTICS },
  { name: 'date-to', commands: ANALYTICS },
  { name: 'period', commands: ANALYTICS },
  { name: 'page-size', default: '250', commands: ANALYTICS },
  { name: 'max-rows', default: '0', commands: ANALYTICS },
  { name: 'max-requests', default: '0' },
  { name: 'trend', default: '0', commands: ANALYTICS },
  { name: 'stale-after', default: '90d', commands: ['report'] },
  { name: 'docs-root', commands: ['report'] },
  { name: 'concurrency', default: '4', commands: ANALYTICS },
  { name: 'output-file', commands: ANALYTICS },
  // Every section, in the order a report shows them (a test keeps it equal to SECTIONS).
  { name: 'sections', default: 'visitors,views,searches,feedback,assistant', commands: ['report'] },
  { name: 'site-url', commands: ANALYTICS },
  { name: 'top', default: '20', commands: ANALYTICS },
  { name: 'compare', default: 'false', commands: ANALYTICS },
  { name: 'summary', default: 'true' },
  { name: 'comment', default: 'auto' },
  { name: 'issue-number' },
  { name: 'comment-mode', default: 'upsert' },
  { name: 'github-token', default: '${{ github.token }}', secret: 'the GitHub token' },
  { name: 'trigger', default: '/docs-agent' },
  { name: 'permission', default: 'write' },
  { name: 'allowed-users' },
  { name: 'allowed-bots' },
  { name: 'allow-pr-author', default: 'false' },
  { name: 'require-pr', default: 'false', commands: JOB },
  { name: 'notify-pr', commands: [...JOB, 'check'] },
  { name: 'notify-token', commands: [...JOB, 'check'], secret: 'the `notify-token`' },
  { name: 'notify-repository', commands: [...JOB, 'check'] },
  { name: 'trigger-label', commands: JOB },
  { name: 'checks', default: 'off', commands: [...JOB, 'check'] },
  { name: 'reviewers', commands: JOB },
  { name: 'report-files', commands: ['rollup'] }
]

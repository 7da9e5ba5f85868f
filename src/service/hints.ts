// What a refusal of the service asks the user to change, from its status and the service's own
// words: a 403 by the cause its words name (the IP allowlist, the key's scope, the plan, a key of
// another organisation than \`project-id\`) or else each of them; a project the service does not
// know names \`project-id\`. Plain text only: no imports, so any room may use it.

/** The service's own address: `base-url` is named in a fix only when it was set otherwise. */
export const DEFAULT_BASE_URL = 'https://api.mintlify.com'

/** `base-url`, when it was set to another address than the service's own, for a fix to name. */
export function addressSetting(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined
  return baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URL ? undefined : '`base-url`'
}

/** The dashboard, as a link (it moved to app.mintlify.com in 2026). */
export const DASHBOARD = '[the dashboard](https://app.mintlify.com)'
/** Where keys are made and the project id is shown. */
export const KEYS_PAGE = `the API keys page of ${DASHBOARD} (Settings → API keys)`

/** A 401: the key is wrong or has expired (keys made since 2026 expire by default). */
export const KEY_REFUSED_HINT =
  'the key is invalid or expired (new keys expire after 90 days unless set otherwise): create ' +
  `an admin API key (it starts with \`mint_\`) on ${KEYS_PAGE} and update the repository secret passed as ` +
  '`api-key` (e.g. `DOCS_API_KEY`)'

const STATUS_HINTS: Record<number, string> = {
  401: KEY_REFUSED_HINT,
  404: 'check `project-id` and `job-id` (and `job-path`, `base-url`)',
  429: 'the service rate limit was reached (about 100 requests per hour); try again later'
}

/** What to change for a 403, by its cause: the service's words name one, or all are listed. */
const FORBIDDEN = {
  allowlist:
    'an IP allowlist on the key refuses this runner: GitHub-hosted runners have changing ' +
    'addresses, so use a self-hosted runner with a fixed address, or lift the allowlist',
  scope:
    'the key lacks the scope for this, as a read-only key cannot start or message jobs: replace ' +
    `it with an admin API key (it starts with \`mint_\`, full access) created on ${KEYS_PAGE}, in ` +
    'the secret passed as `api-key` (e.g. `DOCS_API_KEY`)',
  plan: `your plan does not include this: check the plan on the billing page of ${DASHBOARD}`,
  organisation:
    'the key belongs to another organisation than `project-id`: use a key of the organisation ' +
    'that owns the project, or correct `project-id`'
} as const
export type ForbiddenCause = keyof typeof FORBIDDEN

/** The cause a 403's words name, if they name one. */
export function forbiddenCause(said: string): ForbiddenCause | undefined {
  if (/\bIP\b|allow ?list|address/i.test(said)) return 'allowlist'
  if (/read-only|scope|permission/i.test(said)) return 'scope'
  if (/\bplan\b|upgrade|subscription|not available|not included/i.test(said)) return 'plan'
  if (/organi[sz]ation|this project|access to/i.test(said)) return 'organisation'
  return undefined
}

/** What a 403 asks to change: its cause when the words name it, else every cause it may be. */
export function forbiddenHint(said: string): string {
  const cause = forbiddenCause(said)
  if (cause) return FORBIDDEN[cause]
  return (
    'the service refused this key here. Either the key belongs to another organisation than ' +
    '`project-id`, or an IP allowlist on the key refuses this runner, or the key lacks the ' +
    `scope, or your plan lacks the feature: check each on ${KEYS_PAGE}`
  )
}

/** The service's words say the project id is invalid or unknown (a 400 or a 404). */
export function saysProjectUnknown(said: string): boolean {
  return /project/i.test(said) && /invalid|unknown|not found|no such|does not exist/i.test(said)
}

/** The hint when the project id is what is wrong. */
export const PROJECT_HINT =
  `the project was not found: check \`project-id\` (the project id on ${KEYS_PAGE}; keep it as ` +
  'a repository variable, e.g. `DOCS_PROJECT_ID`, not a secret)'

/**
 * What to change for a failed request, from its status and the service's words: a 403 by its
 * cause, a 400 or 404 whose words say the project is unknown (or any 404 of an analytics
 * operation, where the project is the only id) names `project-id`.
 */
export function statusHint(status: number, said: string, request = ''): string | undefined {
  if (status === 403) return forbiddenHint(said)
  if ((status === 400 || status === 404) && saysProjectUnknown(said)) return PROJECT_HINT
  if (status === 404 && request.includes('/v1/analytics/')) return PROJECT_HINT
  return STATUS_HINTS[status]
}

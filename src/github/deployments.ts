// The deployments of a commit and a deployment's newest status, as GitHub lists them
// (`deployments: read`): what the docs platform's GitHub app leaves on a pull request's head for
// its preview (shared/field-notes.md, "Previews, reviewers and chat"). Each read starts only while
// the run's time is left (octokit.ts readInTime). Every field is untrusted JSON, read by type.
import { asObject } from '../json.js'
import { redact } from '../secrets/redact.js'
import { call } from './errors.js'
import { readInTime, type Octokit } from './octokit.js'

/** A repository on this GitHub. */
export interface RepositoryRef {
  owner: string
  repo: string
}

/** One deployment, as listed. */
export interface DeploymentSeen {
  id: number
  /** Who made it: a login, and whether GitHub says it is a bot (an app). */
  creator: string
  creatorIsBot: boolean
  environment: string
  /** ms epoch (0 when GitHub did not say). */
  createdAt: number
}

/** A deployment's newest status. */
export interface DeploymentStatusSeen {
  /** `queued`, `pending`, `in_progress`, `success`, `failure`, `error`, `inactive` (or another). */
  state: string
  /** Where it was deployed (the preview), as given. */
  environmentUrl?: string
  description?: string
  /** Its build log (`log_url`, else the older `target_url`), as given. */
  logUrl?: string
}

/** Deployments read: one page, the newest ones of a head commit (a pull request has a few). */
const DEPLOYMENTS_READ = 30

const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined

function readDeployment(raw: unknown): DeploymentSeen | undefined {
  const d = asObject(raw)
  const id = d?.id
  if (!d || typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined
  const creator = asObject(d.creator)
  const created = Date.parse(textOf(d.created_at) ?? '')
  return {
    id,
    creator: textOf(creator?.login) ?? '',
    creatorIsBot: creator?.type === 'Bot',
    environment: textOf(d.environment) ?? '',
    createdAt: Number.isFinite(created) ? created : 0
  }
}

/** The deployments of commit `sha`, newest first: one request. */
export async function listDeployments(
  octokit: Octokit,
  where: RepositoryRef,
  sha: string
): Promise<DeploymentSeen[]> {
  const data = await readInTime(octokit, 'the deployments of the pull request', request =>
    call("listing the deployments of the pull request's head", async () => {
      const answer = await octokit.rest.repos.listDeployments({
        owner: where.owner,
        repo: where.repo,
        sha,
        per_page: DEPLOYMENTS_READ,
        request
      })
      return answer.data
    })
  )
  const list: unknown[] = Array.isArray(data) ? data : []
  // GitHub lists the newest first; sorted again so no answer's order can put an old one first.
  return list
    .flatMap(raw => readDeployment(raw) ?? [])
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
}

/** The newest status of deployment `id` (none yet: undefined): one request. */
export async function newestDeploymentStatus(
  octokit: Octokit,
  where: RepositoryRef,
  id: number
): Promise<DeploymentStatusSeen | undefined> {
  const data = await readInTime(octokit, `the status of deployment ${id}`, request =>
    call(`reading the status of deployment ${id}`, async () => {
      const answer = await octokit.rest.repos.listDeploymentStatuses({
        owner: where.owner,
        repo: where.repo,
        deployment_id: id,
        per_page: 1,
        request
      })
      return answer.data
    })
  )
  const status = asObject(Array.isArray(data) ? data[0] : undefined)
  const state = textOf(status?.state)
  if (!status || !state) return undefined
  const url = textOf(status.environment_url)
  // The platform's words: withheld whole when they hold a secret (as a check run's are).
  const said = textOf(status.description)
  const description = said && redact(said) !== said ? '(withheld: it contained a secret)' : said
  const log = textOf(status.log_url) ?? textOf(status.target_url)
  return {
    state,
    ...(url ? { environmentUrl: url } : {}),
    ...(description ? { description } : {}),
    ...(log ? { logUrl: log } : {})
  }
}

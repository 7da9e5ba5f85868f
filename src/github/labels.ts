// The label the action puts on a pull request its job opened, and the one request that lists the
// open pull requests carrying it. A label is a hint only (anyone with triage can set or remove
// one): what decides is the signed `opened` record on the pull request (records/).
import { call } from './errors.js'
import type { Octokit } from './octokit.js'

/** Put on each pull request a job of this action opened (GitHub creates it on first use). */
export const AGENT_LABEL = 'docs-agent'

/** How many labelled items one listing looks at: issues carrying the label come in it too. */
const LISTED = 30

/**
 * The numbers of the open pull requests of owner/repo carrying `label`, newest first: one request (the issues
 * listing, which holds pull requests too, filtered by label and state).
 */
export async function openLabelledPulls(
  octokit: Octokit,
  owner: string,
  repo: string,
  label: string
): Promise<number[]> {
  return call(`listing the open pull requests labelled ${label}`, async () => {
    const { data } = await octokit.rest.issues.listForRepo({
      owner,
      repo,
      labels: label,
      state: 'open',
      sort: 'created',
      direction: 'desc',
      per_page: LISTED
    })
    // Untrusted JSON: only open pull requests with a number are kept.
    return data.flatMap(item =>
      item.pull_request && item.state === 'open' && Number.isSafeInteger(item.number)
        ? [item.number]
        : []
    )
  })
}

/** Adds `label` to pull request (or issue) `n`: one request. */
export async function addLabel(
  octokit: Octokit,
  owner: string,
  repo: string,
  n: number,
  label: string
): Promise<void> {
  await call(`labelling #${n} ${label}`, () =>
    octokit.rest.issues.addLabels({ owner, repo, issue_number: n, labels: [label] })
  )
}

/**
 * Removes the label `name` from issue or pull request `n`: one request. A label already gone (404)
 * is no failure: someone removed it first, which is what was wanted. `shown`: the name as an
 * error message may show it (gate/label.ts labelShown: a label's name is public text).
 */
export async function removeLabel(
  octokit: Octokit,
  owner: string,
  repo: string,
  n: number,
  label: { name: string; shown: string }
): Promise<void> {
  await call(`removing the label ${label.shown} from #${n}`, async () => {
    try {
      await octokit.rest.issues.removeLabel({ owner, repo, issue_number: n, name: label.name })
    } catch (err) {
      if ((err as { status?: unknown }).status !== 404) throw err
    }
  })
}

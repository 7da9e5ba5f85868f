// The job summary of a merge the gate skipped because the pull request is the docs agent's own
// (gate/own-merge.ts ownMergeSkip): read on the run's page, where a skipped run would otherwise show
// nothing, it says why no job was started, which job opened the pull request, and how to start
// one by hand.
import { value } from './job-report.js'
import { link } from './markdown.js'

export interface OwnMerge {
  /** The merged pull request's number, and its address as GitHub's event gave it. */
  number: number
  url?: string
  projectId: string
  /** The job the signed `opened` record names. */
  jobId: string
}

export function renderOwnMergeSummary(m: OwnMerge): string {
  const pr = link(`#${m.number}`, m.url)
  const job = value(m.jobId)
  const paragraphs = [
    "### ⏭️ No job started: the merged pull request is the docs agent's own",
    `${pr} was opened by docs agent job ${job} of project ${value(m.projectId)}, as this ` +
      "action's signed record on it says. Merging the agent's work starts no new job: otherwise " +
      'each merge of its pull request would start another. Nothing was sent to the service.',
    'To start a job for this merge anyway, run a workflow by hand (`workflow_dispatch`) with ' +
      '`command: create` and the instruction as `prompt`. To change what the job opened, follow ' +
      `up job ${job}: a \`command: message\` run with its \`job-id\`.`
  ]
  return paragraphs.join('\n\n') + '\n'
}

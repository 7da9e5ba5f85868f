// `command: check`: the set-up verified before anyone relies on it, in at most 8 requests to the
// service and none that starts or changes a job. Each line passes or says what to change (the
// input, the secret or variable, the plan, the IP allowlist, the workflow's `permissions:`); the
// step fails when any line fails. What the service answered is the `service-profile` output.
import * as core from '@actions/core'
import { resolvePeriod } from '../period.js'
import { commentRights } from '../github/rights.js'
import {
  joinChecks,
  renderCheck,
  toChange,
  type CheckLine,
  type CheckReport
} from '../report/check.js'
import { SUMMARY_ROOM } from '../report/fit.js'
import { capitalise, escapeText, plainText } from '../report/markdown.js'
import type { CheckSettings } from '../settings/settings.js'
import { saysProjectUnknown } from '../service/hints.js'
import { CHECK_MAX_REQUESTS, Prober, type Probe } from '../check/probes.js'
import { ANALYTICS, checkLines } from '../check/lines.js'
import { isProjectUnknown, notSent } from '../check/verdicts.js'
import { rightsLine } from '../check/comment-rights.js'
import { asksFeedbackFilter, feedbackFilterLine } from '../check/feedback-filter.js'
import { apiPageLine, reachLine, serviceAnswered, serviceCause, via } from '../check/reach.js'
import type { NetworkCause } from '../network.js'
import type { CommandContext } from './context.js'
import { checksReadLine } from '../check/checks-read.js'
import { codePullRequest } from '../gate/code-pull-request.js'

/** The check's share of `max-requests`: 8 at most, fewer when the workflow caps the run lower. */
export function checkBudget(maxRequests: number): number {
  return maxRequests > 0 ? Math.min(maxRequests, CHECK_MAX_REQUESTS) : CHECK_MAX_REQUESTS
}

export async function runCheck(ctx: CommandContext<CheckSettings>): Promise<void> {
  const s = ctx.settings
  const range = resolvePeriod({ kind: 'days', days: 7 }, new Date(ctx.deadline.now()))
  core.info(`Checking the set-up of project ${s.projectId} at ${s.baseUrl}.`)
  const prober = new Prober(ctx.service, s.projectId, range, ctx.deadline)
  const probes = await probeAll(prober, s.jobPath)
  const proxies = ctx.proxies ?? { service: {}, github: {} }
  const service = serviceCause(probes)
  const token = await tokenLine(ctx)
  const reach = reachLine({
    proxies,
    answered: {
      service: serviceAnswered(probes),
      ...(token.answered !== undefined ? { github: token.answered } : {})
    },
    baseUrl: s.baseUrl,
    ...(service ? { service } : {}),
    ...(token.network ? { github: token.network } : {})
  })
  const failing = reach.verdict === 'fail'
  const lines = [
    // A connection that kept requests away is the first thing to read.
    ...(failing ? [reach] : []),
    ...checkLines(s.apiKey, s.projectId, probes, service ? reach.check : undefined),
    feedbackFilterLine(probes),
    token.network ? { ...token.line, because: reach.check } : token.line,
    ...(await notifyLines(ctx)),
    ...(await checksReadLine({
      ...ctx.event,
      octokit: ctx.octokit,
      commit: ctx.commit,
      checks: s.checks
    })),
    ...(failing ? [] : [reach])
  ]
  const report: CheckReport = {
    projectId: s.projectId,
    baseUrl: s.baseUrl,
    range,
    lines,
    profile: probes.map(p => p.entry),
    requests: ctx.service.requests,
    maxRequests: checkBudget(s.maxRequests),
    generatedAt: ctx.deadline.now()
  }
  ctx.result.set('service-profile', JSON.stringify(profileJson(report)))
  if (s.summary) ctx.result.summary = renderCheck(report, SUMMARY_ROOM)
  const failed = toChange(lines)
  // The lines are Markdown (escaped where untrusted); the log is plain text (so is the failure,
  // made plain where it is published).
  for (const line of lines)
    core.info(plainText(`${line.verdict.toUpperCase()} ${line.check}: ${said(line)}`))
  if (failed.length > 0)
    ctx.result.failure =
      `The set-up check found ${failed.length === 1 ? 'a problem' : `${failed.length} problems`}: ` +
      failed
        .map(f => {
          const first = lines.find(line => line.check === f.checks[0])
          return `${joinChecks(f.checks)}: ${first ? said(first) : ''} → ${f.fix}`
        })
        .join('; ')
}

/** A line in the log: what was seen, and the service's words. */
function said(line: CheckLine): string {
  return line.said ? `${line.seen}: ${line.said}` : line.seen
}

/** The JSON of the `service-profile` output: per operation what the service answered. */
function profileJson(r: CheckReport) {
  return { range: r.range, requests: r.requests, operations: r.profile }
}

/**
 * The analytics operations, then the agent API. A key the service refuses (401), a project it
 * does not know (404) or a spent hourly limit (429) is said once: the probes after it would only
 * be refused the same way, each spending a request.
 */
async function probeAll(prober: Prober, jobPath: string): Promise<Probe[]> {
  const probes: Probe[] = []
  const ask = prober.analytics()
  let stopAnalytics = false
  for (const operation of ANALYTICS) {
    if (stopAnalytics) break
    const p = await ask[operation]()
    probes.push(p)
    const status = p.entry.status
    if (status === 401) return probes
    // A 404 whose words do not name the project may be a wrong `base-url`: the agent API's
    // answer tells the two apart (its 404 names the job when the address is the service's).
    if (isProjectUnknown(p)) {
      if (p.entry.status === 404 && !saysProjectUnknown(p.said ?? '')) break
      return probes
    }
    if (status === 429 || notSent(p)) stopAnalytics = true
  }
  probes.push(await prober.agent(jobPath))
  if (asksFeedbackFilter(probes)) probes.push(await ask['feedback-comments']())
  return probes
}

/** Whether the token may comment where the run would: checked without writing anything. */
async function tokenLine(
  ctx: CommandContext<CheckSettings>
): Promise<{ line: CheckLine; network?: NetworkCause; answered?: boolean }> {
  const check = 'GitHub token may comment'
  const { target, octokit, event } = ctx
  if (!ctx.commenting.writes) return { line: { check, verdict: 'skip', seen: '`comment: false`' } }
  if (!target)
    return {
      line: {
        check,
        verdict: 'skip',
        seen:
          'no pull request or issue to comment on: set `issue-number` (e.g. the tracking issue of ' +
          'the weekly report) to check the token there'
      }
    }
  const where = `#${target.issueNumber}`
  if (!octokit)
    return {
      line: {
        check,
        verdict: 'fail',
        seen: `\`github-token\` is empty, so nothing can be written on ${where}`,
        fix: 'Leave `github-token` out (it defaults to the workflow’s token) or pass a token'
      }
    }
  const rights = await commentRights(octokit, target)
  const answered = rights.ok || rights.status !== undefined
  const api = `GitHub's API at ${escapeText(ctx.apiUrl ?? 'https://api.github.com')} (${via(ctx.proxies?.github)})`
  if (!rights.ok && rights.network)
    return {
      line: { check, verdict: 'fail', seen: `not reached: ${api}` },
      network: rights.network,
      answered
    }
  // A 404 web page: the address is no API (GitHub's own 5xx pages are HTML too, and say nothing of it).
  if (!rights.ok && rights.page && rights.status === 404)
    return { line: apiPageLine(check, api), answered }
  return { line: rightsLine(rights, target.issueNumber, event), answered }
}

/** A pull request outside `notify-repository` is never probed: one of the two is wrong. */
const OUTSIDE_FIX =
  'Set `notify-repository` to the code repository whose pull requests `notify-token` may tell, ' +
  'or name a pull request of that repository in `notify-pr` (or the dispatch payload)'

/** With a code pull request to tell (`notify-pr` or a dispatch's): may `notify-token` comment there? */
async function notifyLines(ctx: CommandContext<CheckSettings>): Promise<CheckLine[]> {
  const check = '`notify-token` may comment'
  const code = codePullRequest({
    ...ctx.settings,
    eventName: ctx.event.eventName,
    payload: ctx.payload,
    serverUrl: ctx.serverUrl
  })
  if (code.url === undefined) return ctx.settings.notifyToken ? [notifyUnnamed(check)] : []
  const fix =
    'Pass as `notify-token` a token that may write pull requests (or issues) of the code ' +
    'repository: a fine-grained token or a GitHub App installation token, kept as a secret'
  if (!code.ref || !ctx.notifyOctokit)
    return [
      {
        check,
        verdict: 'fail',
        seen: ctx.notifyOctokit
          ? (code.note ?? '')
          : `\`notify-token\` is empty: ${code.url} is not told`,
        fix: code.outside ? OUTSIDE_FIX : fix
      }
    ]
  const { owner, repo, number } = code.ref
  const rights = await commentRights(ctx.notifyOctokit, { owner, repo, issueNumber: number })
  const where = `${owner}/${repo}#${number}`
  return rights.ok
    ? [{ check, verdict: 'pass', seen: `may comment on ${where}` }]
    : [
        {
          check,
          verdict: 'fail',
          seen: `GitHub refused a comment on ${where}`,
          said: rights.said,
          // A refusal names this token's own fix (its scope, `notify-repository`), never the
          // workflow's `permissions:`.
          fix: rights.hint ? capitalise(rights.hint) : fix
        }
      ]
}

/** `notify-token` without a code pull request to check it on: said, not passed in silence. */
function notifyUnnamed(check: string): CheckLine {
  return {
    check,
    verdict: 'skip',
    seen:
      'not checked: `notify-token` is set but no code pull request is named. Set `notify-pr` ' +
      '(the code pull request’s URL) on this check to verify the token there; a docs workflow ' +
      'run by `repository_dispatch` takes it from the payload'
  }
}

// run(): the gate, the settings, the command, then what the run publishes. The one place that
// reads the environment, and the one try/catch that turns errors into core.setFailed. Inputs are
// read by settings/; whether the run goes ahead is decided by gate/.
import * as core from '@actions/core'
import { runJobOnce } from './commands/job-cause.js'
import { runReport } from './commands/report.js'
import { runVisitors } from './commands/visitors.js'
import { runRollup } from './commands/rollup.js'
import { checkBudget, runCheck } from './commands/check.js'
import { onCancel } from './commands/cancel.js'
import type { CommandContext } from './commands/context.js'
import { CommandResult } from './commands/result.js'
import { Deadline, systemClock, type Clock } from './deadline.js'
import { admit, decide, GitHubClients, type GateContext, type Skip } from './gate/gate.js'
import { postReply } from './github/comments.js'
import { readEvent, type EventInfo } from './github/event.js'
import { createOctokit, type Octokit } from './github/octokit.js'
import { addReaction, Reactions } from './github/trigger.js'
import { ServiceClient } from './service/client.js'
import { redact, registerSecrets } from './secrets/redact.js'
import {
  isJobSettings,
  readSecretInputs,
  readSettings,
  runnerInput,
  type RollupSettings,
  type Settings
} from './settings/settings.js'
import { VERSION } from './version.js'
import { refuseUnknownInputs } from './settings/names.js'
import { settingsDebugLine } from './settings/debug-line.js'
import { messageOf } from './errors.js'
import { readPayload, runOf, runUrl } from './gate/workflow-run.js'
import { plainSecretRefusal, proxyFor, proxyProblems, type Proxy } from './proxy.js'
import { removeTriggerLabel } from './gate/label.js'
import { instructionText } from './public-text.js'
import { refusedCheckSummary } from './check/refused.js'

const USER_AGENT = `docs-agent-action/${VERSION}`

/** What the cancellation handler and publish need, known as the run goes. */
interface Live {
  service?: ServiceClient
  reactions?: Reactions
  /** Takes off the label that asked for the run (`trigger-label`), once it has ended. */
  unlabel?: () => Promise<void>
}

/**
 * Runs the action. `clock` is where time comes from: a test hands in one whose waits take no
 * real time; the run's one Deadline is built on it here.
 */
export async function run(env: NodeJS.ProcessEnv = process.env, clock: Clock = systemClock) {
  // Before anything else can print them; read as given, so each line of a broken value is masked.
  registerSecrets(...readSecretInputs())
  // Unbounded (each GitHub call's own 30 s) until the settings say how long the run may take.
  const deadline = new Deadline(clock)
  const result = new CommandResult()
  result.set('skipped', 'false')
  const live: Live = {}
  // Published once: by the run's end, or by the cancellation handler if the runner stops it first.
  let published = false
  const publishOnce = async (): Promise<void> => {
    if (published) return
    published = true
    // What is published is the result as it stands now: the command's own flow, still running
    // under a cancellation, cannot change it while it is written out.
    await publish(result.snapshot(), live)
  }
  // Once the runner cancels, the handler speaks for the run: what the command's own flow says
  // afterwards (its work torn down under it) is not published.
  let cancelled = false
  const stopOnCancel = onCancel(async signal => {
    cancelled = true
    live.service?.halt()
    result.failure =
      (await result.onCancel?.(signal).catch(() => undefined)) ??
      `Cancelled (${signal}): nothing was sent to the service.`
    await publishOnce()
  })
  try {
    await carryOut(env, deadline, result, live)
  } catch (err) {
    // The command's own verdict, if it had one, is what the step reports.
    result.failure ??= messageOf(err)
  } finally {
    // A cancellation under way keeps its handler (and the process ends there).
    if (!cancelled) stopOnCancel()
    live.service?.dispose()
  }
  if (!cancelled) await publishOnce()
}

/**
 * The run itself: the gate, the settings, the rest of the gate, the command. A skip or an error
 * ends it early; whatever it filled in is published by run() either way.
 */
async function carryOut(
  env: NodeJS.ProcessEnv,
  deadline: Deadline,
  result: CommandResult,
  live: Live
): Promise<void> {
  const { payload, event, githubProxy, clients, apiUrl } = readRunner(env, deadline)
  const gate: GateContext = { event, env, clients, clock: deadline }
  const admitted = await admit(gate)
  if (admitted.skip) return skip(result, admitted.skip, admitted.octokit, event)
  const { trigger, label } = admitted
  if (label) live.unlabel = () => removeTriggerLabel(label, admitted.octokit)
  if (trigger) {
    live.reactions = new Reactions(trigger, admitted.octokit, admitted.reacts === true, event)
    core.info(`Trigger accepted: ${trigger.why}.`)
    await live.reactions.add('eyes')
  }
  // Before any other input, once the gate let the run through (a comment that is no trigger is
  // skipped whatever its inputs): a `with:` key action.yml does not declare fails the step.
  refuseUnknownInputs(Object.keys(env))
  const settings = readRunSettings(
    {
      now: new Date(deadline.now()),
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      commentEvent: trigger !== undefined || label !== undefined,
      ...(admitted.rules && trigger
        ? { trigger: admitted.rules, triggerPrompt: trigger.prompt }
        : {})
    },
    result
  )
  core.debug(settingsDebugLine(settings))
  deadline.limit(settings.waitTimeoutMs)
  for (const warning of settings.warnings) core.warning(warning)
  const decided = await decide(gate, admitted, settings, payload)
  for (const note of decided.notes) core[note.level](note.text)
  if (decided.skip) return skip(result, decided.skip, decided.octokit, event)
  const run = runOf(env)
  const given = {
    ...decided.go,
    event,
    payload,
    result,
    deadline,
    runUrl: runUrl(env),
    ...(run ? { run } : {}),
    ...(env.GITHUB_SHA ? { commit: env.GITHUB_SHA } : {}),
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com'
  }
  // A roll-up reads what `report` runs wrote: no client of the service is made, nothing is sent.
  if (settings.command === 'rollup') return runRollup({ ...given, settings })
  const { service, proxy } = serviceFor(settings, env, deadline)
  live.service = service
  await runCommand({
    ...given,
    settings,
    service,
    proxies: { service: proxy, github: githubProxy },
    apiUrl
  })
}

/** The run's settings: a check refused before any request still draws its table. */
function readRunSettings(
  options: Parameters<typeof readSettings>[1],
  result: CommandResult
): Settings {
  try {
    return readSettings(runnerInput, options)
  } catch (err) {
    result.summary = refusedCheckSummary(runnerInput, err, options.now.getTime()) ?? result.summary
    throw err
  }
}

/** What the runner says of this run: the event, and the GitHub clients (through the proxy). */
function readRunner(env: NodeJS.ProcessEnv, deadline: Deadline) {
  const payload = readPayload(env.GITHUB_EVENT_PATH)
  const event = readEvent(env.GITHUB_EVENT_NAME ?? '', payload, env.GITHUB_REPOSITORY ?? '')
  const apiUrl = env.GITHUB_API_URL ?? 'https://api.github.com'
  for (const problem of proxyProblems(env)) core.warning(problem)
  const githubProxy = proxyFor(apiUrl, env)
  const refusal = plainSecretRefusal(apiUrl, githubProxy, '`GITHUB_API_URL`')
  if (refusal) throw new Error(refusal)
  if (githubProxy?.url.password) core.setSecret(decodeURIComponent(githubProxy.url.password))
  const clients = new GitHubClients(
    token => createOctokit(token, apiUrl, USER_AGENT, deadline, githubProxy),
    deadline
  )
  return { payload, event, githubProxy, clients, apiUrl }
}

/** The service's client, through its proxy (if any). */
function serviceFor(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  deadline: Deadline
): { service: ServiceClient; proxy: Proxy | undefined } {
  const proxy = proxyFor(settings.baseUrl, env)
  const refusal = plainSecretRefusal(settings.baseUrl, proxy, '`base-url`')
  if (refusal) throw new Error(refusal)
  if (proxy) {
    if (proxy.url.password) core.setSecret(decodeURIComponent(proxy.url.password))
    core.info(`Requests to the service go through the proxy ${proxy.hostPort}.`)
  }
  const service = new ServiceClient({
    baseUrl: settings.baseUrl,
    ...(proxy ? { proxy } : {}),
    apiKey: settings.apiKey,
    userAgent: USER_AGENT,
    // A check spends at most 8 requests, whatever else the workflow allows.
    maxRequests:
      settings.command === 'check' ? checkBudget(settings.maxRequests) : settings.maxRequests,
    deadline,
    // Its lines carry the service's words: cleaned as text from the public (nothing hidden).
    debug: line => core.debug(instructionText(line)),
    info: line => core.info(instructionText(line)),
    warn: line => core.warning(instructionText(line))
  })
  return { service, proxy }
}

/** The command the settings name (a roll-up aside: it has no service client). */
async function runCommand(ctx: CommandContext<Exclude<Settings, RollupSettings>>): Promise<void> {
  const { settings } = ctx
  if (isJobSettings(settings)) await runJobOnce({ ...ctx, settings })
  else if (settings.command === 'check') await runCheck({ ...ctx, settings })
  else if (settings.command === 'report') await runReport({ ...ctx, settings })
  else await runVisitors({ ...ctx, settings })
}

/**
 * The one place that publishes: outputs (`requests` from the client's count, also after a
 * failure), the job summary (a file that cannot be written only warns), the comment, the reaction
 * on a trigger comment, and the one core.setFailed, redacted and cleaned of anything hidden.
 */
async function publish(
  result: CommandResult,
  { service, reactions, unlabel }: Live
): Promise<void> {
  for (const [name, value] of result.outputs) core.setOutput(name, redact(value))
  if (service) core.setOutput('requests', String(service.requests))
  if (result.summary !== undefined) {
    // Every published text passes the secret search here, whatever built it.
    await core.summary
      .addRaw(redact(result.summary))
      .write()
      .catch((err: unknown) => core.warning(`Could not write the job summary: ${messageOf(err)}`))
  }
  if (result.comment) {
    try {
      const url = await result.comment()
      if (url) core.setOutput('comment-url', url)
    } catch (err) {
      // The comment is part of what the run was asked for; a failure already reported wins.
      if (result.failure === undefined) result.failure = messageOf(err)
      else core.warning(messageOf(err))
    }
  }
  await unlabel?.()
  if (result.failure !== undefined) {
    core.setFailed(instructionText(redact(result.failure)))
    await reactions?.add('confused')
  } else if (result.reaction) await reactions?.add(result.reaction)
}

/** A run the gate did not let through: what it says, where it says it, and `skipped=true`. */
async function skip(
  result: CommandResult,
  s: Skip,
  octokit: Octokit | undefined,
  event: EventInfo
): Promise<void> {
  if (octokit && s.reply)
    await postReply(octokit, s.reply.place, s.reply.body).catch((err: unknown) =>
      core.warning(messageOf(err))
    )
  if (octokit && s.reaction) {
    const { comment, content } = s.reaction
    await addReaction(octokit, event.owner, event.repo, comment, content, core.warning)
  }
  if (s.warning) core.warning(s.warning)
  if (s.notice) core.notice(s.notice)
  if (s.summary) result.summary = s.summary
  core.info(`Skipped: ${s.reason}. Nothing was sent to the service.`)
  result.set('skipped', 'true')
}

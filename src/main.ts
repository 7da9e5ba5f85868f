// run(): wires the run (the runner's event, the clients through their proxies, the one
// Deadline), the gate's phases, the settings, the command, then publishes what it filled in
// (publish.ts). The one place that reads the environment, and the one try/catch that turns
// errors into core.setFailed. Inputs are read by settings/; whether the run goes ahead, and who
// asked for it, is decided by gate/.
import * as core from '@actions/core'
import { runJob } from './commands/job.js'
import { runReport } from './commands/report.js'
import { runVisitors } from './commands/visitors.js'
import { runRollup } from './commands/rollup.js'
import { checkBudget, runCheck } from './commands/check.js'
import { onCancel } from './commands/cancel.js'
import type { CommandContext } from './commands/context.js'
import { CommandResult } from './commands/result.js'
import { Deadline, systemClock, type Clock } from './deadline.js'
import { GitHubClients, type GateContext } from './gate/clients.js'
import { admit, beforeSending, decide } from './gate/gate.js'
import { readEvent } from './github/event.js'
import { createOctokit } from './github/octokit.js'
import { Reactions } from './github/trigger.js'
import { ServiceClient } from './service/client.js'
import { registerSecrets } from './secrets/redact.js'
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
import { failureLine } from './causes.js'
import { readPayload, runOf, runUrl, serverUrlOf } from './gate/workflow-run.js'
import { chooseProxy, plainSecretRefusal, proxyProblems, type ProxyChoice } from './proxy.js'
import { removeTriggerLabel } from './gate/label.js'
import { instructionText } from './public-text.js'
import { refusedCheckSummary } from './check/refused.js'
import { publish, skip, type Live } from './publish.js'

const USER_AGENT = `docs-agent-action/${VERSION}`

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
    // The command's own verdict, if it had one, is what the step reports; else the error, with
    // what to change and who changes it when a re-run cannot help (causes.ts).
    result.failure ??= failureLine(err, messageOf(err))
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
  const { payload, event, githubProxy, clients, apiUrl, serverUrl } = readRunner(env, deadline)
  const gate: GateContext = { event, payload, env, serverUrl, clients, clock: deadline }
  const admitted = await admit(gate)
  if (admitted.skip) return skip(result, admitted.skip, admitted, event)
  const { asker, octokit } = admitted
  if (asker.label !== undefined) live.unlabel = () => removeTriggerLabel(asker, octokit)
  if (asker.comment) {
    live.reactions = new Reactions(asker.comment, octokit, admitted.reacts === true, event)
    core.info(`Trigger accepted: ${asker.why}.`)
    await live.reactions.add('eyes')
  }
  // Before any other input, once the gate let the run through (a comment that is no trigger is
  // skipped whatever its inputs): a `with:` key action.yml does not declare fails the step.
  refuseUnknownInputs(Object.keys(env))
  const settings = readRunSettings(
    {
      now: new Date(deadline.now()),
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      commentEvent: asker.comment !== undefined || asker.label !== undefined,
      ...(admitted.rules && asker.comment
        ? { trigger: admitted.rules, triggerPrompt: asker.instruction ?? '' }
        : {})
    },
    result
  )
  core.debug(settingsDebugLine(settings))
  deadline.limit(settings.waitTimeoutMs)
  for (const warning of settings.warnings) core.warning(warning)
  const decided = await decide(gate, admitted, settings)
  for (const note of decided.notes) core[note.level](note.text)
  if (decided.skip) return skip(result, decided.skip, decided, event)
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
    serverUrl
  }
  // A roll-up reads what `report` runs wrote: no client of the service is made, nothing is sent.
  if (settings.command === 'rollup') return runRollup({ ...given, settings })
  const proxy = throughProxy(settings.baseUrl, env, '`base-url`', 'the service')
  live.service = serviceFor(settings, proxy, deadline)
  const proxies = { service: proxy, github: githubProxy }
  await runCommand({ ...given, settings, service: live.service, proxies, apiUrl })
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
  const githubProxy = throughProxy(apiUrl, env, '`GITHUB_API_URL`', 'GitHub')
  const clients = new GitHubClients(
    (token, input) => createOctokit(token, input, apiUrl, USER_AGENT, deadline, githubProxy),
    deadline
  )
  return { payload, event, githubProxy, clients, apiUrl, serverUrl: serverUrlOf(env) }
}

/**
 * How requests to `url` go (`input` names where the address came from): through a proxy, refused
 * when a secret would cross it in plain text, its password masked in the log; or direct, said
 * when `NO_PROXY` chose it although a proxy is set.
 */
function throughProxy(url: string, env: NodeJS.ProcessEnv, input: string, to: string): ProxyChoice {
  const choice = chooseProxy(url, env)
  const { proxy, bypass } = choice
  const refusal = plainSecretRefusal(url, proxy, input)
  if (refusal) throw new Error(refusal)
  if (bypass)
    core.info(
      `Requests to ${to} go direct: the \`NO_PROXY\` entry \`${bypass.entry}\` matches them (the proxy ${bypass.proxy} is not used).`
    )
  if (!proxy) return choice
  if (proxy.url.password) core.setSecret(decodeURIComponent(proxy.url.password))
  core.info(`Requests to ${to} go through the proxy ${proxy.hostPort}.`)
  return choice
}

/** The service's client, through its proxy (if any). */
function serviceFor(settings: Settings, proxy: ProxyChoice, deadline: Deadline) {
  return new ServiceClient({
    baseUrl: settings.baseUrl,
    proxy,
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
}

/**
 * The command the settings name (a roll-up aside: it has no service client); a job run after the
 * gate's last phase, which may still skip it (sent already, a reply where no job takes it).
 */
async function runCommand(ctx: CommandContext<Exclude<Settings, RollupSettings>>): Promise<void> {
  const { settings } = ctx
  if (isJobSettings(settings)) {
    const ahead = await beforeSending({ ...ctx, settings })
    if (ahead.skip) return skip(ctx.result, ahead.skip, ctx, ctx.event)
    await runJob({ ...ctx, settings, ...(ahead.route ? { route: ahead.route } : {}) })
  } else if (settings.command === 'check') await runCheck({ ...ctx, settings })
  else if (settings.command === 'report') await runReport({ ...ctx, settings })
  else await runVisitors({ ...ctx, settings })
}

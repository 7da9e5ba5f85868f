// What every command gets from run(): the gate's answer (who asked, where and how; where the run
// comments, the comment policy, the GitHub clients; for a job run, where an instruction with no
// `job-id` goes), the settings, the event, the service's client and the run's deadline, already
// built. A command takes the gate's answer as it is and never derives it again from the event or
// the `comment` input: who asked and where come from the asker, whatever the kind of start.
import type { Deadline } from '../deadline.js'
import type { Go } from '../gate/answer.js'
import type { Route } from '../gate/route.js'
import type { ProxyChoice } from '../proxy.js'
import type { EventInfo } from '../github/event.js'
import type { ServiceClient } from '../service/client.js'
import type { Settings } from '../settings/settings.js'
import type { CommandResult } from './result.js'

export interface CommandContext<S extends Settings = Settings> extends Go {
  settings: S
  /** A job run's instruction with no `job-id`: the job its thread routes it to (gate/route.ts). */
  route?: Route
  event: EventInfo
  /** The raw event payload (untrusted JSON), for what EventInfo does not read: `context`. */
  payload: Record<string, unknown>
  service: ServiceClient
  /** What the run publishes: filled by the command, published by run(). */
  result: CommandResult
  /**
   * The run's one deadline and clock (`wait-timeout` from the start of the run; for `message`
   * and `create` counted again from the service's answer to the POST). The client, GitHub calls,
   * paging and the wait all ask it.
   */
  deadline: Deadline
  runUrl: string
  /**
   * `GITHUB_RUN_ID` and `GITHUB_RUN_ATTEMPT`, when the runner set them, with the workflow job
   * (`GITHUB_JOB`) and the step (`GITHUB_ACTION`) they name ('' when not set).
   */
  run?: { id: string; attempt: number; job: string; step: string }
  /** The commit the workflow runs on (`GITHUB_SHA`), when the runner set it. */
  commit?: string
  serverUrl: string
  /** How the service's and GitHub's requests go: through a proxy, or direct (and why). */
  proxies?: { service: ProxyChoice; github: ProxyChoice }
  /** GitHub's API address (`GITHUB_API_URL`), as the check names it. */
  apiUrl?: string
}

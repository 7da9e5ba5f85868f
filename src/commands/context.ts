// What every command gets from run(): settings, the event, the clients and the run's deadline,
// already built.
import type { Deadline } from '../deadline.js'
import type { Proxy } from '../proxy.js'
import type { EventInfo } from '../github/event.js'
import type { Place } from '../github/comments.js'
import type { Octokit } from '../github/octokit.js'
import type { FixRequest } from '../records/fix.js'
import type { Records } from '../records/records.js'
import type { ServiceClient } from '../service/client.js'
import type { Settings } from '../settings.js'
import type { CommandResult } from './result.js'

export interface CommandContext<S extends Settings = Settings> {
  settings: S
  event: EventInfo
  /** The raw event payload (untrusted JSON), for what EventInfo does not read: `context`. */
  payload: Record<string, unknown>
  /** Where to comment, when the run comments at all. */
  target?: Place
  /**
   * Present when there is a token and either `comment` is not `false` or the event is a comment
   * (whose author's permission must be checked). Writes also need `comment` not `false`.
   */
  octokit?: Octokit
  /** A client with `notify-token`, for the code pull request of a dispatch (job-notify.ts). */
  notifyOctokit?: Octokit
  /** What the action trusts on GitHub, read once per thread per run: present with `octokit`. */
  records?: Records
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
  serverUrl: string
  /** A `fix N [M …]` trigger: the report's suggestions the instruction asks to fix. */
  fixes?: FixRequest[]
  /** The proxies the service's and GitHub's requests go through (undefined: direct). */
  proxies?: { service: Proxy | undefined; github: Proxy | undefined }
}

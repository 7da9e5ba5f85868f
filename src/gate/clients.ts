// The run's GitHub clients and what it trusts on GitHub, built here and nowhere else: one client
// per token (each call within the run's time, through the proxy), and one Records per client and
// key, so that every thread is listed once per run, for the gate and the command alike, and the
// code pull request told with `notify-token` is read and written through the same room.
import type { EventInfo } from '../github/event.js'
import type { Octokit } from '../github/octokit.js'
import type { TokenInput } from '../github/permissions.js'
import type { JsonObject } from '../json.js'
import { Records } from '../records/records.js'
import type { GetInput } from '../settings/parse.js'

/** What the gate is handed: what the runner says of this run, and the clients. */
export interface GateContext {
  event: EventInfo
  /** The raw event payload (untrusted JSON). */
  payload: JsonObject
  env: NodeJS.ProcessEnv
  /** This GitHub's address (`GITHUB_SERVER_URL`), for the links an asker gives. */
  serverUrl: string
  clients: GitHubClients
  get?: GetInput
  /** The run's clock (its Deadline), for the dates a reply names. */
  clock: { now(): number }
}

export class GitHubClients {
  private readonly made = new Map<string, Octokit>()
  private readonly trusted = new Map<Octokit, Records>()

  constructor(
    /** A client for `token`, which came from `input` (a refusal names that input). */
    private readonly make: (token: string, input: TokenInput) => Octokit,
    /** The run's clock (its Deadline): when each record is written. */
    private readonly clock: { now(): number }
  ) {}

  client(token: string, input: TokenInput = 'github-token'): Octokit {
    const key = `${input}\n${token}`
    let octokit = this.made.get(key)
    if (!octokit) {
      octokit = this.make(token, input)
      this.made.set(key, octokit)
    }
    return octokit
  }

  /** The records read and written with `octokit`, signed with `secret` (one key per run). */
  records(octokit: Octokit, secret: string): Records {
    let records = this.trusted.get(octokit)
    if (records?.secret !== secret) {
      records = new Records(octokit, secret, this.clock)
      this.trusted.set(octokit, records)
    }
    return records
  }
}

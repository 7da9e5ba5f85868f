// The agent job operations: start a job, send a follow-up, read a job. Each POST is sent at most
// once (the client retries it only where the service certainly did not take it).
import { enc, type ServiceClient } from './client.js'
import { ServiceError } from './errors.js'
import { checkAgentJob, type AgentJob } from './schema.js'

export class AgentApi {
  constructor(private readonly client: ServiceClient) {}

  /** Sends the follow-up; never twice. Resolves to the job if the answer was one. */
  async sendMessage(
    projectId: string,
    jobId: string,
    prompt: string
  ): Promise<AgentJob | undefined> {
    const path = `/v2/agent/${enc(projectId)}/job/${enc(jobId)}/message`
    try {
      return await this.post(path, prompt)
    } catch (err) {
      // A 2xx with an odd body still means the service took the message: say so, do not fail.
      if (isTaken(err)) return undefined
      throw err
    }
  }

  /**
   * Starts a new agent job; never twice. A 2xx whose body names no job still started one, so it
   * is an error that says so, and nothing retries it.
   */
  async createJob(projectId: string, prompt: string): Promise<AgentJob> {
    const path = `/v2/agent/${enc(projectId)}/job`
    try {
      return await this.post(path, prompt)
    } catch (err) {
      if (isTaken(err))
        throw new ServiceError(
          `The service took the instruction and started a job, but its answer was odd: ${err.message}. ` +
            'Find the job among the agent jobs of the project before creating another.',
          err.status,
          undefined,
          'yes'
        )
      throw err
    }
  }

  getJob(path: string, maxAttempts?: number): Promise<AgentJob> {
    return this.client.call({ method: 'GET', path, check: checkAgentJob, maxAttempts })
  }

  private post(path: string, prompt: string): Promise<AgentJob> {
    const body = JSON.stringify({ prompt })
    return this.client.call({ method: 'POST', path, body, check: checkAgentJob })
  }
}

/** A 2xx whose body was odd: the service took the instruction. */
function isTaken(err: unknown): err is ServiceError {
  return err instanceof ServiceError && err.status !== undefined && err.status < 300
}

// What a command hands back to run(): everything the step publishes. The command fills it as it
// goes (so whatever is known is published even when the run fails or is cancelled part way), and
// src/publish.ts publishes it once: outputs, the job summary, the comment, the reaction, and the one
// core.setFailed.

export class CommandResult {
  /** Step outputs, in the order they were set; a later value replaces an earlier one. */
  readonly outputs = new Map<string, string>()
  /** The job summary's Markdown. */
  summary?: string
  /**
   * Writes the run's comment (or its ending, for a comment kept live during the run); main calls it
   * once, after the outputs. It returns the comment's URL, if one was written.
   */
  comment?: () => Promise<string | undefined>
  /** Why the step fails, when the command ends without throwing (a timeout, `fail-on-status`). */
  failure?: string
  /** The reaction on a trigger comment when the run did not fail: done. */
  reaction?: 'rocket'
  /**
   * What the command says when the runner cancels it now (SIGINT, SIGTERM): it may fill the
   * result further (the summary, the comment's ending) and returns the failure message.
   */
  onCancel?: (signal: NodeJS.Signals) => Promise<string>

  set(name: string, value: string): void {
    this.outputs.set(name, value)
  }

  /** A copy that later changes to this result do not reach. */
  snapshot(): CommandResult {
    const copy = new CommandResult()
    for (const [name, value] of this.outputs) copy.set(name, value)
    copy.summary = this.summary
    copy.comment = this.comment
    copy.failure = this.failure
    copy.reaction = this.reaction
    return copy
  }
}

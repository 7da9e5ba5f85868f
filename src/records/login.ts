// The login this token writes as: the one author whose comments the action may edit, and whose
// older records (signed before records named their writer) still count. Learned only from what
// no reader can edit: GitHub's answer to this run's own write, which is the authority, or before
// any write GitHub's answer about the token (GraphQL `viewer`, asked at most once per run and only
// when needed), which is a hint: a write whose answer names another author replaces it, and the
// markers signed for the hint are signed again (thread.ts). Never from a comment's text, nor from
// which comment is oldest.

export class OwnLogin {
  private known?: string
  private asked?: Promise<string | undefined>

  /** `ask` asks GitHub (the token's `viewer`); a failure means unknown. */
  constructor(private readonly ask: () => Promise<string | undefined>) {}

  /** GitHub's answer to this run's own write names its author: the login this token writes as. */
  learn(author: string | undefined): void {
    if (author) this.known = author.toLowerCase()
  }

  /** The login, asking GitHub once if no write has told it yet; undefined when it cannot be told. */
  async own(): Promise<string | undefined> {
    if (this.known !== undefined) return this.known
    this.asked ??= this.ask().catch(() => undefined)
    const login = await this.asked
    this.known ??= login
    return this.known
  }
}

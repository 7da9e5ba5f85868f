// A GitHub login as GitHub spells it: the one rule for every login the action reads (`allowed-users`,
// `allowed-bots`, `reviewers`, a dispatch payload's author). Pure: imported where inputs are read,
// before anything talks to GitHub.

/**
 * A letter or digit, then up to 38 letters, digits or hyphens (older accounts may have two in a
 * row); an app's ends in `[bot]`. Compared without regard to case, as GitHub does.
 */
export function isLogin(text: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\[bot\])?$/.test(text)
}

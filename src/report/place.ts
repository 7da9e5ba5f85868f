// What a reader calls the place a comment is on: replies on an issue say "issue".

export function placeNoun(isPullRequest: boolean): 'pull request' | 'issue' {
  return isPullRequest ? 'pull request' : 'issue'
}

// A request to the service named in words ("reading the searches analytics", "reading the job"),
// for what the run page's annotations say: the method and the API path are for the log (an info
// line when a request fails for good), not for a reader of the run's page.

/** Where the analytics operations live: the segment after the project is the operation. */
const ANALYTICS = /^\/v1\/analytics\/[^/?#]+\/([a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)*)/i

/** The operation a request performs, as a phrase that can follow "while" or start a sentence. */
export function operationOf(method: 'GET' | 'POST', path: string): string {
  const analytics = ANALYTICS.exec(path)
  if (analytics) return `reading the ${(analytics[1] ?? '').replace(/[/-]/g, ' ')} analytics`
  if (method === 'POST')
    return /\/message\/?(?:[?#]|$)/.test(path) ? 'sending the follow-up' : 'starting a job'
  return 'reading the job'
}

/** "Reading the job": the phrase at the start of a sentence. */
export function sentenceStart(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1)
}

// Whether a comment or a review asks (contract: "Comment trigger"): it was just created (a review
// just submitted), and its words start with the trigger, read as a workflow's `startsWith` reads
// them; what follows is the instruction. Settled without a request or any other input: most
// comments are not for this action.
import type { TriggerComment } from '../github/event.js'
import { isInvisible } from '../public-text.js'

/**
 * The instruction after `trigger` when the comment starts with it (leading whitespace ignored,
 * case ignored as a workflow's `startsWith` does) and it is followed by whitespace or the end;
 * otherwise undefined. Plain string comparison, so regex metacharacters in a trigger are literal.
 */
export function matchTrigger(body: string, trigger: string): string | undefined {
  if (trigger === '') return undefined
  const text = body.trimStart()
  const head = text.slice(0, trigger.length)
  // A workflow's `if: startsWith(...)` lets `/Docs-Agent` through; skipping it here would be silent.
  if (head.toLowerCase() !== trigger.toLowerCase()) return undefined
  let rest = text.slice(trigger.length)
  // `/docs-agent: Add a FAQ` is a trigger too; `/docs-agentx` must not count as `/docs-agent`.
  if (rest.startsWith(':')) rest = rest.slice(1)
  else if (rest !== '' && !/^\s/.test(rest)) return undefined
  // Nothing but white space and invisible or direction-control characters is no instruction.
  return [...rest].every(c => /\s/.test(c) || isInvisible(c)) ? '' : rest.trim()
}

/** "comment", or "review" for a review's body: what the log and notices call it. */
export function triggerNoun(comment: TriggerComment): 'comment' | 'review' {
  return comment.kind === 'review' ? 'review' : 'comment'
}

/**
 * The checks that need no request, in the contract's order: the comment was just created (a
 * review just submitted), and it starts with the trigger. Returns the prompt, or the reason to
 * skip (for the log).
 */
export function checkComment(
  comment: TriggerComment | undefined,
  trigger: string
): { prompt: string } | { reason: string } {
  if (comment === undefined) return { reason: 'the event carries no comment' }
  const noun = triggerNoun(comment)
  const expected = comment.kind === 'review' ? 'submitted' : 'created'
  if (comment.action !== expected) {
    const what = comment.action === '' ? 'of an unknown action' : comment.action
    return { reason: `the ${noun} was ${what}, not ${expected}` }
  }
  const prompt = matchTrigger(comment.body, trigger)
  if (prompt === undefined) return { reason: `the ${noun} does not start with ${trigger}` }
  return { prompt }
}

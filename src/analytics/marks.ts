// The rule that says when a change matters (docs/weekly-report.md, "only when it matters"): the
// overview marks a change 🟢 or 🔴 by it, and "what the fix did" gives its verdict by it. Smaller
// moves are week-to-week noise.

/** A count's change matters at this share of the number before and this many in absolute terms. */
const MARK_MIN_SHARE = 0.05
const MARK_MIN_COUNT = 20
/** A share's change matters at this many percentage points. */
const MARK_MIN_POINTS = 1

/** Whether a count that went from `before` to `now` moved enough to be marked. */
export function countChangeMatters(now: number, before: number): boolean {
  const diff = Math.abs(now - before)
  return diff >= MARK_MIN_COUNT && diff >= before * MARK_MIN_SHARE
}

/** Whether a share's change, in percentage points as shown (one decimal), is enough to be marked. */
export function pointsChangeMatter(points: number): boolean {
  return Number(Math.abs(points).toFixed(1)) >= MARK_MIN_POINTS
}

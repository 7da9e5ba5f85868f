// Deterministic, realistic visitors rows for the simulator: a long tail of docs pages whose ranks
// shift a little from one period to the next, so a comparison shows varied changes. Nothing is
// stored: row `i` of a period is computed on demand, so a million rows cost no memory.

const SECTIONS = [
  'guides',
  'api-reference',
  'concepts',
  'integrations',
  'sdks',
  'tutorials',
  'changelog',
  'help'
]
const TOPICS = [
  'quickstart',
  'authentication',
  'installation',
  'webhooks',
  'rate-limits',
  'errors',
  'pagination',
  'deployments',
  'custom-domains',
  'analytics',
  'search',
  'navigation',
  'components',
  'themes',
  'versioning',
  'localization',
  'api-keys',
  'sso',
  'billing',
  'migration',
  'troubleshooting',
  'faq',
  'cli',
  'github-app',
  'agents',
  'mcp',
  'openapi',
  'playground',
  'snippets',
  'redirects'
]

// Bound once: a global looked up in a hot loop is slow where the global object is intercepted
// (a vm context, as jest runs the tests in: Math.imul there is about 100 times slower).
const { floor, imul, max, round } = Math

/** A well-mixed 32-bit hash of a few integers. */
function mix(...values) {
  let h = 0x9e3779b9
  for (const v of values) {
    h = imul(h ^ (v >>> 0), 2654435761) >>> 0
    h ^= h >>> 15
    h = imul(h, 0x45d9f3b) >>> 0
    h ^= h >>> 16
  }
  return h >>> 0
}

/** A number in [0, 1) from a few integers. */
const unit = (...values) => mix(...values) / 2 ** 32

const keyCache = new Map()
/** A period's seed, from its `dateFrom` ('' when unbounded). */
function periodKey(dateFrom) {
  let key = keyCache.get(dateFrom)
  if (key === undefined) {
    key = 17
    for (const ch of dateFrom) key = (Math.imul(key, 31) + ch.charCodeAt(0)) >>> 0
    keyCache.set(dateFrom, key)
  }
  return key
}

/** Unique, readable page paths: `/guides/quickstart`, `/api-reference/webhooks-3`… */
export function pathOf(page) {
  const t = page % TOPICS.length
  const q = floor(page / TOPICS.length)
  const section = SECTIONS[(q + t) % SECTIONS.length]
  const round = floor(q / SECTIONS.length)
  return `/${section}/${TOPICS[t]}${round ? `-${round + 1}` : ''}`
}

/**
 * The page at `rank` in a period: four layers of swaps between neighbours, chosen by the period,
 * so a page sits up to four places away from where it sat in another period.
 */
function pageAtRank(rank, key) {
  let x = rank
  for (let layer = 3; layer >= 0; layer--) {
    const offset = layer % 2
    const pairStart = (x - offset) % 2 === 0 ? x : x - 1
    if (pairStart < offset) continue
    if (mix(key, layer, pairStart) & 1) x = x === pairStart ? pairStart + 1 : pairStart
  }
  return x
}

/** A power law with a head that is not too steep, so neighbouring ranks differ by a few percent. */
const curve = rank => 30_000 / (rank + 10) ** 0.9

/** How much traffic a period has against a typical one: 0.9 to 1.1. */
export const periodScale = dateFrom => 0.9 + 0.2 * unit(periodKey(dateFrom), 0x5ca1e)

/**
 * Unique visitors at `rank`: never more than at the rank before (the service lists rows most
 * first), scaled per period, with noise that stays inside the gap to the next rank.
 */
function totalAtRank(rank, key) {
  const scale = 0.9 + 0.2 * unit(key, 0x5ca1e)
  const here = curve(rank)
  const noise = unit(key, rank, 0x2015e) * (here - curve(rank + 1))
  return max(1, floor(scale * (here + noise)))
}

/** The row at `rank` (0 = the most visitors) of the period starting `dateFrom`. */
export function generatedRow(rank, dateFrom = '') {
  const key = periodKey(dateFrom)
  const page = pageAtRank(rank, key)
  return { path: pathOf(page), ...countsAt(rank, page, key) }
}

function countsAt(rank, page, key) {
  const total = totalAtRank(rank, key)
  // Each page has its own share of AI visitors, varying a little by period; some visitors are
  // seen as both, and counted once in `total`.
  const share = (0.06 + 0.4 * unit(page, 0xa1)) * (0.85 + 0.3 * unit(key, page, 0xa2))
  const ai = round(total * share)
  const both = floor(ai * 0.15 * unit(key, page, 0xb0))
  return { human: total - ai + both, ai, total }
}

const MULTIPLIERS = [7919, 104_729, 1_299_709]
/**
 * Position `i` of `n` rows served unsorted: a fixed scramble of the ranks (i·K mod n, K a prime
 * that does not divide n), so the most visited pages are spread over the whole export.
 */
export function unsortedRank(i, n) {
  const k = MULTIPLIERS.find(m => n % m !== 0) ?? 1
  return (i * k) % n
}

/**
 * The rows as the simulator serves them for a period: sorted by `total`, most first (as the
 * service documents), or `unsorted`.
 * @param {number} n
 * @param {{ dateFrom?: string, order?: 'sorted'|'unsorted' }} [options]
 */
export function generatedRows(n, { dateFrom = '', order = 'sorted' } = {}) {
  return Array.from({ length: n }, (_, i) =>
    generatedRow(order === 'unsorted' ? unsortedRank(i, n) : i, dateFrom)
  )
}

/** The sum of the first `n` rows of a period. */
export function generatedTotals(n, dateFrom = '') {
  const key = periodKey(dateFrom)
  const sum = { human: 0, ai: 0, total: 0 }
  for (let i = 0; i < n; i++) {
    const row = countsAt(i, pageAtRank(i, key), key)
    sum.human += row.human
    sum.ai += row.ai
    sum.total += row.total
  }
  // Site-wide unique visitors are deduplicated by the service: a visitor of several pages counts
  // once, so the totals are well below the sum of the page rows (code that sums rows is caught).
  const human = floor(sum.human * 0.62)
  const ai = floor(sum.ai * 0.71)
  const both = floor(Math.min(human, ai) * 0.05)
  return { human, ai, total: human + ai - both }
}

// The paths an export has seen, to keep each once (a page after a short one may repeat rows, and
// data may move during the read), in little memory: a million paths in about 16 MB.

/**
 * A set of 64-bit string hashes in one flat typed array (8 bytes a slot, at most half the slots
 * used): 1,000,000 paths take 16 MB (24 MB while growing) where a Set of strings would take 60-80 MB.
 * 32-bit hashes would collide about a hundred times among a million paths; with 64 bits a false
 * "seen" has a chance of about 1 in 30 million among a million paths (that row would be dropped as
 * a repeat, with the warning the first repeat gives).
 */
export class HashSet64 {
  private slots = new Uint32Array(2 * 1024)
  private size = 0

  /** Adds the path; false when it (or, very rarely, a path with the same hash) was there. */
  add(path: string): boolean {
    const [a, b] = hash64(path)
    if ((this.size + 1) * 2 > this.slots.length / 2) this.grow()
    if (!HashSet64.insert(this.slots, a, b)) return false
    this.size++
    return true
  }

  /** Whether the path (or, very rarely, a path with the same hash) was added. */
  has(path: string): boolean {
    const [a, b] = hash64(path)
    const mask = this.slots.length / 2 - 1
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const x = this.slots[2 * i]!
      const y = this.slots[2 * i + 1]!
      if (x === 0 && y === 0) return false
      if (x === a && y === b) return true
    }
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    for (let i = 0; i < old.length; i += 2)
      if (old[i] !== 0 || old[i + 1] !== 0) HashSet64.insert(this.slots, old[i]!, old[i + 1]!)
  }

  // Open addressing with linear probing; (0, 0) marks an empty slot, so hash64 never returns it.
  private static insert(slots: Uint32Array, a: number, b: number): boolean {
    const mask = slots.length / 2 - 1
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const x = slots[2 * i]!
      const y = slots[2 * i + 1]!
      if (x === 0 && y === 0) {
        slots[2 * i] = a
        slots[2 * i + 1] = b
        return true
      }
      if (x === a && y === b) return false
    }
  }
}

// Bound once: a global looked up in a hot loop is slow where the global object is intercepted
// (a vm context, as jest runs the tests in: about 100 times slower there).
const imul = Math.imul

/** Two 32-bit halves of a cyrb53-style hash (a well-mixed, fast non-cryptographic string hash). */
function hash64(s: string): [number, number] {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    h1 = imul(h1 ^ c, 2654435761)
    h2 = imul(h2 ^ c, 1597334677)
  }
  h1 = imul(h1 ^ (h1 >>> 16), 2246822507) ^ imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = imul(h2 ^ (h2 >>> 16), 2246822507) ^ imul(h1 ^ (h1 >>> 13), 3266489909)
  const a = h1 >>> 0
  const b = h2 >>> 0
  return a === 0 && b === 0 ? [0, 1] : [a, b]
}

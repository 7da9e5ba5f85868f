// Untrusted JSON (the service's answers, GitHub's event payload) is read through these checks only.

export type JsonObject = Record<string, unknown>

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value as an object, or undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined
}

/** Throws a RangeError unless `value` is an integer from `min` to `max`. */
export function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`)
}

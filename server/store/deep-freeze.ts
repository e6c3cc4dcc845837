/**
 * Freezes a JSON-shaped value all the way down, so code holding a stored document cannot change
 * it behind the store's back (a change would be in memory but never on disk).
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

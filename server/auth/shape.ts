/**
 * Small guards for validating `unknown` input (stored files, request bodies) at the edge.
 */

export function isRecord(u: unknown): u is Record<string, unknown> {
  return typeof u === 'object' && u !== null && !Array.isArray(u);
}

export function isStringArray(u: unknown): u is string[] {
  return Array.isArray(u) && u.every((v) => typeof v === 'string');
}

import type { ServerFrame } from '../../../../server/contract/index.ts';

/**
 * Reads one text message of /ws. Anything that is not a JSON object with a string `type` is
 * dropped rather than thrown: a bad frame must not take the socket down.
 */
export function parseFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' ? (value as ServerFrame) : null;
}

/**
 * Text from another program that should hold one JSON object (a daemon frame, a journal line, a
 * model server's event): the object, or undefined for anything else. Not JSON, `null`, a list, a
 * string or a number are all "no object", so a reader never throws inside a socket or line
 * listener, where an exception would be uncaught and end the cockpit.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The shape of a JSON value, for comparing a daemon's answers without their values: object keys
 * in order with each member's shape, `null` kept apart from its type (nullability), arrays by
 * their first element and length. Numbers are one type, as JSON has one.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0]), value.length];
  if (typeof value === 'object') return Object.entries(value as object).map(([k, v]) => [k, shapeOf(v)]);
  return typeof value;
}

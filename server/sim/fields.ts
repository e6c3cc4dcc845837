/**
 * Field validators with pydantic v2 lax-mode semantics: each returns the parsed value or
 * undefined after pushing errors at `loc`. Numeric strings and booleans pass as numbers,
 * exactly as pydantic accepts them in JSON bodies.
 */
import { boundError, enumError, floatError, intError, stringType, type Loc, type PydanticError } from './pydantic.ts';

export type Errors = PydanticError[];

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isNaN(n) ? undefined : n;
  }
  return undefined;
}

export function float(value: unknown, loc: Loc, errors: Errors): number | undefined {
  const n = asNumber(value);
  if (n === undefined) errors.push(floatError(loc, value));
  return n;
}

export interface IntBounds {
  ge?: number;
  le?: number;
}

export function int(value: unknown, loc: Loc, errors: Errors, bounds: IntBounds = {}): number | undefined {
  const n = asNumber(value);
  if (n === undefined || !Number.isInteger(n)) {
    errors.push(intError(loc, value));
    return undefined;
  }
  if (bounds.ge !== undefined && n < bounds.ge) return void errors.push(boundError(loc, value, 'ge', bounds.ge));
  if (bounds.le !== undefined && n > bounds.le) return void errors.push(boundError(loc, value, 'le', bounds.le));
  return n;
}

export function floatInRange(value: unknown, loc: Loc, errors: Errors, bounds: IntBounds): number | undefined {
  const n = float(value, loc, errors);
  if (n === undefined) return undefined;
  if (bounds.ge !== undefined && n < bounds.ge) return void errors.push(boundError(loc, value, 'ge', bounds.ge));
  if (bounds.le !== undefined && n > bounds.le) return void errors.push(boundError(loc, value, 'le', bounds.le));
  return n;
}

export function str(value: unknown, loc: Loc, errors: Errors): string | undefined {
  if (typeof value === 'string') return value;
  errors.push(stringType(loc, value));
  return undefined;
}

export function oneOf<T extends string>(
  value: unknown,
  loc: Loc,
  errors: Errors,
  allowed: readonly T[],
): T | undefined {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  errors.push(enumError(loc, value, allowed));
  return undefined;
}

/** `tuple[float, …]` of a fixed length (antennas are `tuple[float, float]`). */
export function floatTuple(value: unknown, loc: Loc, errors: Errors, length: number): number[] | undefined {
  if (!Array.isArray(value)) {
    errors.push({ type: 'tuple_type', loc, msg: 'Input should be a valid tuple', input: value });
    return undefined;
  }
  const before = errors.length;
  const out = value.slice(0, length).map((v, i) => float(v, [...loc, i], errors) ?? 0);
  if (value.length > length) {
    const ctx = { field_type: 'Tuple', max_length: length, actual_length: value.length };
    const msg = `Tuple should have at most ${length} items after validation, not ${value.length}`;
    errors.push({ type: 'too_long', loc, msg, input: value, ctx });
  } else if (value.length < length) {
    for (let i = value.length; i < length; i += 1)
      errors.push({ type: 'missing', loc: [...loc, i], msg: 'Field required', input: value });
  }
  return errors.length === before ? out : undefined;
}

export function antennas(value: unknown, loc: Loc, errors: Errors): [number, number] | undefined {
  const t = floatTuple(value, loc, errors, 2);
  return t ? [t[0] ?? 0, t[1] ?? 0] : undefined;
}

/** ISO-8601 text or epoch seconds, as pydantic's datetime accepts; the value itself is unused. */
export function datetime(value: unknown, loc: Loc, errors: Errors): void {
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return;
  const msg = 'Input should be a valid datetime, invalid character in year';
  errors.push({ type: 'datetime_parsing', loc, msg, input: value, ctx: { error: 'invalid character in year' } });
}

const HEX = /^[0-9a-fA-F]$/;

/**
 * The uuid parser's wording as pydantic embeds it in `uuid_parsing`, checked against daemon 1.13
 * (pydantic 2.14): the first bad character by its 0-based index in the string as sent (a
 * `urn:uuid:` prefix or braces count), then the length or the groups.
 */
export function uuidProblem(text: string): string | null {
  const prefix = /^urn:uuid:/i.test(text) ? 9 : text.startsWith('{') && text.endsWith('}') ? 1 : 0;
  const body = prefix === 9 ? text.slice(9) : prefix === 1 ? text.slice(1, -1) : text;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i] ?? '';
    if (!HEX.test(c) && c !== '-') return `invalid character: found \`${c}\` at ${i + prefix}`;
  }
  const groups = body.split('-');
  if (groups.length === 1) {
    return body.length === 32 ? null : `invalid length: found ${body.length}`;
  }
  if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
  const expected = [8, 4, 4, 4, 12];
  const bad = groups.findIndex((g, i) => g.length !== expected[i]);
  if (bad < 0) return null;
  return `invalid group length in group ${bad}: expected ${expected[bad]}, found ${groups[bad]?.length ?? 0}`;
}

/** Returns the canonical lowercase hyphenated form, like Python's `str(UUID(...))`. */
export function uuid(value: unknown, loc: Loc, errors: Errors): string | undefined {
  if (typeof value !== 'string') {
    errors.push({ type: 'uuid_type', loc, msg: 'UUID input should be a string, bytes or UUID object', input: value });
    return undefined;
  }
  const problem = uuidProblem(value);
  if (problem !== null) {
    errors.push({
      type: 'uuid_parsing',
      loc,
      msg: `Input should be a valid UUID, ${problem}`,
      input: value,
      ctx: { error: problem },
    });
    return undefined;
  }
  const hex = value
    .replace(/^urn:uuid:/i, '')
    .replace(/[{}-]/g, '')
    .toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

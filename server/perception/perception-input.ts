/**
 * Edge validation of the tracking and DoA bodies: `unknown` JSON in, typed input out, or a 400
 * naming the field. A TTL out of range is not an error: it is clamped by the controller and the
 * applied value reported (docs/contract.md, "How the desktop server behaves").
 */
import { badRequest } from '../errors.ts';
import { HOLD_NAME_MAX } from './holds.ts';

type Body = Record<string, unknown>;

function objectOf(body: unknown, allowed: readonly string[]): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`unknown field ${key} (expected ${allowed.join(', ')})`);
  }
  return body as Body;
}

function bool(body: Body, field: string, fallback?: boolean): boolean {
  const value = body[field] === undefined ? fallback : body[field];
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
  return value;
}

/** `{enabled: boolean}` for POST /api/tracking and POST /api/doa. */
export function parseEnabled(raw: unknown): { enabled: boolean } {
  return { enabled: bool(objectOf(raw, ['enabled']), 'enabled') };
}

export interface HoldInput {
  name: string;
  /** Absent means take the hold: a persona pausing tracking sends just a name and a TTL. */
  on: boolean;
  /** Seconds as asked; absent means the 20 s default. */
  ttl?: number;
}

/** `{name, on, ttl}` for POST /api/tracking/hold. */
export function parseHold(raw: unknown): HoldInput {
  const body = objectOf(raw, ['name', 'on', 'ttl']);
  const name = body.name;
  if (name === undefined) throw badRequest('name is required (speaking, emotion:<move>, look...)');
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('name must be a non-empty string');
  if (name.length > HOLD_NAME_MAX) throw badRequest(`name must be at most ${HOLD_NAME_MAX} characters`);
  if ([...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))
    throw badRequest('name must not contain control characters');
  const input: HoldInput = { name: name.trim(), on: bool(body, 'on', true) };
  if (body.ttl !== undefined) {
    if (typeof body.ttl !== 'number' || !Number.isFinite(body.ttl)) throw badRequest('ttl must be a number (seconds)');
    input.ttl = body.ttl;
  }
  return input;
}

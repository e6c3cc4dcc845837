/**
 * Edge validation of control bodies: `unknown` JSON in, typed input out, or a 400 that names the
 * field. Nothing here talks to the daemon, so a rejected body never reaches it. Unknown fields
 * are refused too: a typo such as `yew` would otherwise be a silent no-op on a moving robot.
 * Ranges that are robot rules (the look clamp) are applied by the features, not here.
 */
import type { LookInput } from '../contract/motion.ts';
import type { MotorMode } from '../contract/state.ts';
import { badRequest } from '../errors.ts';

type Body = Record<string, unknown>;

function objectOf(body: unknown, allowed: readonly string[]): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`unknown field ${key} (expected ${allowed.join(', ')})`);
  }
  return body as Body;
}

function optionalNumber(body: Body, field: string, unit: string): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number (${unit})`);
  return value;
}

function requiredNumber(body: Body, field: string, unit: string): number {
  const value = optionalNumber(body, field, unit);
  if (value === undefined) throw badRequest(`${field} is required (${unit})`);
  return value;
}

function requiredString(body: Body, field: string, what: string): string {
  const value = body[field];
  if (value === undefined) throw badRequest(`${field} is required (${what})`);
  if (typeof value !== 'string') throw badRequest(`${field} must be a string (${what})`);
  return value;
}

const HEAD_ANGLES = ['yaw', 'pitch', 'roll'] as const;
const HEAD_OFFSETS = ['x', 'y', 'z'] as const;
const LOOK_FIELDS = [...HEAD_ANGLES, ...HEAD_OFFSETS, 'antennas', 'body_yaw', 'duration'] as const;

export function parseLook(raw: unknown): LookInput {
  const body = objectOf(raw, LOOK_FIELDS);
  const out: LookInput = {};
  for (const f of HEAD_ANGLES) {
    const v = optionalNumber(body, f, 'degrees');
    if (v !== undefined) out[f] = v;
  }
  for (const f of HEAD_OFFSETS) {
    const v = optionalNumber(body, f, 'millimetres');
    if (v !== undefined) out[f] = v;
  }
  const bodyYaw = optionalNumber(body, 'body_yaw', 'degrees');
  if (bodyYaw !== undefined) out.body_yaw = bodyYaw;
  const duration = optionalNumber(body, 'duration', 'seconds');
  if (duration !== undefined) out.duration = duration;
  if (body.antennas !== undefined) out.antennas = antennaPair(body.antennas);
  if (Object.keys(out).filter((k) => k !== 'duration').length === 0) {
    throw badRequest('look needs at least one of yaw, pitch, roll, x, y, z, antennas, body_yaw');
  }
  return out;
}

function antennaPair(value: unknown): [number, number] {
  const ok =
    Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number' && Number.isFinite(v));
  if (!ok) throw badRequest('antennas must be [right, left] in degrees');
  return [value[0] as number, value[1] as number];
}

export interface AntennasInput {
  right: number;
  left: number;
}

export function parseAntennas(raw: unknown): AntennasInput {
  const body = objectOf(raw, ['right', 'left']);
  return { right: requiredNumber(body, 'right', 'degrees'), left: requiredNumber(body, 'left', 'degrees') };
}

/** Recorded-move names mix letters, digits, `_` and `-` (docs/daemon.md, "Move libraries"). */
const MOVE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

export function parseExpress(raw: unknown): { name: string } {
  const name = requiredString(objectOf(raw, ['name']), 'name', 'a move name from /api/emotions');
  if (!MOVE_NAME.test(name)) throw badRequest('name must be a move name (letters, digits, _ and -)');
  return { name };
}

export const MOTOR_MODES: readonly MotorMode[] = ['enabled', 'disabled', 'gravity_compensation'];

export function parseMotors(raw: unknown): { mode: MotorMode } {
  const mode = requiredString(objectOf(raw, ['mode']), 'mode', MOTOR_MODES.join(', '));
  if (!(MOTOR_MODES as readonly string[]).includes(mode))
    throw badRequest(`mode must be one of ${MOTOR_MODES.join(', ')}`);
  return { mode: mode as MotorMode };
}

export function parseVolume(raw: unknown): { level: number } {
  const body = objectOf(raw, ['level']);
  const level = requiredNumber(body, 'level', 'an integer 0-100');
  if (!Number.isInteger(level) || level < 0 || level > 100) throw badRequest('level must be an integer 0-100');
  return { level };
}

export function parseDemo(raw: unknown): { on: boolean } {
  const body = objectOf(raw, ['on']);
  if (body.on === undefined) throw badRequest('on is required (true or false)');
  if (typeof body.on !== 'boolean') throw badRequest('on must be true or false');
  return { on: body.on };
}

export type ReelAction = 'start' | 'abort';

export function parseReel(raw: unknown): { action: ReelAction } {
  const action = requiredString(objectOf(raw, ['action']), 'action', '"start" or "abort"');
  if (action !== 'start' && action !== 'abort') throw badRequest('action must be "start" or "abort"');
  return { action };
}

export const SAY_MAX_CHARS = 1000;

/** C0 controls other than tab and line breaks, and DEL; NUL would also break espeak-ng's argv. */
function isControlChar(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

function hasControlChars(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    if (isControlChar(text.charCodeAt(i))) return true;
  }
  return false;
}

/**
 * Text that is no caller's own (a model's answer the voice persona speaks) made fit for say:
 * each character parseSay would refuse becomes a space, so the rest is still spoken.
 */
export function sayableText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += isControlChar(text.charCodeAt(i)) ? ' ' : text[i];
  return out;
}

export function parseSay(raw: unknown): { text: string } {
  const text = requiredString(objectOf(raw, ['text']), 'text', `1-${SAY_MAX_CHARS} characters`).trim();
  if (text.length === 0) throw badRequest('text must not be empty');
  if (text.length > SAY_MAX_CHARS) throw badRequest(`text must be at most ${SAY_MAX_CHARS} characters`);
  if (hasControlChars(text)) throw badRequest('text must not contain control characters');
  return { text };
}

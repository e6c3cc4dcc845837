/**
 * The dashboard joystick frame on /ws: `{type: "joystick", yaw, pitch, roll, z}`, an ABSOLUTE
 * head target in degrees and millimetres (omitted fields are 0, the neutral value, as in the
 * daemon's own pose model, docs/daemon.md, "Conventions"). Clamped to the same safe ranges as `look`.
 */
import type { ErrorCode } from '../errors.ts';
import { toWirePose } from '../daemon/units.ts';
import type { FullBodyTarget } from '../daemon/wire.ts';
import type { ClampNote } from '../contract/motion.ts';
import { clampField } from './safe-ranges.ts';

export interface JoystickTarget {
  yaw: number;
  pitch: number;
  roll: number;
  z: number;
}

export type JoystickParse = { ok: true; target: JoystickTarget } | { ok: false; error: string };

const FIELDS = ['yaw', 'pitch', 'roll', 'z'] as const;

export function parseJoystickFrame(frame: unknown): JoystickParse {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame))
    return { ok: false, error: 'joystick frame must be an object' };
  const body = frame as Record<string, unknown>;
  const target: JoystickTarget = { yaw: 0, pitch: 0, roll: 0, z: 0 };
  for (const field of FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return { ok: false, error: `${field} must be a number (${field === 'z' ? 'millimetres' : 'degrees'})` };
    }
    target[field] = value;
  }
  return { ok: true, target };
}

export function clampJoystick(target: JoystickTarget): { target: JoystickTarget; clamped: Record<string, ClampNote> } {
  const clamped: Record<string, ClampNote> = {};
  const out: JoystickTarget = {
    yaw: clampField('yaw', target.yaw, clamped),
    pitch: clampField('pitch', target.pitch, clamped),
    roll: clampField('roll', target.roll, clamped),
    z: clampField('z', target.z, clamped),
  };
  return { target: out, clamped };
}

export function joystickToWire(target: JoystickTarget): FullBodyTarget {
  return { target_head_pose: toWirePose({ x: 0, y: 0, ...target }) };
}

/** What `streamTarget` answers; a refusal carries a catalogue code for the client's error frame. */
export type StreamResult =
  | { accepted: true; target: JoystickTarget; clamped: Record<string, ClampNote> }
  | { accepted: false; code: ErrorCode; error: string };

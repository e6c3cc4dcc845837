/**
 * The dashboard joystick frame on /ws: `{type: "joystick", yaw, pitch, roll, z}`, an ABSOLUTE
 * head target in degrees and millimetres (omitted fields are 0, the neutral value, as in the
 * daemon's own pose model, docs/daemon.md, "Conventions"). Clamped to the same safe ranges as `look`,
 * then brought within the head's reach (head-reach.ts).
 */
import type { ErrorCode } from '../errors.ts';
import { toRad, toWirePose } from '../daemon/units.ts';
import type { FullBodyTarget } from '../daemon/wire.ts';
import type { ClampNote } from '../contract/motion.ts';
import { daemonBodyYaw, headReachable } from './head-reach.ts';
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

/** `bodyYaw`: the body's yaw now (°), which the daemon keeps within 65° of the head's. */
export function clampJoystick(
  target: JoystickTarget,
  bodyYaw?: number,
): { target: JoystickTarget; clamped: Record<string, ClampNote> } {
  const clamped: Record<string, ClampNote> = {};
  const out: JoystickTarget = {
    yaw: clampField('yaw', target.yaw, clamped),
    pitch: clampField('pitch', target.pitch, clamped),
    roll: clampField('roll', target.roll, clamped),
    z: clampField('z', target.z, clamped),
  };
  return { target: withinReach(out, target, clamped, bodyYaw ?? 0), clamped };
}

const TILTS = ['pitch', 'roll', 'z'] as const;

/**
 * A target out of the head's reach is skipped by the daemon: the head stays at the last one it
 * could take while the joystick's target winds on, then jumps to the first that is in reach again,
 * a turn of up to 120° in one control tick (docs/daemon.md, "Moves"). So pitch, roll and z are
 * drawn in together toward neutral, keeping the yaw (in reach alone), to the edge of the reach:
 * the head follows the edge, and the answer and the notes say where it is sent.
 */
function withinReach(
  t: JoystickTarget,
  asked: JoystickTarget,
  notes: Record<string, ClampNote>,
  bodyNow: number,
): JoystickTarget {
  const body = toRad(bodyNow);
  const scaled = (s: number): JoystickTarget => ({
    yaw: t.yaw,
    pitch: Math.trunc(t.pitch * s * 100) / 100,
    roll: Math.trunc(t.roll * s * 100) / 100,
    z: Math.trunc(t.z * s * 100) / 100,
  });
  // Judged where the daemon's IK takes the body for that head (head-reach.ts, daemonBodyYaw).
  const fits = (c: JoystickTarget): boolean => {
    const pose = { x: 0, y: 0, z: c.z / 1000, roll: toRad(c.roll), pitch: toRad(c.pitch), yaw: toRad(c.yaw) };
    return headReachable(pose, daemonBodyYaw(pose, body));
  };
  if (fits(t)) return t;
  let [inside, outside] = [0, 1];
  for (let i = 0; i < 20; i += 1) {
    const mid = (inside + outside) / 2;
    if (fits(scaled(mid))) inside = mid;
    else outside = mid;
  }
  const out = scaled(inside);
  for (const axis of TILTS) if (out[axis] !== t[axis]) notes[axis] = { requested: asked[axis], applied: out[axis] };
  return out;
}

export function joystickToWire(target: JoystickTarget): FullBodyTarget {
  return { target_head_pose: toWirePose({ x: 0, y: 0, ...target }) };
}

/** What `streamTarget` answers; a refusal carries a catalogue code for the client's error frame. */
export type StreamResult =
  | { accepted: true; target: JoystickTarget; clamped: Record<string, ClampNote> }
  | { accepted: false; code: ErrorCode; error: string };

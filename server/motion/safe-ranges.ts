/**
 * Safe ranges for manual head control, in the cockpit's units (degrees, millimetres, seconds).
 * `look` and the joystick clamp to these server-side (docs/contract.md, control: "clamped
 * server-side"), whatever a client sends. Why each bound:
 * - yaw ±60°: the head's yaw is the world's, and the neck turns at most 65° from the body. Past
 *   that the daemon does not refuse the pose: its IK turns the body along, to within 65° of the
 *   head (docs/daemon.md, "Moves"; head-reach.ts, daemonBodyYaw). So with the body facing forward
 *   a look or the joystick within ±60° moves the head alone; looking further round is asked for
 *   with body_yaw, said and clamped as such, rather than left to the daemon to swing the body.
 * - pitch −30..+25°: positive pitch is nose DOWN (the sleep pose is +24.5°, docs/daemon.md, "Conventions"), so +25° is as
 *   far down as the robot parks itself; looking up is allowed a little further, to 30°.
 * - roll ±25°: the wake-up roll is 20° (docs/daemon.md, "Moves"); 25° leaves room without straining the legs.
 * - x/y ±20 mm, z −30..+20 mm: the platform's translations are small (sleep sits at z −44 mm
 *   with the head folded); an unreachable z (+100 mm) is silently dropped by the daemon.
 * - body_yaw ±150°: the daemon clamps to ±160° absolute (docs/daemon.md, "Moves"); 150° keeps a margin.
 *   It also keeps the body within 65° of the head's yaw (the head's yaw is the world's, not the
 *   body's), so a look is clamped to that too (bodyYawRange): to the head's yaw it names, else to
 *   the head's yaw now.
 * - antennas ±170°: the sleep pose parks them at ±174.8°, against their stops.
 * - duration 0.2..10 s: ≤ 0 does nothing on the daemon (docs/daemon.md, "Moves"), under 0.2 s a long goto is a
 *   jolt, and a 10 s glide already holds the move owner longer than a person waits.
 */
import type { ClampNote } from '../contract/motion.ts';

export interface Range {
  min: number;
  max: number;
  unit: '°' | 'mm' | 's';
}

export const SAFE = Object.freeze({
  yaw: { min: -60, max: 60, unit: '°' },
  pitch: { min: -30, max: 25, unit: '°' },
  roll: { min: -25, max: 25, unit: '°' },
  x: { min: -20, max: 20, unit: 'mm' },
  y: { min: -20, max: 20, unit: 'mm' },
  z: { min: -30, max: 20, unit: 'mm' },
  body_yaw: { min: -150, max: 150, unit: '°' },
  antenna: { min: -170, max: 170, unit: '°' },
  duration: { min: 0.2, max: 10, unit: 's' },
} as const satisfies Record<string, Range>);

export type SafeField = keyof typeof SAFE;

/** A value that had to be brought into range: what was asked and what is applied. */
export function clampTo(range: Range, value: number): number {
  return Math.min(range.max, Math.max(range.min, value));
}

/**
 * Clamps one named value, recording a note under `name` when it changed, so the response and the
 * event receipt can say what was actually applied.
 */
export function clampField(
  field: SafeField,
  value: number,
  notes: Record<string, ClampNote>,
  name: string = field,
): number {
  const applied = clampTo(SAFE[field], value);
  if (applied !== value) notes[name] = { requested: value, applied };
  return applied;
}

/** The daemon keeps the body within this of the head's (world) yaw, whatever a goto asks (docs/daemon.md, "Moves"). */
export const BODY_TO_HEAD_YAW_MAX = 65;

/** Where the body may go with the head at `headYaw` (°): the safe range, within 65° of the head. */
export function bodyYawRange(headYaw: number): Range {
  return {
    min: Math.max(SAFE.body_yaw.min, headYaw - BODY_TO_HEAD_YAW_MAX),
    max: Math.min(SAFE.body_yaw.max, headYaw + BODY_TO_HEAD_YAW_MAX),
    unit: '°',
  };
}

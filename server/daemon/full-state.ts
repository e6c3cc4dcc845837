/**
 * The daemon's state body (each /api/state/ws/full frame, and GET /api/state/full when the feed
 * polls) read as input from outside, at the one place it comes in. The robot's state, the
 * recorder and the turn toward a speaker all build on it, so a member of an unexpected type must
 * be stopped here: past this point it would throw (a head pose that is a number), or turn into
 * NaN and then null in a state the contract says is numbers.
 *
 * A body whose head pose cannot be read is refused whole: the last good state stays, with its
 * age. Any other member of the wrong type is read as absent (null), which is how the daemon sends
 * a member nobody asked for. JSON cannot carry NaN, but `1e999` parses to Infinity, so numbers
 * must be finite.
 */
import type { FullState, WireDoa, WirePose, XyzRpy } from './wire.ts';

export type FullStateRead = { ok: true; state: FullState } | { ok: false; reason: string };

const AXES = ['x', 'y', 'z', 'roll', 'pitch', 'yaw'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numberOrNull = (v: unknown): number | null => (finite(v) ? v : null);
const numbers = (v: unknown, length?: number): number[] | null =>
  Array.isArray(v) && v.every(finite) && (length === undefined || v.length === length) ? [...v] : null;

/** A pose as the daemon sends it: a 4×4 matrix row by row (`use_pose_matrix`), or x, y, z, roll, pitch, yaw. */
function readPose(v: unknown): WirePose | null | undefined {
  if (v === null) return null;
  if (!isRecord(v)) return undefined;
  if ('m' in v) {
    const m = numbers(v.m, 16);
    return m ? { m } : undefined;
  }
  const pose: XyzRpy = {};
  for (const axis of AXES) {
    const value = v[axis];
    if (value === undefined || value === null) continue;
    if (!finite(value)) return undefined;
    pose[axis] = value;
  }
  return pose;
}

function readDoa(v: unknown): WireDoa | null {
  if (!isRecord(v) || !finite(v.angle) || typeof v.speech_detected !== 'boolean') return null;
  return { angle: v.angle, speech_detected: v.speech_detected };
}

export function readFullState(body: unknown): FullStateRead {
  if (!isRecord(body)) return { ok: false, reason: 'not an object' };
  const head = readPose(body.head_pose ?? null);
  if (head === undefined) return { ok: false, reason: 'its head_pose is not a pose' };
  const antennas = numbers(body.antennas_position, 2);
  return {
    ok: true,
    state: {
      control_mode: typeof body.control_mode === 'string' ? (body.control_mode as FullState['control_mode']) : null,
      head_pose: head,
      head_joints: numbers(body.head_joints),
      body_yaw: numberOrNull(body.body_yaw),
      antennas_position: antennas ? [antennas[0] as number, antennas[1] as number] : null,
      timestamp: typeof body.timestamp === 'string' ? body.timestamp : '',
      passive_joints: numbers(body.passive_joints),
      doa: readDoa(body.doa),
      // Read member by member where it is used (robot-state.ts toImu).
      imu: body.imu,
    },
  };
}

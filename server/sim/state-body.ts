/**
 * The `FullState` body shared by GET /api/state/full and the /api/state/ws/full frames
 * (docs/daemon.md, "State"): every key always present in the real order, unrequested ones null,
 * and the `with_target_*` flags accepted but dropped, as the real response model drops them.
 */
import { performance } from 'node:perf_hooks';
import type { SimContext } from './context.ts';
import { matrixFromPose, xyzrpyFromPose, yawOf, type RigidPose } from './pose.ts';
import { headJoints } from './stewart.ts';

export const FULL_STATE_FLAGS = Object.freeze({
  with_control_mode: true,
  with_head_pose: true,
  with_target_head_pose: false,
  with_head_joints: false,
  with_target_head_joints: false,
  with_body_yaw: true,
  with_target_body_yaw: false,
  with_antenna_positions: true,
  with_target_antenna_positions: false,
  with_passive_joints: false,
  with_doa: false,
  with_imu: false,
  use_pose_matrix: false,
});

export type FullStateFlags = Record<keyof typeof FULL_STATE_FLAGS, boolean>;

/** The WebSocket takes the same flags minus with_control_mode: control_mode is always sent there. */
export const WS_STATE_FLAGS = Object.freeze(
  Object.fromEntries(Object.entries(FULL_STATE_FLAGS).filter(([k]) => k !== 'with_control_mode')),
) as Omit<typeof FULL_STATE_FLAGS, 'with_control_mode'>;

export function wirePose(pose: RigidPose, asMatrix: boolean): unknown {
  return asMatrix ? { m: matrixFromPose(pose) } : xyzrpyFromPose(pose);
}

/** ISO-8601 UTC with microseconds and a Z, as pydantic serialises an aware datetime. */
export function isoMicros(epochMs: number = performance.timeOrigin + performance.now()): string {
  const whole = Math.floor(epochMs);
  const micros = Math.floor((epochMs - whole) * 1000);
  return `${new Date(whole).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

export function fullState(ctx: SimContext, flags: FullStateFlags): Record<string, unknown> {
  const p = ctx.world.present;
  return {
    control_mode: flags.with_control_mode ? ctx.world.mode : null,
    head_pose: flags.with_head_pose ? wirePose(p.head, flags.use_pose_matrix) : null,
    head_joints: flags.with_head_joints ? headJoints(p.head, p.bodyYaw) : null,
    body_yaw: flags.with_body_yaw ? p.bodyYaw : null,
    antennas_position: flags.with_antenna_positions ? [...p.antennas] : null,
    timestamp: isoMicros(),
    // Passive joints exist only with the Placo engine; this is AnalyticalKinematics.
    passive_joints: null,
    doa: flags.with_doa ? ctx.doa.read(ctx.monoS(), yawOf(p.head)) : null,
    // 1.10 final added the key; like the real mockup and MuJoCo backends, no IMU: always null.
    imu: null,
  };
}

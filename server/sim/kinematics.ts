/**
 * The robot's reference poses, workspace and body-yaw rule, in wire units (radians, metres).
 * Values from docs/daemon.md, "Conventions"; the workspace is an approximation of the Stewart
 * platform's reach, used where the real IK would return NaN and the daemon skips the target.
 */
import { poseFromMatrix, xyzrpyFromPose, type RigidPose } from './pose.ts';

export const INIT_ANTENNAS: readonly [number, number] = [-0.1745, 0.1745];
export const SLEEP_ANTENNAS: readonly [number, number] = [-3.05, 3.05];

/** The daemon's rounded sleep matrix: pitch ≈ 0.425 rad down, x ≈ −0.021 m, z ≈ −0.044 m. */
export const SLEEP_HEAD_POSE: RigidPose = poseFromMatrix([
  0.911, 0.004, 0.413, -0.021, -0.004, 1.0, -0.001, 0.001, -0.413, -0.001, 0.911, -0.044, 0, 0, 0, 1,
]);

const DEG = Math.PI / 180;
/** AnalyticalKinematics' automatic body yaw: within ±65° of the head's world yaw, ±160° absolute. */
export const MAX_RELATIVE_YAW = 65 * DEG;
export const MAX_BODY_YAW = 160 * DEG;

export function clampBodyYaw(target: number, headYaw: number): number {
  const relative = Math.max(headYaw - MAX_RELATIVE_YAW, Math.min(headYaw + MAX_RELATIVE_YAW, target));
  return Math.max(-MAX_BODY_YAW, Math.min(MAX_BODY_YAW, relative));
}

/** Approximate workspace; e.g. z = +0.10 m is out of reach, as in docs/daemon.md, "Moves". */
export const WORKSPACE = Object.freeze({
  x: [-0.05, 0.05],
  y: [-0.05, 0.05],
  z: [-0.065, 0.04],
  roll: [-0.75, 0.75],
  pitch: [-0.75, 0.75],
});

export function isReachable(pose: RigidPose): boolean {
  const p = xyzrpyFromPose(pose);
  const keys = ['x', 'y', 'z', 'roll', 'pitch'] as const;
  return keys.every((k) => {
    const [lo, hi] = WORKSPACE[k];
    return Number.isFinite(p[k]) && p[k] >= (lo ?? 0) && p[k] <= (hi ?? 0);
  });
}

/** Antenna joints turn freely but are mechanically limited to about one turn each way. */
export function isReachableAntennas(antennas: readonly [number, number]): boolean {
  return antennas.every((a) => Number.isFinite(a) && Math.abs(a) <= 2 * Math.PI);
}

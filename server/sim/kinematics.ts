/**
 * The robot's reference poses, reach and body-yaw rule, in wire units (radians, metres).
 * Values from docs/daemon.md, "Conventions". The reach and the body-yaw rule are the daemon's own,
 * held once for the cockpit and the simulator in server/motion/head-reach.ts: a pose the real IK
 * has no answer for is one the daemon skips (docs/daemon.md, "Moves").
 */
import { daemonBodyYaw, headReachable } from '../motion/head-reach.ts';
import { poseFromMatrix, xyzrpyFromPose, type RigidPose } from './pose.ts';

export const INIT_ANTENNAS: readonly [number, number] = [-0.1745, 0.1745];
export const SLEEP_ANTENNAS: readonly [number, number] = [-3.05, 3.05];

/** The daemon's rounded sleep matrix: pitch ≈ 0.425 rad down, x ≈ −0.021 m, z ≈ −0.044 m. */
export const SLEEP_HEAD_POSE: RigidPose = poseFromMatrix([
  0.911, 0.004, 0.413, -0.021, -0.004, 1.0, -0.001, 0.001, -0.413, -0.001, 0.911, -0.044, 0, 0, 0, 1,
]);

/** The body yaw the daemon's IK takes for `head` when asked for `target` (rad): within 65° of the head, ±160°. */
export function bodyYawFor(head: RigidPose, target: number): number {
  return daemonBodyYaw(xyzrpyFromPose(head), target);
}

/**
 * Whether the daemon's IK has an answer for `head` with the body asked for `bodyYaw`, judged at
 * the body yaw it would take (bodyYawFor). Each axis may be in range while the mix is not: pitch
 * 25° with roll 25° and z 20 mm is out of reach (docs/daemon.md, "Moves").
 */
export function isReachable(head: RigidPose, bodyYaw: number): boolean {
  const p = xyzrpyFromPose(head);
  if (![p.x, p.y, p.z, p.roll, p.pitch, p.yaw, bodyYaw].every(Number.isFinite)) return false;
  return headReachable(p, daemonBodyYaw(p, bodyYaw));
}

/** Antenna joints turn freely but are mechanically limited to about one turn each way. */
export function isReachableAntennas(antennas: readonly [number, number]): boolean {
  return antennas.every((a) => Number.isFinite(a) && Math.abs(a) <= 2 * Math.PI);
}

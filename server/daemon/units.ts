/**
 * Conversions between the daemon's radians/metres and the cockpit's degrees/millimetres.
 * Converting once here keeps every other module in human units.
 */
import type { HeadPose } from '../contract/state.ts';
import type { WirePose, XyzRpy } from './wire.ts';

export const RAD_TO_DEG = 180 / Math.PI;
export const DEG_TO_RAD = Math.PI / 180;

export const toDeg = (rad: number): number => rad * RAD_TO_DEG;
export const toRad = (deg: number): number => deg * DEG_TO_RAD;

/**
 * Row-major 4x4 matrix to extrinsic xyz angles. The daemon composes R = Rz(yaw)·Ry(pitch)·Rx(roll)
 * (docs/daemon.md, "Conventions"), so pitch = -asin(R[2][0]). Its matrices are slightly non-orthonormal
 * (diagonal ≈ 1.00025), hence the clamp before asin.
 */
export function matrixToXyzRpy(m: readonly number[]): Required<XyzRpy> {
  const at = (row: number, col: number): number => m[row * 4 + col] ?? 0;
  const sinPitch = Math.max(-1, Math.min(1, -at(2, 0)));
  return {
    x: at(0, 3),
    y: at(1, 3),
    z: at(2, 3),
    roll: Math.atan2(at(2, 1), at(2, 2)),
    pitch: Math.asin(sinPitch),
    yaw: Math.atan2(at(1, 0), at(0, 0)),
  };
}

export function wirePoseToXyzRpy(pose: WirePose): Required<XyzRpy> {
  if ('m' in pose) return matrixToXyzRpy(pose.m);
  return {
    x: pose.x ?? 0,
    y: pose.y ?? 0,
    z: pose.z ?? 0,
    roll: pose.roll ?? 0,
    pitch: pose.pitch ?? 0,
    yaw: pose.yaw ?? 0,
  };
}

/** Daemon pose (m, rad) to the cockpit's head pose (mm, deg), rounded to what a person can use. */
export function toHeadPose(pose: WirePose): HeadPose {
  const p = wirePoseToXyzRpy(pose);
  return {
    x: round(p.x * 1000, 2),
    y: round(p.y * 1000, 2),
    z: round(p.z * 1000, 2),
    roll: round(toDeg(p.roll), 2),
    pitch: round(toDeg(p.pitch), 2),
    yaw: round(toDeg(p.yaw), 2),
  };
}

/** Cockpit head pose (mm, deg) to the daemon's XYZRPY (m, rad). */
export function toWirePose(pose: Partial<HeadPose>): XyzRpy {
  const out: XyzRpy = {};
  if (pose.x !== undefined) out.x = pose.x / 1000;
  if (pose.y !== undefined) out.y = pose.y / 1000;
  if (pose.z !== undefined) out.z = pose.z / 1000;
  if (pose.roll !== undefined) out.roll = toRad(pose.roll);
  if (pose.pitch !== undefined) out.pitch = toRad(pose.pitch);
  if (pose.yaw !== undefined) out.yaw = toRad(pose.yaw);
  return out;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  // Avoid -0 in the JSON a person reads.
  return Math.round(value * f) / f + 0;
}

/**
 * Rigid head poses for the simulator. The wire uses two forms (docs/daemon.md, "Conventions"): XYZRPY with
 * scipy's extrinsic "xyz" convention, i.e. R = Rz(yaw)·Ry(pitch)·Rx(roll), and a 4×4 matrix
 * flattened row-major (translation at indices 3, 7, 11). Internally a pose is a translation plus
 * a unit quaternion, which keeps interpolation and composition well-behaved.
 */

export type Vec3 = [number, number, number];
/** Unit quaternion [w, x, y, z]. */
export type Quat = [number, number, number, number];

export interface RigidPose {
  t: Vec3;
  q: Quat;
}

export interface Xyzrpy {
  x: number;
  y: number;
  z: number;
  roll: number;
  pitch: number;
  yaw: number;
}

type Mat3 = [Vec3, Vec3, Vec3];

export const IDENTITY_POSE: RigidPose = Object.freeze({ t: [0, 0, 0], q: [1, 0, 0, 0] }) as RigidPose;

export function rotationFromRpy(roll: number, pitch: number, yaw: number): Mat3 {
  const [cr, sr] = [Math.cos(roll), Math.sin(roll)];
  const [cp, sp] = [Math.cos(pitch), Math.sin(pitch)];
  const [cy, sy] = [Math.cos(yaw), Math.sin(yaw)];
  return [
    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
    [-sp, cp * sr, cp * cr],
  ];
}

/** Inverse of rotationFromRpy; at gimbal lock (pitch ±90°) roll is set to 0, as scipy warns and does. */
export function rpyFromRotation(r: Mat3): { roll: number; pitch: number; yaw: number } {
  const sp = Math.max(-1, Math.min(1, -r[2][0]));
  const pitch = Math.asin(sp);
  if (Math.abs(sp) < 1 - 1e-12) {
    return { roll: Math.atan2(r[2][1], r[2][2]), pitch, yaw: Math.atan2(r[1][0], r[0][0]) };
  }
  return { roll: 0, pitch, yaw: Math.atan2(-r[0][1], r[1][1]) };
}

/** Shepperd's method; tolerates the slightly non-orthonormal matrices the real daemon emits (docs/daemon.md, "What differed in the simulator, and what changed"). */
export function quatFromRotation(r: Mat3): Quat {
  const [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = r;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [s / 4, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [(m21 - m12) / s, s / 4, (m01 + m10) / s, (m02 + m20) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m02 - m20) / s, (m01 + m10) / s, s / 4, (m12 + m21) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, s / 4];
  }
  return normalize(q);
}

export function rotationFromQuat([w, x, y, z]: Quat): Mat3 {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

export function normalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

export function quatMul(a: Quat, b: Quat): Quat {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

export function quatConj(q: Quat): Quat {
  return [q[0], -q[1], -q[2], -q[3]];
}

export function quatAboutZ(angle: number): Quat {
  return [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)];
}

/** Angle of the rotation taking a to b, radians in [0, π]. */
export function angleBetween(a: Quat, b: Quat): number {
  const rel = quatMul(quatConj(a), b);
  return 2 * Math.atan2(Math.hypot(rel[1], rel[2], rel[3]), Math.abs(rel[0]));
}

/** Geodesic interpolation via the rotation vector, so s outside 0..1 extrapolates (cartoon overshoot). */
export function slerp(a: Quat, b: Quat, s: number): Quat {
  let rel = quatMul(quatConj(a), b);
  if (rel[0] < 0) rel = [-rel[0], -rel[1], -rel[2], -rel[3]];
  const vn = Math.hypot(rel[1], rel[2], rel[3]);
  if (vn < 1e-12) return a;
  const half = Math.atan2(vn, rel[0]) * s;
  const k = Math.sin(half) / vn;
  return normalize(quatMul(a, [Math.cos(half), rel[1] * k, rel[2] * k, rel[3] * k]));
}

export function poseFromXyzrpy(p: Xyzrpy): RigidPose {
  return { t: [p.x, p.y, p.z], q: quatFromRotation(rotationFromRpy(p.roll, p.pitch, p.yaw)) };
}

export function xyzrpyFromPose(pose: RigidPose): Xyzrpy {
  const { roll, pitch, yaw } = rpyFromRotation(rotationFromQuat(pose.q));
  return { x: pose.t[0], y: pose.t[1], z: pose.t[2], roll, pitch, yaw };
}

/** 4×4 homogeneous matrix, row-major: translation at indices 3, 7 and 11 (docs/daemon.md, "Conventions"). */
export function matrixFromPose(pose: RigidPose): number[] {
  const r = rotationFromQuat(pose.q);
  return [...r[0], pose.t[0], ...r[1], pose.t[1], ...r[2], pose.t[2], 0, 0, 0, 1];
}

export function rotationOfMatrix(m: readonly number[]): Mat3 {
  const at = (i: number): number => m[i] ?? 0;
  return [
    [at(0), at(1), at(2)],
    [at(4), at(5), at(6)],
    [at(8), at(9), at(10)],
  ];
}

export function poseFromMatrix(m: readonly number[]): RigidPose {
  return { t: [m[3] ?? 0, m[7] ?? 0, m[11] ?? 0], q: quatFromRotation(rotationOfMatrix(m)) };
}

/** Through the quaternion, as scipy's from_matrix does: a non-orthonormal matrix reads like the real daemon's. */
export function xyzrpyFromMatrix(m: readonly number[]): Xyzrpy {
  return xyzrpyFromPose(poseFromMatrix(m));
}

export function matrixFromXyzrpy(p: Xyzrpy): number[] {
  const r = rotationFromRpy(p.roll, p.pitch, p.yaw);
  return [...r[0], p.x, ...r[1], p.y, ...r[2], p.z, 0, 0, 0, 1];
}

/** True when the 3×3 block is close to a proper rotation; anything else would make the IK fail. */
export function isRotationLike(m: readonly number[]): boolean {
  const r = rotationOfMatrix(m);
  const det =
    r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
    r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
    r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  const rowsUnit = r.every((row) => Math.abs(Math.hypot(...row) - 1) < 0.05);
  return m.every(Number.isFinite) && Math.abs(det - 1) < 0.1 && rowsUnit;
}

export function yawOf(pose: RigidPose): number {
  return xyzrpyFromPose(pose).yaw;
}

/**
 * Pose interpolation as the daemon's goto does it (docs/daemon.md, "Moves"): linear translation, and a rotation
 * slerp with "yaw as scalar" so a large yaw change sweeps through the front, not the back.
 */
export function interpolatePose(a: RigidPose, b: RigidPose, s: number): RigidPose {
  const yawA = yawOf(a);
  const yawB = yawOf(b);
  const resA = quatMul(quatAboutZ(-yawA), a.q);
  const resB = quatMul(quatAboutZ(-yawB), b.q);
  const q = quatMul(quatAboutZ(yawA + (yawB - yawA) * s), slerp(resA, resB, s));
  const t: Vec3 = [0, 1, 2].map((i) => (a.t[i] ?? 0) + ((b.t[i] ?? 0) - (a.t[i] ?? 0)) * s) as Vec3;
  return { t, q: normalize(q) };
}

/** Geodesic blend used by head tracking (no yaw-as-scalar, like linear_pose_interpolation's default). */
export function blendPose(a: RigidPose, b: RigidPose, s: number): RigidPose {
  const t: Vec3 = [0, 1, 2].map((i) => (a.t[i] ?? 0) + ((b.t[i] ?? 0) - (a.t[i] ?? 0)) * s) as Vec3;
  return { t, q: slerp(a.q, b.q, s) };
}

/**
 * The daemon's "magic distance" between poses: millimetres of translation plus degrees of
 * rotation. It scales wake-up and sleep durations (docs/daemon.md, "Moves").
 */
export function magicDistance(a: RigidPose, b: RigidPose): number {
  const mm = Math.hypot(a.t[0] - b.t[0], a.t[1] - b.t[1], a.t[2] - b.t[2]) * 1000;
  return mm + (angleBetween(a.q, b.q) * 180) / Math.PI;
}

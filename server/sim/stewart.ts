/**
 * Plausible head joints `[body_yaw, stewart_1 … stewart_6]` for `with_head_joints`. The real
 * daemon runs Pollen's kinematics; the simulator uses a generic rotary Stewart platform whose
 * closed-form IK is offset so the neutral pose reports the real value (±0.6266 rad, docs/daemon.md, "Differential test and recorded fixtures").
 * The numbers move the right way with the pose; they are not the robot's true joint angles.
 */
import { quatAboutZ, quatMul, rotationFromQuat, type RigidPose, type Vec3 } from './pose.ts';

const BASE_RADIUS = 0.05;
const PLATFORM_RADIUS = 0.032;
const HORN = 0.024;
const ROD = 0.085;
const BASE_DEPTH = 0.075;
const NEUTRAL_JOINT = 0.6266230449811265;

interface Leg {
  base: Vec3;
  anchor: Vec3;
  /** Direction of the horn's rotation plane, radians about z. */
  beta: number;
  sign: 1 | -1;
}

const LEGS: Leg[] = [0, 1, 2, 3, 4, 5].map((i) => {
  const pair = Math.floor(i / 2);
  const side = i % 2 === 0 ? -1 : 1;
  const baseAngle = (pair * 2 * Math.PI) / 3 + side * 0.35;
  const anchorAngle = (pair * 2 * Math.PI) / 3 + side * 0.9;
  return {
    base: [BASE_RADIUS * Math.cos(baseAngle), BASE_RADIUS * Math.sin(baseAngle), -BASE_DEPTH],
    anchor: [PLATFORM_RADIUS * Math.cos(anchorAngle), PLATFORM_RADIUS * Math.sin(anchorAngle), 0],
    beta: baseAngle + (side * Math.PI) / 2,
    sign: i % 2 === 0 ? 1 : -1,
  };
});

function hornAngle(leg: Leg, t: Vec3, r: ReturnType<typeof rotationFromQuat>): number {
  const a = leg.anchor;
  const l: Vec3 = [0, 1, 2].map(
    (k) =>
      (t[k] ?? 0) + (r[k]?.[0] ?? 0) * a[0] + (r[k]?.[1] ?? 0) * a[1] + (r[k]?.[2] ?? 0) * a[2] - (leg.base[k] ?? 0),
  ) as Vec3;
  const L = l[0] ** 2 + l[1] ** 2 + l[2] ** 2 - (ROD ** 2 - HORN ** 2);
  const M = 2 * HORN * l[2];
  const N = 2 * HORN * (Math.cos(leg.beta) * l[0] + Math.sin(leg.beta) * l[1]);
  const ratio = Math.max(-1, Math.min(1, L / Math.hypot(M, N)));
  return Math.asin(ratio) - Math.atan2(N, M);
}

const NEUTRAL_ANGLES = LEGS.map((leg) => hornAngle(leg, [0, 0, 0], rotationFromQuat([1, 0, 0, 0])));

/** The platform is driven relative to the body, so the head pose is first expressed in the body frame. */
export function headJoints(head: RigidPose, bodyYaw: number): number[] {
  const unyaw = quatAboutZ(-bodyYaw);
  const q = quatMul(unyaw, head.q);
  const t = rotationFromQuat(unyaw);
  const local: Vec3 = [0, 1, 2].map(
    (k) => (t[k]?.[0] ?? 0) * head.t[0] + (t[k]?.[1] ?? 0) * head.t[1] + (t[k]?.[2] ?? 0) * head.t[2],
  ) as Vec3;
  const r = rotationFromQuat(q);
  const stewart = LEGS.map(
    (leg, i) => leg.sign * (hornAngle(leg, local, r) - (NEUTRAL_ANGLES[i] ?? 0) + NEUTRAL_JOINT),
  );
  return [bodyYaw, ...stewart];
}

/**
 * Whether the head can take a pose at all. Each axis of a look is clamped on its own
 * (safe-ranges.ts), but the six motor arms of the Stewart platform do not reach every mix of the
 * axes: full pitch with full roll and a raised head is out of reach. The daemon's IK then has no
 * answer, and a goto stops the head where its path left the reach, short of the pose, while the
 * move still ends `completed` (docs/daemon.md, "Moves": pitch 25° roll 25° z 20 mm ended at
 * z 7.8 mm). So a look is checked here before it is sent.
 *
 * The geometry is the daemon's own (docs/daemon.md, "Moves"): each rod of length ROD joins a
 * point of the head's platform to the tip of a motor arm of length ARM, which turns in its
 * motor's x-y plane. With the rod's platform point at p in the motor's frame, an arm angle θ
 * exists when p·(cos θ, sin θ, 0) = (|p|² + ARM² − ROD²) / (2·ARM) has a solution, that is when
 * the right side is no longer than p's reach in that plane, √(px² + py²).
 */
import type { XyzRpy } from '../daemon/wire.ts';

const ARM = 0.04;
const ROD = 0.085;
/** The platform's height above the body at the neutral pose (z = 0), metres. */
const HEAD_Z_OFFSET = 0.177;

interface Branch {
  /** The rod's point on the platform, in the platform's frame (m). */
  platform: readonly [number, number, number];
  /** World to motor frame: the top three rows of a 4×4 transform, row-major. */
  motor: readonly number[];
}

// prettier-ignore
const BRANCHES: readonly Branch[] = [
  { platform: [0.020648178337122566, 0.021763723638894568, 1.0345743467476964e-7], motor: [0.8660247915798898, -0.5000010603626028, -2.298079077119539e-6, -0.009999848080267933, 4.490195936008854e-6, 3.1810770986818273e-6, 0.999999999984859, -0.07663346037245178, -0.500001060347722, -0.8660247915770963, 4.999994360718464e-6, 0.03666015757925319] },
  { platform: [0.00852381571767217, 0.028763668526131346, 1.183437210727778e-7], motor: [-0.8660211183436269, 0.5000074225224785, 2.298069723064582e-6, -0.01000055227585102, -4.490219645842903e-6, -3.181063409649239e-6, -0.999999999984859, 0.07663346037219607, -0.5000074225075973, -0.8660211183408337, 5.00001124330122e-6, 0.03666008712637943] },
  { platform: [-0.029172011376922807, 0.0069999429399361995, 4.0290270064691214e-8], motor: [6.326794896519466e-6, 0.9999999999799852, -7.0550646912150425e-12, -0.009999884140839245, -1.0196153102346142e-6, 1.3505961633338446e-11, 0.9999999999994795, -0.07663346037438698, 0.9999999999794655, -6.326794896940104e-6, 1.0196153098685706e-6, 0.036660683387545835] },
  { platform: [-0.029172040355214434, -0.0069999960097160766, -3.1608172912367394e-8], motor: [-3.673205069955933e-6, -0.9999999999932537, -6.767968877969483e-14, -0.010000000000897517, 1.0196153102837198e-6, -3.6775764393585005e-12, -0.9999999999994795, 0.0766334603742898, 0.9999999999927336, -3.673205070385213e-6, 1.0196153102903487e-6, 0.03666065685180194] },
  { platform: [0.008523809101930114, -0.028763713010385224, -1.4344916837716326e-7], motor: [-0.8660284647694133, -0.4999946981757419, 2.298079429767357e-6, -0.010000231529504576, 4.490172883391843e-6, -3.1811099293773187e-6, 0.9999999999848591, -0.07663346037246624, -0.4999946981608617, 0.8660284647666201, 4.999994384073154e-6, 0.03666016059492482] },
  { platform: [0.020648186722822436, -0.02176369606185343, -8.957920105689965e-8], motor: [0.8660247915798897, 0.5000010603626025, -2.298069644866714e-6, -0.009999527331574583, -4.490196220318687e-6, 3.1810964558725514e-6, -0.9999999999848591, 0.07663346037272492, -0.500001060347722, 0.8660247915770967, 5.000011266610794e-6, 0.036660231042625266] },
];

const DEG = Math.PI / 180;
/** The daemon keeps the body within this of the head's yaw (rad), and within MAX_BODY_YAW. */
export const MAX_RELATIVE_YAW = 65 * DEG;
export const MAX_BODY_YAW = 160 * DEG;

/**
 * The body yaw (rad) the daemon's IK takes for `pose` when asked for `bodyYaw` (docs/daemon.md,
 * "Moves"): its automatic body yaw brings the body within 65° of the head's yaw, then within
 * ±160°, so a head turned past the body's reach turns the body along instead of failing. The
 * head's yaw it measures is the angle of the rotation's first row, atan2(−R01, R00), not the pose's
 * yaw: the two differ once the head is also pitched and rolled. No wrap: a head at 170° asked with
 * the body at −170° takes the body to 105°.
 */
export function daemonBodyYaw(pose: Required<XyzRpy>, bodyYaw: number): number {
  const [cr, sr, cp, sp, cy, sy] = [
    Math.cos(pose.roll),
    Math.sin(pose.roll),
    Math.cos(pose.pitch),
    Math.sin(pose.pitch),
    Math.cos(pose.yaw),
    Math.sin(pose.yaw),
  ];
  const headYaw = Math.atan2(-(cy * sp * sr - sy * cr), cy * cp);
  const relative = Math.max(-MAX_RELATIVE_YAW, Math.min(MAX_RELATIVE_YAW, bodyYaw - headYaw));
  return Math.max(-MAX_BODY_YAW, Math.min(MAX_BODY_YAW, headYaw + relative));
}

/**
 * Whether the head can take `pose` (the daemon's units: metres, radians, the head's yaw the
 * world's) with the body turned to `bodyYaw` (rad): the platform sees the head's pose turned back
 * by the body's yaw. A caller that lets the daemon choose the body passes daemonBodyYaw's.
 */
export function headReachable(pose: Required<XyzRpy>, bodyYaw: number): boolean {
  const yaw = pose.yaw - bodyYaw;
  const [cb, sb] = [Math.cos(-bodyYaw), Math.sin(-bodyYaw)];
  const t = [cb * pose.x - sb * pose.y, sb * pose.x + cb * pose.y, pose.z + HEAD_Z_OFFSET];
  // R = Rz(yaw)·Ry(pitch)·Rx(roll), as the daemon composes a pose (server/daemon/units.ts).
  const [cr, sr, cp, sp, cy, sy] = [
    Math.cos(pose.roll),
    Math.sin(pose.roll),
    Math.cos(pose.pitch),
    Math.sin(pose.pitch),
    Math.cos(yaw),
    Math.sin(yaw),
  ];
  const r = [
    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
    [-sp, cp * sr, cp * cr],
  ] as const;
  return BRANCHES.every(({ platform: b, motor: m }) => {
    const world = r.map((row, i) => row[0] * b[0] + row[1] * b[1] + row[2] * b[2] + (t[i] as number));
    const [wx, wy, wz] = world as [number, number, number];
    const [px, py, pz] = [0, 1, 2].map(
      (i) =>
        (m[i * 4] as number) * wx +
        (m[i * 4 + 1] as number) * wy +
        (m[i * 4 + 2] as number) * wz +
        (m[i * 4 + 3] as number),
    ) as [number, number, number];
    const reach = (px * px + py * py + pz * pz + ARM * ARM - ROD * ROD) / (2 * ARM);
    return reach * reach <= px * px + py * py;
  });
}

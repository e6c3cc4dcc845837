import { describe, expect, it } from 'vitest';
import { daemonBodyYaw, headReachable } from './head-reach.ts';

const D = Math.PI / 180;

/**
 * Verdicts of daemon 1.13.0's own IK (AnalyticalKinematics) for poses in millimetres and degrees:
 * whether it has joint angles for the head at [x, y, z, roll, pitch, yaw] with the body at the last
 * value. Each axis is within the safe ranges (safe-ranges.ts) in every one of them.
 */
const DAEMON_IK: readonly [number, number, number, number, number, number, number, boolean][] = [
  [0, 0, 0, 0, 0, 0, 0, true],
  [0, 0, 0, 0, 25, 0, 0, true],
  [0, 0, 0, 25, 25, 0, 0, true],
  [0, 0, 20, 25, 25, 0, 0, false],
  [0, 0, 8, 25, 25, 0, 0, true],
  [0, 0, 9, 25, 25, 0, 0, false],
  [20, 20, 20, 25, 25, 60, 0, false],
  [0, 0, 20, 25, -30, 60, 0, false],
  [-20, -20, -30, -25, -30, 60, 0, true],
  [0, 0, 20, 0, 0, 0, 0, true],
  [0, 0, -30, 0, 0, 0, 0, true],
  [0, 0, 0, 0, -30, 60, 0, true],
  [0, 0, 0, 25, 25, 60, 0, true],
  [0, 0, 0, 0, 0, 60, -5, true],
  [0, 0, 0, 0, 0, -60, -125, true],
  [20, 0, 20, 0, 25, 0, 0, false],
  [0, 0, 20, 0, 25, 0, 0, false],
  [0, 0, 20, -25, 0, 0, 0, false],
  [0, 0, 20, 0, -30, 0, 0, false],
  [-20, -20, 20, 0, 0, 0, 0, false],
];

describe("the head's reach", () => {
  it.each(DAEMON_IK)(
    "x %d y %d z %d roll %d pitch %d yaw %d, body %d: %s, as the daemon's IK says",
    (x, y, z, roll, pitch, yaw, body, reachable) => {
      const pose = { x: x / 1000, y: y / 1000, z: z / 1000, roll: roll * D, pitch: pitch * D, yaw: yaw * D };
      expect(headReachable(pose, body * D)).toBe(reachable);
    },
  );
});

/** Daemon 1.13.0's AnalyticalKinematics: [head yaw, body asked for, body taken], degrees, the head level. */
const DAEMON_BODY: readonly [number, number, number][] = [
  [0, 0, 0],
  [90, 0, 25],
  [-100, 0, -35],
  [60, 150, 125],
  [170, 0, 105],
  [-160, 0, -95],
  [0, 170, 65],
];

describe('the body yaw the daemon takes', () => {
  it.each(DAEMON_BODY)('the head at %d°, the body asked for %d°: %d°', (yaw, body, taken) => {
    const pose = { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: yaw * D };
    expect(daemonBodyYaw(pose, body * D) / D).toBeCloseTo(taken, 9);
  });
});

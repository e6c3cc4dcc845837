import { describe, expect, it } from 'vitest';
import { INTERPOLATIONS, timeCurve } from './curves.ts';
import { bodyYawFor, isReachable, SLEEP_HEAD_POSE } from './kinematics.ts';
import {
  IDENTITY_POSE,
  interpolatePose,
  magicDistance,
  matrixFromPose,
  matrixFromXyzrpy,
  poseFromMatrix,
  poseFromXyzrpy,
  xyzrpyFromMatrix,
  xyzrpyFromPose,
  type Xyzrpy,
} from './pose.ts';
import { headJoints } from './stewart.ts';

const DEG = Math.PI / 180;

function expectPose(actual: Xyzrpy, expected: Xyzrpy, digits = 9): void {
  for (const k of ['x', 'y', 'z', 'roll', 'pitch', 'yaw'] as const) expect(actual[k]).toBeCloseTo(expected[k], digits);
}

describe('interpolation curves (docs/daemon.md, "Moves")', () => {
  it('start at 0 and end at 1', () => {
    for (const m of INTERPOLATIONS) {
      expect(timeCurve(m, 0)).toBeCloseTo(0, 12);
      expect(timeCurve(m, 1)).toBeCloseTo(1, 12);
    }
  });

  it('min-jerk is 0.5 at mid-time, symmetric, with zero slope at the ends', () => {
    expect(timeCurve('minjerk', 0.5)).toBeCloseTo(0.5, 12);
    expect(timeCurve('minjerk', 0.2) + timeCurve('minjerk', 0.8)).toBeCloseTo(1, 12);
    expect(timeCurve('minjerk', 0.01)).toBeLessThan(0.0001);
  });

  it('linear and ease_in_out have their textbook values', () => {
    expect(timeCurve('linear', 0.3)).toBeCloseTo(0.3, 12);
    expect(timeCurve('ease_in_out', 0.25)).toBeCloseTo(0.125, 12);
    expect(timeCurve('ease_in_out', 0.75)).toBeCloseTo(0.875, 12);
  });

  it('cartoon backs up before starting and overshoots before settling', () => {
    expect(timeCurve('cartoon', 0.1)).toBeLessThan(0);
    expect(timeCurve('cartoon', 0.9)).toBeGreaterThan(1);
    expect(timeCurve('cartoon', 0.5)).toBeCloseTo(0.5, 12);
  });
});

describe('body yaw clamping (docs/daemon.md, "Moves")', () => {
  const head = (yaw: number, pitch = 0, roll = 0) => poseFromXyzrpy({ x: 0, y: 0, z: 0, roll, pitch, yaw });
  const clampBodyYaw = (target: number, headYaw: number) => bodyYawFor(head(headYaw), target);

  it('keeps the body within 65° of the head yaw: 3.0 with the head at 0 gives 1.1345', () => {
    expect(clampBodyYaw(3.0, 0)).toBeCloseTo(1.1345, 4);
    expect(clampBodyYaw(-3.0, 0)).toBeCloseTo(-1.1345, 4);
    expect(clampBodyYaw(0.2, 0.3)).toBeCloseTo(0.2, 12);
    expect(clampBodyYaw(-3, 1)).toBeCloseTo(1 - 65 * DEG, 12);
  });

  it('never exceeds ±160° absolute', () => {
    expect(clampBodyYaw(3.0, 2.6)).toBeCloseTo(160 * DEG, 12);
    expect(clampBodyYaw(-3.1, -3.0)).toBeCloseTo(-160 * DEG, 12);
  });

  it("measures the head's yaw as the daemon's IK does, from the rotation's first row, not the pose's yaw", () => {
    // Daemon 1.13.0's AnalyticalKinematics: the head at yaw −88.2°, pitch −20.3°, roll −18.1°, the
    // body asked for −18.9°, takes the body to −0.40626 rad, where the pose's yaw would give −0.40574.
    const pose = { x: 0.03212, y: 0.02971, z: -0.01385, roll: -0.31515, pitch: -0.35452, yaw: -1.5402 };
    expect(bodyYawFor(poseFromXyzrpy(pose), -0.32954)).toBeCloseTo(-0.40626, 4);
  });
});

describe('pose conversions (docs/daemon.md, "Conventions")', () => {
  const sample: Xyzrpy = { x: 0.01, y: -0.02, z: 0.015, roll: 0.1, pitch: -0.2, yaw: 0.3 };

  it('round-trips xyzrpy → matrix → xyzrpy', () => {
    expectPose(xyzrpyFromMatrix(matrixFromXyzrpy(sample)), sample);
    expectPose(xyzrpyFromPose(poseFromMatrix(matrixFromPose(poseFromXyzrpy(sample)))), sample);
  });

  it('puts the translation at indices 3, 7 and 11 of the row-major matrix', () => {
    const m = matrixFromXyzrpy(sample);
    expect(m).toHaveLength(16);
    expect([m[3], m[7], m[11]]).toEqual([0.01, -0.02, 0.015]);
    expect(m.slice(12)).toEqual([0, 0, 0, 1]);
  });

  it('uses the extrinsic xyz convention, R = Rz(yaw)·Ry(pitch)·Rx(roll)', () => {
    const yawOnly = matrixFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: Math.PI / 2 });
    expect(yawOnly[4]).toBeCloseTo(1, 12); // x axis turned onto y
    const m = matrixFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0.3, pitch: 0.2, yaw: 0 });
    expect(m[8]).toBeCloseTo(-Math.sin(0.2), 12); // R20 = −sin(pitch)
    expect(m[9]).toBeCloseTo(Math.cos(0.2) * Math.sin(0.3), 12); // R21 = cos(pitch)·sin(roll)
  });

  it("reads the real daemon's slightly non-orthonormal matrix like scipy does (docs/daemon.md, recorded fixtures)", () => {
    const real = [
      1.0002529660934547, -2.8500619102957615e-5, -5.485402745834244e-5, -5.11394939080278e-6, -2.851572309119391e-5,
      1.0000084054701293, -0.00043379251108309935, -2.1046659652350357e-5, 5.085961053172114e-5, 0.0001748989670717691,
      1.0002454532881677, 2.1908048735419516e-5, 0, 0, 0, 1,
    ];
    const p = xyzrpyFromMatrix(real);
    expect(p.x).toBe(-5.11394939080278e-6);
    expect(p.roll).toBeCloseTo(0.0003043, 5);
    expect(p.pitch).toBeCloseTo(-5.28e-5, 5);
  });

  it('interpolates gotos through the front and measures magic distance', () => {
    const a = poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: -2.5 });
    const b = poseFromXyzrpy({ x: 0, y: 0, z: 0.02, roll: 0, pitch: 0, yaw: 2.5 });
    const mid = xyzrpyFromPose(interpolatePose(a, b, 0.5));
    expect(mid.yaw).toBeCloseTo(0, 9); // not ±π: yaw is interpolated as a scalar
    expect(mid.z).toBeCloseTo(0.01, 12);
    // Sleep → init ≈ 48.8 mm + 24.4° ≈ 73 magic units, hence the ≈ 1.5 s wake-up goto.
    expect(magicDistance(SLEEP_HEAD_POSE, IDENTITY_POSE)).toBeGreaterThan(70);
    expect(magicDistance(SLEEP_HEAD_POSE, IDENTITY_POSE)).toBeLessThan(76);
  });
});

describe('workspace and joints', () => {
  it('rejects the unreachable z = +0.10 m of docs/daemon.md, "Moves" and accepts the sleep pose', () => {
    expect(isReachable(poseFromXyzrpy({ x: 0, y: 0, z: 0.1, roll: 0, pitch: 0, yaw: 0 }), 0)).toBe(false);
    expect(isReachable(SLEEP_HEAD_POSE, 0)).toBe(true);
  });

  it("rejects a mix of axes each in range that the daemon's IK has no answer for", () => {
    // docs/daemon.md, "Moves": pitch 25° roll 25° z 20 mm is out of reach, z 8 mm with them is not.
    const mix = (z: number) => poseFromXyzrpy({ x: 0, y: 0, z, roll: 25 * DEG, pitch: 25 * DEG, yaw: 0 });
    expect(isReachable(mix(0.02), 0)).toBe(false);
    expect(isReachable(mix(0.008), 0)).toBe(true);
  });

  it('judges the reach at the body yaw the daemon takes: a head at 150° turns the body along', () => {
    expect(isReachable(poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 150 * DEG }), 0)).toBe(true);
  });

  it('reports the real neutral joints and body yaw first', () => {
    const j = headJoints(IDENTITY_POSE, 0);
    expect(j).toHaveLength(7);
    expect(j[1]).toBeCloseTo(0.6266230449811265, 12);
    expect(j[2]).toBeCloseTo(-0.6266230449811265, 12);
    expect(headJoints(IDENTITY_POSE, 0.2)[0]).toBe(0.2);
    expect(headJoints(SLEEP_HEAD_POSE, 0)[1]).not.toBeCloseTo(0.6266, 2);
  });
});

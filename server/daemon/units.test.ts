import { describe, expect, it } from 'vitest';
import { matrixToXyzRpy, toHeadPose, toWirePose } from './units.ts';

/** Row-major R = Rz(yaw)·Ry(pitch)·Rx(roll) with a translation, as the daemon builds it. */
function matrix(roll: number, pitch: number, yaw: number, t: [number, number, number]): number[] {
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(roll), Math.sin(roll), Math.cos(pitch), Math.sin(pitch), Math.cos(yaw), Math.sin(yaw)];
  return [
    cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, t[0],
    sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, t[1],
    -sp, cp * sr, cp * cr, t[2],
    0, 0, 0, 1,
  ];
}

describe('pose units', () => {
  it('reads extrinsic xyz angles back out of a row-major matrix', () => {
    const p = matrixToXyzRpy(matrix(0.1, -0.2, 0.3, [0.01, -0.02, 0.03]));
    expect(p.roll).toBeCloseTo(0.1, 9);
    expect(p.pitch).toBeCloseTo(-0.2, 9);
    expect(p.yaw).toBeCloseTo(0.3, 9);
    expect([p.x, p.y, p.z]).toEqual([0.01, -0.02, 0.03]);
  });

  it('tolerates the daemon\'s slightly non-orthonormal matrices (docs/daemon.md, "Differential test and recorded fixtures")', () => {
    const m = [1.0002529660934547, -2.8500619102957615e-5, -5.485402745834244e-5, -5.11394939080278e-6, -2.851572309119391e-5,
      1.0000084054701293, -0.00043379251108309935, -2.1046659652350357e-5, 5.085961053172114e-5, 0.0001748989670717691,
      1.0002454532881677, 2.1908048735419516e-5, 0, 0, 0, 1];
    const pose = toHeadPose({ m });
    expect(Math.abs(pose.yaw)).toBeLessThan(0.01);
    expect(Math.abs(pose.pitch)).toBeLessThan(0.01);
    expect(pose.z).toBeCloseTo(0.02, 2);
  });

  it('converts to people units and back', () => {
    const head = toHeadPose({ x: 0.01, y: 0, z: -0.005, roll: 0, pitch: 0.2, yaw: -0.3 });
    expect(head).toEqual({ x: 10, y: 0, z: -5, roll: 0, pitch: 11.46, yaw: -17.19 });
    const wire = toWirePose({ yaw: 90, z: 12 });
    expect(wire.yaw).toBeCloseTo(Math.PI / 2, 12);
    expect(wire.z).toBeCloseTo(0.012, 12);
    expect(wire).not.toHaveProperty('pitch');
  });

  it('never shows -0 to a person', () => {
    expect(Object.is(toHeadPose({ yaw: -0 }).yaw, -0)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { poseSummary, poseValues } from './pose-plot.ts';

describe('pose plot', () => {
  it('takes yaw, pitch and roll in that order', () => {
    expect(poseValues({ head: { x: 0, y: 0, z: 0, yaw: 20, pitch: -5, roll: 1.26 } })).toEqual([20, -5, 1.26]);
  });

  it('says the latest values in words, or that it waits', () => {
    expect(poseSummary([20, -5, 0])).toBe('Yaw +20.0°, Pitch \u22125.0°, Roll \u20070.0°');
    expect(poseSummary(null)).toBe('Waiting for the robot');
  });
});

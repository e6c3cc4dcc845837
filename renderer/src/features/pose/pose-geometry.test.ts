import { describe, expect, it } from 'vitest';
import { antennaPoint, pitchPoint, travel, yawPoint } from './pose-geometry.ts';

const c = { x: 50, y: 50 };

describe('yawPoint (top view, forward up)', () => {
  it.each([
    [0, { x: 50, y: 10 }],
    [90, { x: 10, y: 50 }],
    [-90, { x: 90, y: 50 }],
    [180, { x: 50, y: 90 }],
  ])('%i° points to %j', (yaw, point) => {
    expect(yawPoint(c, 40, yaw)).toEqual(point);
  });
});

describe('pitchPoint (side view, forward right)', () => {
  it.each([
    [0, { x: 90, y: 50 }],
    [90, { x: 50, y: 90 }],
    [-30, { x: 84.64, y: 30 }],
  ])('%i° points to %j', (pitch, point) => {
    expect(pitchPoint(c, 40, pitch)).toEqual(point);
  });
});

describe('antennaPoint', () => {
  it('stands upright at zero and tips clockwise for positive angles', () => {
    expect(antennaPoint(c, 20, 0)).toEqual({ x: 50, y: 30 });
    expect(antennaPoint(c, 20, 90)).toEqual({ x: 70, y: 50 });
  });
});

describe('travel', () => {
  it.each([
    [10, 0.5, 8, 5],
    [40, 0.5, 8, 8],
    [-40, 0.5, 8, -8],
    [null, 0.5, 8, 0],
  ])('%s mm at %s per mm, limit %s → %s', (mm, scale, limit, units) => {
    expect(travel(mm, scale, limit)).toBe(units);
  });
});

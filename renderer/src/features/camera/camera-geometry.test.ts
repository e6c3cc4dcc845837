import { describe, expect, it } from 'vitest';
import { faceMarker, lookTarget, pointInPicture, snapshotName } from './camera-geometry.ts';

const box = { left: 100, top: 50, width: 640, height: 360 };

describe('pointInPicture', () => {
  it('maps the corners and the centre to −1..1', () => {
    expect(pointInPicture(100, 50, box)).toEqual({ x: -1, y: -1 });
    expect(pointInPicture(420, 230, box)).toEqual({ x: 0, y: 0 });
    expect(pointInPicture(740, 410, box)).toEqual({ x: 1, y: 1 });
  });

  it('is null outside the picture or for an empty box', () => {
    expect(pointInPicture(99, 60, box)).toBeNull();
    expect(pointInPicture(200, 200, { ...box, width: 0 })).toBeNull();
  });
});

describe('lookTarget', () => {
  it('keeps the pose for the centre', () => {
    expect(lookTarget({ x: 0, y: 0 }, { yaw: 10, pitch: -5 })).toEqual({ yaw: 10, pitch: -5 });
  });

  it('turns right (negative yaw) and down (positive pitch) by half the field of view at the edges', () => {
    expect(lookTarget({ x: 1, y: 1 }, { yaw: 0, pitch: 0 })).toEqual({ yaw: -32.5, pitch: 25 });
    expect(lookTarget({ x: -1, y: -1 }, { yaw: 5, pitch: 0 })).toEqual({ yaw: 37.5, pitch: -25 });
  });

  it('follows the pinhole model between centre and edge (not a straight line)', () => {
    const half = lookTarget({ x: 0.5, y: 0 }, { yaw: 0, pitch: 0 });
    expect(half.yaw).toBeCloseTo(-17.7, 1);
  });
});

describe('faceMarker', () => {
  it('places the marker centre in percent, clamped to the picture', () => {
    expect(faceMarker({ x: -0.5, y: 0.5 })).toEqual({ left: 25, top: 75, width: 16 });
    expect(faceMarker({ x: 3, y: -2 }, 0.1)).toEqual({ left: 100, top: 0, width: 10 });
  });
});

describe('snapshotName', () => {
  it('stamps the local date and time', () => {
    expect(snapshotName(new Date(2026, 0, 2, 9, 3, 5))).toBe('robot-snapshot-20260102-090305.jpg');
  });
});

import { describe, expect, it } from 'vitest';
import { advance, formatOffset, frameAt, lastAtOrBefore, linesUpTo, percentOf, poseAt } from './replay-cursor.ts';

const pose = (t: number, yaw: number) => ({
  t,
  head: { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw },
  bodyYaw: 0,
  antennas: { right: 0, left: 0 },
});

describe('the replay cursor', () => {
  it('finds the last item at or before the cursor', () => {
    expect(lastAtOrBefore([0, 100, 200], -1)).toBe(-1);
    expect(lastAtOrBefore([0, 100, 200], 0)).toBe(0);
    expect(lastAtOrBefore([0, 100, 200], 150)).toBe(1);
    expect(lastAtOrBefore([0, 100, 200], 999)).toBe(2);
    expect(lastAtOrBefore([], 5)).toBe(-1);
  });

  it('shows the pose and frame recorded at the cursor, the first before anything was recorded', () => {
    const poses = [pose(50, 1), pose(150, 2)];
    expect(poseAt(poses, 10)?.head.yaw).toBe(1);
    expect(poseAt(poses, 149)?.head.yaw).toBe(1);
    expect(poseAt(poses, 150)?.head.yaw).toBe(2);
    expect(poseAt([], 5)).toBeNull();
    expect(frameAt([200, 400], 399)).toBe(200);
    expect(frameAt([200, 400], 0)).toBe(200);
    expect(frameAt([], 0)).toBeNull();
  });

  it('lists the lines up to the cursor, newest last', () => {
    const lines = [0, 10, 20, 30].map((t) => ({ t, source: 'event' as const, text: `l${t}` }));
    expect(linesUpTo(lines, 25, 2).map((l) => l.text)).toEqual(['l10', 'l20']);
    expect(linesUpTo(lines, -1)).toEqual([]);
  });

  it('plays at 1x and 4x and stops at the end', () => {
    expect(advance(1000, 250, 1, 10_000)).toBe(1250);
    expect(advance(1000, 250, 4, 10_000)).toBe(2000);
    expect(advance(9900, 250, 4, 10_000)).toBe(10_000);
  });

  it('formats offsets and places markers', () => {
    expect(formatOffset(65_349)).toBe('1:05.3');
    expect(formatOffset(0)).toBe('0:00.0');
    expect(percentOf(500, 1000)).toBe(50);
    expect(percentOf(5, 0)).toBe(0);
  });
});

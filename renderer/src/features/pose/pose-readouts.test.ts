import { describe, expect, it } from 'vitest';
import { poseReadouts } from './pose-readouts.ts';

const state = {
  head: { x: 1, y: -2, z: 12.5, roll: 0, pitch: -10.25, yaw: 33 },
  antennas: { right: 15, left: -15 },
  bodyYaw: -5,
  motorMode: 'enabled' as const,
};

const flat = (groups: ReturnType<typeof poseReadouts>) =>
  Object.fromEntries(groups.flatMap((g) => g.rows).map((r) => [r.name, r.value]));

describe('poseReadouts', () => {
  it('formats every pose value under a full name', () => {
    expect(flat(poseReadouts(state))).toEqual({
      'Head roll': '\u20070.0°',
      'Head pitch': '\u221210.3°',
      'Head yaw': '+33.0°',
      'Head x': '+1.0 mm',
      'Head y': '\u22122.0 mm',
      'Head z': '+12.5 mm',
      'Right antenna': '+15.0°',
      'Left antenna': '\u221215.0°',
      'Body yaw': '\u22125.0°',
      'Motor mode': 'Torque on',
    });
  });

  it('keeps every row, with dashes, before the first state arrives', () => {
    const rows = poseReadouts(null).flatMap((g) => g.rows);
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.value))).toEqual(new Set(['—']));
  });

  it('gives each row a unique key', () => {
    const keys = poseReadouts(state).flatMap((g) => g.rows.map((r) => r.key));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

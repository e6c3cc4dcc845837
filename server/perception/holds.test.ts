import { describe, expect, it } from 'vitest';
import { clampTtl, createHoldTable, HOLD_TTL } from './holds.ts';
import { fakeClock } from './testing/fakes.ts';

describe('hold TTL (docs/contract.md, "How the desktop server behaves": default 20 s, clamped to 0.5–120 s)', () => {
  it.each([
    [undefined, 20],
    [5, 5],
    [0.5, 0.5],
    [0.1, 0.5],
    [0, 0.5],
    [-3, 0.5],
    [120, 120],
    [500, 120],
    [Number.NaN, 20],
    [Number.POSITIVE_INFINITY, 20],
  ])('ttl %s → %s s', (asked, applied) => {
    expect(clampTtl(asked)).toBe(applied);
  });

  it('exposes the numbers', () => {
    expect(HOLD_TTL).toEqual({ default: 20, min: 0.5, max: 120 });
  });
});

describe('hold table', () => {
  it('a hold is live until its expiry, then gone on its own', () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    holds.set('look', 2);
    expect(holds.any()).toBe(true);
    expect(holds.live()).toEqual([{ name: 'look', remaining: 2 }]);
    clock.advance(1500);
    expect(holds.live()).toEqual([{ name: 'look', remaining: 0.5 }]);
    clock.advance(500);
    expect(holds.any()).toBe(false);
    expect(holds.has('look')).toBe(false);
  });

  it('renewing moves the expiry; clearing says whether it was live', () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    holds.set('speaking', 1);
    clock.advance(900);
    holds.set('speaking', 1);
    clock.advance(900);
    expect(holds.has('speaking')).toBe(true);
    expect(holds.clear('speaking')).toBe(true);
    expect(holds.clear('speaking')).toBe(false);
  });

  it('lists live holds by name', () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    holds.set('look', 3);
    holds.set('emotion:cheerful1', 10);
    holds.setUntil('speaking', clock.now() + 4000);
    holds.setUntil('stale', clock.now() - 1);
    expect(holds.live().map((h) => h.name)).toEqual(['emotion:cheerful1', 'look', 'speaking']);
  });
});

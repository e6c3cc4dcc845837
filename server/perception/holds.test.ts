import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { clampTtl, createHoldTable, HOLD_MAX, HOLD_TTL, type HoldTable } from './holds.ts';
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

describe('hold cap (a new name from the HTTP edge is refused while HOLD_MAX holds stand)', () => {
  /** What POST /api/tracking/hold does: admit, then set. */
  const ask = (holds: HoldTable, name: string, ttl = 20): void => {
    holds.admit(name);
    holds.set(name, ttl);
  };
  const refusal = (fn: () => void): AppError | undefined => {
    try {
      fn();
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    return undefined;
  };
  const fill = (holds: HoldTable): void => {
    for (let i = 0; i < HOLD_MAX; i++) ask(holds, `persona:${i}`.padEnd(64, 'x'));
  };

  it('is small enough to keep the tracking status a few KB', () => {
    expect(HOLD_MAX).toBeGreaterThanOrEqual(16);
    expect(HOLD_MAX).toBeLessThanOrEqual(64);
  });

  it('refuses a new name past the cap with 409 CONFLICT, and keeps the table at the cap', () => {
    const holds = createHoldTable(fakeClock());
    fill(holds);
    const error = refusal(() => ask(holds, 'one-too-many'));
    expect(error).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(error?.message).toContain(`at most ${HOLD_MAX}`);
    for (let i = 0; i < 5000; i++) refusal(() => ask(holds, `flood:${i}`));
    expect(holds.live()).toHaveLength(HOLD_MAX);
    expect(holds.has('one-too-many')).toBe(false);
  });

  it('always renews a standing hold, even at the cap', () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    fill(holds);
    const name = 'persona:0'.padEnd(64, 'x');
    clock.advance(10_000);
    expect(refusal(() => ask(holds, name, 20))).toBeUndefined();
    expect(holds.live().find((h) => h.name === name)?.remaining).toBe(20);
  });

  it('makes room again as holds are released or expire', () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    fill(holds);
    holds.clear('persona:0'.padEnd(64, 'x'));
    expect(refusal(() => ask(holds, 'after-release', 60))).toBeUndefined();
    expect(refusal(() => ask(holds, 'one-more'))).toMatchObject({ code: 'CONFLICT' });
    clock.advance(20_000);
    expect(refusal(() => ask(holds, 'after-expiry'))).toBeUndefined();
    expect(holds.live().map((h) => h.name)).toEqual(['after-expiry', 'after-release']);
  });

  it("never refuses the cockpit's own holds, which take no admission", () => {
    const clock = fakeClock();
    const holds = createHoldTable(clock);
    fill(holds);
    holds.set('speaking', 5);
    holds.set('look', 2);
    holds.set('emotion:wake_up', 4);
    holds.setUntil('speaking', clock.now() + 6000);
    expect(holds.live()).toHaveLength(HOLD_MAX + 3);
    expect(['speaking', 'look', 'emotion:wake_up'].every((name) => holds.has(name))).toBe(true);
    // Standing, they renew through the edge too (a persona holding `speaking` as well).
    expect(refusal(() => ask(holds, 'speaking', 3))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { createStrikePolicy } from './strikes.ts';

const MIN = 60_000;

describe('createStrikePolicy', () => {
  it('does not halt on three quick 401s', () => {
    const policy = createStrikePolicy();
    expect(policy.strike(0)).toBe(false);
    expect(policy.strike(1_000)).toBe(false);
    expect(policy.strike(2_000)).toBe(false);
    expect(policy.state()).toEqual({ count: 3, firstAt: 0, halted: false });
  });

  it('halts at the third consecutive 401 once they span five minutes', () => {
    const policy = createStrikePolicy();
    policy.strike(0);
    policy.strike(4 * MIN);
    expect(policy.strike(5 * MIN - 1)).toBe(false);
    expect(policy.strike(5 * MIN)).toBe(true);
    expect(policy.state().halted).toBe(true);
    // Further strikes while halted do not report a new halt.
    expect(policy.strike(6 * MIN)).toBe(false);
  });

  it('halts five minutes of strikes after the wall clock was set back, not once it has caught up', () => {
    const policy = createStrikePolicy();
    const HOUR = 60 * MIN;
    policy.strike(10 * HOUR);
    // The clock is corrected back by a day between two refusals: the span starts again there.
    policy.strike(-14 * HOUR);
    expect(policy.strike(-14 * HOUR + 4 * MIN)).toBe(false);
    expect(policy.strike(-14 * HOUR + 5 * MIN)).toBe(true);
  });

  it('needs three strikes even when two span more than five minutes', () => {
    const policy = createStrikePolicy();
    policy.strike(0);
    expect(policy.strike(10 * MIN)).toBe(false);
  });

  it('is cleared by any success, which also lifts a halt', () => {
    const policy = createStrikePolicy();
    policy.strike(0);
    policy.strike(3 * MIN);
    expect(policy.clear()).toBe(false);
    policy.strike(4 * MIN);
    policy.strike(5 * MIN);
    expect(policy.strike(6 * MIN)).toBe(false);
    expect(policy.strike(9 * MIN)).toBe(true);
    expect(policy.clear()).toBe(true);
    expect(policy.state()).toEqual({ count: 0, firstAt: null, halted: false });
  });
});

describe('backoffDelay', () => {
  it('keeps the period without failures and grows to a 60 s cap', () => {
    expect(backoffDelay(5_000, 0)).toBe(5_000);
    expect([1, 2, 3, 4, 5, 9].map((f) => backoffDelay(5_000, f))).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
  });

  it('never waits less than the loop period', () => {
    expect(backoffDelay(30_000, 1)).toBe(30_000);
    expect(backoffDelay(30_000, 4)).toBe(40_000);
    expect(backoffDelay(3_600_000, 3)).toBe(3_600_000);
  });
});

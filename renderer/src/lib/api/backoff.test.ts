import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

const noJitter = { baseMs: 500, maxMs: 10_000, jitter: 0 };

describe('backoffDelay', () => {
  it.each([
    [0, 500],
    [1, 1000],
    [2, 2000],
    [4, 8000],
    [5, 10_000],
    [50, 10_000],
  ])('attempt %i waits %i ms without jitter', (attempt, expected) => {
    expect(backoffDelay(attempt, noJitter)).toBe(expected);
  });

  it('spreads the delay by the jitter share either way', () => {
    const policy = { baseMs: 1000, maxMs: 60_000, jitter: 0.2 };
    expect(backoffDelay(0, policy, () => 0)).toBe(800);
    expect(backoffDelay(0, policy, () => 0.5)).toBe(1000);
    expect(backoffDelay(0, policy, () => 0.999_999)).toBe(1200);
  });

  it('never exceeds the cap, even with jitter', () => {
    expect(backoffDelay(10, { baseMs: 500, maxMs: 10_000, jitter: 0.5 }, () => 0.999)).toBe(10_000);
  });

  it('treats a negative attempt as the first', () => {
    expect(backoffDelay(-3, noJitter)).toBe(500);
  });
});

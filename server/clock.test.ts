import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, realSchedule } from './clock.ts';

const DAY_MS = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
});

describe('realSchedule', () => {
  // The fake timers reproduce Node's rule: a delay past 2^31 - 1 ms runs after 1 ms.
  it('waits out a delay longer than one Node timer holds, then runs once', () => {
    vi.useFakeTimers();
    let runs = 0;
    realSchedule(() => (runs += 1), 30 * DAY_MS);
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(30 * DAY_MS - MAX_TIMER_MS - 1001);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(60 * DAY_MS);
    expect(runs).toBe(1);
  });

  it('cancels a long wait in any of its steps', () => {
    vi.useFakeTimers();
    let runs = 0;
    const cancel = realSchedule(() => (runs += 1), 60 * DAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1000);
    cancel();
    vi.advanceTimersByTime(60 * DAY_MS);
    expect(runs).toBe(0);
  });

  it('runs a short delay as a plain timer', () => {
    vi.useFakeTimers();
    let runs = 0;
    realSchedule(() => (runs += 1), 250);
    vi.advanceTimersByTime(249);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(1);
  });
});

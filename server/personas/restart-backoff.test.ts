import { describe, expect, it } from 'vitest';
import { createRestarter, restartDelay, RESTART_MAX_MS, STABLE_MS } from './restart-backoff.ts';
import { createManualSchedule } from './testing/manual-schedule.ts';

describe('restart delays', () => {
  it('start at 5 s and double up to 300 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(restartDelay)).toEqual([
      5_000,
      10_000,
      20_000,
      40_000,
      80_000,
      160_000,
      300_000,
      300_000,
      RESTART_MAX_MS,
    ]);
  });

  it('retry after each delay, and forget the count once the persona ran a minute', () => {
    const clock = createManualSchedule();
    let retries = 0;
    const restarter = createRestarter({ retry: () => (retries += 1), schedule: clock.schedule, now: clock.now });
    expect(restarter.failed()).toBe(5_000);
    expect(restarter.nextAt()).toBe(clock.now() + 5_000);
    clock.advance(4_999);
    expect(retries).toBe(0);
    clock.advance(1);
    expect(retries).toBe(1);
    expect(restarter.failed()).toBe(10_000);
    clock.advance(10_000);
    expect(retries).toBe(2);
    restarter.started();
    clock.advance(STABLE_MS - 1);
    expect(restarter.failed()).toBe(20_000);
    restarter.cancel();
    clock.advance(30_000);
    expect(retries).toBe(2);
    restarter.started();
    clock.advance(STABLE_MS);
    expect(restarter.failures()).toBe(0);
    expect(restarter.failed()).toBe(5_000);
  });
});

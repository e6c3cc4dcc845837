/**
 * A clock that only moves when a test says so.
 */
import type { Clock } from '../clock.ts';

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createFakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/**
 * A clock that only moves when a test says so: the manual server clock
 * (server/testing/manual-clock.ts), seen through the auth modules' interface.
 */
import { createManualClock, MANUAL_CLOCK_START } from '../../testing/manual-clock.ts';
import type { TimerClock } from '../../clock.ts';

export interface FakeClock extends TimerClock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createFakeClock(start = MANUAL_CLOCK_START): FakeClock {
  return createManualClock(start);
}

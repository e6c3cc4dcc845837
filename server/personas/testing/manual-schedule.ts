/**
 * The personas' timing tests' view of the manual server clock (server/testing/manual-clock.ts):
 * tests move time forward instead of sleeping (docs/testing.md, "Rules").
 */
import type { Schedule } from '../../clock.ts';
import { createManualClock } from '../../testing/manual-clock.ts';

export interface ManualSchedule {
  schedule: Schedule;
  now(): number;
  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Timers still waiting. */
  pending(): number;
}

export function createManualSchedule(start = 1_000_000): ManualSchedule {
  return createManualClock(start);
}

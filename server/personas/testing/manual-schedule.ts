/**
 * A hand-stepped clock and Schedule for the personas' timing rules (ARCHITECTURE.md §7: tests
 * move time forward instead of sleeping).
 */
import type { Schedule } from '../../perception/schedule.ts';

export interface ManualSchedule {
  schedule: Schedule;
  now(): number;
  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Timers still waiting. */
  pending(): number;
}

export function createManualSchedule(start = 1_000_000): ManualSchedule {
  let time = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    schedule(fn, ms) {
      const id = (nextId += 1);
      timers.set(id, { at: time + ms, fn });
      return () => void timers.delete(id);
    },
    now: () => time,
    advance(ms) {
      const end = time + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].fn();
      }
      time = end;
    },
    pending: () => timers.size,
  };
}

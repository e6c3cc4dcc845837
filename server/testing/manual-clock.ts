/**
 * The manual implementation of the server clock (server/clock.ts): time stands still until a
 * test moves it, and timers run in order of their due time as it passes. A timer scheduled by a
 * timer that falls due within the same advance runs in that advance too, as real time would.
 */
import type { TimerClock } from '../clock.ts';

export interface ManualClock extends TimerClock {
  /** Moves time forward by `ms`, running every timer that falls due, oldest due first. */
  advance(ms: number): void;
  /** Moves time forward to the next pending timer and runs it; false when none is pending. */
  runNext(): boolean;
  /** Jumps to an absolute time without running timers (a wall clock set by hand). */
  set(ms: number): void;
  /** Timers still waiting. */
  pending(): number;
}

/** The default start: a fixed, recognisable instant, so printed times are stable across runs. */
export const MANUAL_CLOCK_START = Date.UTC(2026, 10, 21, 12, 0, 0);

export function createManualClock(start = MANUAL_CLOCK_START): ManualClock {
  let time = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const due = (until: number) =>
    [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
  const run = ([id, timer]: [number, { at: number; fn: () => void }]) => {
    timers.delete(id);
    time = Math.max(time, timer.at);
    timer.fn();
  };
  return {
    now: () => time,
    schedule(fn, ms) {
      const id = (nextId += 1);
      timers.set(id, { at: time + Math.max(0, ms), fn });
      return () => void timers.delete(id);
    },
    advance(ms) {
      const end = time + ms;
      for (let next = due(end); next; next = due(end)) run(next);
      time = end;
    },
    runNext() {
      const next = due(Number.POSITIVE_INFINITY);
      if (!next) return false;
      run(next);
      return true;
    },
    set(ms) {
      time = ms;
    },
    pending: () => timers.size,
  };
}

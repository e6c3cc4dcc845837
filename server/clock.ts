/**
 * Time as a dependency, for the whole server: everything with an expiry, a window, a debounce or
 * a timer takes a clock, so tests move time forward by hand instead of sleeping (docs/testing.md, "Rules": no timing assertions). The manual implementation for tests is server/testing/manual-clock.ts.
 */

/** Epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** Runs `fn` once after `ms`; returns the cancel. */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** A clock that can also run something later: what debounces and timed rules need. */
export interface TimerClock extends Clock {
  schedule: Schedule;
}

/** Real timers. A pending timer never keeps a stopping process alive (unref). */
export const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The real clock. */
export const systemClock: TimerClock = { now: () => Date.now(), schedule: realSchedule };

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

/** The longest delay one Node timer holds; past it Node fires the timer after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Real timers. A pending timer never keeps a stopping process alive (unref). A delay past
 * MAX_TIMER_MS (about 24.8 days: a month-long service token's expiry) is waited out in steps,
 * since Node would otherwise run it at once.
 */
export const realSchedule: Schedule = (fn, ms) => {
  const due = Date.now() + ms;
  let timer: NodeJS.Timeout;
  const arm = (wait: number) => {
    timer = setTimeout(() => {
      const left = due - Date.now();
      if (left > 0 && wait === MAX_TIMER_MS) arm(Math.min(left, MAX_TIMER_MS));
      else fn();
    }, wait);
    timer.unref();
  };
  arm(Math.min(Math.max(0, ms), MAX_TIMER_MS));
  return () => clearTimeout(timer);
};

/** The real clock. */
export const systemClock: TimerClock = { now: () => Date.now(), schedule: realSchedule };

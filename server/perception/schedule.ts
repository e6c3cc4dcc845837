/**
 * Timers as a dependency: the perception loops take a Schedule so their rule tests step time
 * by hand instead of sleeping (ARCHITECTURE.md §7).
 */

/** Runs `fn` once after `ms`; returns the cancel. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  // A pending poll must not keep a stopped process alive.
  timer.unref();
  return () => clearTimeout(timer);
};

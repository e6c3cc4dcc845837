/**
 * Time as a dependency: everything with an expiry or a window takes a Clock, so tests move time
 * forward instead of sleeping (ARCHITECTURE.md §7: no timing assertions).
 */

/** Epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

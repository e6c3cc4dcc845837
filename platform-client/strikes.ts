/**
 * The 401 strike policy (the firmware's lesson, docs/platform.md, "Errors"): one 401
 * never wipes anything. Consecutive 401s are counted; only 3 or more that span at least 5
 * minutes halt the fast loops. Any success clears the count and lifts a halt.
 */
import { STRIKES } from './limits.ts';

/** The state of the strike counter, as shown to the dashboard. */
export interface StrikeState {
  count: number;
  firstAt: number | null;
  halted: boolean;
}

/** Counts 401s and decides when the device must halt. */
export interface StrikePolicy {
  /** Records a 401 at `now`; returns true when this strike halts the device. */
  strike(now: number): boolean;
  /** Halts at once, without waiting for the span (the owner's device list proved the token dead). */
  haltNow(now: number): void;
  /** Records any successful device request; returns true when this lifts a halt. */
  clear(): boolean;
  state(): StrikeState;
}

/** Options of the strike policy; defaults are the firmware's 3 strikes over 5 minutes. */
export interface StrikeOptions {
  count?: number;
  spanMs?: number;
}

/** Creates a strike policy. */
export function createStrikePolicy(options: StrikeOptions = {}): StrikePolicy {
  const needed = options.count ?? STRIKES.count;
  const spanMs = options.spanMs ?? STRIKES.spanMs;
  let count = 0;
  let firstAt: number | null = null;
  let halted = false;
  return {
    strike(now) {
      count += 1;
      // A first strike the clock now puts in the future (the wall clock was set back): the span
      // starts again here, where it waited for the clock to catch up while the token kept being sent.
      if (firstAt !== null && now < firstAt) firstAt = now;
      firstAt ??= now;
      if (halted) return false;
      halted = count >= needed && now - firstAt >= spanMs;
      return halted;
    },
    haltNow(now) {
      firstAt ??= now;
      halted = true;
    },
    clear() {
      const lifted = halted;
      count = 0;
      firstAt = null;
      halted = false;
      return lifted;
    },
    state: () => ({ count, firstAt, halted }),
  };
}

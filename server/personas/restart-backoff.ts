/**
 * Restart delays for a persona that failed: 5 s, doubling up to 300 s (docs/contract.md, "How the desktop server behaves",
 * "The voice listener restarts after 5 s, doubling up to 300 s"). A persona that ran for a while
 * before failing starts again from 5 s, so one hiccup a day never waits five minutes. Timers
 * come from an injected Schedule, so tests step time by hand.
 */
import { realSchedule, type Schedule } from '../perception/schedule.ts';

export const RESTART_FIRST_MS = 5_000;
export const RESTART_MAX_MS = 300_000;
/** Running this long counts as a success: the next failure waits 5 s again. */
export const STABLE_MS = 60_000;

/** Delay before the restart that follows failure number `failures` (1 = the first). */
export function restartDelay(failures: number): number {
  const exponent = Math.min(Math.max(0, failures - 1), 16);
  return Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** exponent);
}

export interface Restarter {
  /** Records a failure and schedules `retry` after the next delay; returns that delay. */
  failed(): number;
  /** The persona started: once it has run STABLE_MS, the failure count is forgotten. */
  started(): void;
  /** Cancels a pending restart and the stability timer; keeps the count. */
  cancel(): void;
  /** Forgets the count (the owner changed the settings or switched it off). */
  reset(): void;
  failures(): number;
  /** Epoch ms of the pending restart, or null. */
  nextAt(): number | null;
}

export function createRestarter(options: { retry: () => void; schedule?: Schedule; now?: () => number }): Restarter {
  const schedule = options.schedule ?? realSchedule;
  const now = options.now ?? Date.now;
  let failures = 0;
  let pending: { cancel: () => void; at: number } | undefined;
  let stable: (() => void) | undefined;
  const cancel = () => {
    pending?.cancel();
    pending = undefined;
    stable?.();
    stable = undefined;
  };
  return {
    failed() {
      cancel();
      failures += 1;
      const delay = restartDelay(failures);
      const cancelTimer = schedule(() => {
        pending = undefined;
        options.retry();
      }, delay);
      pending = { cancel: cancelTimer, at: now() + delay };
      return delay;
    },
    started() {
      stable?.();
      stable = schedule(() => {
        stable = undefined;
        failures = 0;
      }, STABLE_MS);
    },
    cancel,
    reset() {
      cancel();
      failures = 0;
    },
    failures: () => failures,
    nextAt: () => pending?.at ?? null,
  };
}

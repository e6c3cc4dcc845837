/**
 * Every delayed callback of one simulator goes through here, on the simulator's clock
 * (server/clock.ts; a test may hand it a manual one), so close() can cancel them all and no
 * timer keeps a test process alive.
 */
import type { TimerClock } from '../clock.ts';

export interface Timers {
  /** Runs `fn` once after `ms`; returns the cancel. */
  after(ms: number, fn: () => void): () => void;
  sleep(ms: number): Promise<void>;
  clear(): void;
}

export function createTimers(clock: TimerClock): Timers {
  const pending = new Set<() => void>();
  let closed = false;
  const after = (ms: number, fn: () => void): (() => void) => {
    if (closed) return () => {};
    const cancel = (): void => {
      pending.delete(cancel);
      cancelTimer();
    };
    const cancelTimer = clock.schedule(() => {
      pending.delete(cancel);
      fn();
    }, ms);
    pending.add(cancel);
    return cancel;
  };
  return {
    after,
    sleep: (ms) => new Promise((resolve) => after(ms, resolve)),
    clear() {
      closed = true;
      for (const cancel of [...pending]) cancel();
      pending.clear();
    },
  };
}

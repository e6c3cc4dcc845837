/**
 * A Scheduler on a hand-driven clock for cadence tests: nothing sleeps for real. Timer
 * callbacks that return a promise (loop ticks doing HTTP) are awaited before time moves on,
 * so `advance(30_000)` means "everything due in the next 30 s has happened".
 */
import type { Scheduler } from '../types.ts';

interface Timer {
  due: number;
  seq: number;
  fn: () => void | Promise<void>;
}

/** A manual scheduler and its controls. */
export interface ManualScheduler extends Scheduler {
  /** Fires every timer due within `ms`, in order, awaiting each; then sets the clock to now + ms. */
  advance(ms: number): Promise<void>;
  /** Fires timers one by one (as soon as they exist) until `promise` settles; returns its value. */
  runUntil<T>(promise: Promise<T>, maxTimers?: number): Promise<T>;
  pending(): number;
  /** The due times of pending timers, relative to now, ascending. */
  dueIn(): number[];
}

/** Creates a manual scheduler starting at `start` ms. */
export function createManualScheduler(start = 1_700_000_000_000): ManualScheduler {
  let now = start;
  let seq = 0;
  let timers: Timer[] = [];
  let onTimer: (() => void) | null = null;

  const takeEarliest = (limit: number): Timer | null => {
    const sorted = timers.filter((t) => t.due <= limit).sort((a, b) => a.due - b.due || a.seq - b.seq);
    const first = sorted[0] ?? null;
    if (first) timers = timers.filter((t) => t !== first);
    return first;
  };

  const fire = async (timer: Timer): Promise<void> => {
    now = Math.max(now, timer.due);
    await timer.fn();
  };

  return {
    now: () => now,
    after(ms, fn) {
      const timer: Timer = { due: now + Math.max(0, ms), seq: (seq += 1), fn };
      timers.push(timer);
      onTimer?.();
      return () => void (timers = timers.filter((t) => t !== timer));
    },
    async advance(ms) {
      const target = now + ms;
      for (let timer = takeEarliest(target); timer; timer = takeEarliest(target)) await fire(timer);
      now = target;
    },
    async runUntil(promise, maxTimers = 1000) {
      let settled = false;
      const done = promise.finally(() => void (settled = true));
      for (let i = 0; i < maxTimers && !settled; i += 1) {
        if (timers.length === 0) await Promise.race([done, new Promise<void>((r) => (onTimer = r))]);
        onTimer = null;
        if (settled) break;
        const timer = takeEarliest(Number.POSITIVE_INFINITY);
        if (timer) await fire(timer);
      }
      return done;
    },
    pending: () => timers.length,
    dueIn: () => timers.map((t) => t.due - now).sort((a, b) => a - b),
  };
}

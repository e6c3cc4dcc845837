/**
 * A self-rescheduling loop: each tick returns the delay before the next one, so a loop can
 * speed up, back off or slow to the halted cadence without timers being juggled elsewhere.
 * A generation counter keeps a tick that finishes after stop() from rescheduling (the same
 * guard the daemon client uses against stale reconnects, docs/architecture.md, "House style").
 */
import type { PlatformLog, Scheduler } from './types.ts';

/** A periodic task. */
export interface Loop {
  /** Starts (or restarts) the loop; the first tick runs after `firstDelayMs` (default 0). */
  start(firstDelayMs?: number): void;
  stop(): void;
  /** Runs a tick as soon as possible (after the one in flight, if any). */
  kick(): void;
  running(): boolean;
}

/** Returns the milliseconds to wait before the next tick. */
export type LoopTick = () => Promise<number>;

/** Waits used when a tick throws: a bug, not a platform answer, so slow down and report it. */
const AFTER_CRASH_MS = 60_000;

/** Creates a loop on the given scheduler. */
export function createLoop(name: string, scheduler: Scheduler, tick: LoopTick, log: PlatformLog): Loop {
  let generation = 0;
  let active = false;
  let inFlight = false;
  let kicked = false;
  let cancel: (() => void) | null = null;

  const schedule = (ms: number, gen: number): void => {
    cancel?.();
    cancel = scheduler.after(ms, () => run(gen));
  };

  async function run(gen: number): Promise<void> {
    if (gen !== generation) return;
    cancel = null;
    inFlight = true;
    let next: number;
    try {
      next = await tick();
    } catch (error) {
      log.error(`${name} tick failed`, { error: String(error) });
      next = AFTER_CRASH_MS;
    } finally {
      inFlight = false;
    }
    if (gen !== generation || !active) return;
    schedule(kicked ? 0 : next, gen);
    kicked = false;
  }

  return {
    start(firstDelayMs = 0) {
      generation += 1;
      active = true;
      kicked = false;
      schedule(firstDelayMs, generation);
    },
    stop() {
      generation += 1;
      active = false;
      cancel?.();
      cancel = null;
    },
    kick() {
      if (!active) return;
      if (inFlight) kicked = true;
      else schedule(0, generation);
    },
    running: () => active,
  };
}

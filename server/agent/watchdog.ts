/**
 * The turn watchdog (docs/contract.md, "How the desktop server behaves": Ask ran under a 60 s watchdog):
 * a turn is aborted when it runs past its overall budget, or when the model goes quiet, i.e.
 * no provider event for `idleMs`. Time spent inside a tool (a spoken sentence, a fleet call that
 * waits up to 45 s) is the robot working, not the model hanging, so it does not count as idle.
 */
import { realSchedule, type Schedule } from '../clock.ts';

export interface WatchdogLimits {
  /** The whole turn, model and tools (Ask: 60 s). */
  overallMs: number;
  /** Longest silence from the model while no tool runs (Ask: 20 s). */
  idleMs: number;
}

export interface Watchdog {
  /** A provider event arrived. */
  touch(): void;
  /** Runs `work` with the idle clock suspended. */
  busy<T>(work: Promise<T>): Promise<T>;
  stop(): void;
}

const seconds = (ms: number) => (ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/**
 * Calls `expire` once with the reason (an Error, so it can be an AbortSignal's reason). Its timers
 * run on `schedule` (server/clock.ts), so a test moves its time and a busy machine cannot.
 */
export function startWatchdog(
  limits: WatchdogLimits,
  expire: (reason: Error) => void,
  schedule: Schedule = realSchedule,
): Watchdog {
  let fired = false;
  let busyCount = 0;
  let cancelIdle: (() => void) | undefined;
  const fire = (message: string) => {
    if (fired) return;
    fired = true;
    stop();
    expire(new Error(message));
  };
  const cancelOverall = schedule(
    () => fire(`the turn took longer than ${seconds(limits.overallMs)} s`),
    limits.overallMs,
  );
  const armIdle = () => {
    cancelIdle?.();
    cancelIdle = undefined;
    if (busyCount === 0 && !fired)
      cancelIdle = schedule(() => fire(`no answer from the model for ${seconds(limits.idleMs)} s`), limits.idleMs);
  };
  const stop = () => {
    cancelOverall();
    cancelIdle?.();
  };
  armIdle();
  return {
    touch: armIdle,
    async busy(work) {
      busyCount += 1;
      armIdle();
      try {
        return await work;
      } finally {
        busyCount -= 1;
        armIdle();
      }
    },
    stop() {
      fired = true;
      stop();
    },
  };
}

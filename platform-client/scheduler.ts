/** The real scheduler (wall clock and Node timers) and a sleep built on any scheduler. */
import type { Scheduler } from './types.ts';

/** A Scheduler over Date.now and setTimeout; timers are unref'd so they never hold the process open. */
export function createRealScheduler(): Scheduler {
  return {
    now: () => Date.now(),
    after(ms, fn) {
      const handle = setTimeout(() => {
        // Callers report their own failures (loops log a crashed tick); a rejection here must
        // not become an unhandled one that takes the console down.
        void Promise.resolve()
          .then(fn)
          .catch(() => undefined);
      }, ms);
      handle.unref?.();
      return () => clearTimeout(handle);
    },
  };
}

/** Resolves after `ms` on the given scheduler; an abort signal ends the wait early. */
export function sleep(scheduler: Scheduler, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const cancel = scheduler.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = (): void => {
      cancel();
      resolve();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Keeps the daemon's face tracker at the weight the cockpit wants (docs/contract.md, "How the desktop server behaves"): 1
 * when tracking owns the head, 0 while any hold stands (paused, aim cleared), off when the
 * operator turned tracking off. The daemon has no getter for the tracker, so what was last
 * applied is remembered here; `assume(null)` after a daemon restart makes the next sync push again.
 * Calls are serialised and coalesced: only one daemon call in flight, and the last wish wins.
 */
import type { Clock } from '../clock.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import { AppError, isAppError } from '../errors.ts';
import type { Log } from '../log.ts';

/** A weight in 0..1, `off` (disabled), or null when the daemon's tracker state is unknown. */
export type Applied = number | 'off' | null;

export interface WeightSync {
  /** Resolves once the daemon has (or failed to take) the current wish. */
  sync(): Promise<void>;
  applied(): Applied;
  /** What the daemon's tracker is known to be without a push: null after a restart (unknown),
   * `off` when a face poll showed it idle. */
  assume(value: Applied): void;
  /** The daemon answered the enable with `enabled: false` (no camera, media released). */
  available(): boolean | null;
  error(): string | null;
  /** The failure of the last push, as an AppError the route can answer with. */
  failure(): AppError | null;
  /** Epoch ms before which a background retry should wait after a failure. */
  retryAt(): number;
}

export interface WeightSyncDeps {
  daemon: Pick<DaemonClient, 'setTracking'>;
  desired: () => Exclude<Applied, null>;
  clock: Clock;
  log: Log;
  retryMs?: number;
}

const UNAVAILABLE = 'the daemon face tracker is unavailable (no camera, or media released)';

export function createWeightSync(deps: WeightSyncDeps): WeightSync {
  const retryMs = deps.retryMs ?? 3000;
  let applied: Applied = null;
  let available: boolean | null = null;
  let failure: AppError | null = null;
  let retryAt = 0;
  let dirty = false;
  let running: Promise<void> | undefined;

  const fail = (err: AppError): void => {
    failure = err;
    retryAt = deps.clock.now() + retryMs;
    deps.log.debug('tracking weight not applied', { error: err.message });
  };

  const push = async (): Promise<void> => {
    const want = deps.desired();
    if (want === applied) return;
    try {
      if (want === 'off') {
        await deps.daemon.setTracking(false);
        applied = 'off';
      } else {
        const answer = await deps.daemon.setTracking(true, want);
        available = answer.enabled;
        applied = answer.enabled ? want : 'off';
        if (!answer.enabled) return fail(new AppError('DAEMON_ERROR', UNAVAILABLE));
      }
      failure = null;
      retryAt = 0;
    } catch (err) {
      fail(isAppError(err) ? err : new AppError('DAEMON_ERROR', `tracking: ${String(err)}`));
    }
  };

  const drain = async (): Promise<void> => {
    while (dirty) {
      dirty = false;
      await push();
    }
    // No await between the last check and this line, so a concurrent sync() cannot be lost.
    running = undefined;
  };

  return {
    sync() {
      dirty = true;
      running ??= drain();
      return running;
    },
    applied: () => applied,
    assume(value) {
      applied = value;
    },
    available: () => available,
    error: () => failure?.message ?? null,
    failure: () => failure,
    retryAt: () => retryAt,
  };
}

/**
 * Speaker volume, debounced toward the daemon. Every `POST /api/volume/set` plays a test sound
 * and runs blocking subprocesses on the daemon (docs/daemon.md, "Volume": "never bind a
 * slider's drag events to it"), so the route answers at once with the accepted level and only
 * the last level of a burst is sent, once the burst has been quiet for ~400 ms. A burst that
 * never pauses still lands every `maxWaitMs`; one call at a time is in flight.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { Log } from '../log.ts';
import { messageOf } from '../errors.ts';

export interface VolumeOptions {
  daemon: Pick<DaemonClient, 'setVolume'>;
  log: Log;
  quietMs?: number;
  maxWaitMs?: number;
  /** The debounce's time (server/clock.ts); tests pass a manual one. */
  clock?: TimerClock;
  /** Told when a level was applied or failed, for the event receipt of the outcome. */
  onSettled?: (level: number, error?: string) => void;
}

export interface VolumeControl {
  /** Accepts a level 0-100 (validated at the edge) and schedules it; returns it. */
  set(level: number): number;
  /** The level last accepted, and the last one the daemon confirmed. */
  status(): { requested: number | undefined; applied: number | undefined; pending: boolean };
  close(): void;
}

export function createVolumeControl(options: VolumeOptions): VolumeControl {
  const quietMs = options.quietMs ?? 400;
  const maxWaitMs = options.maxWaitMs ?? 2000;
  let requested: number | undefined;
  let applied: number | undefined;
  let unsent: number | undefined;
  const clock = options.clock ?? systemClock;
  let burstStart = 0;
  let cancelTimer: (() => void) | undefined;
  let inflight: Promise<void> | undefined;

  const send = async (): Promise<void> => {
    cancelTimer = undefined;
    if (unsent === undefined) return;
    if (inflight) {
      // One call at a time: the latest level goes out when this one returns.
      await inflight;
      return send();
    }
    const level = unsent;
    unsent = undefined;
    inflight = options.daemon.setVolume(level).then(
      (confirmed) => {
        applied = confirmed;
        options.onSettled?.(level);
      },
      (err: unknown) => {
        options.log.warn('volume not applied', { level, error: messageOf(err) });
        options.onSettled?.(level, messageOf(err));
      },
    );
    await inflight;
    inflight = undefined;
  };

  return {
    set(level) {
      const now = clock.now();
      if (unsent === undefined) burstStart = now;
      requested = level;
      unsent = level;
      cancelTimer?.();
      const wait = Math.max(0, Math.min(quietMs, burstStart + maxWaitMs - now));
      cancelTimer = clock.schedule(() => void send(), wait);
      return level;
    },
    status: () => ({ requested, applied, pending: unsent !== undefined || inflight !== undefined }),
    close() {
      cancelTimer?.();
      cancelTimer = undefined;
      unsent = undefined;
    },
  };
}

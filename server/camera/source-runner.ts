/**
 * Keeps ONE upstream camera source running while the hub needs it: starts it, notices when
 * frames stop, and re-acquires it by itself (cockpit-api.md, States: "the cockpit re-acquires
 * by itself within about 1 second"). A source that cannot start is retried with capped
 * backoff. Re-acquiring only ever means stop + start of the source: daemon media is never
 * released or acquired here, on start-up retries or otherwise (cockpit-api.md, operational
 * rules; daemon-api.md §10.8).
 */
import type { CameraHealth } from '../contract/health.ts';
import { createBackoff } from '../daemon/backoff.ts';
import type { Log } from '../log.ts';
import type { CameraFrame, CameraSource } from './frame.ts';

export interface RunnerOptions {
  source: CameraSource;
  log: Log;
  onFrame(frame: CameraFrame): void;
  /** Frames stopped for this long: the source is stuck and is restarted. */
  stallMs: number;
  /** A fresh start gets this long for its first frame (connect, negotiate, first keyframe). */
  firstFrameMs: number;
  retryMinMs: number;
  retryMaxMs: number;
  now: () => number;
}

export interface RunnerStats {
  starts: number;
  failedStarts: number;
  restarts: number;
}

export interface SourceRunner {
  /** Begins acquiring; idempotent. */
  run(): void;
  /** Stops acquiring and stops the source. */
  halt(): Promise<void>;
  wantJpeg(on: boolean): void;
  status(): CameraHealth['status'];
  stats(): RunnerStats;
}

export function createSourceRunner(o: RunnerOptions): SourceRunner {
  const backoff = createBackoff(o.retryMinMs, o.retryMaxMs);
  const stats: RunnerStats = { starts: 0, failedStarts: 0, restarts: 0 };
  let running = false;
  /** Bumped by every start, restart and halt, so callbacks of an older attempt are ignored. */
  let generation = 0;
  let startedAt: number | undefined;
  let lastFrameAt: number | undefined;
  let everFramed = false;
  let jpeg = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  // Start and stop of the source never overlap: each waits for the previous one.
  let chain: Promise<void> = Promise.resolve();
  const serial = (work: () => Promise<void>): Promise<void> => (chain = chain.then(work, work));

  const onFrame = (gen: number, frame: CameraFrame): void => {
    if (gen !== generation) return;
    if (lastFrameAt === undefined) backoff.reset();
    lastFrameAt = o.now();
    everFramed = true;
    o.onFrame(frame);
  };

  const attempt = (gen: number): Promise<void> =>
    serial(async () => {
      if (gen !== generation) return;
      startedAt = o.now();
      lastFrameAt = undefined;
      stats.starts += 1;
      try {
        o.source.wantJpeg?.(jpeg);
        await o.source.start(
          (frame) => onFrame(gen, frame),
          (error) => gen === generation && restart(`source failed: ${error.message}`, backoff.next()),
        );
      } catch (error) {
        stats.failedStarts += 1;
        o.log.debug('camera source did not start', { source: o.source.name, error: String(error) });
        if (gen === generation) restart('start failed', backoff.next());
        return;
      }
      // Halted or restarted while starting: this attempt is stale.
      if (gen !== generation) await o.source.stop().catch(() => {});
    });

  const restart = (reason: string, delayMs: number): void => {
    if (!running) return;
    generation += 1;
    const gen = generation;
    stats.restarts += 1;
    startedAt = undefined;
    o.log.debug('re-acquiring the camera', { source: o.source.name, reason, delayMs });
    void serial(() => o.source.stop().catch(() => {}));
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void attempt(gen), delayMs).unref();
  };

  const check = (): void => {
    if (!running || startedAt === undefined) return;
    const now = o.now();
    if (lastFrameAt !== undefined && now - lastFrameAt > o.stallMs) restart('frames stopped', 0);
    else if (lastFrameAt === undefined && now - startedAt > o.firstFrameMs) restart('no first frame', backoff.next());
  };

  return {
    run() {
      if (running) return;
      running = true;
      generation += 1;
      watchdog = setInterval(check, Math.max(50, o.stallMs / 4)).unref();
      void attempt(generation);
    },
    async halt() {
      if (!running) return;
      running = false;
      generation += 1;
      startedAt = undefined;
      lastFrameAt = undefined;
      clearTimeout(retryTimer);
      clearInterval(watchdog);
      await serial(() => o.source.stop().catch(() => {}));
    },
    wantJpeg(on) {
      jpeg = on;
      if (running) o.source.wantJpeg?.(on);
    },
    status() {
      if (!running) return 'off';
      if (lastFrameAt !== undefined && o.now() - lastFrameAt <= o.stallMs) return 'live';
      return everFramed ? 'lost' : 'starting';
    },
    stats: () => ({ ...stats }),
  };
}

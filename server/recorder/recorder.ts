/**
 * The black box: an always-on recorder writing every kind of record to a bounded ring of MCAP
 * files, and keeping windows of it on request (the last N minutes) or by itself (60 s before and
 * 30 s after every STOP, one recording for STOPs whose windows overlap: stop-windows.ts). Callers
 * hand records in and return at once; the disk work runs on the ring's queue. Time comes from the
 * injected clock, and `tick()` (run every second by start()) does the time-driven work, so tests
 * move the clock and tick instead of waiting.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeepReason, KeptRecording, RecorderStatus } from '../contract/recordings.ts';
import type { Clock } from '../auth/clock.ts';
import { AppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { exportWindow } from './export-window.ts';
import { createKeptStore, defaultName, type KeptStore } from './kept-store.ts';
import { createRing } from './ring.ts';
import { createScrubber } from './scrub.ts';
import { createStopWindows } from './stop-windows.ts';
import { storageFailed } from '../store/storage-failed.ts';
import { CHANNELS, type ChannelKind } from './schemas.ts';

export interface RecorderOptions {
  /** `<data dir>/recordings`: `ring/` and `kept/` live under it. */
  dir: string;
  maxMinutes: number;
  maxBytes: number;
  cameraFps: number;
  clock: Clock;
  log: Log;
  /** Values that must never be written (owner token, provider keys...), read at each record. */
  secrets?: () => readonly string[];
  /** Length of one ring file (default 10 s). */
  segmentMs?: number;
  /** How often start() ticks (default 1 s); tests call tick() themselves. */
  tickMs?: number | null;
}

export interface AppEvent {
  app: string;
  phase: 'start' | 'stop';
  detail?: string;
}

export interface Recorder {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Records a value on a channel now (or at `ms`); returns at once. */
  record(kind: ChannelKind, value: object, ms?: number): void;
  /** Records prepared bytes (camera frames, already JSON). */
  recordBytes(kind: ChannelKind, data: Uint8Array, ms?: number): void;
  /**
   * The hook for the apps feature: an app started or stopped on the robot (channel `/apps`).
   * Whoever composes the apps feature calls it on each start and stop.
   */
  recordAppEvent(event: AppEvent): void;
  /** A STOP happened at `ms`: its window is kept once the 30 s after it have been recorded. */
  noteStop(ms: number): void;
  tick(): Promise<void>;
  keepLast(minutes: number, name?: string): Promise<KeptRecording>;
  readonly kept: KeptStore;
  status(): RecorderStatus;
  cameraOn(): boolean;
  setCamera(on: boolean): Promise<void>;
  /** Runs when the camera setting changes (the camera source subscribes or unsubscribes). */
  onCameraChange(listener: (on: boolean) => void): void;
  /** Settles once everything handed in so far is on disk and due keeps are written. */
  idle(): Promise<void>;
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { clock, log } = options;
  const maxMs = options.maxMinutes * 60_000;
  const stopWindows = createStopWindows(maxMs);
  /** Windows being copied into kept files right now. */
  const copying = new Set<readonly [number, number]>();
  const ring = createRing({
    dir: join(options.dir, 'ring'),
    maxMs,
    maxBytes: options.maxBytes,
    segmentMs: options.segmentMs ?? 10_000,
    log,
    keep: () => [...stopWindows.spans(), ...copying],
  });
  const kept = createKeptStore({ dir: join(options.dir, 'kept'), log, now: () => clock.now() });
  const settings = createJsonDocument({
    file: join(options.dir, 'recorder-settings.json'),
    defaults: () => ({ camera: true }),
    validate: (u) =>
      typeof u === 'object' && u !== null && typeof (u as { camera?: unknown }).camera === 'boolean'
        ? (u as { camera: boolean })
        : undefined,
    log,
  });
  const scrub = createScrubber(options.secrets ?? (() => []));
  const cameraListeners: ((on: boolean) => void)[] = [];
  let keeps: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  /** Why start() could not open the recorder's files; null once started (or not yet tried). */
  let startProblem: string | null = null;
  let settingsRead = false;
  const cameraOn = () => (settingsRead ? settings.get().camera : false);
  const encoder = new TextEncoder();

  const keepWindow = (fromMs: number, toMs: number, reason: KeepReason, name: string | undefined, moment: number) => {
    const window = [fromMs, toMs] as const;
    const task = keeps.then(async () => {
      copying.add(window);
      await ring.rotate();
      const { id, path } = kept.reserve(clock.now());
      const done = await exportWindow(ring.segments(), fromMs, toMs, path).finally(() => copying.delete(window));
      if (!done) throw new AppError('CONFLICT', 'nothing has been recorded in that window yet');
      const seconds = Math.round((done.lastMs - done.firstMs) / 100) / 10;
      const { size } = await stat(path);
      return kept.add({
        id,
        name: name ?? defaultName(reason, moment),
        reason,
        keptAt: new Date(clock.now()).toISOString(),
        startedAt: new Date(done.firstMs).toISOString(),
        endedAt: new Date(done.lastMs).toISOString(),
        seconds,
        bytes: size,
        messages: done.messages,
      });
    });
    keeps = task.catch(() => {});
    return task.catch((error: unknown) => {
      throw storageFailed(error, 'the recording could not be kept');
    });
  };

  const keepDueStops = async (force: boolean) => {
    const now = clock.now();
    for (let due = stopWindows.takeDue(now, force); due; due = stopWindows.takeDue(now, force)) {
      const { fromMs, toMs, stops } = due;
      await keepWindow(fromMs, toMs, 'stop', undefined, stops[0] as number).catch((error: unknown) =>
        log.warn('STOP window not kept', { error: String(error), stops: stops.length }),
      );
    }
  };

  const counts: Record<string, number> = {};
  const write = (kind: ChannelKind, data: Uint8Array, ms: number) => {
    if (!running) return;
    const topic = CHANNELS[kind].topic;
    counts[topic] = (counts[topic] ?? 0) + 1;
    ring.write(kind, ms, data);
  };

  return {
    async start() {
      try {
        await settings.load();
        settingsRead = true;
        await kept.load();
        // Off (ROBOT_RECORD_MINUTES=0): kept recordings stay listed and downloadable, nothing is recorded.
        if (maxMs === 0) return;
        await ring.open();
      } catch (error) {
        // The robot does not need the black box: a data dir it cannot use (a file where one of its
        // folders should be) leaves it off, says why in its status, and the cockpit starts.
        startProblem = `the recorder could not start: ${String(error)}`;
        log.error('recorder not started', { error: String(error) });
        return;
      }
      running = true;
      const every = options.tickMs === undefined ? 1000 : options.tickMs;
      if (every !== null) {
        timer = setInterval(() => void this.tick(), every);
        timer.unref();
      }
    },
    async stop() {
      clearInterval(timer);
      // A STOP whose 30 s after are not over yet is kept with what there is.
      await keepDueStops(true);
      const wasRunning = running;
      running = false;
      await keeps;
      if (wasRunning) await ring.close();
    },
    record(kind, value, ms = clock.now()) {
      if (!running) return;
      write(kind, encoder.encode(scrub(JSON.stringify(value))), ms);
    },
    recordBytes(kind, data, ms = clock.now()) {
      write(kind, data, ms);
    },
    recordAppEvent(event) {
      this.record('app', {
        app: event.app,
        phase: event.phase,
        ...(event.detail !== undefined ? { detail: event.detail } : {}),
      });
    },
    noteStop(ms) {
      if (running) stopWindows.note(ms);
    },
    async tick() {
      await keepDueStops(false);
      await ring.prune();
    },
    async keepLast(minutes, name) {
      if (maxMs === 0) throw new AppError('NOT_CONFIGURED', 'the recorder is off (ROBOT_RECORD_MINUTES=0)');
      if (startProblem !== null) throw new AppError('STORAGE_FAILED', startProblem);
      if (!Number.isFinite(minutes) || minutes <= 0 || minutes > options.maxMinutes)
        throw new AppError(
          'BAD_REQUEST',
          `minutes must be a number above 0 and at most ${options.maxMinutes} (the ring's length)`,
        );
      // The last N minutes recorded: across a restart they reach back before it (ring.ts).
      const now = clock.now();
      const fromMs = ring.reachBack(minutes * 60_000, now);
      return keepWindow(fromMs, now, 'manual', name, fromMs);
    },
    kept,
    status() {
      const stats = ring.stats();
      return {
        recording: running,
        camera: cameraOn(),
        cameraFps: options.cameraFps,
        maxMinutes: options.maxMinutes,
        maxBytes: options.maxBytes,
        ringBytes: stats.bytes,
        ringSeconds: Math.round(stats.seconds),
        channels: { ...counts },
        dropped: stats.dropped,
        pendingStops: stopWindows.stops(),
        problem: stats.problem ?? startProblem,
      };
    },
    cameraOn,
    async setCamera(on) {
      await settings.save({ camera: on }).catch((error: unknown) => {
        throw storageFailed(error, 'the camera setting could not be saved; nothing changed');
      });
      for (const listener of cameraListeners) listener(on);
    },
    onCameraChange(listener) {
      cameraListeners.push(listener);
    },
    async idle() {
      await keepDueStops(false);
      await keeps;
      await ring.prune();
    },
  };
}

/**
 * The frame hub: ONE upstream camera client per robot, shared by every viewer (ARCHITECTURE.md
 * §1; daemon-api.md §10.8). Viewers subscribe to JPEG or H.264 frames and each gets the newest
 * frame through its own mailbox, so a slow viewer drops frames without slowing the others.
 * The upstream client runs while someone needs it (a viewer, or a snapshot in the last
 * `idleStopMs`), or always when `idleStopMs` is null; H.264 sources decode to JPEG only while
 * a JPEG viewer or a recent snapshot needs it.
 */
import type { CameraHealth } from '../contract/health.ts';
import type { Log } from '../log.ts';
import { createFpsMeter } from './fps-meter.ts';
import type { CameraFrame, CameraSource, FrameKind } from './frame.ts';
import { createMailbox, type Deliver, type Mailbox } from './latest-only.ts';
import { createSourceRunner, type RunnerStats, type SourceRunner } from './source-runner.ts';

export interface FrameHubOptions {
  /** null: no camera configured (`camera: off`); the hub then reports `off` and has no frames. */
  source: CameraSource | null;
  log: Log;
  /** Frames stopped this long: re-acquire (default 1000 ms, the spec's "about 1 second"). */
  stallMs?: number;
  /** Time a fresh start gets for its first frame (default 4000 ms). */
  firstFrameMs?: number;
  /** Backoff between failed starts (defaults 200 → 1000 ms, so recovery stays near a second). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Upstream client closed after this long without viewers or snapshots; null keeps it always open. */
  idleStopMs?: number | null;
  /** A snapshot keeps JPEG decoding on for this long, so a poller does not restart the decoder. */
  jpegLingerMs?: number;
  now?: () => number;
}

export interface Subscription {
  close(): void;
  readonly dropped: number;
  readonly delivered: number;
}

export interface HubStats extends RunnerStats {
  viewers: Record<FrameKind, number>;
  /** Frames skipped for slow viewers, all viewers so far. */
  dropped: number;
}

export interface FrameHub {
  /** A camera is configured (the setting is not `off`). */
  readonly configured: boolean;
  /** Enables the hub; the source starts now when always-on, otherwise on first need. */
  start(): void;
  stop(): Promise<void>;
  /** `onEnd` runs if the hub ends the subscription itself (hub stopped). */
  subscribe(kind: FrameKind, deliver: Deliver, onEnd?: () => void): Subscription;
  /** The newest frame of a kind, however old. */
  latest(kind?: FrameKind): CameraFrame | undefined;
  /** A current JPEG frame: the newest if under a second old, else the next one within `waitMs`. */
  snapshot(waitMs?: number): Promise<CameraFrame | undefined>;
  health(): CameraHealth;
  stats(): HubStats;
}

const FRESH_MS = 1000;

export function createFrameHub(options: FrameHubOptions): FrameHub {
  const now = options.now ?? Date.now;
  const idleStopMs = options.idleStopMs === undefined ? 30_000 : options.idleStopMs;
  const jpegLingerMs = options.jpegLingerMs ?? 10_000;
  const viewers: Record<FrameKind, Set<Mailbox>> = { jpeg: new Set(), h264: new Set() };
  const endings = new WeakMap<Mailbox, () => void>();
  const latest: Partial<Record<FrameKind, { frame: CameraFrame; at: number }>> = {};
  const waiters = new Set<(frame: CameraFrame | undefined) => void>();
  const fps = createFpsMeter();
  let enabled = false;
  let neededUntil = 0;
  let jpegUntil = 0;
  let h264Seen = false;
  let droppedClosed = 0;
  let demandTimer: NodeJS.Timeout | undefined;

  const dispatch = (frame: CameraFrame): void => {
    const at = now();
    // One picture may come twice (its H.264, then its decoded JPEG): count pictures once.
    if (frame.h264 || !h264Seen) fps.tick(at);
    if (frame.h264) {
      h264Seen = true;
      latest.h264 = { frame, at };
      for (const box of viewers.h264) box.offer(frame);
    }
    if (frame.jpeg) {
      latest.jpeg = { frame, at };
      for (const box of viewers.jpeg) box.offer(frame);
      for (const resolve of waiters) resolve(frame);
      waiters.clear();
    }
  };

  const runner: SourceRunner | null = options.source
    ? createSourceRunner({
        source: options.source,
        log: options.log,
        onFrame: dispatch,
        stallMs: options.stallMs ?? 1000,
        firstFrameMs: options.firstFrameMs ?? 4000,
        retryMinMs: options.retryMinMs ?? 200,
        retryMaxMs: options.retryMaxMs ?? 1000,
        now,
      })
    : null;

  const viewerCount = (): number => viewers.jpeg.size + viewers.h264.size;

  /** Starts or stops the upstream client and the JPEG decoding to match who needs them now. */
  const settle = (): void => {
    clearTimeout(demandTimer);
    if (!runner) return;
    const t = now();
    const needed = enabled && (idleStopMs === null || viewerCount() > 0 || t < neededUntil);
    runner.wantJpeg(viewers.jpeg.size > 0 || t < jpegUntil);
    if (!needed) {
      void runner.halt();
      fps.reset();
      h264Seen = false;
      return;
    }
    runner.run();
    const next = [neededUntil, jpegUntil].filter((u) => u > t);
    if (next.length > 0) demandTimer = setTimeout(settle, Math.min(...next) - t + 5).unref();
  };

  const subscribe = (kind: FrameKind, deliver: Deliver, onEnd?: () => void): Subscription => {
    const box = createMailbox(deliver, (error) => {
      options.log.debug('camera viewer failed; unsubscribed', { error: String(error) });
      close();
    });
    const close = (): void => {
      if (!viewers[kind].delete(box)) return;
      box.close();
      droppedClosed += box.dropped;
      if (idleStopMs !== null) neededUntil = Math.max(neededUntil, now() + idleStopMs);
      settle();
    };
    viewers[kind].add(box);
    if (onEnd) endings.set(box, onEnd);
    settle();
    // A new JPEG viewer sees the current picture at once rather than at the next frame.
    const current = latest.jpeg;
    if (kind === 'jpeg' && current && now() - current.at <= FRESH_MS) box.offer(current.frame);
    return {
      close,
      get dropped() {
        return box.dropped;
      },
      get delivered() {
        return box.delivered;
      },
    };
  };

  const snapshot = (waitMs = 3000): Promise<CameraFrame | undefined> => {
    if (!runner || !enabled) return Promise.resolve(undefined);
    const t = now();
    jpegUntil = t + jpegLingerMs;
    if (idleStopMs !== null) neededUntil = Math.max(neededUntil, t + idleStopMs);
    settle();
    const current = latest.jpeg;
    if (current && t - current.at <= FRESH_MS) return Promise.resolve(current.frame);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(done);
        resolve(undefined);
      }, waitMs);
      const done = (frame: CameraFrame | undefined): void => {
        clearTimeout(timer);
        resolve(frame);
      };
      waiters.add(done);
    });
  };

  return {
    configured: runner !== null,
    start() {
      enabled = true;
      settle();
    },
    async stop() {
      enabled = false;
      clearTimeout(demandTimer);
      for (const kind of ['jpeg', 'h264'] as const) {
        const boxes = [...viewers[kind]];
        viewers[kind].clear();
        for (const box of boxes) {
          box.close();
          droppedClosed += box.dropped;
          endings.get(box)?.();
        }
      }
      for (const resolve of waiters) resolve(undefined);
      waiters.clear();
      await runner?.halt();
    },
    subscribe,
    latest: (kind = 'jpeg') => latest[kind]?.frame,
    snapshot,
    health() {
      const status = runner && enabled ? runner.status() : 'off';
      return { status, fps: status === 'off' ? 0 : fps.rate(now()) };
    },
    stats() {
      const open = [...viewers.jpeg, ...viewers.h264].reduce((sum, box) => sum + box.dropped, 0);
      const runnerStats = runner?.stats() ?? { starts: 0, failedStarts: 0, restarts: 0 };
      return {
        ...runnerStats,
        viewers: { jpeg: viewers.jpeg.size, h264: viewers.h264.size },
        dropped: droppedClosed + open,
      };
    },
  };
}

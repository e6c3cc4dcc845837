/**
 * The frame hub: ONE upstream camera client per robot, shared by every viewer (docs/architecture.md, "Processes and data flow"; docs/daemon.md, "Duties of the cockpit"). Viewers subscribe to JPEG or H.264 frames and each gets the newest
 * frame through its own mailbox, so a slow viewer drops frames without slowing the others.
 * The upstream client runs while someone needs it (a viewer, or a snapshot in the last
 * `idleStopMs`), or always when `idleStopMs` is null; H.264 sources decode to JPEG only while
 * a JPEG consumer (viewer, recorder, snapshot) needs it and `jpegLingerMs` after the last. The
 * robot's microphone and the raw video RTP (for the WebRTC relay), where the source carries
 * them, are taken through the hub too, so that they keep the one upstream client open.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { CameraHealth } from '../contract/health.ts';
import type { Log } from '../log.ts';
import type { MicrophoneListener, MicrophoneSubscription } from './audio/microphone-tap.ts';
import { createFpsMeter } from './fps-meter.ts';
import type { CameraFrame, CameraSource, FrameKind } from './frame.ts';
import { createMailbox, type Deliver, type Mailbox } from './latest-only.ts';
import { createSourceRunner, type RunnerStats, type SourceRunner } from './source-runner.ts';
import type { RtpPacket } from './video-rtp.ts';

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
  /**
   * JPEG decoding stays on this long after the last JPEG consumer left or the last snapshot
   * (default 30 s), so a poller or a reloading page does not restart the decoder.
   */
  jpegLingerMs?: number;
  /** Time for demand, snapshots and the source's watchdog and retries (server/clock.ts). */
  clock?: TimerClock;
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
  /** Consumers of the raw video RTP (the WebRTC relay takes one while it has viewers). */
  videoWatchers: number;
  /** The source is asked to decode JPEG now (an H.264 source then runs its decoder). */
  jpegWanted: boolean;
}

/** Raw video RTP from the source, while the watch is open; it keeps the upstream client open. */
export interface VideoWatch {
  close(): void;
  /** Asks the robot for a keyframe (coalesce before calling: relay/keyframe-requests.ts). */
  requestKeyframe(): void;
}

export type VideoWatchResult = { ok: true; watch: VideoWatch } | { ok: false; error: string };

/** Listening to the microphone either works or says why not (errors as values). */
export type MicrophoneListen = { ok: true; subscription: MicrophoneSubscription } | { ok: false; error: string };

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
  /** The source's microphone for status lines; null when the source has none (device, off). */
  readonly microphoneName: string | null;
  /** Listens to the robot's microphone; the hub ends the listener (`end`) when it stops. */
  listenMicrophone(listener: MicrophoneListener): MicrophoneListen;
  /** Watches the raw H.264 RTP; refused when the source is not the daemon's WebRTC camera. */
  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult;
}

const FRESH_MS = 1000;

interface Viewer {
  box: Mailbox;
  onEnd: (() => void) | undefined;
}

class CameraFrameHub implements FrameHub {
  readonly configured: boolean;
  private readonly runner: SourceRunner | null;
  private readonly now: () => number;
  private readonly idleStopMs: number | null;
  private readonly jpegLingerMs: number;
  private readonly viewers: Record<FrameKind, Set<Viewer>> = { jpeg: new Set(), h264: new Set() };
  private readonly newest: Partial<Record<FrameKind, { frame: CameraFrame; at: number }>> = {};
  private readonly waiters = new Set<(frame: CameraFrame | undefined) => void>();
  private readonly microphoneListeners = new Map<MicrophoneListener, MicrophoneSubscription>();
  private readonly videoWatches = new Set<() => void>();
  private jpegWanted = false;
  private readonly fps = createFpsMeter();
  private enabled = false;
  /** The upstream client stays open until then without viewers (a snapshot or a viewer just left). */
  private neededUntil = 0;
  /** JPEG decoding stays on until then without JPEG viewers (a snapshot was taken). */
  private jpegUntil = 0;
  private h264Seen = false;
  private droppedClosed = 0;
  private cancelDemand: (() => void) | undefined;
  private readonly clock: TimerClock;

  constructor(private readonly options: FrameHubOptions) {
    this.clock = options.clock ?? systemClock;
    this.now = () => this.clock.now();
    this.idleStopMs = options.idleStopMs === undefined ? 30_000 : options.idleStopMs;
    this.jpegLingerMs = options.jpegLingerMs ?? 30_000;
    this.runner = options.source
      ? createSourceRunner({
          source: options.source,
          log: options.log,
          onFrame: (frame) => this.dispatch(frame),
          stallMs: options.stallMs ?? 1000,
          firstFrameMs: options.firstFrameMs ?? 4000,
          retryMinMs: options.retryMinMs ?? 200,
          retryMaxMs: options.retryMaxMs ?? 1000,
          clock: this.clock,
        })
      : null;
    this.configured = this.runner !== null;
  }

  get microphoneName(): string | null {
    return this.options.source?.microphone?.name ?? null;
  }

  listenMicrophone(listener: MicrophoneListener): MicrophoneListen {
    const microphone = this.options.source?.microphone;
    if (!microphone) {
      const what = this.options.source
        ? `the camera source (${this.options.source.name})`
        : 'no camera is configured, so it';
      return { ok: false, error: `${what} has no robot microphone: it comes only with the daemon's WebRTC camera` };
    }
    const subscription = microphone.listen(listener);
    this.microphoneListeners.set(listener, subscription);
    this.settle();
    const close = (): void => {
      if (!this.microphoneListeners.delete(listener)) return;
      subscription.close();
      this.keepNeeded(this.now());
      this.settle();
    };
    return { ok: true, subscription: { close } };
  }

  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult {
    const video = this.options.source?.video;
    if (!video) {
      const what = this.options.source ? `the camera source (${this.options.source.name})` : 'no camera is configured, so it';
      return { ok: false, error: `${what} has no H.264 RTP to relay: it comes only with the daemon's WebRTC camera` };
    }
    const unlisten = video.listen(onPacket);
    const close = (): void => {
      if (!this.videoWatches.delete(close)) return;
      unlisten();
      this.keepNeeded(this.now());
      this.settle();
    };
    this.videoWatches.add(close);
    this.settle();
    return { ok: true, watch: { close, requestKeyframe: () => video.requestKeyframe() } };
  }

  start(): void {
    this.enabled = true;
    this.settle();
  }

  async stop(): Promise<void> {
    this.enabled = false;
    this.cancelDemand?.();
    for (const close of [...this.videoWatches]) close();
    for (const kind of ['jpeg', 'h264'] as const) {
      const ending = [...this.viewers[kind]];
      this.viewers[kind].clear();
      for (const viewer of ending) {
        this.retire(viewer);
        viewer.onEnd?.();
      }
    }
    for (const resolve of this.waiters) resolve(undefined);
    this.waiters.clear();
    const listening = [...this.microphoneListeners];
    this.microphoneListeners.clear();
    for (const [listener, subscription] of listening) {
      subscription.close();
      listener.end('the camera stopped');
    }
    await this.runner?.halt();
  }

  subscribe(kind: FrameKind, deliver: Deliver, onEnd?: () => void): Subscription {
    const viewer: Viewer = {
      box: createMailbox(deliver, (error) => {
        this.options.log.debug('camera viewer failed; unsubscribed', { error: String(error) });
        close();
      }),
      onEnd,
    };
    const close = (): void => {
      if (!this.viewers[kind].delete(viewer)) return;
      this.retire(viewer);
      const t = this.now();
      this.keepNeeded(t);
      if (kind === 'jpeg') this.jpegUntil = Math.max(this.jpegUntil, t + this.jpegLingerMs);
      this.settle();
    };
    this.viewers[kind].add(viewer);
    this.settle();
    // A new JPEG viewer sees the current picture at once rather than at the next frame.
    const current = this.fresh();
    if (kind === 'jpeg' && current) viewer.box.offer(current);
    const { box } = viewer;
    return {
      close,
      get dropped() {
        return box.dropped;
      },
      get delivered() {
        return box.delivered;
      },
    };
  }

  latest(kind: FrameKind = 'jpeg'): CameraFrame | undefined {
    return this.newest[kind]?.frame;
  }

  snapshot(waitMs = 3000): Promise<CameraFrame | undefined> {
    if (!this.runner || !this.enabled) return Promise.resolve(undefined);
    const t = this.now();
    this.jpegUntil = t + this.jpegLingerMs;
    this.keepNeeded(t);
    this.settle();
    const current = this.fresh();
    return current ? Promise.resolve(current) : this.nextJpeg(waitMs);
  }

  health(): CameraHealth {
    const status = this.runner && this.enabled ? this.runner.status() : 'off';
    return { status, fps: status === 'off' ? 0 : this.fps.rate(this.now()) };
  }

  stats(): HubStats {
    const all = [...this.viewers.jpeg, ...this.viewers.h264];
    const open = all.reduce((sum, viewer) => sum + viewer.box.dropped, 0);
    const runnerStats = this.runner?.stats() ?? { starts: 0, failedStarts: 0, restarts: 0 };
    return {
      ...runnerStats,
      viewers: { jpeg: this.viewers.jpeg.size, h264: this.viewers.h264.size },
      dropped: this.droppedClosed + open,
      videoWatchers: this.videoWatches.size,
      jpegWanted: this.jpegWanted,
    };
  }

  private dispatch(frame: CameraFrame): void {
    const at = this.now();
    // One picture may come twice (its H.264, then its decoded JPEG): count pictures once.
    if (frame.h264 || !this.h264Seen) this.fps.tick(at);
    if (frame.h264) {
      this.h264Seen = true;
      this.newest.h264 = { frame, at };
      for (const viewer of this.viewers.h264) viewer.box.offer(frame);
    }
    if (frame.jpeg) {
      this.newest.jpeg = { frame, at };
      for (const viewer of this.viewers.jpeg) viewer.box.offer(frame);
      for (const resolve of this.waiters) resolve(frame);
      this.waiters.clear();
    }
  }

  /** Starts or stops the upstream client and the JPEG decoding to match who needs them now. */
  private settle(): void {
    this.cancelDemand?.();
    this.cancelDemand = undefined;
    if (!this.runner) return;
    const t = this.now();
    const viewers =
      this.viewers.jpeg.size + this.viewers.h264.size + this.microphoneListeners.size + this.videoWatches.size;
    const needed = this.enabled && (this.idleStopMs === null || viewers > 0 || t < this.neededUntil);
    this.jpegWanted = needed && (this.viewers.jpeg.size > 0 || t < this.jpegUntil);
    this.runner.wantJpeg(this.jpegWanted);
    if (!needed) {
      void this.runner.halt();
      this.fps.reset();
      this.h264Seen = false;
      return;
    }
    this.runner.run();
    const next = [this.neededUntil, this.jpegUntil].filter((u) => u > t);
    if (next.length > 0) this.cancelDemand = this.clock.schedule(() => this.settle(), Math.min(...next) - t + 5);
  }

  private keepNeeded(t: number): void {
    if (this.idleStopMs !== null) this.neededUntil = Math.max(this.neededUntil, t + this.idleStopMs);
  }

  private retire(viewer: Viewer): void {
    viewer.box.close();
    this.droppedClosed += viewer.box.dropped;
  }

  /** The newest JPEG frame if it is under a second old. */
  private fresh(): CameraFrame | undefined {
    const current = this.newest.jpeg;
    return current && this.now() - current.at <= FRESH_MS ? current.frame : undefined;
  }

  private nextJpeg(waitMs: number): Promise<CameraFrame | undefined> {
    return new Promise((resolve) => {
      const done = (frame: CameraFrame | undefined): void => {
        cancel();
        this.waiters.delete(done);
        resolve(frame);
      };
      const cancel = this.clock.schedule(() => done(undefined), waitMs);
      this.waiters.add(done);
    });
  }
}

export function createFrameHub(options: FrameHubOptions): FrameHub {
  return new CameraFrameHub(options);
}

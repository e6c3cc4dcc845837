/**
 * The frame hub: ONE upstream camera client per robot, shared by every viewer (docs/architecture.md, "Processes and data flow"; docs/daemon.md, "Duties of the cockpit"). Viewers subscribe to JPEG or H.264 frames and each gets the newest
 * frame through its own mailbox, so a slow viewer drops frames without slowing the others.
 * The upstream client runs while someone needs it (a viewer, or a snapshot in the last
 * `idleStopMs`), or always when `idleStopMs` is null; H.264 sources decode to JPEG only while
 * a JPEG consumer (viewer, recorder, snapshot) needs it and `jpegLingerMs` after the last. The
 * robot's microphone and the raw video RTP (for the WebRTC relay), where the source carries
 * them, are taken through the hub too, so that they keep the one upstream client open.
 * This file wires the parts and is what the rest of the server imports: hub-viewers.ts (fan-out),
 * hub-frames.ts (newest frames, snapshot waits), hub-taps.ts (microphone, video RTP) and
 * hub-demand.ts (when the client and the decoder run).
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { CameraHealth } from '../contract/health.ts';
import type { Log } from '../log.ts';
import type { MicrophoneListener } from './audio/microphone-tap.ts';
import type { CameraFrame, CameraSource, FrameKind } from './frame.ts';
import { createDemand, type Demand } from './hub-demand.ts';
import { createNewestFrames, type NewestFrames } from './hub-frames.ts';
import { createTaps, type MicrophoneListen, type Taps, type VideoWatchResult } from './hub-taps.ts';
import { createViewers, type Subscription, type Viewers } from './hub-viewers.ts';
import type { Deliver } from './latest-only.ts';
import { createSourceRunner, type RunnerStats, type SourceRunner } from './source-runner.ts';
import type { RtpPacket } from './video-rtp.ts';

export type { MicrophoneListen, VideoWatch, VideoWatchResult } from './hub-taps.ts';
export type { Subscription } from './hub-viewers.ts';

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

export interface HubStats extends RunnerStats {
  viewers: Record<FrameKind, number>;
  /** Frames skipped for slow viewers, all viewers so far. */
  dropped: number;
  /** Consumers of the raw video RTP (the WebRTC relay takes one while it has viewers). */
  videoWatchers: number;
  /** The source is asked to decode JPEG now (an H.264 source then runs its decoder). */
  jpegWanted: boolean;
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
  /** The source's microphone for status lines; null when the source has none (device, off). */
  readonly microphoneName: string | null;
  /** Listens to the robot's microphone; the hub ends the listener (`end`) when it stops. */
  listenMicrophone(listener: MicrophoneListener): MicrophoneListen;
  /** Watches the raw H.264 RTP; refused when the source is not the daemon's WebRTC camera. */
  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult;
}

class CameraFrameHub implements FrameHub {
  readonly configured: boolean;
  private readonly runner: SourceRunner | null;
  private readonly viewers: Viewers;
  private readonly frames: NewestFrames;
  private readonly taps: Taps;
  private readonly demand: Demand;

  constructor(private readonly options: FrameHubOptions) {
    const clock = options.clock ?? systemClock;
    this.runner = options.source
      ? createSourceRunner({
          source: options.source,
          log: options.log,
          onFrame: (frame) => this.dispatch(frame),
          stallMs: options.stallMs ?? 1000,
          firstFrameMs: options.firstFrameMs ?? 4000,
          retryMinMs: options.retryMinMs ?? 200,
          retryMaxMs: options.retryMaxMs ?? 1000,
          clock,
        })
      : null;
    this.configured = this.runner !== null;
    this.viewers = createViewers(options.log);
    this.frames = createNewestFrames(clock);
    this.taps = createTaps({
      source: options.source,
      joined: () => this.demand.settle(),
      left: () => this.demand.released(false),
    });
    this.demand = createDemand({
      runner: this.runner,
      clock,
      idleStopMs: options.idleStopMs === undefined ? 30_000 : options.idleStopMs,
      jpegLingerMs: options.jpegLingerMs ?? 30_000,
      consumers: () => ({
        all: this.viewers.count('jpeg') + this.viewers.count('h264') + this.taps.count,
        jpeg: this.viewers.count('jpeg'),
      }),
      onIdle: () => this.frames.resetRate(),
    });
  }

  get microphoneName(): string | null {
    return this.options.source?.microphone?.name ?? null;
  }

  listenMicrophone(listener: MicrophoneListener): MicrophoneListen {
    return this.taps.listenMicrophone(listener);
  }

  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult {
    return this.taps.watchVideo(onPacket);
  }

  start(): void {
    this.demand.enable();
  }

  async stop(): Promise<void> {
    this.demand.disable();
    this.taps.closeVideoWatches();
    this.viewers.endAll();
    this.frames.endWaits();
    this.taps.endMicrophone('the camera stopped');
    await this.runner?.halt();
  }

  subscribe(kind: FrameKind, deliver: Deliver, onEnd?: () => void): Subscription {
    const viewer = this.viewers.add(kind, deliver, onEnd, () => this.demand.released(kind === 'jpeg'));
    this.demand.settle();
    // A new JPEG viewer sees the current picture at once rather than at the next frame.
    const current = this.frames.fresh();
    if (kind === 'jpeg' && current) viewer.offer(current);
    return viewer.subscription;
  }

  latest(kind: FrameKind = 'jpeg'): CameraFrame | undefined {
    return this.frames.latest(kind);
  }

  snapshot(waitMs = 3000): Promise<CameraFrame | undefined> {
    if (!this.runner || !this.demand.enabled) return Promise.resolve(undefined);
    this.demand.snapshotTaken();
    const current = this.frames.fresh();
    return current ? Promise.resolve(current) : this.frames.next(waitMs);
  }

  health(): CameraHealth {
    const status = this.runner && this.demand.enabled ? this.runner.status() : 'off';
    const trouble = status === 'starting' || status === 'lost' ? this.runner?.trouble() : undefined;
    return { status, fps: status === 'off' ? 0 : this.frames.rate(), ...(trouble === undefined ? {} : { trouble }) };
  }

  stats(): HubStats {
    const runnerStats = this.runner?.stats() ?? { starts: 0, failedStarts: 0, restarts: 0 };
    return {
      ...runnerStats,
      viewers: { jpeg: this.viewers.count('jpeg'), h264: this.viewers.count('h264') },
      dropped: this.viewers.dropped(),
      videoWatchers: this.taps.videoWatchers,
      jpegWanted: this.demand.jpegWanted,
    };
  }

  /** Each frame goes to the viewers of its kinds; a JPEG also answers the waiting snapshots. */
  private dispatch(frame: CameraFrame): void {
    this.frames.record(frame);
    if (frame.h264) this.viewers.offer('h264', frame);
    if (frame.jpeg) {
      this.viewers.offer('jpeg', frame);
      this.frames.wake(frame);
    }
  }
}

export function createFrameHub(options: FrameHubOptions): FrameHub {
  return new CameraFrameHub(options);
}

/**
 * The face-tracking controller (docs/contract.md, "Face tracking and holds"; docs/daemon.md
 * docs/daemon.md, "Media"). The daemon detects faces and moves the head itself; the cockpit only switches its
 * tracker and arbitrates with the weight: 1 = tracking owns the head, 0 = paused while any named
 * hold stands. It implements the motion arbiter's `Holds`, so look, express and say pause
 * tracking around their moves (at weight 1 the daemon ignores pose targets).
 */
import { systemClock, type Clock } from '../clock.ts';
import type { ServiceState } from '../contract/state.ts';
import { createBackoff } from '../daemon/backoff.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { FaceTarget } from '../daemon/wire.ts';
import type { Log } from '../log.ts';
import { createDeduped, type Broadcast } from './dedupe.ts';
import { clampTtl, createHoldTable } from './holds.ts';
import { createRestartWatch } from './restart-watch.ts';
import { realSchedule, type Schedule } from './schedule.ts';
import {
  serviceOf,
  trackingKey,
  type HoldResult,
  type TrackingController,
  type TrackingStatus,
} from './tracking-status.ts';
import { createWeightSync } from './weight-sync.ts';

export type { HoldResult, TrackerView, TrackingController, TrackingStatus } from './tracking-status.ts';
export { trackingEngine } from './tracking-status.ts';

export interface TrackingDeps {
  daemon: Pick<DaemonClient, 'setTracking' | 'face'>;
  /** The daemon's lifecycle state as the one state feed last saw it; no extra status polling. */
  daemonState: () => string | undefined;
  /** A fixed name, or one built from whether the daemon's tracker answered available. */
  engine: string | ((available: boolean | null) => string);
  /** ROBOT_TRACK_AUTOSTART: enable at start (and the restart rule re-enables it anyway). */
  autostart: boolean;
  log: Log;
  clock?: Clock;
  schedule?: Schedule;
  broadcast?: Broadcast;
  /** The robot core's services map: `tracking` is shown in the state object. */
  services?: Map<string, ServiceState>;
  /** Face poll period; the daemon is polled at 2 Hz at most (docs/contract.md, "How the desktop server behaves"). */
  pollMs?: number;
}

export const SPEAKING = 'speaking';
const NO_FACE: FaceTarget = Object.freeze({ detected: false, x: null, y: null, roll: null, ts: null });
const MIN_POLL_MS = 500;
/**
 * How soon a daemon whose tracker answered `unavailable` (no camera, or media released) is asked
 * again, doubling up to the cap: each ask is a warning in its log (docs/daemon.md, "The
 * cockpit's side"). Its restart is asked at once; nothing tells the cockpit when its media comes back.
 */
const UNAVAILABLE_RETRY_MS = { first: 30_000, max: 10 * 60_000 };

export function createTracking(deps: TrackingDeps): TrackingController {
  return new Tracker(deps);
}

class Tracker implements TrackingController {
  private readonly clock: Clock;
  private readonly holds;
  private readonly weight;
  private readonly restart;
  private readonly frames;
  private readonly pollMs: number;
  private wanted = false;
  /** The latched stop holds tracking paused until the resume (StopHold). */
  private latched = false;
  private current: FaceTarget = NO_FACE;
  private seenAt: number | null = null;
  private speakingUntil = 0;
  private reenables = 0;
  private inFlight: Promise<void> | undefined;
  private cancelLoop: (() => void) | undefined;
  private stopped = true;
  /** Set while asking a daemon that answered `unavailable` whether its tracker can run now. */
  private probing = false;
  /** When to ask an unavailable daemon again; null when it is not unavailable, or not asked to be. */
  private probeAt: number | null = null;
  // No jitter: one cockpit asks its own daemon, there is no crowd to spread.
  private readonly probeWait = createBackoff(UNAVAILABLE_RETRY_MS.first, UNAVAILABLE_RETRY_MS.max, () => 0.5);

  constructor(private readonly deps: TrackingDeps) {
    this.clock = deps.clock ?? systemClock;
    this.pollMs = Math.max(MIN_POLL_MS, deps.pollMs ?? MIN_POLL_MS);
    this.holds = createHoldTable(this.clock);
    this.weight = createWeightSync({
      daemon: deps.daemon,
      desired: () => this.desired(),
      clock: this.clock,
      log: deps.log,
    });
    this.restart = createRestartWatch();
    this.frames = createDeduped<TrackingStatus>('tracking', trackingKey, deps.broadcast);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.adoptOrAutostart();
    this.changed();
    this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelLoop?.();
    await this.inFlight;
    if (!this.wanted) return;
    this.wanted = false;
    await this.weight.sync();
  }

  async setEnabled(on: boolean): Promise<TrackingStatus> {
    this.wanted = on;
    if (!on) this.current = NO_FACE;
    this.restart.reset();
    await (on ? this.probe() : this.weight.sync());
    const failure = this.weight.failure();
    if (on && failure) {
      this.wanted = false;
      this.changed();
      throw failure;
    }
    this.changed();
    return this.status();
  }

  async hold(name: string, on: boolean, ttlSeconds?: number): Promise<HoldResult> {
    if (!on) {
      this.release(name);
      await this.weight.sync();
      return { name, on: false, active: false };
    }
    // Only the HTTP edge comes here; the cockpit's own holds come through take(), never refused.
    this.holds.admit(name);
    const ttl = clampTtl(ttlSeconds);
    const active = this.takeHold(name, ttl);
    await this.weight.sync();
    return { name, on: true, ttl, active };
  }

  take(name: string, ttlSeconds: number): void {
    this.takeHold(name, clampTtl(ttlSeconds));
  }

  release(name: string): void {
    if (name === SPEAKING) this.speakingUntil = Math.min(this.speakingUntil, this.clock.now());
    if (this.holds.clear(name)) void this.weight.sync();
    this.changed();
  }

  stopLatched(on: boolean): void {
    if (this.latched === on) return;
    this.latched = on;
    void this.weight.sync();
    this.changed();
  }

  poll(): Promise<void> {
    this.inFlight ??= this.pollOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  status(): TrackingStatus {
    const holds = this.holds.live();
    const applied = this.weight.applied();
    return {
      enabled: this.enabled(),
      detected: this.current.detected,
      x: this.current.x,
      y: this.current.y,
      holds,
      paused: this.enabled() && (holds.length > 0 || this.latched),
      engine: typeof this.deps.engine === 'string' ? this.deps.engine : this.deps.engine(this.weight.available()),
      weight: typeof applied === 'number' ? applied : null,
      error: this.weight.error(),
      reenabled: this.reenables,
    };
  }

  /** A standing wish the daemon answered `unavailable` is not enabled: the same answer as a refused POST. */
  enabled = (): boolean => this.wanted && this.weight.available() !== false;
  /** False once the daemon answered an enable with `unavailable` (no camera); null before asking. */
  available = (): boolean | null => this.weight.available();
  face = (): FaceTarget => ({ ...this.current });
  faceSeenAt = (): number | null => this.seenAt;
  liveHolds = (): string[] => this.holds.live().map((h) => h.name);
  isSpeaking = (tailMs: number): boolean => this.clock.now() < this.speakingUntil + tailMs;

  /**
   * A `speaking` hold only bites once a face is detected, so speech does not block
   * acquisition; its end is always recorded for the DoA turner's own-voice rule.
   */
  private takeHold(name: string, ttl: number): boolean {
    if (name === SPEAKING) {
      this.speakingUntil = this.clock.now() + ttl * 1000;
      if (!this.current.detected && !this.holds.has(SPEAKING)) {
        this.changed();
        return false;
      }
    }
    this.holds.set(name, ttl);
    void this.weight.sync();
    this.changed();
    return true;
  }

  /** A tracker already running (face `ts` non-null) is adopted; the daemon has no getter. */
  private async adoptOrAutostart(): Promise<void> {
    let face: FaceTarget | undefined;
    try {
      face = await this.deps.daemon.face();
    } catch (err) {
      this.deps.log.debug('tracking: face not readable at start', { error: String(err) });
    }
    // Shut down while the daemon was being asked: switching on now would outlive the cockpit.
    if (this.stopped) return;
    if (face && face.ts !== null) {
      this.wanted = true;
      this.current = face;
      this.deps.log.info("tracking: adopted the daemon's running tracker");
      await this.weight.sync();
      return;
    }
    // A readable face with a null ts: the daemon's tracker is off, nothing to switch off.
    if (face) this.weight.assume('off');
    if (!this.deps.autostart) return;
    // Autostart is a standing wish: if the daemon is not up yet, the loop keeps retrying; if it
    // answers `unavailable`, it is asked again after its restart or at a slow backoff.
    this.wanted = true;
    await this.weight.sync();
  }

  private loop(): void {
    if (this.stopped) return;
    const began = this.clock.now();
    void this.poll().then(() => {
      if (this.stopped) return;
      const wait = Math.max(0, this.pollMs - (this.clock.now() - began));
      this.cancelLoop = (this.deps.schedule ?? realSchedule)(() => this.loop(), wait);
    });
  }

  private async pollOnce(): Promise<void> {
    this.watchDaemon();
    this.catchUp();
    this.askAgainIfUnavailable();
    const state = this.deps.daemonState();
    if (!this.enabled() || (state !== undefined && state !== 'running')) {
      this.current = NO_FACE;
      return this.changed();
    }
    // Only a null ts seen while weight 1 stood for the whole poll says the tracker is gone:
    // at weight 0 the daemon clears the aim and reports ts null too.
    const expectingOne = (): boolean => this.weight.applied() === 1 && !this.holds.any();
    const before = expectingOne();
    let face: FaceTarget;
    try {
      face = await this.deps.daemon.face();
    } catch (err) {
      this.current = NO_FACE;
      this.deps.log.debug('tracking: face poll failed', { error: String(err) });
      return this.changed();
    }
    this.current = face;
    if (face.detected) this.seenAt = this.clock.now();
    if (this.restart.poll(face.ts === null && before && expectingOne())) this.reenable('face ts null twice');
    this.pendingSpeech();
    this.changed();
  }

  /**
   * What the daemon's tracker should be. Off while the daemon says it is unavailable, unless it
   * is being asked again: holds and the poll must not re-ask it every few seconds.
   */
  private desired(): 'off' | 0 | 1 {
    if (!this.wanted || (this.weight.available() === false && !this.probing)) return 'off';
    return this.holds.any() || this.latched ? 0 : 1;
  }

  /** Pushes the wish even to a daemon that answered `unavailable` before, and shows its answer. */
  private async probe(): Promise<void> {
    this.probing = true;
    try {
      await this.weight.sync();
    } finally {
      this.probing = false;
    }
    this.changed();
  }

  /** Holds expire and failed pushes are retried here, at the poll's pace. */
  private catchUp(): void {
    if (this.weight.applied() === this.desired()) return;
    if (this.clock.now() >= this.weight.retryAt()) void this.weight.sync();
  }

  /** A standing wish the daemon answered `unavailable` is asked again at a slow backoff. */
  private askAgainIfUnavailable(): void {
    if (!this.wanted || this.weight.available() !== false) {
      this.probeAt = null;
      this.probeWait.reset();
      return;
    }
    const now = this.clock.now();
    if (this.probeAt === null) {
      this.probeAt = now + this.probeWait.next();
      this.deps.log.info('tracking: the daemon face tracker is unavailable; asking again later', {
        inMs: this.probeAt - now,
      });
      return;
    }
    if (now < this.probeAt || this.probing) return;
    this.probeAt = now + this.probeWait.next();
    void this.probe();
  }

  private watchDaemon(): void {
    if (this.restart.status(this.deps.daemonState()) && this.wanted) this.reenable('daemon back to running');
  }

  /** A speaking hold taken before the face appeared starts biting once it is seen. */
  private pendingSpeech(): void {
    if (!this.current.detected || this.holds.has(SPEAKING)) return;
    if (this.speakingUntil <= this.clock.now()) return;
    this.holds.setUntil(SPEAKING, this.speakingUntil);
    void this.weight.sync();
  }

  private reenable(why: string): void {
    this.reenables += 1;
    this.deps.log.info('tracking: daemon restarted; switching the tracker back on', { why });
    this.weight.assume(null);
    // A restarted daemon may have a camera now: ask even if it answered `unavailable` before.
    void this.probe();
  }

  private changed(): void {
    const status = this.status();
    this.deps.services?.set('tracking', serviceOf(status));
    this.frames.offer(status);
  }
}

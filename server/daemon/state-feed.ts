/**
 * The ONE upstream state subscription per robot (docs/architecture.md, "Processes and data flow"): the daemon's state
 * WebSocket, with a silence watchdog, reconnects with capped backoff, a generation counter so a
 * stale reconnect never overwrites a live one, and REST polling only as a fallback when the
 * socket cannot be opened. A 1 Hz status poll tells a stopped daemon from a dead stream.
 */
import WebSocket from 'ws';
import type { Presence } from '../contract/state.ts';
import { systemClock, type TimerClock } from '../clock.ts';
import { isAppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { createBackoff } from './backoff.ts';
import type { DaemonClient } from './daemon-client.ts';
import { RateMeter } from './rate-meter.ts';
import type { DaemonStatus, FullState } from './wire.ts';

export interface StateFeedOptions {
  daemon: DaemonClient;
  log: Log;
  /** Upstream frames per second; the daemon accepts 1..50 (docs/daemon.md, "The protocol as the cockpit uses it"). */
  upstreamHz?: number;
  /**
   * The rate while no dashboard watches (setWatched): the recorder, perception and the REST
   * reads need far less than a live picture, and a robot at rest should cost next to nothing
   * (docs/daemon.md, "State stream rate"). The full rate when absent.
   */
  restHz?: number;
  /** No frame for this long means the stream is dead (a restarted daemon can leave it open). */
  silenceMs?: number;
  statusIntervalMs?: number;
  /** The watchdog, reconnect, polling and status timers and the sample times; the real clock by default. */
  clock?: TimerClock;
}

export interface Sample {
  state: FullState;
  receivedAt: number;
}

export interface FeedSnapshot {
  presence: Presence;
  sample: Sample | undefined;
  status: DaemonStatus | undefined;
  /** Samples per second received lately. */
  hz: number;
  /** The rate asked of the daemon: the full rate while a dashboard watches, the rest rate otherwise. */
  requestedHz: number;
  streamConnected: boolean;
  polling: boolean;
  problems: Record<string, string>;
  lastError: string | null;
}

type Listener = (sample: Sample) => void;
/** After each status poll: the status, or undefined with the reason the daemon did not answer. */
type StatusListener = (status: DaemonStatus | undefined, error: string | null) => void;

/** WebSocket failures in a row before the feed falls back to polling REST. */
const FALLBACK_AFTER_FAILURES = 3;

export class StateFeed {
  private readonly daemon: DaemonClient;
  private readonly log: Log;
  private readonly upstreamHz: number;
  private readonly restHz: number;
  /** The rate of the stream open now (or the next one): upstreamHz while watched, restHz otherwise. */
  private rateHz: number;
  private readonly silenceMs: number;
  private readonly statusIntervalMs: number;
  private readonly clock: TimerClock;
  private readonly meter = new RateMeter();
  private readonly backoff = createBackoff(250, 5000);
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<StatusListener>();
  private socket: WebSocket | undefined;
  private generation = 0;
  private sample: Sample | undefined;
  private status: DaemonStatus | undefined;
  private statusError: string | null = null;
  private wsFailures = 0;
  private everConnected = false;
  private streamOpen = false;
  private lastError: string | null = null;
  /** Cancels of the pending `later` timers. */
  private timers = new Set<() => void>();
  private cancelWatchdog: (() => void) | undefined;
  /** The REST fallback's pending tick, while polling. */
  private pollTimer: (() => void) | undefined;
  private stopped = true;

  constructor(options: StateFeedOptions) {
    this.daemon = options.daemon;
    this.log = options.log;
    this.upstreamHz = clampHz(options.upstreamHz ?? 30);
    this.restHz = clampHz(options.restHz ?? this.upstreamHz);
    this.rateHz = this.restHz;
    this.silenceMs = options.silenceMs ?? 1500;
    this.statusIntervalMs = options.statusIntervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
    void this.pollStatus();
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.cancelWatchdog?.();
    this.pollTimer?.();
    this.pollTimer = undefined;
    this.socket?.terminate();
    this.socket = undefined;
    this.streamOpen = false;
  }

  /**
   * Whether a dashboard is watching: the stream runs at the full rate while one is, at the rest
   * rate otherwise. A change opens a stream at the new rate and drops the old one; the cache keeps
   * its last sample meanwhile, so a dashboard that just opened is answered at once.
   */
  setWatched(watched: boolean): void {
    const hz = watched ? this.upstreamHz : this.restHz;
    if (hz === this.rateHz) return;
    this.rateHz = hz;
    // A stream still opening is brought to this rate as it opens (connect()); none is open while stopped.
    if (!this.stopped && this.streamOpen) this.reopen();
  }

  /** A stream at the rate wanted now in place of the open one. */
  private reopen(): void {
    // The old stream's frames and its close are ignored from here on (connect() moves the generation).
    const old = this.socket;
    this.connect();
    old?.close();
  }

  onSample(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  snapshot(): FeedSnapshot {
    const now = this.clock.now();
    const fresh = this.sample !== undefined && now - this.sample.receivedAt < this.silenceMs;
    return {
      presence: this.presence(fresh),
      sample: this.sample,
      status: this.status,
      hz: fresh ? this.meter.hz(now) : 0,
      requestedHz: this.rateHz,
      streamConnected: this.streamOpen && fresh,
      polling: this.pollTimer !== undefined,
      problems: this.problems(fresh),
      lastError: this.lastError,
    };
  }

  private presence(fresh: boolean): Presence {
    // A stopped or unreachable daemon is down even if its last frame is still recent.
    if (this.statusError !== null || (this.status && this.status.state !== 'running')) return 'down';
    if (fresh) return 'connected';
    return this.everConnected ? 'reconnecting' : 'connecting';
  }

  private problems(fresh: boolean): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.statusError) out['daemon:unreachable'] = this.statusError;
    else if (this.status && this.status.state !== 'running') {
      out['daemon:stopped'] = `daemon state is ${this.status.state}${this.status.error ? `: ${this.status.error}` : ''}`;
    }
    if (!fresh && this.everConnected) out['stream:silent'] = `no state frame for over ${this.silenceMs} ms`;
    if (this.pollTimer) out['stream:polling'] = 'state WebSocket unavailable; polling REST instead';
    return out;
  }

  private connect(): void {
    if (this.stopped) return;
    const generation = ++this.generation;
    const hz = this.rateHz;
    const url = `${this.daemon.baseUrl.replace(/^http/, 'ws')}/api/state/ws/full?frequency=${hz}&with_doa=true&with_imu=true`;
    const socket = new WebSocket(url, { handshakeTimeout: 2000, perMessageDeflate: false });
    this.socket = socket;
    socket.on('open', () => {
      if (generation !== this.generation) return;
      this.streamOpen = true;
      this.wsFailures = 0;
      this.stopPolling();
      this.armWatchdog(generation);
      // A dashboard came or went while this stream was opening (at start, or reconnecting).
      if (hz !== this.rateHz) this.reopen();
    });
    socket.on('message', (data) => {
      if (generation !== this.generation) return;
      this.accept(data.toString());
      this.armWatchdog(generation);
    });
    socket.on('error', (err) => {
      if (generation === this.generation) this.lastError = `state stream: ${err.message}`;
    });
    socket.on('close', () => this.onClosed(generation));
  }

  private onClosed(generation: number): void {
    if (generation !== this.generation || this.stopped) return;
    this.streamOpen = false;
    this.cancelWatchdog?.();
    this.wsFailures += 1;
    if (this.wsFailures >= FALLBACK_AFTER_FAILURES && this.status?.state === 'running') this.startPolling();
    const delay = this.backoff.next();
    this.log.debug('state stream closed; reconnecting', { delay, failures: this.wsFailures });
    this.later(delay, () => this.connect());
  }

  private armWatchdog(generation: number): void {
    this.cancelWatchdog?.();
    this.cancelWatchdog = this.clock.schedule(() => {
      if (generation !== this.generation) return;
      this.log.warn('state stream silent; reconnecting', { silenceMs: this.silenceMs });
      this.lastError = `state stream silent for ${this.silenceMs} ms`;
      this.socket?.terminate();
    }, this.silenceMs);
  }

  private accept(text: string): void {
    let state: FullState;
    try {
      state = JSON.parse(text) as FullState;
    } catch {
      this.lastError = 'daemon sent a state frame that is not JSON';
      return;
    }
    if (typeof state !== 'object' || state === null || !('head_pose' in state)) return;
    const now = this.clock.now();
    this.everConnected = true;
    this.backoff.reset();
    this.meter.tick(now);
    this.sample = { state, receivedAt: now };
    // A frame of a shape no listener expected must cost that frame, not the process.
    for (const listener of this.listeners) {
      try {
        listener(this.sample);
      } catch (err) {
        this.lastError = `state frame not understood: ${(err as Error).message}`;
        this.log.warn('state listener failed', { error: String((err as Error)?.stack ?? err) });
      }
    }
  }

  private startPolling(): void {
    if (this.pollTimer || this.stopped) return;
    this.log.warn('falling back to polling /api/state/full');
    const tick = async () => {
      try {
        this.accept(JSON.stringify(await this.daemon.fullState('with_doa=true&with_imu=true')));
      } catch (err) {
        this.lastError = isAppError(err) ? err.message : String(err);
      }
      if (this.pollTimer) this.pollTimer = this.clock.schedule(() => void tick(), 1000 / Math.min(this.rateHz, 20));
    };
    this.pollTimer = this.clock.schedule(() => void tick(), 0);
  }

  private stopPolling(): void {
    this.pollTimer?.();
    this.pollTimer = undefined;
  }

  private async pollStatus(): Promise<void> {
    if (this.stopped) return;
    try {
      this.status = await this.daemon.status();
      this.statusError = null;
    } catch (err) {
      this.statusError = isAppError(err) ? err.message : String(err);
      this.lastError = this.statusError;
    }
    if (this.status?.state !== 'running') this.stopPolling();
    const answered = this.statusError === null ? this.status : undefined;
    for (const listener of this.statusListeners) listener(answered, this.statusError);
    this.later(this.statusIntervalMs, () => void this.pollStatus());
  }

  private later(ms: number, fn: () => void): void {
    const cancel = this.clock.schedule(() => {
      this.timers.delete(cancel);
      fn();
    }, ms);
    this.timers.add(cancel);
  }
}

/** The daemon serves 1 to 50 Hz (docs/daemon.md). */
function clampHz(hz: number): number {
  return Math.min(50, Math.max(1, hz));
}

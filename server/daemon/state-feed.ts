/**
 * The ONE upstream state subscription per robot (docs/architecture.md, "Processes and data flow"): the daemon's state
 * WebSocket, with a silence watchdog, reconnects with capped backoff, a generation counter so a
 * stale reconnect never overwrites a live one, and REST polling only as a fallback when the
 * socket cannot be opened. A 1 Hz status poll tells a stopped daemon from a dead stream.
 */
import WebSocket from 'ws';
import type { Presence } from '../contract/state.ts';
import { systemClock, type TimerClock } from '../clock.ts';
import type { Log } from '../log.ts';
import { createBackoff } from './backoff.ts';
import type { DaemonClient } from './daemon-client.ts';
import { presenceOf, problemsOf, type FeedFacts } from './feed-health.ts';
import { RateMeter } from './rate-meter.ts';
import { RestFallback } from './rest-fallback.ts';
import { StatusPoll, type StatusListener } from './status-poll.ts';
import { readFullState } from './full-state.ts';
import type { DaemonStatus, FullState } from './wire.ts';
import { daemonSocketOptions } from './daemon-socket.ts';

export interface StateFeedOptions {
  daemon: DaemonClient;
  log: Log;
  /** Upstream frames per second; the daemon accepts 1..50 (docs/daemon.md, "The protocol as the cockpit uses it"). */
  upstreamHz?: number;
  /**
   * The rate while no reader asks for more (setWatched, demand): the recorder and the REST reads
   * need far less than a live picture, and a robot at rest should cost next to nothing
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
  /** The rate asked of the daemon: the highest demand (a dashboard's is the full rate), the rest rate when none. */
  requestedHz: number;
  streamConnected: boolean;
  polling: boolean;
  problems: Record<string, string>;
  lastError: string | null;
  /** When it happened, on the feed's clock (ms); null before any error. */
  lastErrorAt: number | null;
}

type Listener = (sample: Sample) => void;

/** WebSocket failures in a row before the feed falls back to polling REST. */
const FALLBACK_AFTER_FAILURES = 3;

export class StateFeed {
  private readonly daemon: DaemonClient;
  private readonly log: Log;
  private readonly upstreamHz: number;
  private readonly restHz: number;
  /** The rate of the stream open now (or the next one): the highest demand, restHz when none. */
  private rateHz: number;
  /** The rates readers ask for now, by reason (`dashboard`, `voice`). */
  private readonly demands = new Map<string, number>();
  private readonly silenceMs: number;
  private readonly clock: TimerClock;
  private readonly meter = new RateMeter();
  private readonly backoff = createBackoff(250, 5000);
  private readonly listeners = new Set<Listener>();
  private socket: WebSocket | undefined;
  private generation = 0;
  private sample: Sample | undefined;
  private readonly statusPoll: StatusPoll;
  private wsFailures = 0;
  private everConnected = false;
  private streamOpen = false;
  private lastError: string | null = null;
  /** When lastError happened (the feed's clock); null before any error. */
  private lastErrorAt: number | null = null;
  /** Cancels of the pending `later` timers. */
  private timers = new Set<() => void>();
  private cancelWatchdog: (() => void) | undefined;
  private readonly fallback: RestFallback;
  private stopped = true;

  constructor(options: StateFeedOptions) {
    this.daemon = options.daemon;
    this.log = options.log;
    this.upstreamHz = clampHz(options.upstreamHz ?? 30);
    this.restHz = clampHz(options.restHz ?? this.upstreamHz);
    this.rateHz = this.restHz;
    this.silenceMs = options.silenceMs ?? 1500;
    this.clock = options.clock ?? systemClock;
    this.fallback = new RestFallback({
      daemon: this.daemon,
      clock: this.clock,
      rateHz: () => this.rateHz,
      onState: (text) => this.accept(text),
      onError: (message) => this.noteError(message),
    });
    this.statusPoll = new StatusPoll(this.daemon, this.clock, options.statusIntervalMs ?? 1000);
    // Registered first, so every other listener sees the feed already brought up to date.
    let wasRunning = false;
    this.statusPoll.onStatus((_status, error) => {
      if (error !== null) this.noteError(error);
      const running = error === null && this.statusPoll.status?.state === 'running';
      if (this.statusPoll.status?.state !== 'running') this.fallback.stop();
      // A daemon that was away (restarted, started after the cockpit, or stalled) answers again:
      // its stream opens now, not at the end of a backoff that grew while it was away (up to 5 s).
      else if (running && !wasRunning && !this.streamOpen && this.timers.size > 0) this.retryNow();
      wasRunning = running;
    });
  }

  private retryNow(): void {
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.backoff.reset();
    this.connect();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
    this.statusPoll.start();
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    this.cancelWatchdog?.();
    this.fallback.stop();
    this.statusPoll.stop();
    this.socket?.terminate();
    this.socket = undefined;
    this.streamOpen = false;
  }

  /**
   * Whether a dashboard is watching: the stream runs at the full rate while one is (a `dashboard`
   * demand), at the rest rate otherwise.
   */
  setWatched(watched: boolean): void {
    this.demand('dashboard', watched ? this.upstreamHz : undefined);
  }

  /**
   * A reader asks for at least `hz` for `reason` (undefined withdraws it): the stream runs at the
   * highest rate asked, the rest rate when nobody asks. A change opens a stream at the new rate
   * and drops the old one; the cache keeps its last sample meanwhile, so a dashboard that just
   * opened is answered at once.
   */
  demand(reason: string, hz: number | undefined): void {
    if (hz === undefined) this.demands.delete(reason);
    else this.demands.set(reason, clampHz(hz));
    const wanted = Math.max(this.restHz, ...this.demands.values());
    if (wanted === this.rateHz) return;
    this.rateHz = wanted;
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
    return this.statusPoll.onStatus(listener);
  }

  snapshot(): FeedSnapshot {
    const now = this.clock.now();
    const fresh = this.sample !== undefined && now - this.sample.receivedAt < this.silenceMs;
    const facts: FeedFacts = {
      fresh,
      everConnected: this.everConnected,
      status: this.statusPoll.status,
      statusError: this.statusPoll.error,
      polling: this.fallback.active,
      silenceMs: this.silenceMs,
    };
    return {
      presence: presenceOf(facts),
      sample: this.sample,
      status: this.statusPoll.status,
      hz: fresh ? this.meter.hz(now) : 0,
      requestedHz: this.rateHz,
      streamConnected: this.streamOpen && fresh,
      polling: facts.polling,
      problems: problemsOf(facts),
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
    };
  }

  private noteError(message: string): void {
    this.lastError = message;
    this.lastErrorAt = this.clock.now();
  }

  private connect(): void {
    if (this.stopped) return;
    const generation = ++this.generation;
    const hz = this.rateHz;
    const url = `${this.daemon.baseUrl.replace(/^http/, 'ws')}/api/state/ws/full?frequency=${hz}&with_doa=true&with_imu=true`;
    const socket = new WebSocket(url, daemonSocketOptions());
    this.socket = socket;
    socket.on('open', () => {
      if (generation !== this.generation) return;
      this.streamOpen = true;
      this.wsFailures = 0;
      this.fallback.stop();
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
      if (generation === this.generation) this.noteError(`state stream: ${err.message}`);
    });
    socket.on('close', () => this.onClosed(generation));
  }

  private onClosed(generation: number): void {
    if (generation !== this.generation || this.stopped) return;
    this.streamOpen = false;
    this.cancelWatchdog?.();
    this.wsFailures += 1;
    if (this.wsFailures >= FALLBACK_AFTER_FAILURES && this.statusPoll.status?.state === 'running') this.startPolling();
    const delay = this.backoff.next();
    this.log.debug('state stream closed; reconnecting', { delay, failures: this.wsFailures });
    this.later(delay, () => this.connect());
  }

  private armWatchdog(generation: number): void {
    this.cancelWatchdog?.();
    this.cancelWatchdog = this.clock.schedule(() => {
      if (generation !== this.generation) return;
      this.log.warn('state stream silent; reconnecting', { silenceMs: this.silenceMs });
      this.noteError(`state stream silent for ${this.silenceMs} ms`);
      this.socket?.terminate();
    }, this.silenceMs);
  }

  private accept(text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.noteError('daemon sent a state frame that is not JSON');
      return;
    }
    if (typeof body !== 'object' || body === null || !('head_pose' in body)) return;
    const read = readFullState(body);
    if (!read.ok) {
      this.noteError(`daemon sent a state frame that is not understood: ${read.reason}`);
      return;
    }
    const { state } = read;
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
        this.noteError(`state frame not understood: ${(err as Error).message}`);
        this.log.warn('state listener failed', { error: String((err as Error)?.stack ?? err) });
      }
    }
  }

  private startPolling(): void {
    if (this.fallback.active || this.stopped) return;
    this.log.warn('falling back to polling /api/state/full');
    this.fallback.start();
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

/**
 * Continuous head control over ONE daemon WebSocket, `/api/move/ws/set_target` (docs/daemon.md
 * docs/daemon.md, "The protocol as the cockpit uses it"): the right way to stream targets, at no more than the 50 Hz control loop. Clients
 * may push faster; only the latest target of each 20 ms tick is sent. When pushes stop for
 * 300 ms the stream ends by itself: nothing more is sent, and the head holds its last target.
 * The socket opens on first use and is reused; a stale socket's events are ignored by generation.
 * Nothing is sent while the daemon is silent (`lastHeard`): a stalled daemon keeps its socket
 * open and its kernel keeps taking frames, which it plays all at once when it runs again, after a
 * latched stop too. The latest target waits, and goes out once the daemon is heard again.
 * The frames sent before that silence was noticed are still in the daemon's buffers; the latched
 * stop's `halt` sends one more target after them on the same socket, the head where the latest
 * state sample has it, so the daemon plays it last (its frames are read in order). Resetting the
 * socket would not do: Linux keeps the bytes it received before a reset readable, and daemon
 * 1.13.0 plays them (docs/daemon.md, "Moves").
 */
import WebSocket from 'ws';
import { systemClock, type TimerClock } from '../clock.ts';
import { createBackoff } from '../daemon/backoff.ts';
import type { FullBodyTarget } from '../daemon/wire.ts';
import type { Log } from '../log.ts';
import { daemonSocketOptions } from '../daemon/daemon-socket.ts';

export interface TargetStreamOptions {
  baseUrl: string;
  log: Log;
  tickMs?: number;
  idleMs?: number;
  /** The ticks' and the idle rule's time (server/clock.ts). */
  clock?: TimerClock;
  /** When the daemon was last heard from (its latest state sample), on `clock`; undefined before. */
  lastHeard?: () => number | undefined;
  /** The target that keeps the head where the latest state sample has it; undefined when none is known. */
  holdTarget?: () => FullBodyTarget | undefined;
}

export type StreamEnd = 'idle' | 'stopped';

export interface TargetStreamStats {
  active: boolean;
  /** Frames written to the daemon since start. */
  sent: number;
  /** Targets replaced by a newer one before their tick came. */
  coalesced: number;
}

export interface TargetStream {
  /** Queues the latest absolute target and (re)starts the stream. */
  push(target: FullBodyTarget): void;
  /** Ends the stream at once (a move takes over). */
  stop(): void;
  /**
   * Ends the stream for the latched stop. When frames went out that the daemon may not have played
   * yet (sent since it was last heard, or within FENCE_MS before), the head's present pose follows
   * them on the same socket, so the head ends where it was at the stop.
   */
  halt(): void;
  active(): boolean;
  stats(): TargetStreamStats;
  onEnd(listener: (why: StreamEnd) => void): () => void;
  close(): void;
}

/** Past this many unsent bytes the daemon is not keeping up: skip a tick rather than queue. */
const MAX_BUFFERED = 64 * 1024;
/** A daemon with no state sample for this long may be stalled: send nothing to it. */
const SILENT_MS = 500;
/** A frame sent this long before the daemon's latest state sample may still be unplayed: a halt follows it. */
const FENCE_MS = 1000;

export function createTargetStream(options: TargetStreamOptions): TargetStream {
  return new SetTargetStream(options);
}

class SetTargetStream implements TargetStream {
  private readonly tickMs: number;
  private readonly idleMs: number;
  private readonly clock: TimerClock;
  private readonly backoff = createBackoff(250, 3000);
  private readonly listeners = new Set<(why: StreamEnd) => void>();
  private socket: WebSocket | undefined;
  private generation = 0;
  private nextAttemptAt = 0;
  private pending: FullBodyTarget | undefined;
  private lastPushAt = 0;
  /** Cancels the next tick; set while the stream is active. */
  private ticker: (() => void) | undefined;
  private sent = 0;
  /** When the last frame went out, on `clock`. */
  private lastSentAt: number | undefined;
  private coalesced = 0;
  private closed = false;

  constructor(private readonly options: TargetStreamOptions) {
    this.tickMs = options.tickMs ?? 20;
    this.idleMs = options.idleMs ?? 300;
    this.clock = options.clock ?? systemClock;
  }

  push(target: FullBodyTarget): void {
    if (this.closed) return;
    if (this.pending) this.coalesced += 1;
    this.pending = target;
    this.lastPushAt = this.clock.now();
    this.ensureSocket();
    this.ticker ??= this.scheduleTick();
  }

  stop(): void {
    this.end('stopped');
  }

  halt(): void {
    this.end('stopped');
    const socket = this.socket;
    if (this.lastSentAt === undefined || !socket || socket.readyState !== WebSocket.OPEN) return;
    const heard = this.options.lastHeard?.();
    if (heard !== undefined && this.lastSentAt < heard - FENCE_MS) return;
    const hold = this.options.holdTarget?.();
    if (!hold) return;
    // Neither the silence rule nor a full buffer holds it back: it must be the last frame the daemon reads.
    socket.send(JSON.stringify(hold));
    this.lastSentAt = undefined;
  }

  active(): boolean {
    return this.ticker !== undefined;
  }

  stats(): TargetStreamStats {
    return { active: this.active(), sent: this.sent, coalesced: this.coalesced };
  }

  onEnd(listener: (why: StreamEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.end('stopped');
    this.closed = true;
    this.generation += 1;
    this.socket?.terminate();
    this.socket = undefined;
  }

  private scheduleTick(): () => void {
    return this.clock.schedule(() => {
      this.ticker = this.scheduleTick();
      this.tick();
    }, this.tickMs);
  }

  private tick(): void {
    if (this.clock.now() - this.lastPushAt >= this.idleMs) {
      this.end('idle');
      return;
    }
    const socket = this.socket;
    if (!this.pending || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED || this.daemonSilent()) return;
    socket.send(JSON.stringify(this.pending));
    this.pending = undefined;
    this.sent += 1;
    this.lastSentAt = this.clock.now();
  }

  private daemonSilent(): boolean {
    if (!this.options.lastHeard) return false;
    const heard = this.options.lastHeard();
    return heard === undefined || this.clock.now() - heard > SILENT_MS;
  }

  private end(why: StreamEnd): void {
    if (!this.ticker) return;
    this.ticker();
    this.ticker = undefined;
    this.pending = undefined;
    for (const listener of this.listeners) listener(why);
  }

  private ensureSocket(): void {
    if (this.socket || this.clock.now() < this.nextAttemptAt) return;
    const generation = ++this.generation;
    const url = `${this.options.baseUrl.replace(/^http/, 'ws')}/api/move/ws/set_target`;
    const socket = new WebSocket(url, daemonSocketOptions());
    this.socket = socket;
    socket.on('open', () => {
      if (generation === this.generation) this.backoff.reset();
    });
    // A success produces no reply; only bad frames are answered (docs/daemon.md, "The protocol as the cockpit uses it").
    socket.on('message', (data) => {
      if (generation === this.generation)
        this.options.log.debug('daemon refused a target', { reply: data.toString().slice(0, 200) });
    });
    socket.on('error', (err) => {
      if (generation === this.generation) this.options.log.debug('set_target socket error', { error: err.message });
    });
    socket.on('close', () => {
      if (generation !== this.generation) return;
      this.socket = undefined;
      this.nextAttemptAt = this.clock.now() + this.backoff.next();
    });
  }
}

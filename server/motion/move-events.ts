/**
 * The ONE upstream subscription to the daemon's move events, `WS /api/move/ws/updates`
 * (docs/daemon.md, "The protocol as the cockpit uses it"): which REST moves are running, and when each one ends. The daemon does
 * not serialise moves (docs/daemon.md, "Moves"), so the arbiter needs this to know what to cancel and
 * when a move's tracking hold may be released.
 *
 * Reconnects with capped backoff behind a generation counter, so a stale socket's late events
 * never touch the live picture. Events missed while disconnected are recovered from
 * `GET /api/move/running` on reconnect; while the socket is down, waiters fall back to polling
 * that list at 2 Hz, the rate docs/daemon.md, "Duties of the cockpit" allows.
 *
 * Events come only when moves start and end, so a quiet socket says nothing about the link. A
 * daemon whose machine went away (Wi-Fi lost, a robot powered off) leaves a half-open socket that
 * never closes by itself; then no end would be heard and waiters would sit out their timeouts. So
 * the socket is pinged every `pingMs`, and one that has not answered the last ping by the next is
 * ended and reconnected (the daemon's server answers pings by itself).
 */
import WebSocket from 'ws';
import { systemClock, type TimerClock } from '../clock.ts';
import { createBackoff } from '../daemon/backoff.ts';
import { isMoveUuid, type DaemonClient } from '../daemon/daemon-client.ts';
import type { MoveEvent } from '../daemon/wire.ts';
import type { Log } from '../log.ts';
import { daemonSocketOptions } from '../daemon/daemon-socket.ts';
import { parseJsonObject } from '../json-object.ts';

/** How a move ended; `gone` means it left /running while events were not flowing. */
export type MoveEnd = 'completed' | 'cancelled' | 'failed' | 'gone' | 'timeout';

export interface MoveEvents {
  start(): void;
  stop(): void;
  connected(): boolean;
  /** Moves the daemon reports as running (started over REST, by anyone). */
  running(): string[];
  /** Resolves when the move ends, or with `timeout` after maxMs. */
  whenEnded(uuid: string, maxMs: number): Promise<MoveEnd>;
  onEvent(listener: (event: MoveEvent) => void): () => void;
}

export interface MoveEventsOptions {
  daemon: Pick<DaemonClient, 'baseUrl' | 'runningMoves'>;
  log: Log;
  pollMs?: number;
  /** How often the open socket is pinged; one that misses a ping's answer until the next is ended. */
  pingMs?: number;
  /** Time for the retries, polls, waiters' timeouts and pings (server/clock.ts). */
  clock?: TimerClock;
}

/** A dead link is noticed within two of these. */
const PING_MS = 5000;

const END_OF: Record<Exclude<MoveEvent['type'], 'move_started'>, MoveEnd> = {
  move_completed: 'completed',
  move_cancelled: 'cancelled',
  move_failed: 'failed',
};

const isEventType = (type: unknown): type is MoveEvent['type'] =>
  type === 'move_started' || (typeof type === 'string' && Object.hasOwn(END_OF, type));

/**
 * One frame of the updates socket, read member by member: an event of a type the daemon documents
 * about a move it names by UUID, or undefined. Every UUID taken here may later be stopped by STOP
 * (arbiter.ts), so nothing else is.
 */
export function readMoveEvent(text: string): MoveEvent | undefined {
  const { type, uuid, details } = parseJsonObject(text) ?? {};
  if (!isEventType(type) || !isMoveUuid(uuid)) return undefined;
  return { type, uuid, details: typeof details === 'string' ? details : '' };
}
/** Ends remembered for moves whose waiter registers after the event (a 0 s goto ends at once). */
const REMEMBER_ENDED = 256;

export function createMoveEvents(options: MoveEventsOptions): MoveEvents {
  return new MoveEventStream(options);
}

class MoveEventStream implements MoveEvents {
  private readonly backoff = createBackoff(250, 5000);
  private readonly live = new Set<string>();
  private readonly ended = new Map<string, MoveEnd>();
  private readonly waiters = new Map<string, Set<(end: MoveEnd) => void>>();
  private readonly listeners = new Set<(event: MoveEvent) => void>();
  private readonly pollMs: number;
  private readonly pingMs: number;
  private readonly clock: TimerClock;
  private socket: WebSocket | undefined;
  private open = false;
  private generation = 0;
  private stopped = true;
  /** Set by stop(): no more polling either. Polling works without start() too. */
  private closed = false;
  private cancelRetry: (() => void) | undefined;
  private cancelPoll: (() => void) | undefined;
  private cancelPing: (() => void) | undefined;

  constructor(private readonly options: MoveEventsOptions) {
    this.pollMs = options.pollMs ?? 500;
    this.pingMs = options.pingMs ?? PING_MS;
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.closed = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.closed = true;
    this.generation += 1;
    this.cancelRetry?.();
    this.cancelPoll?.();
    this.cancelPoll = undefined;
    this.cancelPing?.();
    this.socket?.terminate();
    this.socket = undefined;
    this.open = false;
    for (const uuid of [...this.waiters.keys()]) this.settle(uuid, 'gone');
  }

  connected(): boolean {
    return this.open;
  }

  running(): string[] {
    return [...this.live];
  }

  whenEnded(uuid: string, maxMs: number): Promise<MoveEnd> {
    const known = this.ended.get(uuid);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const cancelTimer = this.clock.schedule(() => finish('timeout'), maxMs);
      const finish = (end: MoveEnd): void => {
        cancelTimer();
        this.waiters.get(uuid)?.delete(finish);
        if (this.waiters.get(uuid)?.size === 0) this.waiters.delete(uuid);
        resolve(end);
      };
      const set = this.waiters.get(uuid) ?? new Set();
      set.add(finish);
      this.waiters.set(uuid, set);
      this.ensurePolling();
    });
  }

  onEvent(listener: (event: MoveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private connect(): void {
    if (this.stopped) return;
    const generation = ++this.generation;
    const url = `${this.options.daemon.baseUrl.replace(/^http/, 'ws')}/api/move/ws/updates`;
    const socket = new WebSocket(url, daemonSocketOptions());
    this.socket = socket;
    socket.on('open', () => {
      if (generation !== this.generation) return;
      this.open = true;
      this.backoff.reset();
      this.keepAlive(socket, generation);
      void this.resync(generation);
    });
    socket.on('message', (data) => {
      if (generation === this.generation) this.accept(data.toString());
    });
    socket.on('error', (err) => {
      if (generation === this.generation) this.options.log.debug('move events socket error', { error: err.message });
    });
    socket.on('close', () => {
      if (generation !== this.generation || this.stopped) return;
      this.open = false;
      this.cancelPing?.();
      this.cancelRetry = this.clock.schedule(() => this.connect(), this.backoff.next());
      this.ensurePolling();
    });
  }

  /** Pings the open socket; one that left the last ping unanswered is ended, and its close reconnects. */
  private keepAlive(socket: WebSocket, generation: number): void {
    let answered = true;
    socket.on('pong', () => (answered = true));
    const beat = (): void => {
      if (generation !== this.generation) return;
      if (!answered) {
        this.options.log.warn('move events socket did not answer a ping; reconnecting', { pingMs: this.pingMs });
        socket.terminate();
        return;
      }
      answered = false;
      socket.ping();
      this.cancelPing = this.clock.schedule(beat, this.pingMs);
    };
    this.cancelPing = this.clock.schedule(beat, this.pingMs);
  }

  /** After a (re)connect, /running is the truth: moves that ended meanwhile are settled. */
  private async resync(generation: number): Promise<void> {
    try {
      await this.refresh(() => generation === this.generation);
    } catch {
      // Events flow again anyway; waiters still have their timeouts.
    }
  }

  /**
   * Only moves known BEFORE the request can be declared gone: one that starts while the list
   * is in flight is missing from it without having ended.
   */
  private async refresh(current: () => boolean): Promise<void> {
    const before = new Set([...this.live, ...this.waiters.keys()]);
    const list = await this.options.daemon.runningMoves();
    if (!current()) return;
    const present = new Set(list);
    // A move that started while no event could come (the socket down, as it is while a stalled
    // daemon misses its pings) is told as started, or the latched stop would never hear of it.
    for (const uuid of list) if (this.started(uuid)) this.tell({ type: 'move_started', uuid, details: '' });
    for (const uuid of before) if (!present.has(uuid)) this.end(uuid, 'gone');
  }

  /** Whether the move is new to the live picture (not known running, not ended): then added. */
  private started(uuid: string): boolean {
    if (this.live.has(uuid) || this.ended.has(uuid)) return false;
    this.live.add(uuid);
    return true;
  }

  private accept(text: string): void {
    const event = readMoveEvent(text);
    if (event === undefined) return;
    if (event.type === 'move_started') {
      if (!this.ended.has(event.uuid)) this.live.add(event.uuid);
    } else {
      this.end(event.uuid, END_OF[event.type]);
    }
    this.tell(event);
  }

  private tell(event: MoveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.options.log.warn('move event listener failed', { error: String((err as Error)?.stack ?? err) });
      }
    }
  }

  private end(uuid: string, how: MoveEnd): void {
    this.live.delete(uuid);
    this.ended.set(uuid, how);
    if (this.ended.size > REMEMBER_ENDED) this.ended.delete(this.ended.keys().next().value as string);
    this.settle(uuid, how);
  }

  private settle(uuid: string, how: MoveEnd): void {
    for (const finish of [...(this.waiters.get(uuid) ?? [])]) finish(how);
  }

  /** Round-trip-gated polling, only while someone waits and the socket is down. */
  private ensurePolling(): void {
    if (this.cancelPoll || this.open || this.closed || this.waiters.size === 0) return;
    this.cancelPoll = this.clock.schedule(async () => {
      try {
        await this.refresh(() => !this.closed);
      } catch {
        // The daemon is down too: waiters end by their own timeouts.
      }
      this.cancelPoll = undefined;
      this.ensurePolling();
    }, this.pollMs);
  }
}

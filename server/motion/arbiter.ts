/**
 * The motion arbiter: ONE move owner at a time. The daemon does not serialise REST moves: a
 * second goto while one runs interleaves both trajectories, and `set_target` is silently
 * dropped while any move runs (docs/daemon.md, "Moves", docs/daemon.md, "Duties of the cockpit"). So every manual move
 * goes through `run`, which cancels whatever is running first, and the joystick stream takes
 * over the same way. Tracking holds (docs/contract.md, "How the desktop server behaves") are taken before a move and
 * released when it ends, by the move that took them only.
 */
import type { CredentialKind } from '../contract/ws.ts';
import { AppError } from '../errors.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { Log } from '../log.ts';
import {
  clampJoystick,
  joystickToWire,
  parseJoystickFrame,
  type JoystickTarget,
  type StreamResult,
} from './joystick.ts';
import type { MoveEnd, MoveEvents } from './move-events.ts';
import { fmt, receipt, type Emit } from './receipts.ts';
import type { Holds } from '../holds.ts';
import { LATCHED_MESSAGE, type StopLatch } from './stop-latch.ts';
import { stopAllMoves, type StopAllReport } from './stop-all.ts';
import type { StreamEnd, TargetStream } from './target-stream.ts';

export interface MoveRequest {
  /** For logs and status, e.g. `express welcoming1`. */
  label: string;
  /** Tracking hold to take while the move runs: `look`, `emotion:<name>`... */
  hold?: string;
  /** Longest the move may take, seconds: the hold's TTL and the wait for its end. */
  maxSeconds: number;
  /**
   * For a move whose length is not known here (a recorded move): past maxSeconds it keeps its
   * hold and the head while the daemon still lists it as running, up to this many seconds in all.
   */
  runningLimitSeconds?: number;
  /** The claimed session this move belongs to (see `claim`); absent for manual moves. */
  owner?: string;
  /**
   * The latch's engagements when the move was asked for (StopLatch.engagements), when that was
   * before a wait of the caller's own (the move library read); a stop since then ends the move.
   */
  askedAt?: number;
  /**
   * An autonomous move (the turn toward the speaker) that yields: refused with CONFLICT when a
   * move, the joystick or a claimed session has the head by its turn, instead of cancelling it.
   */
  onlyIfIdle?: boolean;
  /**
   * Sends the move. One that takes more than one daemon call (wake: motors on, then the move)
   * calls `stillWanted` between them: it throws once a stop has come since the move was asked for.
   */
  start(daemon: DaemonClient, stillWanted: () => void): Promise<string>;
}

export interface RunningMove {
  uuid: string;
  label: string;
  /** Settles when the daemon reports the move's end (or after maxSeconds). */
  done: Promise<MoveEnd>;
}

export interface Arbiter {
  run(request: MoveRequest): Promise<RunningMove>;
  /** Cancels the owned move, if any (the reel's abort). */
  cancelCurrent(): Promise<void>;
  /** The latched stop's part: end the stream and cancel EVERY running daemon move. */
  stopAll(): Promise<StopAllReport>;
  /** A joystick frame from /ws, absolute degrees/millimetres; see joystick.ts. */
  streamTarget(frame: unknown, caller: { kind: CredentialKind | 'anonymous' }): StreamResult;
  current(): { uuid: string; label: string } | undefined;
  /**
   * Who has the head by its turn, what a move with `onlyIfIdle` yields to: the move running (its
   * label), the joystick, or a claimed session (the reel) between its moves; undefined when free.
   */
  busy(): string | undefined;
  /** Every daemon move known to run now, started here or not: what the next move cancels first. */
  running(): string[];
  /**
   * Claims the head for a scripted session (the reel). Moves passing `owner: name` run as usual;
   * any other move or joystick stream ends the session through onLost. Returns the unclaim.
   */
  claim(name: string, onLost: (by: string) => void): () => void;
}

export interface ArbiterDeps {
  daemon: DaemonClient;
  events: MoveEvents;
  stream: TargetStream;
  latch: StopLatch;
  holds: Holds;
  emit: Emit;
  log: Log;
  /**
   * Epoch ms (server/clock.ts), Date.now by default: how long an unanswered start is watched for,
   * and when the joystick's look hold is renewed, which expires on the same clock as the holds.
   */
  now?: () => number;
  /** The body's yaw now (°), from the state feed, for the joystick target's reach (joystick.ts); 0 when absent. */
  bodyYaw?: () => number | undefined;
}

const STREAM_OWNER = 'joystick';
const STOPPED_WHILE_STARTING = 'stopped while this move was starting; it was not played';
const STREAM_HOLD_TTL_S = 2;
/**
 * Starts the daemon did not answer in time, watched for a late start (stopLatecomer): the newest
 * few, each for some minutes. A daemon stalled longer plays it as before; one move started by
 * someone else after a stop may be cancelled in its place, the safe side to err on.
 */
const UNANSWERED_KEPT = 8;
const UNANSWERED_WATCH_MS = 5 * 60_000;
/** Moves whose start was answered here, so their own start event is not taken for a latecomer. */
const ANSWERED_KEPT = 64;

export function createArbiter(deps: ArbiterDeps): Arbiter {
  return new MotionArbiter(deps);
}

class MotionArbiter implements Arbiter {
  private owned: { uuid: string; label: string } | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  /** Moves asked for and not yet started or refused (the stop waits for them, stopAll). */
  private readonly begins = new Set<Promise<RunningMove>>();
  /** Hold name → the move (uuid) or stream that took it; only that owner releases it. */
  private readonly holdOwner = new Map<string, string>();
  private session: { name: string; onLost: (by: string) => void } | undefined;
  private streamCredential: CredentialKind | undefined;
  /** When the joystick stream last took its look hold; undefined before the stream's first frame. */
  private holdRenewedAt: number | undefined;
  private lastTarget: JoystickTarget | undefined;
  /** Starts that timed out (the daemon may still play them): the latch's engagements when asked, and when. */
  private readonly unanswered: { stopsBefore: number; at: number }[] = [];
  private readonly answered = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly deps: ArbiterDeps) {
    this.now = deps.now ?? Date.now;
    deps.stream.onEnd((why) => this.streamEnded(why));
    deps.events.onEvent((event) => {
      if (event.type !== 'move_started') return;
      if (deps.latch.engaged()) {
        if (!this.answered.has(event.uuid)) this.takeUnanswered();
        this.stopLatecomer(event.uuid);
      } else if (this.unanswered.length > 0) void this.judgeLatecomer(event.uuid);
    });
  }

  /**
   * A move the daemon starts while the stop is latched is cancelled at once. A daemon that stalls
   * (busy, or paused) still holds the goto whose answer timed out here; it plays it when it runs
   * again, after the stop listed what ran and found nothing (docs/daemon.md, "Moves").
   */
  private stopLatecomer(uuid: string): void {
    this.deps.daemon.stopMove(uuid).then(
      () => this.deps.log.warn('cancelled a move that started after a stop it was asked for before', { uuid }),
      (err: unknown) =>
        this.deps.log.warn('could not cancel a move that started after a stop it was asked for before', {
          uuid,
          error: String(err),
        }),
    );
  }

  /**
   * The same late start once the stop was resumed: the stop came after the move was asked for,
   * and a resume is no order to play what it cut off. A move started here that no answer named is
   * taken for the oldest start left unanswered, and cancelled when a stop came since that start
   * was asked for; one with no stop since plays, as it always did, and uses the start up. A start
   * of ours on its way may be answered after its own start event, so the starts under way are
   * waited for before the move is judged someone else's.
   */
  private async judgeLatecomer(uuid: string): Promise<void> {
    await Promise.allSettled([...this.begins]);
    if (this.answered.has(uuid)) return;
    const start = this.takeUnanswered();
    if (start && start.stopsBefore !== this.deps.latch.engagements()) this.stopLatecomer(uuid);
  }

  /** The oldest start left unanswered and still watched for, taken off the list. */
  private takeUnanswered(): { stopsBefore: number; at: number } | undefined {
    const since = this.now() - UNANSWERED_WATCH_MS;
    while (this.unanswered.length > 0 && (this.unanswered[0]?.at ?? 0) < since) this.unanswered.shift();
    return this.unanswered.shift();
  }

  /** A start the daemon did not answer in time may still be carried out (http-transport.ts, transportError). */
  private noteUnanswered(err: unknown, stopsBefore: number): void {
    if (!(err instanceof AppError) || err.code !== 'DAEMON_TIMEOUT') return;
    this.unanswered.push({ stopsBefore, at: this.now() });
    if (this.unanswered.length > UNANSWERED_KEPT) this.unanswered.shift();
  }

  private noteAnswered(uuid: string): void {
    this.answered.add(uuid);
    if (this.answered.size > ANSWERED_KEPT) this.answered.delete(this.answered.values().next().value as string);
  }

  run(request: MoveRequest): Promise<RunningMove> {
    // Counted when asked for, not when its turn comes: a stop in between ends it too.
    const stopsBefore = request.askedAt ?? this.deps.latch.engagements();
    const begun = this.serial(() => this.begin(request, stopsBefore));
    this.begins.add(begun);
    const forget = (): void => void this.begins.delete(begun);
    begun.then(forget, forget);
    return begun;
  }

  cancelCurrent(): Promise<void> {
    return this.serial(async () => {
      const uuid = this.owned?.uuid;
      this.owned = undefined;
      if (uuid) await this.deps.daemon.stopMove(uuid).catch(() => undefined);
    });
  }

  /**
   * Deliberately NOT serialised behind a move being started: a stop never waits its turn. It
   * does wait for the moves being started to settle, alongside its own passes: a start already
   * sent lands after the passes have listed what runs, and `begin` stops such a move itself once
   * it sees the latch. So when the stop answers, no move it raced is still playing.
   */
  async stopAll(): Promise<StopAllReport> {
    this.deps.stream.halt();
    const owned = this.owned?.uuid;
    this.owned = undefined;
    for (const owner of new Set(this.holdOwner.values())) this.release(owner);
    const [report] = await Promise.all([
      stopAllMoves(this.deps.daemon, () => [...this.deps.events.running(), ...(owned ? [owned] : [])]),
      Promise.allSettled([...this.begins]),
    ]);
    return report;
  }

  streamTarget(frame: unknown, caller: { kind: CredentialKind | 'anonymous' }): StreamResult {
    if (caller.kind === 'anonymous') return { accepted: false, code: 'AUTH_REQUIRED', error: 'sign in first' };
    if (this.deps.latch.engaged()) return { accepted: false, code: 'STOP_LATCHED', error: LATCHED_MESSAGE };
    const parsed = parseJoystickFrame(frame);
    if (!parsed.ok) return { accepted: false, code: 'BAD_REQUEST', error: parsed.error };
    const { target, clamped } = clampJoystick(parsed.target, this.deps.bodyYaw?.());
    if (!this.deps.stream.active()) this.startStream(caller.kind);
    const now = this.now();
    if (this.holdRenewedAt === undefined || now - this.holdRenewedAt > 1000) {
      this.take('look', STREAM_OWNER, STREAM_HOLD_TTL_S);
      this.holdRenewedAt = now;
    }
    this.lastTarget = target;
    this.deps.stream.push(joystickToWire(target));
    return { accepted: true, target, clamped };
  }

  current(): { uuid: string; label: string } | undefined {
    return this.owned ? { ...this.owned } : undefined;
  }

  busy(): string | undefined {
    return this.owned?.label ?? (this.deps.stream.active() ? STREAM_OWNER : this.session?.name);
  }

  running(): string[] {
    return [...new Set([...this.deps.events.running(), ...(this.owned ? [this.owned.uuid] : [])])];
  }

  claim(name: string, onLost: (by: string) => void): () => void {
    const mine = { name, onLost };
    this.session = mine;
    return () => {
      if (this.session === mine) this.session = undefined;
    };
  }

  private async begin(request: MoveRequest, stopsBefore: number): Promise<RunningMove> {
    const { daemon, latch } = this.deps;
    latch.assertFree();
    // A stop since this move was asked for ends it, even one already resumed: the operator
    // stopped the robot after asking, and a resume is no order to play what the stop cut off.
    const stoppedSince = (): boolean => latch.engaged() || latch.engagements() !== stopsBefore;
    if (stoppedSince()) throw new AppError('STOP_LATCHED', STOPPED_WHILE_STARTING);
    // Judged here, in the move's turn: whoever asked judged "idle" before its own awaits (the app
    // lock read), and a manual move started meanwhile must not be cancelled by an autonomous one.
    if (request.onlyIfIdle) {
      const busy = this.busy();
      if (busy) throw new AppError('CONFLICT', `motion busy (${busy}); ${request.label} not started`);
    }
    this.takeOver(request.label, request.owner);
    this.deps.stream.stop();
    await this.cancelRunning();
    // Cancelling the previous move is a daemon round trip: a stop that landed meanwhile has
    // listed what ran without this move, which must then not be sent at all.
    if (stoppedSince()) throw new AppError('STOP_LATCHED', STOPPED_WHILE_STARTING);
    const pending = `pending:${request.label}`;
    if (request.hold) this.take(request.hold, pending, request.maxSeconds + 1);
    let uuid: string;
    try {
      uuid = await request.start(daemon, () => {
        if (stoppedSince()) throw new AppError('STOP_LATCHED', STOPPED_WHILE_STARTING);
      });
    } catch (err) {
      this.release(pending);
      this.noteUnanswered(err, stopsBefore);
      throw err;
    }
    this.noteAnswered(uuid);
    for (const [name, who] of this.holdOwner) if (who === pending) this.holdOwner.set(name, uuid);
    if (stoppedSince()) {
      // The stop landed while this move was being started: it must not outlive the stop.
      await daemon.stopMove(uuid).catch(() => undefined);
      this.release(uuid);
      throw new AppError('STOP_LATCHED', STOPPED_WHILE_STARTING);
    }
    this.owned = { uuid, label: request.label };
    return { uuid, label: request.label, done: this.watch(uuid, request) };
  }

  private async watch(uuid: string, request: MoveRequest): Promise<MoveEnd> {
    const { events } = this.deps;
    const limit = request.runningLimitSeconds ?? request.maxSeconds;
    let waited = request.maxSeconds;
    let end = await events.whenEnded(uuid, waited * 1000);
    // Still playing: the hold is renewed, or tracking (and the turn toward the speaker, which
    // waits for no owner) would take the head in the middle of the move.
    while (end === 'timeout' && waited < limit && events.running().includes(uuid)) {
      const step = Math.min(request.maxSeconds, limit - waited);
      for (const [name, who] of this.holdOwner) if (who === uuid) this.deps.holds.take(name, step + 1);
      end = await events.whenEnded(uuid, step * 1000);
      waited += step;
    }
    this.release(uuid);
    if (this.owned?.uuid === uuid) this.owned = undefined;
    return end;
  }

  /** Overlapping REST moves interleave, so anything running (ours or not) is stopped first. */
  private async cancelRunning(): Promise<void> {
    const uuids = new Set(this.running());
    this.owned = undefined;
    const stop = (uuid: string) =>
      this.deps.daemon
        .stopMove(uuid)
        .catch((err: unknown) => this.deps.log.debug('cancel failed', { uuid, error: String(err) }));
    await Promise.all([...uuids].map(stop));
  }

  private startStream(kind: CredentialKind): void {
    this.streamCredential = kind;
    this.takeOver('joystick', undefined);
    this.deps.emit(receipt('joystick', 'joystick control started', kind, { streaming: true }));
    // The daemon drops targets while any move runs, so the stream takes the head over.
    void this.serial(() => this.cancelRunning());
  }

  private streamEnded(why: StreamEnd): void {
    this.release(STREAM_OWNER);
    this.holdRenewedAt = undefined;
    const t = this.lastTarget;
    if (why === 'idle' && this.streamCredential && t) {
      const text = `joystick released; head holds yaw ${fmt(t.yaw, '°')} pitch ${fmt(t.pitch, '°')}`;
      this.deps.emit(receipt('joystick', text, this.streamCredential, { ...t, streaming: false }));
    }
    this.streamCredential = undefined;
  }

  /** A manual move or the joystick ends a claimed session (the reel) rather than fight it. */
  private takeOver(by: string, owner: string | undefined): void {
    const session = this.session;
    if (!session || session.name === owner) return;
    this.session = undefined;
    session.onLost(by);
  }

  private take(name: string, owner: string, ttlSeconds: number): void {
    this.holdOwner.set(name, owner);
    this.deps.holds.take(name, ttlSeconds);
  }

  private release(owner: string): void {
    for (const [name, who] of [...this.holdOwner]) {
      if (who !== owner) continue;
      this.holdOwner.delete(name);
      this.deps.holds.release(name);
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * The simulated webrtcsink: a producer peer on the signalling hub with meta
 * `{"name":"reachymini"}` (docs/daemon.md, "Media"), one WebRTC session per consumer. When the camera
 * goes away (a /sim/camera outage, or /api/media/release, which stops the daemon's whole
 * GStreamer pipeline, docs/daemon.md, "Media") the producer withdraws and every session ends; when it comes back
 * the producer announces itself again and listeners hear of it.
 */
import type { Log } from '../log.ts';
import type { CameraSensor } from './camera-render.ts';
import { createCameraSession, type CameraSession } from './camera-session.ts';
import type { SignallingHub } from './camera-signalling.ts';
import type { SimMicrophone } from './microphone.ts';

export const PRODUCER_META = Object.freeze({ name: 'reachymini' });

export interface CameraProducer {
  /** Announce (true) or withdraw (false) the producer; idempotent. */
  setAvailable(on: boolean): void;
  readonly available: boolean;
  /** Sessions open now and since start (each is one upstream camera client); open ones encoding audio. */
  counts(): { open: number; total: number; audio: number; peak: number };
  close(): void;
}

class Producer implements CameraProducer {
  private readonly sessions = new Map<string, CameraSession>();
  private total = 0;
  /** Most sessions open at once since start: a second session beside the first shows here. */
  private peak = 0;
  private isAvailable = false;
  private closed = false;
  private readonly peerId: string;

  constructor(
    private readonly hub: SignallingHub,
    private readonly sensor: CameraSensor,
    private readonly microphone: SimMicrophone,
    private readonly log: Log,
  ) {
    // Messages from the hub arrive synchronously; handling them on the next turn keeps the hub's
    // own bookkeeping (sessionStarted to the consumer, then startSession to us) out of the way.
    this.peerId = hub.join({ send: (m) => setImmediate(() => this.onMessage(m)) });
  }

  get available(): boolean {
    return this.isAvailable;
  }

  setAvailable(on: boolean): void {
    if (on === this.isAvailable) return;
    this.isAvailable = on;
    // Withdrawing the producer role makes the hub end every session (the consumers hear endSession).
    this.hub.receive(this.peerId, { type: 'setPeerStatus', roles: on ? ['producer'] : [], meta: PRODUCER_META });
    if (!on) for (const id of [...this.sessions.keys()]) this.drop(id);
  }

  counts(): { open: number; total: number; audio: number; peak: number } {
    const audio = [...this.sessions.values()].filter((session) => session.audio).length;
    return { open: this.sessions.size, total: this.total, audio, peak: this.peak };
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.sessions.keys()]) this.drop(id);
    this.hub.leave(this.peerId);
  }

  private onMessage(m: Record<string, unknown>): void {
    if (this.closed) return;
    const sessionId = typeof m.sessionId === 'string' ? m.sessionId : '';
    if (m.type === 'startSession' && sessionId) this.start(sessionId);
    else if (m.type === 'endSession') this.drop(sessionId);
    else if (m.type === 'peer') {
      this.sessions
        .get(sessionId)
        ?.handlePeer(m)
        .catch((error: unknown) => this.log.debug('bad peer message', { error: String(error) }));
    } else if (m.type === 'error') this.log.debug('signalling error', { details: m.details });
  }

  private start(sessionId: string): void {
    const session = createCameraSession({
      sensor: this.sensor,
      microphone: this.microphone,
      log: this.log,
      signal: (inner) => this.hub.receive(this.peerId, { type: 'peer', sessionId, ...inner }),
      onFailed: (reason) => this.fail(sessionId, reason),
    });
    this.sessions.set(sessionId, session);
    this.total += 1;
    this.peak = Math.max(this.peak, this.sessions.size);
    session.offer().catch((error: unknown) => this.fail(sessionId, `offer failed: ${String(error)}`));
  }

  private fail(sessionId: string, reason: string): void {
    this.log.debug('camera session failed', { sessionId, reason });
    if (this.drop(sessionId)) this.hub.receive(this.peerId, { type: 'endSession', sessionId });
  }

  private drop(sessionId: string): boolean {
    const session = this.sessions.get(sessionId);
    if (!session) return false;
    this.sessions.delete(sessionId);
    session.close();
    return true;
  }
}

export function createCameraProducer(
  hub: SignallingHub,
  sensor: CameraSensor,
  microphone: SimMicrophone,
  log: Log,
): CameraProducer {
  return new Producer(hub, sensor, microphone, log);
}

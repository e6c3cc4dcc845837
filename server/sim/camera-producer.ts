/**
 * The simulated webrtcsink: a producer peer on the signalling hub with meta
 * `{"name":"reachymini"}` (daemon-api.md §6a), one WebRTC session per consumer. When the camera
 * goes away (a /sim/camera outage, or /api/media/release, which stops the daemon's whole
 * GStreamer pipeline, §3.7) the producer withdraws and every session ends; when it comes back
 * the producer announces itself again and listeners hear of it.
 */
import type { Log } from '../log.ts';
import type { CameraSensor } from './camera-render.ts';
import { createCameraSession, type CameraSession } from './camera-session.ts';
import type { SignallingHub } from './camera-signalling.ts';

export const PRODUCER_META = Object.freeze({ name: 'reachymini' });

export interface CameraProducer {
  /** Announce (true) or withdraw (false) the producer; idempotent. */
  setAvailable(on: boolean): void;
  readonly available: boolean;
  /** Sessions open now and since start: each is one upstream camera client. */
  sessions(): { open: number; total: number };
  close(): void;
}

export function createCameraProducer(hub: SignallingHub, sensor: CameraSensor, log: Log): CameraProducer {
  const sessions = new Map<string, CameraSession>();
  let total = 0;
  let available = false;
  let peerId = '';
  let closed = false;

  const drop = (sessionId: string): boolean => {
    const session = sessions.get(sessionId);
    if (!session) return false;
    sessions.delete(sessionId);
    session.close();
    return true;
  };
  const fail = (sessionId: string, reason: string): void => {
    log.debug('camera session failed', { sessionId, reason });
    if (drop(sessionId)) hub.receive(peerId, { type: 'endSession', sessionId });
  };
  const start = (sessionId: string): void => {
    const session = createCameraSession({
      sensor,
      log,
      signal: (inner) => hub.receive(peerId, { type: 'peer', sessionId, ...inner }),
      onFailed: (reason) => fail(sessionId, reason),
    });
    sessions.set(sessionId, session);
    total += 1;
    session.offer().catch((error: unknown) => fail(sessionId, `offer failed: ${String(error)}`));
  };
  const onMessage = (m: Record<string, unknown>): void => {
    if (closed) return;
    const sessionId = typeof m.sessionId === 'string' ? m.sessionId : '';
    if (m.type === 'startSession' && sessionId) start(sessionId);
    else if (m.type === 'endSession') drop(sessionId);
    else if (m.type === 'peer') {
      sessions
        .get(sessionId)
        ?.handlePeer(m)
        .catch((error: unknown) => log.debug('bad peer message', { error: String(error) }));
    } else if (m.type === 'error') log.debug('signalling error', { details: m.details });
  };

  // Messages from the hub arrive synchronously; handling them on the next turn keeps the hub's
  // own bookkeeping (e.g. sessionStarted before startSession) out of the producer's way.
  peerId = hub.join({ send: (m) => setImmediate(() => onMessage(m)) });

  return {
    get available() {
      return available;
    },
    setAvailable(on) {
      if (on === available) return;
      available = on;
      // Withdrawing the producer role makes the hub end every session (the consumers hear endSession).
      hub.receive(peerId, { type: 'setPeerStatus', roles: on ? ['producer'] : [], meta: PRODUCER_META });
      if (!on) for (const id of [...sessions.keys()]) drop(id);
    },
    sessions: () => ({ open: sessions.size, total }),
    close() {
      closed = true;
      for (const id of [...sessions.keys()]) drop(id);
      hub.leave(peerId);
    },
  };
}

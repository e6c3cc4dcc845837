/**
 * The gst-webrtc signalling protocol that webrtcsink's built-in server speaks on port 8443
 * (docs/daemon.md, "Media"; gst-plugins-rs net/webrtc/protocol and signalling/src/handlers): peers
 * are welcomed with an id, producers announce themselves with setPeerStatus, consumers `list`
 * them and `startSession`; SDP and ICE travel in `peer` messages the server forwards to the
 * other side of the session; `endSession` and disconnects end sessions and tell the other
 * side. Errors come back as `{"type":"error","details":…}`. No sockets here: a peer is anything
 * that can receive a message, so the simulator's own producer joins in process.
 */
import { randomUUID } from 'node:crypto';

export interface SignallingPeer {
  send(message: Record<string, unknown>): void;
}

export interface SignallingHub {
  /** Registers a peer and sends it `welcome`; returns its id. */
  join(peer: SignallingPeer): string;
  receive(peerId: string, message: unknown): void;
  leave(peerId: string): void;
}

interface PeerState {
  peer: SignallingPeer;
  roles: string[];
  meta: unknown;
}

interface Session {
  producer: string;
  consumer: string;
}

type Incoming = Record<string, unknown> & { type: string };

class ProtocolError extends Error {}

function asMessage(value: unknown): Incoming {
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    throw new ProtocolError('message must be an object with a string "type"');
  }
  return value as Incoming;
}

function text(message: Incoming, key: string): string {
  const value = message[key];
  if (typeof value !== 'string') throw new ProtocolError(`"${key}" must be a string`);
  return value;
}

/** One signalling server's state: the peers and the sessions between them. */
class Hub implements SignallingHub {
  private readonly peers = new Map<string, PeerState>();
  private readonly sessions = new Map<string, Session>();

  join(peer: SignallingPeer): string {
    const peerId = randomUUID();
    this.peers.set(peerId, { peer, roles: [], meta: null });
    peer.send({ type: 'welcome', peerId });
    return peerId;
  }

  receive(peerId: string, raw: unknown): void {
    try {
      this.handle(peerId, asMessage(raw));
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.send(peerId, { type: 'error', details: error.message });
    }
  }

  leave(peerId: string): void {
    const state = this.peers.get(peerId);
    if (!state) return;
    this.endSessionsOf(peerId, 'producer');
    this.endSessionsOf(peerId, 'consumer');
    this.peers.delete(peerId);
    // Listeners hear that the peer is gone: its last meta with no roles.
    this.notifyListeners(peerId, [], state.meta);
  }

  private handle(peerId: string, message: Incoming): void {
    switch (message.type) {
      case 'setPeerStatus':
        return this.setPeerStatus(peerId, message);
      case 'startSession':
        return this.startSession(peerId, message);
      case 'peer':
        return this.forward(peerId, message);
      case 'endSession':
        return this.endSession(peerId, text(message, 'sessionId'));
      case 'list':
        return this.send(peerId, { type: 'list', producers: this.listOf('producer') });
      case 'listConsumers':
        return this.send(peerId, { type: 'listConsumers', consumers: this.listOf('consumer') });
      default:
        throw new ProtocolError(`unknown message type "${message.type}"`);
    }
  }

  private send(id: string, message: Record<string, unknown>): void {
    this.peers.get(id)?.peer.send(message);
  }

  private notifyListeners(peerId: string, roles: string[], meta: unknown): void {
    for (const [id, state] of this.peers) {
      if (state.roles.includes('listener')) this.send(id, { type: 'peerStatusChanged', roles, meta, peerId });
    }
  }

  private listOf(role: string): { id: string; meta: unknown }[] {
    return [...this.peers].filter(([, s]) => s.roles.includes(role)).map(([id, s]) => ({ id, meta: s.meta }));
  }

  private session(sessionId: string, peerId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) throw new ProtocolError(`Session ${sessionId} doesn't exist`);
    if (peerId !== session.producer && peerId !== session.consumer) {
      throw new ProtocolError(`Peer ${peerId} is not part of ${sessionId}`);
    }
    return session;
  }

  private endSession(by: string, sessionId: string): void {
    const session = this.session(sessionId, by);
    this.sessions.delete(sessionId);
    this.send(by === session.producer ? session.consumer : session.producer, { type: 'endSession', sessionId });
  }

  private endSessionsOf(peerId: string, side: keyof Session): void {
    for (const [id, s] of [...this.sessions]) if (s[side] === peerId) this.endSession(peerId, id);
  }

  private setPeerStatus(peerId: string, message: Incoming): void {
    const state = this.peers.get(peerId);
    if (!state) throw new ProtocolError(`Peer '${peerId}' hasn't been welcomed`);
    const roles = Array.isArray(message.roles) ? message.roles.filter((r): r is string => typeof r === 'string') : [];
    if (state.roles.includes('producer') && !roles.includes('producer')) this.endSessionsOf(peerId, 'producer');
    state.roles = roles;
    state.meta = message.meta ?? null;
    this.notifyListeners(peerId, roles, state.meta);
  }

  private startSession(consumer: string, message: Incoming): void {
    const producer = text(message, 'peerId');
    const target = this.peers.get(producer);
    if (!target) throw new ProtocolError(`Peer '${producer}' hasn't been welcomed`);
    if (!target.roles.includes('producer')) {
      throw new ProtocolError(`Peer with id ${producer} is not registered as a producer`);
    }
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { producer, consumer });
    this.send(consumer, { type: 'sessionStarted', peerId: producer, sessionId });
    const offer = typeof message.offer === 'string' ? { offer: message.offer } : {};
    this.send(producer, { type: 'startSession', peerId: consumer, sessionId, ...offer });
  }

  private forward(from: string, message: Incoming): void {
    const sessionId = text(message, 'sessionId');
    const sdp = message.sdp as { type?: unknown } | undefined;
    const existing = this.sessions.get(sessionId);
    // The server's own check, worded as it words it (handlers/mod.rs).
    if (existing && sdp?.type === 'offer' && from === existing.consumer) {
      throw new ProtocolError(
        `cannot forward offer from "${from}" to "${existing.producer}" as "${from}" is not the producer`,
      );
    }
    const session = this.session(sessionId, from);
    const inner = message.sdp !== undefined ? { sdp: message.sdp } : { ice: message.ice };
    this.send(from === session.producer ? session.consumer : session.producer, { type: 'peer', sessionId, ...inner });
  }
}

export function createSignallingHub(): SignallingHub {
  return new Hub();
}

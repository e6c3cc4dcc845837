/**
 * The gst-webrtc signalling protocol that webrtcsink's built-in server speaks on port 8443
 * (daemon-api.md §6a; gst-plugins-rs net/webrtc/protocol and signalling/src/handlers): peers
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

export function createSignallingHub(): SignallingHub {
  const peers = new Map<string, PeerState>();
  const sessions = new Map<string, Session>();

  const send = (id: string, message: Record<string, unknown>): void => peers.get(id)?.peer.send(message);
  const notifyListeners = (peerId: string, roles: string[], meta: unknown): void => {
    for (const [id, state] of peers) {
      if (state.roles.includes('listener')) send(id, { type: 'peerStatusChanged', roles, meta, peerId });
    }
  };

  const endSession = (by: string, sessionId: string): void => {
    const session = sessions.get(sessionId);
    if (!session) throw new ProtocolError(`Session ${sessionId} doesn't exist`);
    if (by !== session.producer && by !== session.consumer)
      throw new ProtocolError(`Peer ${by} is not part of ${sessionId}`);
    sessions.delete(sessionId);
    send(by === session.producer ? session.consumer : session.producer, { type: 'endSession', sessionId });
  };
  const endSessionsOf = (peerId: string, side: keyof Session): void => {
    for (const [id, s] of [...sessions]) if (s[side] === peerId) endSession(peerId, id);
  };

  const setPeerStatus = (peerId: string, message: Incoming): void => {
    const state = peers.get(peerId);
    if (!state) throw new ProtocolError(`Peer '${peerId}' hasn't been welcomed`);
    const roles = Array.isArray(message.roles) ? message.roles.filter((r): r is string => typeof r === 'string') : [];
    if (state.roles.includes('producer') && !roles.includes('producer')) endSessionsOf(peerId, 'producer');
    state.roles = roles;
    state.meta = message.meta ?? null;
    notifyListeners(peerId, roles, state.meta);
  };

  const startSession = (consumer: string, message: Incoming): void => {
    const producer = text(message, 'peerId');
    const target = peers.get(producer);
    if (!target) throw new ProtocolError(`Peer '${producer}' hasn't been welcomed`);
    if (!target.roles.includes('producer'))
      throw new ProtocolError(`Peer with id ${producer} is not registered as a producer`);
    const sessionId = randomUUID();
    sessions.set(sessionId, { producer, consumer });
    send(consumer, { type: 'sessionStarted', peerId: producer, sessionId });
    const offer = typeof message.offer === 'string' ? { offer: message.offer } : {};
    send(producer, { type: 'startSession', peerId: consumer, sessionId, ...offer });
  };

  const forward = (from: string, message: Incoming): void => {
    const sessionId = text(message, 'sessionId');
    const session = sessions.get(sessionId);
    if (!session) throw new ProtocolError(`Session ${sessionId} doesn't exist`);
    const sdp = message.sdp as { type?: unknown } | undefined;
    if (sdp?.type === 'offer' && from === session.consumer) {
      throw new ProtocolError(
        `cannot forward offer from "${from}" to "${session.producer}" as "${from}" is not the producer`,
      );
    }
    if (from !== session.producer && from !== session.consumer)
      throw new ProtocolError(`Peer ${from} is not part of ${sessionId}`);
    const inner = message.sdp !== undefined ? { sdp: message.sdp } : { ice: message.ice };
    send(from === session.producer ? session.consumer : session.producer, { type: 'peer', sessionId, ...inner });
  };

  const listOf = (role: string): { id: string; meta: unknown }[] =>
    [...peers].filter(([, s]) => s.roles.includes(role)).map(([id, s]) => ({ id, meta: s.meta }));

  const handle = (peerId: string, message: Incoming): void => {
    switch (message.type) {
      case 'setPeerStatus':
        return setPeerStatus(peerId, message);
      case 'startSession':
        return startSession(peerId, message);
      case 'peer':
        return forward(peerId, message);
      case 'endSession':
        return endSession(peerId, text(message, 'sessionId'));
      case 'list':
        return send(peerId, { type: 'list', producers: listOf('producer') });
      case 'listConsumers':
        return send(peerId, { type: 'listConsumers', consumers: listOf('consumer') });
      default:
        throw new ProtocolError(`unknown message type "${message.type}"`);
    }
  };

  return {
    join(peer) {
      const peerId = randomUUID();
      peers.set(peerId, { peer, roles: [], meta: null });
      peer.send({ type: 'welcome', peerId });
      return peerId;
    },
    receive(peerId, raw) {
      try {
        handle(peerId, asMessage(raw));
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        send(peerId, { type: 'error', details: error.message });
      }
    },
    leave(peerId) {
      const state = peers.get(peerId);
      if (!state) return;
      endSessionsOf(peerId, 'producer');
      endSessionsOf(peerId, 'consumer');
      peers.delete(peerId);
      // Listeners hear that the peer is gone: its last meta with no roles.
      notifyListeners(peerId, [], state.meta);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { createStateSocket, type PresenceChange, type SocketLike } from './state-socket.ts';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  closedWith: number | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code ?? 1005;
  }
  open() {
    this.onopen?.({});
  }
  send(data: string) {
    this.sent.push(data);
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

function harness(downAfter = 3) {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const presence: PresenceChange[] = [];
  const frames: unknown[] = [];
  const client = createStateSocket({
    url: 'ws://cockpit/ws?token=t',
    downAfter,
    backoff: { baseMs: 100, maxMs: 1000, jitter: 0 },
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
    now: () => 1000,
    onFrame: (frame) => frames.push(frame),
    onPresence: (change) => presence.push(change),
  });
  const last = () => presence.at(-1)?.presence;
  const fire = () => timers.at(-1)?.run();
  return { client, sockets, timers, presence, frames, last, fire };
}

describe('createStateSocket', () => {
  it('connects, reports presence and hands over parsed frames', () => {
    const h = harness();
    expect(h.last()).toBe('connecting');
    h.sockets[0]!.open();
    expect(h.last()).toBe('connecting');
    h.sockets[0]!.receive('{"type":"state","loopHz":15}');
    expect(h.last()).toBe('connected');
    h.sockets[0]!.receive('garbage');
    expect(h.frames).toEqual([{ type: 'state', loopHz: 15 }]);
  });

  it('never calls a socket connected that the cockpit closes as unauthorized right after opening', () => {
    const h = harness();
    h.sockets[0]!.open();
    h.sockets[0]!.drop(4401);
    expect(h.presence.map((p) => p.presence)).toEqual(['connecting', 'unauthorized']);
  });

  it('reconnects with growing delays and says down after repeated failures', () => {
    const h = harness(3);
    h.sockets[0]!.drop();
    expect(h.presence.at(-1)).toEqual({ presence: 'reconnecting', retryAt: 1100 });
    h.fire();
    h.sockets[1]!.drop();
    expect(h.timers.map((t) => t.ms)).toEqual([100, 200]);
    h.fire();
    h.sockets[2]!.drop();
    expect(h.last()).toBe('down');
    h.fire();
    h.sockets[3]!.open();
    h.sockets[3]!.receive('{"type":"health"}');
    expect(h.last()).toBe('connected');
    h.sockets[3]!.drop();
    expect(h.timers.at(-1)!.ms).toBe(100);
  });

  it('stops retrying when the credential is refused', () => {
    const h = harness();
    h.sockets[0]!.drop(4401);
    expect(h.last()).toBe('unauthorized');
    expect(h.timers).toHaveLength(0);
  });

  it('ignores events from a socket it has replaced', () => {
    const h = harness();
    h.sockets[0]!.drop();
    h.client.retryNow();
    expect(h.timers[0]!.cleared).toBe(true);
    h.sockets[1]!.open();
    h.sockets[1]!.receive('{"type":"health"}');
    h.sockets[0]!.drop();
    h.sockets[0]!.receive('{"type":"state"}');
    expect(h.last()).toBe('connected');
    expect(h.frames).toEqual([{ type: 'health' }]);
  });

  it('sends JSON only while the socket is open', () => {
    const h = harness();
    expect(h.client.send({ type: 'ping' })).toBe(false);
    h.sockets[0]!.open();
    expect(h.client.send({ type: 'joystick', yaw: 5 })).toBe(true);
    expect(h.sockets[0]!.sent).toEqual(['{"type":"joystick","yaw":5}']);
    h.sockets[0]!.drop();
    expect(h.client.send({ type: 'ping' })).toBe(false);
    h.fire();
    expect(h.client.send({ type: 'ping' })).toBe(false);
    h.sockets[1]!.open();
    expect(h.client.send({ type: 'ping' })).toBe(true);
  });

  it('closes quietly and reports nothing afterwards', () => {
    const h = harness();
    h.sockets[0]!.open();
    const reported = h.presence.length;
    h.client.close();
    expect(h.sockets[0]!.closedWith).toBe(1000);
    h.sockets[0]!.drop(1000);
    expect(h.presence).toHaveLength(reported);
    expect(h.timers).toHaveLength(0);
  });
});

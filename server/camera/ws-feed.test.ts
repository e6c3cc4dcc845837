/**
 * The `camera` message on /ws (ws-feed.ts) against a stand-in socket and hub: toggling the feed
 * many times on one socket leaves one `close` listener, and closing the socket still ends the
 * subscription.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FrameHub } from './frame-hub.ts';
import { cameraSocketHandler } from './ws-feed.ts';

/** A hub that only counts live subscriptions: the handler needs nothing else. */
function countingHub(): { hub: FrameHub; live: () => number } {
  let live = 0;
  const hub = {
    configured: true,
    health: () => ({ status: 'live', fps: 0 }),
    subscribe() {
      live += 1;
      let open = true;
      return {
        close() {
          if (open) live -= 1;
          open = false;
        },
        dropped: 0,
        delivered: 0,
      };
    },
  } as unknown as FrameHub;
  return { hub, live: () => live };
}

function fakeClient() {
  const ws = Object.assign(new EventEmitter(), { readyState: WebSocket.OPEN, send: () => {} });
  const sent: object[] = [];
  return { ws: ws as unknown as WebSocket, send: (frame: object) => (sent.push(frame), true), sent };
}

describe('camera messages on /ws', () => {
  it('keeps one close listener per socket however often the feed is toggled', () => {
    const { hub, live } = countingHub();
    const onCamera = cameraSocketHandler(hub);
    const client = fakeClient();
    for (let i = 0; i < 1000; i++) {
      onCamera(client, { type: 'camera', on: true });
      onCamera(client, { type: 'camera', on: false });
    }
    expect(live()).toBe(0);
    expect(client.ws.listenerCount('close')).toBe(1);
    onCamera(client, { type: 'camera', on: true });
    onCamera(client, { type: 'camera', on: true });
    expect(live()).toBe(1);
    expect(client.ws.listenerCount('close')).toBe(1);
    expect(client.sent.at(-1)).toMatchObject({ type: 'camera', on: true });
  });

  it('closing the socket ends its subscription, even after toggles', () => {
    const { hub, live } = countingHub();
    const onCamera = cameraSocketHandler(hub);
    const client = fakeClient();
    for (let i = 0; i < 5; i++) {
      onCamera(client, { type: 'camera', on: true });
      onCamera(client, { type: 'camera', on: false });
    }
    onCamera(client, { type: 'camera', on: true });
    expect(live()).toBe(1);
    client.ws.emit('close');
    expect(live()).toBe(0);
    expect(client.ws.listenerCount('close')).toBe(0);
  });

  it('each socket gets its own listener and its own cleanup', () => {
    const { hub, live } = countingHub();
    const onCamera = cameraSocketHandler(hub);
    const a = fakeClient();
    const b = fakeClient();
    onCamera(a, { type: 'camera', on: true });
    onCamera(b, { type: 'camera', on: true });
    expect([a.ws.listenerCount('close'), b.ws.listenerCount('close')]).toEqual([1, 1]);
    a.ws.emit('close');
    expect(live()).toBe(1);
    b.ws.emit('close');
    expect(live()).toBe(0);
  });
});

/**
 * The `app_logs` message on /ws (app-log-socket.ts) against a stand-in socket and log stream:
 * asking again and again on one socket leaves one `close` listener, and closing the socket still
 * ends the watch.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { appLogsSocketHandler } from './app-log-socket.ts';
import type { AppLogStream } from './app-log-stream.ts';

/** A stream that only counts live watches: the handler needs nothing else. */
function countingStream(): { stream: AppLogStream; live: () => string[] } {
  const watches = new Set<{ app: string }>();
  const stream = {
    watch(app: string) {
      const watch = { app };
      watches.add(watch);
      return () => void watches.delete(watch);
    },
  } as unknown as AppLogStream;
  return { stream, live: () => [...watches].map((w) => w.app) };
}

function fakeClient() {
  const sent: object[] = [];
  return { ws: new EventEmitter() as unknown as WebSocket, send: (frame: object) => (sent.push(frame), true), sent };
}

describe('app_logs messages on /ws', () => {
  it('keeps one close listener per socket however often it asks', () => {
    const { stream, live } = countingStream();
    const onAppLogs = appLogsSocketHandler(stream);
    const client = fakeClient();
    for (let i = 0; i < 1000; i++) onAppLogs(client, { type: 'app_logs', app: i % 2 ? 'hello' : 'radio', on: true });
    expect(live()).toEqual(['hello']);
    expect(client.ws.listenerCount('close')).toBe(1);
    for (let i = 0; i < 1000; i++) {
      onAppLogs(client, { type: 'app_logs', app: 'hello', on: false });
      onAppLogs(client, { type: 'app_logs', app: 'hello', on: true });
    }
    expect(live()).toEqual(['hello']);
    expect(client.ws.listenerCount('close')).toBe(1);
    expect(client.sent.at(-1)).toEqual({ type: 'app_logs', app: 'hello', on: true });
  });

  it('closing the socket ends its watch, even after many asks', () => {
    const { stream, live } = countingStream();
    const onAppLogs = appLogsSocketHandler(stream);
    const client = fakeClient();
    for (let i = 0; i < 5; i++) onAppLogs(client, { type: 'app_logs', app: 'hello', on: true });
    expect(live()).toEqual(['hello']);
    client.ws.emit('close');
    expect(live()).toEqual([]);
    expect(client.ws.listenerCount('close')).toBe(0);
  });

  it('each socket gets its own listener and its own cleanup', () => {
    const { stream, live } = countingStream();
    const onAppLogs = appLogsSocketHandler(stream);
    const a = fakeClient();
    const b = fakeClient();
    onAppLogs(a, { type: 'app_logs', app: 'hello', on: true });
    onAppLogs(b, { type: 'app_logs', app: 'radio', on: true });
    expect([a.ws.listenerCount('close'), b.ws.listenerCount('close')]).toEqual([1, 1]);
    a.ws.emit('close');
    expect(live()).toEqual(['radio']);
    b.ws.emit('close');
    expect(live()).toEqual([]);
  });
});

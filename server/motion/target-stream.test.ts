import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { silentLog } from '../log.ts';
import { createTargetStream, type StreamEnd, type TargetStream } from './target-stream.ts';
import { sleep, until } from './testing/rig.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A stand-in for /api/move/ws/set_target that records every frame. */
async function fakeSetTarget(): Promise<{
  url: string;
  frames: unknown[];
  connections: () => number;
  paths: string[];
}> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const frames: unknown[] = [];
  const paths: string[] = [];
  let connections = 0;
  wss.on('connection', (ws, req) => {
    connections += 1;
    paths.push(req.url ?? '');
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as unknown));
  });
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    frames,
    connections: () => connections,
    paths,
  };
}

function open(url: string): { stream: TargetStream; ends: StreamEnd[] } {
  const stream = createTargetStream({ baseUrl: url, log: silentLog });
  const ends: StreamEnd[] = [];
  stream.onEnd((why) => ends.push(why));
  cleanups.push(() => stream.close());
  return { stream, ends };
}

const yaw = (v: number) => ({ target_head_pose: { yaw: v } });

describe('joystick target stream', () => {
  it('sends only the latest target of each 20 ms tick, over one socket', async () => {
    const daemon = await fakeSetTarget();
    const { stream } = open(daemon.url);
    // 20 pushes in the same instant: one frame, the last.
    for (let i = 0; i < 20; i += 1) stream.push(yaw(i / 100));
    await until(() => daemon.frames.length === 1);
    await sleep(60);
    expect(daemon.frames).toEqual([yaw(0.19)]);
    expect(stream.stats()).toMatchObject({ active: true, sent: 1, coalesced: 19 });
    expect(daemon.paths).toEqual(['/api/move/ws/set_target']);
  });

  it('never exceeds 50 Hz however fast the client sends', async () => {
    const daemon = await fakeSetTarget();
    const { stream } = open(daemon.url);
    stream.push(yaw(0));
    await until(() => daemon.frames.length === 1);
    const t0 = Date.now();
    const start = daemon.frames.length;
    while (Date.now() - t0 < 500) {
      stream.push(yaw(Math.random()));
      await sleep(2);
    }
    const sent = daemon.frames.length - start;
    expect(sent).toBeGreaterThan(10);
    expect(sent).toBeLessThanOrEqual(Math.ceil((Date.now() - t0) / 20) + 1);
  });

  it('stops by itself 300 ms after the last push and holds (sends nothing more)', async () => {
    const daemon = await fakeSetTarget();
    const { stream, ends } = open(daemon.url);
    stream.push(yaw(0.3));
    await until(() => daemon.frames.length === 1);
    await sleep(200);
    expect(stream.active()).toBe(true);
    await until(() => !stream.active(), 1000);
    expect(ends).toEqual(['idle']);
    const count = daemon.frames.length;
    await sleep(200);
    expect(daemon.frames.length).toBe(count);
    // The next push reuses the same socket.
    stream.push(yaw(0.1));
    await until(() => daemon.frames.length === count + 1);
    expect(daemon.connections()).toBe(1);
  });

  it('stop() ends the stream at once and drops the queued target', async () => {
    const daemon = await fakeSetTarget();
    const { stream, ends } = open(daemon.url);
    stream.push(yaw(0.5));
    stream.stop();
    await sleep(80);
    expect(ends).toEqual(['stopped']);
    expect(daemon.frames).toEqual([]);
  });
});

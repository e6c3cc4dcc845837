import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { silentLog } from '../log.ts';
import { createTargetStream, type StreamEnd, type TargetStream } from './target-stream.ts';
import { createManualClock, type ManualClock } from '../testing/manual-clock.ts';
import { until } from './testing/rig.ts';

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

function open(url: string, clock: ManualClock): { stream: TargetStream; ends: StreamEnd[] } {
  const stream = createTargetStream({ baseUrl: url, log: silentLog, clock });
  const ends: StreamEnd[] = [];
  stream.onEnd((why) => ends.push(why));
  cleanups.push(() => stream.close());
  return { stream, ends };
}

const yaw = (v: number) => ({ target_head_pose: { yaw: v } });

const TICK_MS = 20;

/**
 * Moves the stream's time a tick at a time until the daemon has `count` frames, pushing `target`
 * again whenever the stream went idle meanwhile: the socket opens in real time, and a tick
 * before it is open sends nothing. Once this returns, the socket is open and time is the test's.
 */
async function deliver(
  clock: ManualClock,
  stream: TargetStream,
  daemon: { frames: unknown[] },
  target: ReturnType<typeof yaw>,
  count: number,
): Promise<void> {
  const sent = stream.stats().sent;
  stream.push(target);
  await until(() => {
    if (stream.stats().sent > sent) return true;
    if (!stream.active()) stream.push(target);
    clock.advance(TICK_MS);
    return false;
  });
  // Sent: time stands still while the frame travels.
  await until(() => daemon.frames.length >= count);
}

describe('joystick target stream', () => {
  it('sends only the latest target of each 20 ms tick, over one socket', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    const { stream } = open(daemon.url, clock);
    await deliver(clock, stream, daemon, yaw(0), 1);
    // 20 pushes in the same instant: one frame, the last.
    for (let i = 0; i < 20; i += 1) stream.push(yaw(i / 100));
    clock.advance(TICK_MS);
    await until(() => daemon.frames.length === 2);
    clock.advance(TICK_MS * 3);
    expect(daemon.frames).toEqual([yaw(0), yaw(0.19)]);
    expect(stream.stats()).toMatchObject({ active: true, sent: 2, coalesced: 19 });
    expect(daemon.paths).toEqual(['/api/move/ws/set_target']);
  });

  it('never sends more than one frame a tick however fast the client pushes', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    const { stream } = open(daemon.url, clock);
    await deliver(clock, stream, daemon, yaw(0), 1);
    const { sent, coalesced } = stream.stats();
    // 25 ticks with five pushes each: 25 frames, each the last push of its tick.
    for (let tick = 1; tick <= 25; tick += 1) {
      for (let i = 1; i <= 5; i += 1) stream.push(yaw(tick + i / 10));
      clock.advance(TICK_MS);
    }
    await until(() => daemon.frames.length === 26);
    expect(daemon.frames.slice(1)).toEqual(Array.from({ length: 25 }, (_, i) => yaw(i + 1 + 0.5)));
    expect(stream.stats()).toMatchObject({ sent: sent + 25, coalesced: coalesced + 100 });
  });

  it('stops by itself 300 ms after the last push and holds (sends nothing more)', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    const { stream, ends } = open(daemon.url, clock);
    await deliver(clock, stream, daemon, yaw(0), 1);
    stream.push(yaw(0.3));
    const pushedAt = clock.now();
    clock.advance(TICK_MS);
    await until(() => daemon.frames.length === 2);
    clock.advance(pushedAt + 280 - clock.now());
    expect(stream.active()).toBe(true);
    clock.advance(40);
    expect(stream.active()).toBe(false);
    expect(ends.at(-1)).toBe('idle');
    // Ended means no ticker: time passing runs nothing.
    expect(clock.pending()).toBe(0);
    const count = daemon.frames.length;
    // The next push reuses the same socket, and its frame is the next one the daemon sees.
    stream.push(yaw(0.1));
    clock.advance(TICK_MS);
    await until(() => daemon.frames.length === count + 1);
    expect(daemon.frames.at(-1)).toEqual(yaw(0.1));
    expect(daemon.connections()).toBe(1);
  });

  it('stop() ends the stream at once and drops the queued target', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    const { stream, ends } = open(daemon.url, clock);
    stream.push(yaw(0.5));
    stream.stop();
    expect(ends).toEqual(['stopped']);
    expect(clock.pending()).toBe(0);
    // The barrier: a later target is the first frame the daemon gets.
    await deliver(clock, stream, daemon, yaw(0.1), 1);
    expect(daemon.frames).toEqual([yaw(0.1)]);
  });

  it('sends nothing while the daemon is silent, and the latest target once it is heard again', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    let heardAt: number | undefined;
    const stream = createTargetStream({
      baseUrl: daemon.url,
      log: silentLog,
      clock,
      lastHeard: () => heardAt ?? clock.now(),
    });
    cleanups.push(() => stream.close());
    await deliver(clock, stream, daemon, yaw(0), 1);
    // The daemon stalls: its socket stays open and its kernel would take every frame, to be played
    // at once when it runs again (after a stop, too).
    heardAt = clock.now();
    clock.advance(520);
    for (let i = 1; i <= 10; i += 1) {
      stream.push(yaw(0.5 + i / 100));
      clock.advance(TICK_MS);
    }
    expect(stream.active()).toBe(true);
    heardAt = clock.now();
    stream.push(yaw(0.9));
    clock.advance(TICK_MS);
    // The barrier: the first frame after the silence is the latest target.
    await until(() => daemon.frames.length >= 2);
    expect(daemon.frames).toEqual([yaw(0), yaw(0.9)]);
  });
});

describe("the latched stop's halt", () => {
  it('follows the frames the daemon may not have played with the hold, and sends nothing when it was heard since', async () => {
    const clock = createManualClock();
    const daemon = await fakeSetTarget();
    // Heard at every instant unless the test says when.
    let heardAt: number | undefined;
    const hold = { target_head_pose: { yaw: 0.2 } };
    const stream = createTargetStream({
      baseUrl: daemon.url,
      log: silentLog,
      clock,
      lastHeard: () => heardAt ?? clock.now(),
      holdTarget: () => hold,
    });
    cleanups.push(() => stream.close());
    await deliver(clock, stream, daemon, yaw(0.5), 1);
    // The daemon last heard as the frame went out: it may still hold it unplayed.
    stream.halt();
    expect(stream.active()).toBe(false);
    await until(() => daemon.frames.length === 2);
    expect(daemon.frames).toEqual([yaw(0.5), hold]);
    // A frame the daemon was heard from well after (2 s): played, so a halt has nothing to follow.
    await deliver(clock, stream, daemon, yaw(0.3), 3);
    clock.advance(2000);
    heardAt = clock.now();
    stream.halt();
    heardAt = undefined;
    // The barrier: a later target is the next frame the daemon gets.
    await deliver(clock, stream, daemon, yaw(0.1), 4);
    expect(daemon.frames).toEqual([yaw(0.5), hold, yaw(0.3), yaw(0.1)]);
  });
});

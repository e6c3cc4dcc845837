/**
 * The daemon camera source end to end against the simulator, which speaks webrtcsink's
 * signalling and sends H.264 over WebRTC like the real daemon (docs/daemon.md, "Media").
 */
import { createServer } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TimerClock } from '../../clock.ts';
import { silentLog } from '../../log.ts';
import { createManualClock } from '../../testing/manual-clock.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { ok, waitFor } from '../../sim/test-helpers.ts';
import { createFrameHub, type FrameHub } from '../frame-hub.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';
import { isWholeJpeg } from '../jpeg.ts';
import { createWebrtcSource, pickProducer } from './webrtc-source.ts';

let sim: SimDaemon;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sim = await startSimDaemon();
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  await ok(sim, 'POST', '/sim/camera', { on: true });
});
afterAll(() => sim.close());

async function started(source: CameraSource, frames: CameraFrame[]): Promise<void> {
  const errors: Error[] = [];
  await source.start(
    (f) => frames.push(f),
    (e) => errors.push(e),
  );
  cleanup.push(async () => {
    await source.stop();
    expect(errors).toEqual([]);
  });
}

function hubFor(source: CameraSource, clock?: TimerClock): FrameHub {
  const hub = createFrameHub({ source, log: silentLog, idleStopMs: null, ...(clock ? { clock } : {}) });
  hub.start();
  cleanup.push(() => hub.stop());
  return hub;
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('WebRTC camera source', () => {
  it('receives H.264 from the simulator and decodes it to JPEG pictures of the same size and time', async () => {
    const source = createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog });
    source.wantJpeg?.(true);
    const frames: CameraFrame[] = [];
    await started(source, frames);
    await waitFor(() => frames.filter((f) => f.jpeg).length >= 5);

    const h264 = frames.filter((f) => f.h264);
    const jpeg = frames.filter((f) => f.jpeg);
    expect(h264[0]?.h264?.keyframe).toBe(true);
    expect(h264[0]).toMatchObject({ width: 640, height: 360, seq: 1 });
    for (const f of jpeg) {
      expect(isWholeJpeg(f.jpeg ?? Buffer.alloc(0))).toBe(true);
      // A JPEG keeps the number and capture time of the access unit it was decoded from.
      const from = h264.find((h) => h.seq === f.seq);
      expect(from?.capturedAt).toBe(f.capturedAt);
    }
    expect(await sharp(jpeg[0]?.jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
    expect(sim.counters()).toMatchObject({ cameraSessions: 1, cameraSignallingClients: 1 });
  });

  it('decodes nothing while no one wants JPEG, and catches up at once mid-GOP when someone does', async () => {
    const source = createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog });
    const frames: CameraFrame[] = [];
    await started(source, frames);
    // Mid-GOP: the session's first keyframe and some pictures after it are in.
    await waitFor(() => frames.length >= 8 && frames.at(-1)?.h264?.keyframe === false);
    expect(frames[0]?.h264?.keyframe).toBe(true);
    expect(frames.every((f) => f.h264 && !f.jpeg)).toBe(true);
    const newest = frames.at(-1)?.seq;
    source.wantJpeg?.(true);
    await waitFor(() => frames.some((f) => f.jpeg), 5000, 5);
    // The first picture decoded is the newest there was when it was asked for: the kept GOP was
    // decoded up to it at once. Waiting for the next keyframe (two seconds away in the simulator)
    // would have made a later one first, however fast the machine.
    expect(frames.find((f) => f.jpeg)?.seq).toBe(newest);
    source.wantJpeg?.(false);
  });

  it('ends its session on the robot when stopped', async () => {
    const source = createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog });
    const frames: CameraFrame[] = [];
    await source.start(
      (f) => frames.push(f),
      () => {},
    );
    await waitFor(() => sim.counters().cameraSessions === 1);
    await source.stop();
    await waitFor(() => sim.counters().cameraSessions === 0 && sim.counters().cameraSignallingClients === 0);
  });

  it('picks the producer named reachymini, or the only one', () => {
    const other = { id: 'a', meta: { name: 'other' } };
    const mini = { id: 'b', meta: { name: 'reachymini' } };
    expect(pickProducer([other, mini], 'reachymini')).toBe('b');
    expect(pickProducer([other], 'reachymini')).toBe('a');
    expect(pickProducer([other, { id: 'c', meta: null }], 'reachymini')).toBeUndefined();
    expect(pickProducer('nonsense', 'reachymini')).toBeUndefined();
  });
});

describe('outages, through the hub', () => {
  // The hub's watchdog and retries run on a manual clock: the media flows in real time, but the
  // hub decides "lost" and "retry now" only when the test moves its time.
  it('re-acquires the camera once it comes back, without touching daemon media', async () => {
    const clock = createManualClock();
    const hub = hubFor(createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog }), clock);
    let pictures = 0;
    hub.subscribe('jpeg', () => void (pictures += 1));
    await waitFor(() => pictures >= 3);

    // Each check moves the hub's time on by a quarter second: frames still in flight keep it
    // live, and once they stop, the stall bound (1 s) passes and the hub calls the camera lost.
    await ok(sim, 'POST', '/sim/camera', { on: false });
    await waitFor(() => {
      clock.advance(250);
      return hub.health().status === 'lost';
    });
    const seen = pictures;
    await ok(sim, 'POST', '/sim/camera', { on: true });
    // Retries come on the hub's clock (at most 1 s apart): the next one finds the camera. Time
    // moves only while the hub waits to retry (every start so far has been followed by a
    // restart); during an attempt it stands still, so a start that a busy machine makes slow is
    // never cut short by the first-frame bound.
    await waitFor(() => {
      const { starts, restarts } = hub.stats();
      if (starts <= restarts) clock.advance(250);
      return pictures > seen;
    });
    expect(hub.health().status).toBe('live');
    expect(sim.counters()).toMatchObject({ mediaReleases: 0, mediaAcquires: 0, cameraSessions: 1 });
  });

  it('keeps retrying a camera whose signalling server is not there, and never calls the daemon', async () => {
    const before = sim.counters();
    const url = `ws://127.0.0.1:${await closedPort()}`;
    const clock = createManualClock();
    const hub = hubFor(createWebrtcSource({ url, log: silentLog }), clock);
    hub.subscribe('jpeg', () => {});
    // Each start fails on the refused connection; moving past the longest backoff starts the next.
    for (let failed = 1; failed <= 3; failed += 1) {
      await waitFor(() => hub.stats().failedStarts >= failed, 5000);
      clock.advance(1000);
    }
    await waitFor(() => hub.stats().failedStarts >= 4, 5000);
    expect(hub.health()).toEqual({
      status: 'starting',
      fps: 0,
      trouble: expect.stringMatching(/^the camera did not start: .*ECONNREFUSED/),
    });
    expect(hub.stats().failedStarts).toBe(4);
    const after = sim.counters();
    expect(after.mediaReleases).toBe(0);
    expect(after.mediaAcquires).toBe(0);
    expect(after.httpRequests).toBe(before.httpRequests);
  });
});

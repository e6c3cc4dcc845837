/**
 * An MJPEG viewer that takes nothing (a phone gone from the Wi-Fi, a client that holds the
 * connection and never reads) is ended once a picture has waited for it too long, on the routes'
 * clock: it must not keep a JPEG subscription, and with it the decoder and the robot's camera
 * session, for as long as the kernel keeps its socket. The viewer reads through a Unix socket,
 * whose small buffer fills after a few pictures, and is paused before the first byte arrives.
 * Nor may any number of viewers be opened: past the bound one more is refused.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { errorHandler } from '../http/error-handler.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { cameraRoutes, MJPEG_STALL_MS } from './camera-routes.ts';
import { createFrameHub, type FrameHub } from './frame-hub.ts';
import type { CameraFrame } from './frame.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A hub over a source that sends what the test hands it. */
function handFedHub(): { hub: FrameHub; emit(frame: CameraFrame): void } {
  let onFrame: ((frame: CameraFrame) => void) | undefined;
  const hub = createFrameHub({
    source: {
      name: 'hand-fed',
      start(frame) {
        onFrame = frame;
        return Promise.resolve();
      },
      stop() {
        onFrame = undefined;
        return Promise.resolve();
      },
    },
    log: silentLog,
    idleStopMs: null,
  });
  hub.start();
  cleanup.push(() => hub.stop());
  return { hub, emit: (frame) => onFrame?.(frame) };
}

async function serve(hub: FrameHub, clock: ReturnType<typeof createManualClock>, maxStreams?: number): Promise<string> {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  const router = new Router();
  const options = { clock, ...(maxStreams === undefined ? {} : { maxStreams }) };
  for (const route of cameraRoutes(hub, options)) router.get(route.path, route.handler as Koa.Middleware);
  koa.use(router.routes());
  const dir = mkdtempSync(join(tmpdir(), 'cockpit-mjpeg-'));
  const path = join(dir, 'a.sock');
  const server: Server = createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  return path;
}

it('ends a viewer that has taken nothing for the stall time, and only then', async () => {
  const clock = createManualClock();
  const { hub, emit } = handFedHub();
  const path = await serve(hub, clock);
  const viewer: Socket = connect(path);
  cleanup.push(() => void viewer.destroy());
  viewer.pause();
  viewer.write('GET /api/stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await eventually(() => hub.stats().viewers.jpeg === 1);

  // Pictures until the viewer's socket is full: one is then being delivered, and newer ones are
  // dropped for it.
  let seq = 0;
  const picture = Buffer.alloc(256 * 1024, 0x55);
  await eventually(() => {
    seq += 1;
    emit({ jpeg: picture, width: 4, height: 3, capturedAt: clock.now(), seq });
    return hub.stats().dropped > 0;
  });
  clock.advance(MJPEG_STALL_MS - 1);
  // Not yet: another picture still only replaces the waiting one.
  const dropped = hub.stats().dropped;
  emit({ jpeg: picture, width: 4, height: 3, capturedAt: clock.now(), seq: seq + 1 });
  expect(hub.stats().dropped).toBe(dropped + 1);
  expect(hub.stats().viewers.jpeg).toBe(1);

  clock.advance(1);
  await eventually(() => hub.stats().viewers.jpeg === 0);
  // The connection is closed too: released now, the viewer reads what was sent, then the end.
  viewer.on('error', () => {});
  viewer.resume();
  await eventually(() => viewer.destroyed);
});

it('refuses a viewer past the bound with 503 CAMERA_BUSY, and takes one again once a viewer has gone', async () => {
  const { hub } = handFedHub();
  const path = await serve(hub, createManualClock(), 2);
  const open = (): Socket => {
    const viewer = connect(path);
    cleanup.push(() => void viewer.destroy());
    viewer.on('error', () => {});
    viewer.write('GET /api/stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
    return viewer;
  };
  const answer = (viewer: Socket) =>
    new Promise<string>((resolve) => {
      let text = '';
      viewer.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n') && (!text.startsWith('HTTP/1.1 503') || text.includes('}'))) resolve(text);
      });
    });
  const first = open();
  open();
  await eventually(() => hub.stats().viewers.jpeg === 2);
  const refused = await answer(open());
  expect(refused).toMatch(/^HTTP\/1\.1 503/);
  expect(refused).toContain('"code":"CAMERA_BUSY"');
  first.destroy();
  await eventually(() => hub.stats().viewers.jpeg === 1);
  expect(await answer(open())).toMatch(/^HTTP\/1\.1 200/);
  await eventually(() => hub.stats().viewers.jpeg === 2);
});

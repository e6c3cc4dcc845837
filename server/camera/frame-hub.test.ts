/** The frame hub over a scripted source: demand, backpressure, re-acquiring, health. */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { eventually, testWait } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createFrameHub, type FrameHub, type FrameHubOptions } from './frame-hub.ts';
import type { CameraFrame, CameraSource } from './frame.ts';
import { createFpsMeter } from './fps-meter.ts';
import { createMailbox } from './latest-only.ts';

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  await eventually(check, { timeoutMs: testWait(timeoutMs), intervalMs: 5 });
}

/** One macrotask turn: the scripted source's start and stop settle in microtasks, all run by then. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Scripted {
  source: CameraSource;
  /** Sends a frame as the running source would; false when it is not running. */
  emit(extra?: Partial<CameraFrame>): boolean;
  fail(message: string): void;
  starts: number;
  stops: number;
  running: boolean;
  jpegWanted: boolean[];
}

function scripted(options: { failStarts?: number } = {}): Scripted {
  let onFrame: ((f: CameraFrame) => void) | undefined;
  let onError: ((e: Error) => void) | undefined;
  let seq = 0;
  const s: Scripted = {
    starts: 0,
    stops: 0,
    running: false,
    jpegWanted: [],
    source: {
      name: 'scripted',
      start(frame, error) {
        s.starts += 1;
        if (s.starts <= (options.failStarts ?? 0)) return Promise.reject(new Error('no camera here'));
        onFrame = frame;
        onError = error;
        s.running = true;
        return Promise.resolve();
      },
      stop() {
        s.stops += 1;
        s.running = false;
        onFrame = undefined;
        return Promise.resolve();
      },
      wantJpeg(on) {
        if (s.jpegWanted.at(-1) !== on) s.jpegWanted.push(on);
      },
    },
    emit(extra = {}) {
      if (!onFrame) return false;
      seq += 1;
      onFrame({
        jpeg: Buffer.from([0xff, 0xd8, seq, 0xff, 0xd9]),
        width: 4,
        height: 3,
        capturedAt: Date.now(),
        seq,
        ...extra,
      });
      return true;
    },
    fail(message) {
      onError?.(new Error(message));
    },
  };
  return s;
}

const hubs: FrameHub[] = [];
function hubOver(s: Scripted, options: Partial<FrameHubOptions> = {}): FrameHub {
  const hub = createFrameHub({ source: s.source, log: silentLog, idleStopMs: null, ...options });
  hubs.push(hub);
  hub.start();
  return hub;
}

afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.stop();
});

describe('snapshots and viewers', () => {
  it('has no snapshot before the first frame, then the newest JPEG', async () => {
    const s = scripted();
    const hub = hubOver(s);
    expect(await hub.snapshot(100)).toBeUndefined();
    await until(() => s.running);
    s.emit();
    s.emit();
    expect((await hub.snapshot(100))?.seq).toBe(2);
  });

  it('makes a snapshot wait for the next frame when the newest is stale', async () => {
    const clock = createManualClock();
    const s = scripted();
    const hub = hubOver(s, { clock, stallMs: 60_000 });
    await until(() => s.running);
    s.emit();
    clock.advance(1500);
    let answered = false;
    const waiting = hub.snapshot(2000).finally(() => (answered = true));
    await settled();
    expect(answered).toBe(false);
    s.emit();
    expect((await waiting)?.seq).toBe(2);
  });

  it('answers no snapshot at all when no camera is configured', async () => {
    const hub = createFrameHub({ source: null, log: silentLog });
    hub.start();
    expect(hub.configured).toBe(false);
    expect(await hub.snapshot(50)).toBeUndefined();
    expect(hub.health()).toEqual({ status: 'off', fps: 0 });
    await hub.stop();
  });

  it('gives a slow viewer only the newest frame and never slows a fast one', async () => {
    const s = scripted();
    const hub = hubOver(s);
    await until(() => s.running);
    const fast: number[] = [];
    const slow: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    hub.subscribe('jpeg', (f) => void fast.push(f.seq));
    const slowSub = hub.subscribe('jpeg', async (f) => {
      slow.push(f.seq);
      await gate;
    });
    // The fast viewer has each frame before the next one is sent: the slow one never holds it up.
    for (let i = 1; i <= 50; i += 1) {
      s.emit();
      await until(() => fast.length === i);
    }
    expect(slow).toEqual([1]);
    release();
    await until(() => slow.length === 2);
    expect(slow).toEqual([1, 50]);
    expect(slowSub.dropped).toBe(48);
    expect(hub.stats()).toMatchObject({ viewers: { jpeg: 2, h264: 0 }, dropped: 48 });
  });

  it('unsubscribes a viewer whose delivery fails', async () => {
    const s = scripted();
    const hub = hubOver(s);
    await until(() => s.running);
    hub.subscribe('jpeg', () => Promise.reject(new Error('socket gone')));
    s.emit();
    await until(() => hub.stats().viewers.jpeg === 0);
  });
});

describe('demand', () => {
  it('opens the upstream client on first need and closes it after the idle time', async () => {
    const clock = createManualClock();
    const s = scripted();
    const hub = hubOver(s, { idleStopMs: 150, clock, stallMs: 60_000 });
    clock.advance(1000);
    await settled();
    expect(s.starts).toBe(0);
    expect(hub.health().status).toBe('off');
    const sub = hub.subscribe('jpeg', () => {});
    await until(() => s.running);
    sub.close();
    clock.advance(100);
    await settled();
    expect(s.running).toBe(true);
    clock.advance(100);
    await until(() => !s.running);
    expect(hub.health().status).toBe('off');
    // A snapshot is a need too.
    void hub.snapshot(10);
    await until(() => s.running);
  });

  it('decodes JPEG only while a JPEG consumer exists, and stops 30 s after the last one', async () => {
    const s = scripted();
    const clock = createManualClock();
    const hub = hubOver(s, { clock, stallMs: 600_000 });
    await until(() => s.running);
    // Raw video for the WebRTC relay and H.264 viewers need no decoder.
    const video = hub.subscribe('h264', () => {});
    expect(s.jpegWanted).toEqual([false]);
    expect(hub.stats().jpegWanted).toBe(false);
    const jpeg = hub.subscribe('jpeg', () => {});
    const recorder = hub.subscribe('jpeg', () => {});
    expect(s.jpegWanted).toEqual([false, true]);
    jpeg.close();
    recorder.close();
    // The last JPEG consumer left: the decoder lingers 30 s on the hub's clock.
    clock.advance(29_000);
    expect(s.jpegWanted).toEqual([false, true]);
    expect(hub.stats().jpegWanted).toBe(true);
    clock.advance(1_010);
    expect(s.jpegWanted).toEqual([false, true, false]);
    // A snapshot (the agent's look tool) is a consumer too, for the same 30 s.
    void hub.snapshot(10);
    expect(s.jpegWanted.at(-1)).toBe(true);
    clock.advance(30_010);
    expect(s.jpegWanted.at(-1)).toBe(false);
    video.close();
  });
});

describe('re-acquiring', () => {
  it('restarts the source by itself when frames stop, and is live again with the next frame', async () => {
    const clock = createManualClock();
    const s = scripted();
    const hub = hubOver(s, { stallMs: 300, clock });
    await until(() => s.running);
    s.emit();
    expect(hub.health()).toMatchObject({ status: 'live' });
    expect(hub.health().trouble).toBeUndefined();
    // Within the stall window nothing is restarted; the watchdog looks every 75 ms.
    clock.advance(300);
    await settled();
    expect(s.starts).toBe(1);
    clock.advance(75);
    await until(() => s.starts === 2 && s.running);
    expect(hub.health()).toEqual({
      status: 'lost',
      fps: expect.any(Number),
      trouble: "the camera's pictures stopped for over 0.3 s",
    });
    s.emit();
    expect(hub.health().status).toBe('live');
    expect(hub.health().trouble).toBeUndefined();
    expect(hub.stats().restarts).toBe(1);
  });

  it('restarts a source that reports an error', async () => {
    const s = scripted();
    hubOver(s);
    await until(() => s.running);
    s.fail('pipeline died');
    await until(() => s.starts === 2 && s.running, 3000);
    expect(s.stops).toBeGreaterThanOrEqual(1);
  });

  it('retries a source that cannot start, with capped backoff, and reports starting meanwhile', async () => {
    const clock = createManualClock();
    const s = scripted({ failStarts: Infinity });
    const hub = hubOver(s, { retryMinMs: 50, retryMaxMs: 200, clock });
    // 1.2 s of the hub's time, 10 ms at a time, each failed start settling before time moves on.
    for (let t = 0; t < 1200; t += 10) {
      clock.advance(10);
      await settled();
    }
    // 50, 100, 200, 200… with ±25 % jitter: 5 to 12 attempts in 1.2 s, not a tight loop.
    expect(s.starts).toBeGreaterThanOrEqual(4);
    expect(s.starts).toBeLessThanOrEqual(14);
    expect(hub.health()).toEqual({ status: 'starting', fps: 0, trouble: 'the camera did not start: no camera here' });
    expect(hub.stats().failedStarts).toBe(s.starts);
  });

  it('says why a camera that does not come is not live, until its first picture', async () => {
    const clock = createManualClock();
    const s = scripted({ failStarts: 1 });
    const hub = hubOver(s, { retryMinMs: 50, retryMaxMs: 50, firstFrameMs: 4000, clock });
    await until(() => s.starts === 1);
    await settled();
    expect(hub.health()).toEqual({ status: 'starting', fps: 0, trouble: 'the camera did not start: no camera here' });
    // The retry starts it, and it sends nothing: past the first-frame window (the watchdog looks
    // every 250 ms) that is said instead.
    clock.advance(100);
    await until(() => s.starts === 2 && s.running);
    expect(hub.health().trouble).toBe('the camera did not start: no camera here');
    clock.advance(4500);
    await until(() => s.starts === 3 && s.running);
    expect(hub.health()).toMatchObject({
      status: 'starting',
      trouble: 'no picture came within 4 s of starting the camera',
    });
    s.fail('pipeline died');
    await until(() => hub.health().trouble === 'the camera failed: pipeline died');
    clock.advance(100);
    await until(() => s.starts === 4 && s.running);
    s.emit();
    expect(hub.health()).toMatchObject({ status: 'live' });
    expect(hub.health().trouble).toBeUndefined();
  });
});

describe('health', () => {
  it('measures the frame rate, counting a picture once when its H.264 and JPEG both arrive', async () => {
    const s = scripted();
    // A clock the test moves, 50 ms per picture: the figure must not depend on how busy the machine is.
    const clock = createManualClock();
    const hub = hubOver(s, { clock });
    await until(() => s.running);
    for (let i = 0; i < 20; i += 1) {
      s.emit({ jpeg: undefined, h264: { data: Buffer.from([0, 0, 0, 1, 0x65]), keyframe: true } });
      s.emit({ h264: undefined });
      clock.advance(50);
    }
    const { status, fps } = hub.health();
    expect(status).toBe('live');
    expect(fps).toBe(20);
    await hub.stop();
    expect(hub.health()).toEqual({ status: 'off', fps: 0 });
  });

  it('ends its viewers and pending snapshots when stopped', async () => {
    const s = scripted();
    const hub = hubOver(s);
    await until(() => s.running);
    let ended = false;
    hub.subscribe(
      'jpeg',
      () => {},
      () => (ended = true),
    );
    const waiting = hub.snapshot(5000);
    await hub.stop();
    expect(ended).toBe(true);
    expect(await waiting).toBeUndefined();
    expect(s.running).toBe(false);
  });
});

describe('building blocks', () => {
  it('fps meter: rate over the window, zero when frames stopped', () => {
    const meter = createFpsMeter(2000);
    for (let t = 0; t <= 1000; t += 100) meter.tick(t);
    expect(meter.rate(1000)).toBe(10);
    expect(meter.rate(3500)).toBe(0);
  });

  it('mailbox: one in flight, the newest waiting', async () => {
    const got: number[] = [];
    let release: () => void = () => {};
    const box = createMailbox(
      (f) =>
        new Promise<void>((r) => {
          got.push(f.seq);
          release = r;
        }),
      () => {},
    );
    const frame = (seq: number): CameraFrame => ({ width: 1, height: 1, capturedAt: 0, seq });
    for (let i = 1; i <= 5; i += 1) box.offer(frame(i));
    await until(() => got.length === 1);
    release();
    await until(() => got.length === 2);
    expect(got).toEqual([1, 5]);
    expect(box.dropped).toBe(3);
  });
});

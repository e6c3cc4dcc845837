import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { holdsEventually, testWait } from '../../testing/eventually.ts';
import { createHttpRover } from './http-rover.ts';
import { FAKE_FRAME, startFakeRover, type FakeRover } from './testing/fake-rover.ts';
import type { DriveBackend } from './types.ts';
import { fetchThenCollect, startTrickleServer } from '../../testing/trickle-server.ts';

let rover: FakeRover;
let backend: DriveBackend;
const until = (check: () => boolean, timeoutMs?: number) => holdsEventually(check, { timeoutMs: testWait(timeoutMs) });

beforeEach(async () => {
  rover = await startFakeRover();
  backend = createHttpRover({ url: rover.url, log: silentLog, pollMs: 50, resendMs: 100, timeoutMs: 500 });
  await backend.start();
});
afterEach(async () => {
  await backend.close();
  await rover.close();
});

describe('HTTP rover backend (FrodoBots SDK shape)', () => {
  it('reads telemetry: battery, a local plane around the first GPS fix, compass heading', async () => {
    expect(backend.presence()).toEqual({ state: 'connected', problem: null });
    expect(backend.telemetry()).toMatchObject({ battery: 87, pose: { x: 0, y: 0 } });
    expect(backend.telemetry()?.pose.heading).toBeCloseTo(0); // compass 90° (east) is +x
    rover.data = { ...rover.data, latitude: 22.7537 + 0.0001, orientation: 0 };
    expect(await until(() => (backend.telemetry()?.pose.y ?? 0) > 11)).toBe(true);
    expect(backend.telemetry()?.pose.y).toBeCloseTo(11.12, 1);
    expect(backend.telemetry()?.pose.heading).toBeCloseTo(Math.PI / 2);
    backend.resetOdometry();
    expect(await until(() => Math.abs(backend.telemetry()?.pose.y ?? 1) < 1e-6)).toBe(true);
  });

  it('repeats the command while the frame runs and sends a zero command at its deadline', async () => {
    const deadline = Date.now() + 350;
    backend.drive({ linear: 0.6, angular: -0.2 }, deadline);
    expect(await until(() => rover.commands.some((c) => c.linear === 0 && c.angular === 0))).toBe(true);
    const moving = rover.commands.filter((c) => c.linear === 0.6);
    expect(moving.length).toBeGreaterThanOrEqual(3);
    expect(moving[0]).toMatchObject({ angular: -0.2 });
    const stop = rover.commands.find((c) => c.linear === 0);
    // The zero command comes at the deadline, not before it; how late a loaded machine delivers
    // it over HTTP is not this test's business (the base's own timing runs on a fake clock).
    // Measured against the deadline itself: the first command's arrival is as late as the
    // machine is busy, so a span from it shrank below 300 ms under load. The 2 ms allow for
    // the timer's loop clock and Date.now reading a millisecond apart.
    expect(stop?.at ?? 0).toBeGreaterThanOrEqual(deadline - 2);
    // Nothing after the stop: the next command the rover hears is the next drive, sent now.
    const count = rover.commands.length;
    backend.drive({ linear: 0.1, angular: 0 }, Date.now() + 1000);
    expect(await until(() => rover.commands.length > count)).toBe(true);
    expect(rover.commands[count]).toMatchObject({ linear: 0.1 });
  });

  it('stops at once on stop', async () => {
    backend.drive({ linear: 1, angular: 0 }, Date.now() + 1000);
    await until(() => rover.commands.length > 0);
    backend.stop();
    expect(await until(() => rover.commands.at(-1)?.linear === 0)).toBe(true);
  });

  it('reports a rover that stops answering as down, with the reason', async () => {
    rover.failWith = 503;
    expect(await until(() => backend.presence().state === 'down')).toBe(true);
    expect(backend.presence().problem).toMatch(/does not answer: GET \/data answered 503/);
  });

  it('serves the front camera as JPEG frames', async () => {
    const camera = backend.camera();
    const frames: Buffer[] = [];
    await camera?.start(
      (f) => void (f.jpeg && frames.push(f.jpeg)),
      () => undefined,
    );
    expect(await until(() => frames.length > 0)).toBe(true);
    expect(frames[0]).toEqual(FAKE_FRAME);
    await camera?.stop();
  });

  it('reads an odd front answer as an error, and an odd timestamp as "now", never as a time of Infinity', async () => {
    const frame = FAKE_FRAME.toString('base64');
    const cases: Array<[unknown, string]> = [
      [null, 'error: GET /v2/front had no front_frame'],
      [[frame], 'error: GET /v2/front had no front_frame'],
      [{ front_frame: 7 }, 'error: GET /v2/front had no front_frame'],
      [{ front_frame: frame, timestamp: 1e308 }, 'frame at 5000'],
      [{ front_frame: frame, timestamp: -5 }, 'frame at 5000'],
      [{ front_frame: frame, timestamp: '1' }, 'frame at 5000'],
      [{ front_frame: frame, timestamp: 1.5 }, 'frame at 1500'],
    ];
    for (const [answer, expected] of cases) {
      const fetchOdd = async () => Response.json(answer);
      const odd = createHttpRover({ url: 'http://127.0.0.1:9', log: silentLog, fetch: fetchOdd, now: () => 5_000 });
      const seen: string[] = [];
      const camera = odd.camera();
      // start() awaits the first grab, so its frame or error is in by the time it returns.
      await camera?.start(
        (f) => void seen.push(`frame at ${f.capturedAt}`),
        (e) => void seen.push(`error: ${e.message}`),
      );
      await camera?.stop();
      expect(seen, JSON.stringify(answer)).toEqual([expected]);
    }
  });

  it('stops reading an answer past 8 MiB, and says so', async () => {
    // 16 MiB of valid JSON: a rover reader without the bound takes it all and finds no frame.
    const big = `{"pad":"${'x'.repeat(16 * 1024 * 1024)}"}`;
    const huge = createHttpRover({ url: 'http://127.0.0.1:9', log: silentLog, fetch: async () => new Response(big) });
    const seen: string[] = [];
    const camera = huge.camera();
    await camera?.start(
      () => void seen.push('frame'),
      (e) => void seen.push(e.message),
    );
    await camera?.stop();
    expect(seen).toEqual(['GET /v2/front answered more than 8 MiB']);
  });

  it('gives up a read that never ends at its deadline, even when garbage is collected meanwhile', async () => {
    const sdk = await startTrickleServer('{"battery":');
    const trickled = createHttpRover({
      url: sdk.url,
      log: silentLog,
      cameraPath: null,
      timeoutMs: 200,
      fetch: fetchThenCollect(),
    });
    try {
      await trickled.start();
      expect(await until(() => trickled.presence().state === 'down')).toBe(true);
      expect(trickled.presence().problem).toMatch(/does not answer: The operation was aborted due to timeout/);
    } finally {
      await trickled.close();
      sdk.close();
    }
  });
});

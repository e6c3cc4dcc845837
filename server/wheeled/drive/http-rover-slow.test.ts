import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLog } from '../../log.ts';
import { createHttpRover } from './http-rover.ts';

/**
 * A rover SDK that answers GET requests only when the test says so, on fake timers: what the
 * backend asks of a slow rover, counted exactly.
 */
function slowSdk() {
  const held: Array<{ path: string; answer: (body: unknown) => void }> = [];
  const fetchFake = (url: string | URL | Request) =>
    new Promise<Response>((resolve) => {
      held.push({ path: new URL(String(url)).pathname, answer: (body) => resolve(Response.json(body)) });
    });
  const asked = (path: string) => held.filter((h) => h.path === path);
  return { fetch: fetchFake as typeof fetch, held, asked };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HTTP rover against a slow SDK', () => {
  it('asks for telemetry again only once the last answer is in', async () => {
    vi.useFakeTimers();
    const sdk = slowSdk();
    const rover = createHttpRover({
      url: 'http://rover.invalid',
      log: silentLog,
      fetch: sdk.fetch,
      cameraPath: null,
      pollMs: 250,
      timeoutMs: 5000,
    });
    const started = rover.start();
    sdk.asked('/data')[0]?.answer({ x: 0, y: 0, heading: 0 });
    await started;
    await vi.advanceTimersByTimeAsync(250);
    expect(sdk.asked('/data')).toHaveLength(2);
    // Four more periods while the second request is unanswered: no more requests pile up.
    await vi.advanceTimersByTimeAsync(1000);
    expect(sdk.asked('/data')).toHaveLength(2);
    sdk.asked('/data')[1]?.answer({ x: 1, y: 0, heading: 0 });
    await vi.advanceTimersByTimeAsync(250);
    expect(rover.telemetry()?.pose.x).toBe(1);
    expect(sdk.asked('/data')).toHaveLength(3);
  });

  it('asks for a camera frame again only once the last answer is in', async () => {
    vi.useFakeTimers();
    const sdk = slowSdk();
    const rover = createHttpRover({ url: 'http://rover.invalid', log: silentLog, fetch: sdk.fetch, timeoutMs: 5000 });
    const frames: number[] = [];
    const started = rover.camera()?.start(
      (frame) => void frames.push(frame.seq),
      () => undefined,
    );
    sdk.asked('/v2/front')[0]?.answer({ front_frame: Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64') });
    await started;
    await vi.advanceTimersByTimeAsync(200);
    expect(sdk.asked('/v2/front')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sdk.asked('/v2/front')).toHaveLength(2);
    await rover.camera()?.stop();
  });
});

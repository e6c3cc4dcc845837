import { afterEach, describe, expect, it } from 'vitest';
import { realDeadlineTimer } from './deadline.ts';
import { createDeviceApi } from './device-api.ts';
import { createDeviceRoutes } from './device-routes.ts';
import { CADENCE, PATHS } from './limits.ts';
import { createPlatformHttp } from './platform-http.ts';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

describe('media uploads have their own bound', () => {
  it('POST /api/media waits 45 s (the proxy gives its worker 30 s), every other route 15 s', async () => {
    h = await startHarness();
    const bounds: number[] = [];
    const http = createPlatformHttp({
      baseUrl: () => h.emu.url,
      deadlineTimer: (ms, expire) => {
        bounds.push(ms);
        return realDeadlineTimer(ms, expire);
      },
    });
    const api = createDeviceApi({
      http,
      identity: () => ({ platformUrl: h.emu.url, ...h.device }),
      onOutcome: () => undefined,
    });
    const routes = createDeviceRoutes(api);
    expect(await routes.media({ data: new Uint8Array([1, 2, 3]), contentType: 'image/png' })).toMatchObject({
      ok: true,
    });
    expect(await api.call('POST', PATHS.heartbeat, {})).toMatchObject({ ok: true });
    expect(bounds).toEqual([CADENCE.mediaTimeoutMs, CADENCE.requestTimeoutMs]);
    expect(CADENCE.mediaTimeoutMs).toBeGreaterThan(30_000);
  });

  it('accepts exactly 6,000,000 bytes and refuses one more before sending', async () => {
    h = await startHarness();
    await h.client.start();
    const before = h.attempts.length;
    expect(await h.client.routes.media({ data: new Uint8Array(6_000_001), contentType: 'image/png' })).toMatchObject({
      ok: false,
      failure: { kind: 'too_large' },
    });
    expect(h.attempts.length).toBe(before);
    expect(await h.client.routes.media({ data: new Uint8Array(6_000_000), contentType: 'image/png' })).toMatchObject({
      ok: true,
    });
  });
});

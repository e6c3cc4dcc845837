import { describe, expect, it } from 'vitest';
import type { DeviceApi } from '../device-api.ts';
import type { PlatformHttp } from '../platform-http.ts';
import { createFirmwarePoller } from './firmware-poller.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const HOUR = 3_600_000;

describe('firmware poller clock', () => {
  it('reads the pointer at the hourly tick after the wall clock was set back, instead of waiting out the jump', async () => {
    let now = 1_800_000_000_000;
    const reads: number[] = [];
    const api: DeviceApi = {
      async call() {
        reads.push(now);
        return { ok: true, value: { status: 200, body: {} } };
      },
      deviceId: () => 'device-1',
    };
    const poller = createFirmwarePoller({
      api,
      http: {} as PlatformHttp,
      updater: {
        currentVersion: () => '1.0.0',
        isIdle: () => true,
        installer: () => null,
        apply: async () => ({ ok: true }),
      },
      installAllowed: () => false,
      root: '/nonexistent',
      channel: () => 'stable',
      scheduler: { now: () => now, after: () => () => undefined },
      log: quiet,
      report: () => undefined,
      live: () => true,
    });
    expect(await poller.tick()).toBe(HOUR);
    // The clock was a day fast (no clock chip, a wrong guess at boot) and is corrected back.
    now -= 24 * HOUR;
    now += HOUR;
    await poller.tick();
    expect(reads).toHaveLength(2);
  });
});

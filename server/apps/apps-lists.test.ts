/**
 * The installed list and the startup app follow the daemon: read again once it answers after
 * being down when the cockpit started, and again when they grow old, so an app installed by
 * another client (Pollen's own dashboard) shows up. A fake daemon the test answers itself; the
 * poll runs at a test pace and the lists' age is on the test's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppsFrame } from '../contract/ws.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { WireAppInfo } from '../daemon/apps-client.ts';
import { AppError } from '../errors.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createAppsService, LISTS_EVERY_MS, type AppsService } from './apps-service.ts';

const app = (name: string): WireAppInfo => ({
  name,
  source_kind: 'installed',
  description: `${name} app`,
  url: null,
  extra: {},
});

let service: AppsService | undefined;
afterEach(() => service?.close());

describe('the installed apps list', () => {
  it('is read once the daemon answers, and again when it is old', async () => {
    const daemon = {
      down: true,
      installed: [app('helper_app')],
      startup: null as string | null,
      listReads: 0,
      polls: 0,
    };
    const refuse = async (): Promise<void> => {
      if (daemon.down) throw new AppError('DAEMON_UNREACHABLE', 'daemon unreachable (ECONNREFUSED)');
    };
    const apps = {
      current: async () => (await refuse(), (daemon.polls += 1), null),
      list: async () => (await refuse(), (daemon.listReads += 1), [...daemon.installed]),
      startupApp: async () => (await refuse(), daemon.startup),
    } as unknown as DaemonClient['apps'];
    let now = Date.parse('2026-11-29T10:00:00Z');
    const frames: AppsFrame[] = [];
    service = createAppsService({
      daemon: { apps },
      broadcast: (frame) => frames.push(frame as AppsFrame),
      latch: { assertFree: () => undefined, engagements: () => 0 },
      log: silentLog,
      now: () => now,
      pollMs: 5,
    });
    service.startPolling();
    await eventually(() => service?.overview().problem !== null, { what: 'the poll sees the daemon down' });
    expect(service.overview().installed).toEqual([]);

    daemon.down = false;
    await eventually(() => service?.overview().installed.length === 1, {
      what: 'the list read once the daemon answers',
    });
    expect(service.overview().installed).toEqual([
      { name: 'helper_app', description: 'helper_app app', updateAvailable: false },
    ]);
    expect(frames.at(-1)?.installed.map((a) => a.name)).toEqual(['helper_app']);

    // Another client installs an app and sets it to start with the robot.
    daemon.installed.push(app('crashy_app'));
    daemon.startup = 'crashy_app';
    const [reads, polls] = [daemon.listReads, daemon.polls];
    await eventually(() => daemon.polls >= polls + 3, { what: 'three more polls' });
    // While the list is fresh, the polls do not read it again.
    expect(daemon.listReads).toBe(reads);
    expect(service.overview().installed).toHaveLength(1);
    now += LISTS_EVERY_MS;
    await eventually(() => service?.overview().installed.length === 2, { what: 'the old list read again' });
    expect(service.overview().startupApp).toBe('crashy_app');
    expect(frames.at(-1)).toMatchObject({ startupApp: 'crashy_app' });
  });
});

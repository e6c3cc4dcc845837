/**
 * An app start (or restart) that a STOP overtakes must not leave the app running. The real
 * daemon names the new app only once its process exists (docs/daemon.md, "What daemon 1.13.0
 * does"), so a STOP that comes while the start is in the daemon's hands reads no app and stops
 * nothing. And while the STOP holds, stopping a crashed app (a move to rest, nothing else) waits
 * for the resume. A fake daemon whose start waits for the test; the latch is the real one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { WireAppInfo, WireAppStatus } from '../daemon/apps-client.ts';
import { AppError } from '../errors.ts';
import { silentLog } from '../log.ts';
import { createStopLatch } from '../motion/stop-latch.ts';
import { eventually } from '../testing/eventually.ts';
import { createAppsService, type AppsService } from './apps-service.ts';

const info = (name: string): WireAppInfo => ({ name, source_kind: 'installed', description: '', url: null, extra: {} });
const running = (name: string): WireAppStatus => ({ info: info(name), state: 'running', error: null });

/** A daemon with one app installed; each start, restart and list read waits for the test when `gated`. */
function fakeDaemon() {
  const d = {
    app: null as WireAppStatus | null,
    starts: 0,
    stops: 0,
    gated: { list: false, start: false },
    held: [] as Array<() => void>,
    async gate(which: 'list' | 'start'): Promise<void> {
      if (d.gated[which]) await new Promise<void>((resolve) => d.held.push(resolve));
    },
    apps: {
      current: async () => d.app,
      list: async () => (await d.gate('list'), [info('helper_app')]),
      startupApp: async () => null,
      start: async (name: string): Promise<WireAppStatus> => {
        d.starts += 1;
        await d.gate('start');
        d.app = running(name);
        return d.app;
      },
      restart: async (): Promise<WireAppStatus> => {
        const name = d.app?.info.name ?? 'helper_app';
        d.app = null;
        d.starts += 1;
        await d.gate('start');
        d.app = running(name);
        return d.app;
      },
      stop: async (): Promise<void> => {
        if (!d.app) throw new AppError('CONFLICT', 'No app is currently running');
        d.stops += 1;
        d.app = null;
      },
    },
  };
  return d;
}

let service: AppsService | undefined;
afterEach(() => service?.close());

function build(daemon: ReturnType<typeof fakeDaemon>, now?: () => number) {
  const latch = createStopLatch(new Map());
  service = createAppsService({
    daemon: { apps: daemon.apps as unknown as DaemonClient['apps'] },
    broadcast: () => undefined,
    latch,
    log: silentLog,
    ...(now ? { now } : {}),
  });
  /** The STOP's part here: the latch first, then the app (server/motion/emergency-stop.ts). */
  const stop = async () => {
    latch.engage('test');
    return service!.stopForEmergency();
  };
  return { service, latch, stop };
}

describe('an app start racing the STOP', () => {
  it('stops the app a start brought up after the STOP found none, and answers STOP_LATCHED', async () => {
    const daemon = fakeDaemon();
    const { service, stop } = build(daemon);
    daemon.gated.start = true;
    const start = service.start('helper_app');
    await eventually(() => daemon.held.length === 1, { what: 'the daemon starting the app' });
    // The daemon has no process yet, so the STOP finds no app.
    expect(await stop()).toEqual({ name: null, stopped: false });
    daemon.held.shift()!();
    await expect(start).rejects.toMatchObject({ code: 'STOP_LATCHED' });
    expect(daemon.stops).toBe(1);
    expect(daemon.app).toBeNull();
  });

  it('does not ask the daemon to start an app when the STOP came while the installed list was read', async () => {
    const daemon = fakeDaemon();
    const { service, stop } = build(daemon);
    daemon.gated.list = true;
    const start = service.start('helper_app');
    await eventually(() => daemon.held.length === 1, { what: 'the installed list read' });
    await stop();
    daemon.held.shift()!();
    await expect(start).rejects.toMatchObject({ code: 'STOP_LATCHED' });
    expect(daemon.starts).toBe(0);
  });

  it('stops the app a restart brought up after the STOP, even once the stop was resumed', async () => {
    const daemon = fakeDaemon();
    daemon.app = { ...running('helper_app'), state: 'error', error: 'Process exited with code 1' };
    const { service, latch, stop } = build(daemon);
    daemon.gated.start = true;
    const restart = service.restart();
    await eventually(() => daemon.held.length === 1, { what: 'the daemon restarting the app' });
    expect(await stop()).toEqual({ name: null, stopped: false });
    latch.release('test');
    daemon.held.shift()!();
    await expect(restart).rejects.toMatchObject({ code: 'STOP_LATCHED' });
    expect(daemon.stops).toBe(1);
    expect(daemon.app).toBeNull();
  });

  it('refuses to stop a crashed app while the STOP is latched: the daemon would drive the head to rest', async () => {
    const daemon = fakeDaemon();
    daemon.app = { ...running('helper_app'), state: 'error', error: 'Process exited with code 1' };
    const { service, latch, stop } = build(daemon);
    await stop();
    await expect(service.stop()).rejects.toMatchObject({ code: 'STOP_LATCHED' });
    expect(daemon.stops).toBe(0);
    // After the resume the crashed app is cleared as before.
    latch.release('test');
    await service.stop();
    expect(daemon.stops).toBe(1);
  });

  it('stops a running app while the STOP is latched', async () => {
    const daemon = fakeDaemon();
    daemon.app = running('helper_app');
    const { service, latch } = build(daemon);
    latch.engage('test');
    await service.stop();
    expect(daemon.stops).toBe(1);
  });

  /** A start the daemon answers only after the cockpit gave up (DAEMON_TIMEOUT); `appear` brings the app up later. */
  function lateStart(daemon: ReturnType<typeof fakeDaemon>) {
    const late = { timeOut: (): void => undefined, appear: () => void (daemon.app = running('helper_app')) };
    daemon.apps.start = (): Promise<WireAppStatus> => {
      daemon.starts += 1;
      return new Promise((_, reject) => {
        late.timeOut = () => reject(new AppError('DAEMON_TIMEOUT', 'daemon did not answer start of helper_app'));
      });
    };
    return late;
  }

  it('stops the app a start the daemon answered too late brings up after the STOP, within a bound', async () => {
    const daemon = fakeDaemon();
    const { service, stop } = build(daemon);
    const late = lateStart(daemon);
    const start = service.start('helper_app');
    await eventually(() => daemon.starts === 1, { what: 'the daemon starting the app' });
    // The STOP while the daemon is at it finds no app, and the start then times out.
    expect(await stop()).toEqual({ name: null, stopped: false });
    late.timeOut();
    await expect(start).rejects.toMatchObject({ code: 'DAEMON_TIMEOUT' });
    // A poll before the app is up leaves the stop owed.
    await service.refresh();
    expect(daemon.stops).toBe(0);
    late.appear();
    await service.refresh();
    await eventually(() => daemon.app === null, { what: 'the late app stopped' });
    expect(daemon.stops).toBe(1);
  });

  it('owes the late app a stop for a STOP after the start timed out, and not once the bound has passed', async () => {
    let clock = 1_000_000;
    const daemon = fakeDaemon();
    const { service, latch, stop } = build(daemon, () => clock);
    const late = lateStart(daemon);
    const start = service.start('helper_app');
    await eventually(() => daemon.starts === 1, { what: 'the daemon starting the app' });
    late.timeOut();
    await expect(start).rejects.toMatchObject({ code: 'DAEMON_TIMEOUT' });
    await stop();
    late.appear();
    await service.refresh();
    await eventually(() => daemon.app === null, { what: 'the late app stopped' });
    expect(daemon.stops).toBe(1);

    // Past the bound, a STOP owes nothing: an app started afterwards is left running.
    latch.release('test');
    const again = service.start('helper_app');
    await eventually(() => daemon.starts === 2, { what: 'the second start' });
    late.timeOut();
    await expect(again).rejects.toMatchObject({ code: 'DAEMON_TIMEOUT' });
    clock += 5 * 60_000;
    await stop();
    late.appear();
    await service.refresh();
    expect(daemon.stops).toBe(1);
    expect(daemon.app).toMatchObject({ state: 'running' });
  });

  it('starts as before when no STOP came', async () => {
    const daemon = fakeDaemon();
    const { service } = build(daemon);
    expect((await service.start('helper_app')).current).toMatchObject({ name: 'helper_app', state: 'running' });
    expect(daemon.stops).toBe(0);
  });
});

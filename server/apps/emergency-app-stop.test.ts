/**
 * The STOP's app part against a fake daemon the test answers itself: a crashed app is left
 * alone (stopping it would drive the head), a daemon that does not answer still gets the stop
 * for the app last seen running, and an app whose stop was never confirmed is stopped when the
 * daemon next shows it running.
 */
import { describe, expect, it } from 'vitest';
import type { WireAppStatus } from '../daemon/apps-client.ts';
import { AppError } from '../errors.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createStatusPoll } from './app-status-poll.ts';
import { createEmergencyAppStop } from './emergency-app-stop.ts';

const status = (name: string, state: WireAppStatus['state']): WireAppStatus => ({
  info: { name, source_kind: 'installed', description: '', url: null, extra: {} },
  state,
  error: state === 'error' ? 'Process exited with code 3' : null,
});

/** A daemon whose status answer the test sets; `down` makes every call fail as unreachable. */
function fakeDaemon(initial: WireAppStatus | null) {
  const d = {
    app: initial,
    down: false,
    stops: 0,
    async wait(): Promise<void> {
      if (d.down) throw new AppError('DAEMON_UNREACHABLE', 'daemon unreachable (ECONNREFUSED)');
    },
    apps: {
      current: async (): Promise<WireAppStatus | null> => {
        await d.wait();
        return d.app;
      },
      stop: async (): Promise<void> => {
        await d.wait();
        d.stops += 1;
        if (!d.app || d.app.state === 'done' || d.app.state === 'stopping') {
          throw new AppError('CONFLICT', 'No app is currently running');
        }
        d.app = null;
      },
    },
  };
  return d;
}

function build(daemon: ReturnType<typeof fakeDaemon>) {
  const ref: { stop?: ReturnType<typeof createEmergencyAppStop> } = {};
  const poll = createStatusPoll({
    read: async () => {
      const wire = await daemon.apps.current();
      ref.stop?.settleOwed(wire);
      return wire;
    },
    changed: () => undefined,
  });
  ref.stop = createEmergencyAppStop({ apps: daemon.apps, poll, log: silentLog, waitMs: 5000 });
  return { poll, stop: ref.stop };
}

describe('the STOP and the robot app', () => {
  it('stops a running app and checks it is gone', async () => {
    const daemon = fakeDaemon(status('helper_app', 'running'));
    const { stop } = build(daemon);
    expect(await stop.stop()).toEqual({ name: 'helper_app', stopped: true });
    expect(daemon.stops).toBe(1);
    expect(stop.owed()).toBeNull();
  });

  it('leaves a crashed app alone: no process to stop, and the daemon would drive the head to rest', async () => {
    const daemon = fakeDaemon(status('crashy_app', 'error'));
    const { stop } = build(daemon);
    expect(await stop.stop()).toEqual({ name: null, stopped: false });
    expect(daemon.stops).toBe(0);
  });

  it('stops the app last seen running when the daemon does not answer, and again once it answers', async () => {
    const daemon = fakeDaemon(status('helper_app', 'running'));
    const { poll, stop } = build(daemon);
    await poll.refresh();
    daemon.down = true;
    const report = await stop.stop();
    expect(report).toMatchObject({ name: 'helper_app', stopped: false });
    expect(report.error).toMatch(/ECONNREFUSED/);
    expect(stop.owed()).toBe('helper_app');

    // The daemon is back and the app still runs: the next poll stops it.
    daemon.down = false;
    await poll.refresh();
    await eventually(() => daemon.stops === 1, { what: 'the owed stop' });
    await eventually(() => stop.owed() === null, { what: 'the owed stop settled' });
    expect(daemon.app).toBeNull();
  });

  it('says it could not tell when the daemon does not answer and no app was seen', async () => {
    const daemon = fakeDaemon(null);
    daemon.down = true;
    const { stop } = build(daemon);
    const report = await stop.stop();
    expect(report).toMatchObject({ name: null, stopped: false });
    expect(report.error).toMatch(/the running app could not be read/);
  });

  it('forgets an owed stop when the app is gone, or when the cockpit starts an app on purpose', async () => {
    const daemon = fakeDaemon(status('helper_app', 'running'));
    const { poll, stop } = build(daemon);
    await poll.refresh();
    daemon.down = true;
    await stop.stop();
    expect(stop.owed()).toBe('helper_app');
    daemon.down = false;
    daemon.app = status('helper_app', 'error');
    await poll.refresh();
    expect(stop.owed()).toBeNull();

    daemon.app = status('helper_app', 'running');
    await poll.refresh();
    daemon.down = true;
    await stop.stop();
    stop.forgive();
    daemon.down = false;
    await poll.refresh();
    // Seen running after the forgiveness, and left running.
    await poll.refresh();
    expect(daemon.stops).toBe(0);
    expect(daemon.app?.state).toBe('running');
  });
});

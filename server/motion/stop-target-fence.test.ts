/**
 * Joystick targets a stalled daemon took into its socket before the stop came: it plays them when
 * it runs again, after the stop (target-stream.ts, halt). The relay keeps the set_target bytes as
 * the stalled daemon's kernel would, and hands them on at the release.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServiceState } from '../contract/state.ts';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import type { FeedSnapshot, Sample } from '../daemon/state-feed.ts';
import { wirePoseToXyzRpy } from '../daemon/units.ts';
import type { FullState } from '../daemon/wire.ts';
import { silentLog } from '../log.ts';
import { startSimDaemon } from '../sim/index.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createControl } from './control.ts';
import { createMoveLibraryCache } from './move-library.ts';
import { until } from './testing/rig.ts';
import { startStalledTargetSocket } from './testing/stalled-target-socket.ts';
import { stateWithHeadYaw } from './testing/head-state.ts';

const RAD = Math.PI / 180;
const TICK_MS = 20;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const state = stateWithHeadYaw;

describe('the latched stop and the joystick targets a stalled daemon still holds', () => {
  it('leaves the head where the latest state sample had it, not at the targets the daemon reads after the stop', async () => {
    const clock = createManualClock();
    const sim = await startSimDaemon();
    cleanups.push(() => sim.close());
    const relay = await startStalledTargetSocket(sim.port);
    cleanups.push(() => relay.close());
    const daemon = new HttpDaemonClient({ baseUrl: relay.url });
    cleanups.push(() => daemon.close());
    // The state feed as the stop finds it: the head at 20°, the daemon heard at each sample given.
    let sample: Sample = { state: state(20), receivedAt: clock.now() };
    const heard = new Set<(s: Sample) => void>();
    const hear = (): void => {
      sample = { state: state(20), receivedAt: clock.now() };
      for (const listener of heard) listener(sample);
    };
    const control = createControl({
      robot: {
        daemon,
        moves: createMoveLibraryCache(daemon),
        services: new Map<string, ServiceState>(),
        feed: {
          snapshot: () => ({ presence: 'connected', sample, problems: {} }) as unknown as FeedSnapshot,
          onSample: (listener) => {
            heard.add(listener);
            return () => heard.delete(listener);
          },
        },
      },
      emit: () => undefined,
      log: silentLog,
      clock,
      joystick: { idleMs: 300 },
    });
    cleanups.push(() => control.close());
    const caller = { kind: 'token' as const };
    const simYaw = async (): Promise<number> => {
      const full = (await (await fetch(`${sim.url}/api/state/full`)).json()) as FullState;
      return full.head_pose ? wirePoseToXyzRpy(full.head_pose).yaw / RAD : NaN;
    };

    // The head goes to 20° by the joystick; the socket opens in real time, so ticks go on until then.
    await until(async () => {
      hear();
      expect(control.streamTarget({ yaw: 20 }, caller).accepted).toBe(true);
      clock.advance(TICK_MS);
      return Math.abs((await simYaw()) - 20) < 0.5;
    });
    // The daemon stalls; the frame sent just before the cockpit could notice waits in its socket.
    relay.hold();
    hear();
    expect(control.streamTarget({ yaw: 40 }, caller).accepted).toBe(true);
    clock.advance(TICK_MS);
    await until(() => relay.held() > 0);

    expect(await control.stop('token')).toMatchObject({ latched: true });
    // The daemon runs again and reads what waited in its socket: the 40° target, then the stop's
    // hold at the 20° of the latest sample, which it plays last.
    const applied = sim.counters().targetsApplied;
    relay.release();
    await until(() => sim.counters().targetsApplied >= applied + 2);
    // The barrier: an antennas-only target of the test's own, once seen on the body, has had a
    // control tick after every target before it, so the head shows the last of them.
    const barrier = new WebSocket(`${sim.url.replace('http', 'ws')}/api/move/ws/set_target`);
    cleanups.push(() => barrier.terminate());
    await new Promise((resolve) => barrier.once('open', resolve));
    barrier.send(JSON.stringify({ target_antennas: [0.3, -0.3] }));
    await until(async () => {
      const full = (await (await fetch(`${sim.url}/api/state/full`)).json()) as FullState;
      return Math.abs((full.antennas_position?.[0] ?? 0) - 0.3) < 0.01;
    });
    expect(Math.abs((await simYaw()) - 20)).toBeLessThan(0.5);
  });
});

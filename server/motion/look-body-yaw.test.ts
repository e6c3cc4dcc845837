/**
 * A look that names only the body, against the simulator with a stand-in state feed: the daemon
 * keeps the body within 65° of the head's world yaw (docs/daemon.md), so the answer reports the
 * body yaw it goes to, and the safe range alone while the feed is not live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceState } from '../contract/state.ts';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import type { FeedSnapshot } from '../daemon/state-feed.ts';
import { silentLog } from '../log.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createControl, type Control } from './control.ts';
import { createMoveLibraryCache } from './move-library.ts';
import { stateWithHeadYaw } from './testing/head-state.ts';

let sim: SimDaemon;
let daemon: HttpDaemonClient;
let control: Control;
/** What the state feed says now: its presence and the head's world yaw (°) in its latest sample. */
let feed: { presence: FeedSnapshot['presence']; headYaw: number } = { presence: 'connected', headYaw: 0 };

const state = stateWithHeadYaw;

beforeAll(async () => {
  sim = await startSimDaemon({ clock: createManualClock() });
  daemon = new HttpDaemonClient({ baseUrl: sim.url });
  control = createControl({
    robot: {
      daemon,
      moves: createMoveLibraryCache(daemon),
      services: new Map<string, ServiceState>(),
      feed: {
        snapshot: () =>
          ({ presence: feed.presence, sample: { state: state(feed.headYaw), receivedAt: 0 } }) as FeedSnapshot,
        onSample: () => () => undefined,
      },
    },
    emit: () => undefined,
    log: silentLog,
  });
  control.start();
});

afterAll(async () => {
  control.close();
  await daemon.close();
  await sim.close();
});

describe('a look that names only the body', () => {
  it("reports the body yaw the daemon goes to: within 65° of the head's yaw in the state feed", async () => {
    feed = { presence: 'connected', headYaw: 40 };
    const look = await control.look({ body_yaw: -60 }, 'token');
    expect(look.applied.body_yaw).toBe(-25);
    expect(look.clamped).toEqual({ body_yaw: { requested: -60, applied: -25 } });
  });

  it('keeps to the safe range alone while the state feed is not live', async () => {
    feed = { presence: 'reconnecting', headYaw: 40 };
    const look = await control.look({ body_yaw: -60 }, 'token');
    expect(look.applied.body_yaw).toBe(-60);
    expect(look.clamped).toEqual({});
  });
});

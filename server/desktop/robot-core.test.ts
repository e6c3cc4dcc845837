/**
 * The robot core on the simulator with a hand-driven clock: the state it serves is stamped and
 * cached by that clock, so a test moves time instead of waiting for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock, MANUAL_CLOCK_START } from '../testing/manual-clock.ts';
import type { TrackingController } from '../perception/tracking.ts';
import { createRobotCore, type CoreLink, type RobotCore } from './robot-core.ts';

let sim: SimDaemon;
let core: RobotCore;
const clock = createManualClock();

beforeAll(async () => {
  sim = await startSimDaemon();
  core = createRobotCore({ daemonUrl: sim.url, simulated: true, log: silentLog, clock });
  core.start();
});
afterAll(async () => {
  await core.stop();
  await sim.close();
});

describe('robot core on an injected clock', () => {
  it('keeps one serialisation of the state until the clock moves, however many samples arrive', async () => {
    await eventually(() => core.state(), { what: 'a first state' });
    // Every sample so far arrived at the clock's start: the state's age is what the clock says.
    clock.advance(10);
    const first = core.stateJson() ?? '';
    expect(JSON.parse(first)).toMatchObject({ ageMs: 10 });
    // Two more daemon samples arrive while the clock stands still: the cached text stands too.
    let samples = 0;
    const off = core.feed.onSample(() => (samples += 1));
    await eventually(() => samples >= 2, { what: 'two newer daemon samples' });
    off();
    expect(core.stateJson()).toBe(first);
    clock.advance(10);
    expect(core.stateJson()).not.toBe(first);
    expect(clock.now()).toBe(MANUAL_CLOCK_START + 20);
  });
});

describe('robot core built with its face tracker', () => {
  it("builds the tracker on its own daemon, feed and services, and puts the tracker's status in the state from the first read", async () => {
    let link: CoreLink | undefined;
    let available: boolean | null = true;
    const tracked = createRobotCore({
      daemonUrl: sim.url,
      simulated: true,
      log: silentLog,
      tracking: (given) => {
        link = given;
        return {
          available: () => available,
          status: () => ({ enabled: true, mode: 'idle' }),
        } as unknown as TrackingController;
      },
    });
    expect(link).toMatchObject({
      daemon: tracked.daemon,
      feed: tracked.feed,
      services: tracked.services,
      simulated: true,
    });
    tracked.start();
    try {
      await eventually(() => tracked.state(), { what: 'a first state' });
      expect(tracked.state()?.tracking).toEqual({ enabled: true, mode: 'idle' });
      // The daemon's tracker unavailable (no camera): the state says nothing of tracking.
      available = false;
      expect(tracked.state()).not.toHaveProperty('tracking');
    } finally {
      await tracked.stop();
    }
    expect(core.tracking).toBeUndefined();
    expect(core.state()).not.toHaveProperty('tracking');
  });
});

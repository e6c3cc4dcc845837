import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceState } from '../contract/state.ts';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import { silentLog } from '../log.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { createManualClock, type ManualClock } from '../testing/manual-clock.ts';
import { createArbiter, type Arbiter } from './arbiter.ts';
import { createMoveEvents, type MoveEvents } from './move-events.ts';
import { createMoveLibraryCache } from './move-library.ts';
import { express } from './robot-controls.ts';
import { createStopLatch } from './stop-latch.ts';
import { createTargetStream, type TargetStream } from './target-stream.ts';
import { recordingHolds, until } from './testing/rig.ts';

const HOLD = 'emotion:welcoming1';

let sim: SimDaemon;
let daemon: HttpDaemonClient;
let events: MoveEvents;
let stream: TargetStream;
let arbiter: Arbiter;
let holds: ReturnType<typeof recordingHolds>;
/** The waits for a move's end; the simulator's own clock never moves, so the move plays on. */
let clock: ManualClock;

beforeEach(async () => {
  sim = await startSimDaemon({ clock: createManualClock() });
  daemon = new HttpDaemonClient({ baseUrl: sim.url });
  clock = createManualClock();
  // No pings within the test's minutes: a ping's answer would need real time to come.
  events = createMoveEvents({ daemon, log: silentLog, clock, pingMs: 3_600_000 });
  events.start();
  stream = createTargetStream({ baseUrl: sim.url, log: silentLog });
  holds = recordingHolds();
  const latch = createStopLatch(new Map<string, ServiceState>());
  arbiter = createArbiter({ daemon, events, stream, latch, holds, emit: () => undefined, log: silentLog });
  await until(() => events.connected());
});

afterEach(async () => {
  stream.close();
  events.stop();
  await daemon.close();
  await sim.close();
});

const renewals = (): number => holds.calls.filter((c) => c.op === 'take' && c.name === HOLD).length - 1;

/** The turn toward the speaker: it yields to any move that has the head. */
const turn = () =>
  arbiter.run({
    label: 'turn toward the speaker',
    onlyIfIdle: true,
    maxSeconds: 2,
    start: (d) => d.goto({ head_pose: { yaw: 0.3 }, duration: 1 }),
  });

describe('a recorded move that plays past 30 s', () => {
  it('keeps its hold and the head while the daemon still plays it, up to 120 s', async () => {
    const moves = createMoveLibraryCache(daemon);
    const played = await express({ daemon, arbiter, moves, emit: () => undefined }, 'welcoming1', 'token');
    await until(() => events.running().includes(played.uuid));

    clock.advance(31_000);
    await expect(turn()).rejects.toMatchObject({ code: 'CONFLICT' });
    await until(() => renewals() === 1);
    expect(holds.live()).toEqual([HOLD]);
    expect(arbiter.current()?.uuid).toBe(played.uuid);

    clock.advance(30_000);
    await until(() => renewals() === 2);
    clock.advance(30_000);
    await until(() => renewals() === 3);
    // Still running at 120 s: the hold lapses all the same, and the head is free again.
    clock.advance(30_000);
    await until(() => holds.live().length === 0);
    expect(renewals()).toBe(3);
    const turned = await turn();
    expect(await daemon.runningMoves()).toEqual([turned.uuid]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FullState } from '../daemon/wire.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { startRig, until, type Rig } from './testing/rig.ts';

let rig: Rig;
/** The joystick stream's time: its test moves it 20 ms tick by tick. */
const clock = createManualClock();
beforeAll(async () => {
  rig = await startRig({ joystick: { idleMs: 300 }, clock });
});
afterAll(() => rig.close());

const state = async () => rig.daemon.fullState() as Promise<FullState>;

describe('motion arbiter against the simulator', () => {
  it('keeps ONE move owner: a new move cancels the one running', async () => {
    const first = await rig.control.arbiter.run({
      label: 'slow',
      maxSeconds: 6,
      start: (d) => d.goto({ head_pose: { yaw: 0.5 }, duration: 5 }),
    });
    expect(await rig.running()).toEqual([first.uuid]);
    const second = await rig.control.arbiter.run({
      label: 'express',
      maxSeconds: 30,
      start: (d) => d.playMove('pollen-robotics/reachy-mini-emotions-library', 'welcoming1'),
    });
    expect(await rig.running()).toEqual([second.uuid]);
    expect(await first.done).toBe('cancelled');
    expect(rig.control.arbiter.current()?.uuid).toBe(second.uuid);
    await rig.control.arbiter.cancelCurrent();
    expect(await second.done).toBe('cancelled');
    expect(await rig.running()).toEqual([]);
  });

  it('also cancels moves it did not start (the daemon does not serialise)', async () => {
    const foreign = await rig.daemon.goto({ head_pose: { pitch: 0.2 }, duration: 5 });
    // Its move_started event arrives after the POST returns: the arbiter knows of it from then on.
    await until(() => rig.control.arbiter.running().includes(foreign));
    expect(rig.control.arbiter.current()).toBeUndefined();
    const mine = await rig.control.arbiter.run({
      label: 'look',
      maxSeconds: 2,
      start: (d) => d.goto({ head_pose: { yaw: 0.1 }, duration: 0.3 }),
    });
    expect(await rig.running()).not.toContain(foreign);
    expect(await mine.done).toBe('completed');
  });

  it('takes a hold before the move and releases it when the move ends', async () => {
    rig.holds.calls.length = 0;
    const move = await rig.control.arbiter.run({
      label: 'look',
      hold: 'look',
      maxSeconds: 1.3,
      start: (d) => d.goto({ head_pose: { yaw: 0.2 }, duration: 0.3 }),
    });
    expect(rig.holds.live()).toEqual(['look']);
    expect(rig.holds.calls[0]).toEqual({ op: 'take', name: 'look', ttl: 2.3 });
    await move.done;
    expect(rig.holds.live()).toEqual([]);
  });

  it('a cancelled move does not release the hold its successor took', async () => {
    const a = await rig.control.arbiter.run({
      label: 'a',
      hold: 'look',
      maxSeconds: 6,
      start: (d) => d.goto({ head_pose: { yaw: 0.3 }, duration: 5 }),
    });
    const b = await rig.control.arbiter.run({
      label: 'b',
      hold: 'look',
      maxSeconds: 2,
      start: (d) => d.goto({ head_pose: { yaw: -0.3 }, duration: 0.5 }),
    });
    expect(await a.done).toBe('cancelled');
    expect(rig.holds.live()).toEqual(['look']);
    await b.done;
    expect(rig.holds.live()).toEqual([]);
  });

  it('streams joystick targets over one socket, coalesced, and stops 300 ms after the last frame', async () => {
    const caller = { kind: 'passkey' as const };
    const frame = { type: 'joystick', yaw: 25, pitch: -5, roll: 0, z: 0 };
    const applied = () => rig.sim.counters().targetsApplied;
    const before = applied();
    // The move events ping their socket on this clock too, once it is open: a quiet Control's one timer.
    await until(() => clock.pending() === 1);
    // The socket opens in real time: push and tick until the first target is applied.
    await until(() => {
      expect(rig.control.streamTarget(frame, caller).accepted).toBe(true);
      clock.advance(20);
      return applied() > before;
    });
    const first = applied();
    // 200 Hz from the client for 20 ticks of 20 ms: four pushes a tick. (That exactly one frame
    // goes out a tick is target-stream.test.ts's to prove; warm-up frames may still be landing.)
    for (let tick = 0; tick < 20; tick += 1) {
      for (let i = 0; i < 4; i += 1) expect(rig.control.streamTarget(frame, caller).accepted).toBe(true);
      clock.advance(20);
    }
    await until(() => applied() >= first + 20);
    expect(rig.control.arbiter.current()).toBeUndefined();
    expect(rig.sim.counters().setTargetWsClients).toBe(1);
    // Quiet for 300 ms of stream time: the stream ends and nothing is left to tick but the ping.
    clock.advance(300);
    expect(clock.pending()).toBe(1);
    await until(async () => {
      const s = await state();
      const yaw = s.head_pose && 'yaw' in s.head_pose ? (s.head_pose.yaw ?? 0) * (180 / Math.PI) : NaN;
      return Math.abs(yaw - 25) < 0.5;
    });
    expect(rig.events.filter((e) => e.action === 'joystick').map((e) => e.text)).toEqual([
      'joystick control started',
      'joystick released; head holds yaw 25° pitch -5°',
    ]);
  });

  it('clamps joystick targets and refuses bad frames without sending', () => {
    const result = rig.control.streamTarget({ type: 'joystick', yaw: 200, pitch: 0 }, { kind: 'token' });
    expect(result).toMatchObject({
      accepted: true,
      target: { yaw: 60 },
      clamped: { yaw: { requested: 200, applied: 60 } },
    });
    expect(rig.control.streamTarget({ yaw: 'left' }, { kind: 'token' })).toMatchObject({
      accepted: false,
      code: 'BAD_REQUEST',
    });
    expect(rig.control.streamTarget({ yaw: 1 }, { kind: 'anonymous' })).toMatchObject({
      accepted: false,
      code: 'AUTH_REQUIRED',
    });
  });
});

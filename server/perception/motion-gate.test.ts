import { describe, expect, it } from 'vitest';
import type { Control } from '../motion/control.ts';
import type { AppLockStatus } from '../daemon/wire.ts';
import { lockedError } from '../motion/app-lock.ts';
import type { MoveRequest } from '../motion/arbiter.ts';
import { startRig, until } from '../motion/testing/rig.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { motionGate, TURN_HOLD, turnGoto } from './motion-gate.ts';

const rad = (deg: number): number => (deg * Math.PI) / 180;

function fakeControl() {
  const c = {
    latched: false,
    current: undefined as { uuid: string; label: string } | undefined,
    reel: false,
    runs: [] as MoveRequest[],
    lock: { state: 'free', holder_name: null } as AppLockStatus,
  };
  const control = {
    latch: { engaged: () => c.latched, engagements: () => 0 },
    arbiter: {
      current: () => c.current,
      run: async (request: MoveRequest) => {
        c.runs.push(request);
        return { uuid: 'u1', label: request.label, done: Promise.resolve('completed' as const) };
      },
    },
    reelRunner: { status: () => ({ running: c.reel }) },
    appLock: {
      last: () => c.lock,
      assertFree: async () => {
        if (c.lock.state !== 'free') throw lockedError(c.lock);
      },
    },
  } as unknown as Pick<Control, 'arbiter' | 'latch' | 'reelRunner' | 'appLock'>;
  return { c, gate: motionGate(control) };
}

describe('motion gate', () => {
  it('is free when nothing moves', () => {
    expect(fakeControl().gate.busy()).toBeNull();
  });

  it('names what keeps motion busy: the latched stop, a move, the reel', () => {
    const { c, gate } = fakeControl();
    c.reel = true;
    expect(gate.busy()).toBe('reel running');
    c.current = { uuid: 'm', label: 'express cheerful1' };
    expect(gate.busy()).toBe('move in flight: express cheerful1');
    c.latched = true;
    expect(gate.busy()).toBe('stop latched');
  });

  it('does not turn while an app or a remote session holds the robot', async () => {
    const { c, gate } = fakeControl();
    c.lock = { state: 'local_app', holder_name: 'hello_world' };
    expect(gate.busy()).toBe('robot in use (local_app: hello_world)');
    await expect(gate.turn({ headYaw: 45, bodyYaw: null, pitch: 0 })).rejects.toMatchObject({
      code: 'ROBOT_APP_LOCKED',
    });
    expect(c.runs).toEqual([]);
  });

  it('turns through the arbiter with the doa hold, as one 0.7 s goto', async () => {
    const { c, gate } = fakeControl();
    await gate.turn({ headYaw: 45, bodyYaw: 15, pitch: -5 });
    expect(c.runs).toHaveLength(1);
    expect(c.runs[0]).toMatchObject({ label: 'turn toward speaker', hold: TURN_HOLD, maxSeconds: 1.7 });
  });

  it('builds the goto in radians; no body yaw when the head alone turns', () => {
    const withBody = turnGoto({ headYaw: 45, bodyYaw: 15, pitch: -5 });
    expect(withBody.duration).toBe(0.7);
    expect(withBody.head_pose).toEqual({ x: 0, y: 0, z: 0, roll: 0, pitch: rad(-5), yaw: rad(45) });
    expect(withBody.body_yaw).toBeCloseTo(rad(15), 12);
    expect('body_yaw' in turnGoto({ headYaw: 20, bodyYaw: null, pitch: 0 })).toBe(false);
  });

  it('yields to a move the operator started while it read the app lock', async () => {
    // The simulator's clock never moves: the operator's look runs until someone cancels it.
    const rig = await startRig({}, createManualClock());
    const { appLockStatus } = rig.daemon;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reading = false;
    rig.daemon.appLockStatus = async () => {
      reading = true;
      await held;
      return appLockStatus.call(rig.daemon);
    };
    try {
      const gate = motionGate(rig.control);
      expect(gate.busy()).toBeNull();
      const turn = gate.turn({ headYaw: 30, bodyYaw: null, pitch: 0 });
      const refused = expect(turn).rejects.toMatchObject({ code: 'CONFLICT' });
      await until(() => reading);
      const look = await rig.control.arbiter.run({
        label: 'look',
        maxSeconds: 6,
        start: (d) => d.goto({ head_pose: { yaw: -0.3 }, duration: 5 }),
      });
      release();
      await refused;
      expect(await rig.running()).toEqual([look.uuid]);
      expect(rig.control.arbiter.current()?.uuid).toBe(look.uuid);
    } finally {
      rig.daemon.appLockStatus = appLockStatus;
      await rig.close();
    }
  });

  it('does not turn after a stop that came while it read the app lock, even once resumed', async () => {
    const rig = await startRig({}, createManualClock());
    const { appLockStatus, goto } = rig.daemon;
    const calls: string[] = [];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    rig.daemon.appLockStatus = async () => {
      calls.push('lock read');
      await held;
      return appLockStatus.call(rig.daemon);
    };
    rig.daemon.goto = async (req) => {
      calls.push('goto');
      return goto.call(rig.daemon, req);
    };
    try {
      const turn = motionGate(rig.control).turn({ headYaw: 30, bodyYaw: null, pitch: 0 });
      const refused = expect(turn).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('lock read'));
      await rig.control.stop('token');
      rig.control.resume('token');
      release();
      await refused;
      expect(calls).toEqual(['lock read']);
      expect(await rig.running()).toEqual([]);
    } finally {
      Object.assign(rig.daemon, { appLockStatus, goto });
      await rig.close();
    }
  });
});

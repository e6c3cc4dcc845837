/**
 * Moves that would outlive a stop: the ones the daemon starts while it is latched, and the ones
 * asked for before it that a stalled daemon, a library read or an app-lock read lets through late
 * (arbiter.ts, StopLatch.engagements). Each test has a rig of its own on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../testing/manual-clock.ts';
import { heldBack, recordStops, stallNextGoto, startHeldMove } from './testing/gated-daemon.ts';
import { startRig, until } from './testing/rig.ts';

describe('a move the daemon starts while the stop is latched', () => {
  it('is cancelled: a goto that timed out on a stalled daemon runs when the daemon wakes, after the stop', async () => {
    // The simulator's clock never moves: a move ends only when someone cancels it.
    const own = await startRig({}, createManualClock());
    const { stopMove } = own.daemon;
    const stops: string[] = [];
    recordStops(own, stops);
    try {
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 0 });
      // What the stalled daemon does once it runs again: it plays the goto whose answer the cockpit
      // gave up waiting for before the stop listed what ran.
      const late = await own.daemon.goto({ head_pose: { yaw: 0.4 }, duration: 3 });
      await until(async () => (await own.running()).length === 0);
      expect(stops).toEqual([late]);

      own.control.resume('token');
      const allowed = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      // Its start event has been handled once the arbiter lists it; no stop was asked for it.
      await until(() => own.control.arbiter.running().includes(allowed));
      expect(stops).toEqual([late]);
      expect(await own.running()).toEqual([allowed]);
    } finally {
      own.daemon.stopMove = stopMove;
      await own.close();
    }
  });

  it('is cancelled after the resume too when it was asked for before a stop', async () => {
    const own = await startRig({}, createManualClock());
    const { stopMove } = own.daemon;
    const stops: string[] = [];
    const stalled = stallNextGoto(own);
    recordStops(own, stops);
    try {
      await expect(own.control.look({ yaw: 20, duration: 3 }, 'token')).rejects.toMatchObject({
        code: 'DAEMON_TIMEOUT',
      });
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 0 });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      // A look asked for after the resume plays, whether its start event comes before its answer or after.
      const fresh = await own.control.look({ yaw: -20, duration: 3 }, 'token');
      stalled.release();
      const played = await stalled.played();
      await until(async () => !(await own.running()).includes(played));
      expect(stops).toEqual([played]);

      // That start is accounted for: a move started afterwards by someone else is left alone.
      const other = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      await until(() => own.control.arbiter.running().includes(other));
      expect(stops).toEqual([played]);
      expect((await own.running()).sort()).toEqual([fresh.uuid, other].sort());
    } finally {
      stalled.restore();
      own.daemon.stopMove = stopMove;
      await own.close();
    }
  });

  it('plays when no stop came since it was asked for, and a stop after it then cancels no later move', async () => {
    const own = await startRig({}, createManualClock());
    const { stopMove } = own.daemon;
    const stops: string[] = [];
    const stalled = stallNextGoto(own);
    recordStops(own, stops);
    try {
      await expect(own.control.look({ yaw: 20, duration: 3 }, 'token')).rejects.toMatchObject({
        code: 'DAEMON_TIMEOUT',
      });
      stalled.release();
      const played = await stalled.played();
      await until(() => own.control.arbiter.running().includes(played));
      // The stop cancels it as it cancels any running move; the resume lets motion be asked for again.
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 1 });
      own.control.resume('token');
      stops.length = 0;
      // A move someone else starts now is no late start of the look: it is left alone. The next
      // one is heard after the first was judged.
      const other = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      const next = await own.daemon.goto({ head_pose: { pitch: 0.1 }, duration: 3 });
      await until(() => own.control.arbiter.running().includes(next));
      expect(stops).toEqual([]);
      expect((await own.running()).sort()).toEqual([other, next].sort());
    } finally {
      stalled.restore();
      own.daemon.stopMove = stopMove;
      await own.close();
    }
  });
});

describe('a move asked for before the stop', () => {
  it('is not sent when the stop lands while the move before it is being cancelled', async () => {
    // The simulator's clock never moves: the first move runs until someone cancels it.
    const own = await startRig({}, createManualClock());
    const { goto, stopMove } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    let holdNextStop = false;
    own.daemon.goto = async (req) => {
      calls.push('goto');
      return goto.call(own.daemon, req);
    };
    own.daemon.stopMove = async (uuid) => {
      if (holdNextStop) {
        holdNextStop = false;
        calls.push('cancel asked');
        await gate;
      }
      await stopMove.call(own.daemon, uuid);
    };
    try {
      await own.control.arbiter.run({
        label: 'first',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: 0.3 }, duration: 4 }),
      });
      calls.length = 0;
      holdNextStop = true;
      const second = own.control.arbiter.run({
        label: 'second',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: -0.3 }, duration: 4 }),
      });
      const refused = expect(second).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('cancel asked'));
      const stopped = own.control.stop('token');
      release();
      expect(await stopped).toMatchObject({ latched: true, daemon: { ok: true } });
      await refused;
      expect(calls).toEqual(['cancel asked']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { goto, stopMove });
      await own.close();
    }
  });

  it('does not play when the resume comes before its start was answered', async () => {
    const own = await startRig({}, createManualClock());
    const { gate, release } = heldBack();
    try {
      const { refused } = await startHeldMove(own, gate);
      // The stop waits for the start on its way; the operator resumes before it has answered.
      const stopped = own.control.stop('token');
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await stopped;
      await refused;
      expect(await own.running()).toEqual([]);
      // Motion asked for after the resume plays as usual.
      const next = await own.control.arbiter.run({
        label: 'after the resume',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: -0.2 }, duration: 4 }),
      });
      expect(await own.running()).toEqual([next.uuid]);
    } finally {
      await own.close();
    }
  });

  it('wake sends no wake-up move when the stop lands while the motors are being enabled', async () => {
    const own = await startRig({}, createManualClock());
    const { setMotorMode, wakeUp } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.daemon.setMotorMode = async (mode) => {
      calls.push(`motors ${mode}`);
      await gate;
      await setMotorMode.call(own.daemon, mode);
    };
    own.daemon.wakeUp = async () => {
      calls.push('wake_up');
      return wakeUp.call(own.daemon);
    };
    try {
      const woke = own.control.wake('token');
      const refused = expect(woke).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.length > 0);
      const stopped = own.control.stop('token');
      release();
      expect(await stopped).toMatchObject({ latched: true, daemon: { ok: true } });
      await refused;
      expect(calls).toEqual(['motors enabled']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { setMotorMode, wakeUp });
      await own.close();
    }
  });

  it('a look still reading the app lock when a stop and its resume came is not played', async () => {
    const own = await startRig({}, createManualClock());
    const { appLockStatus, goto } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.daemon.appLockStatus = async () => {
      calls.push('lock read');
      await gate;
      return appLockStatus.call(own.daemon);
    };
    own.daemon.goto = async (req) => {
      calls.push('goto');
      return goto.call(own.daemon, req);
    };
    try {
      const look = own.control.look({ yaw: 20, duration: 5 }, 'token');
      const refused = expect(look).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('lock read'));
      expect(await own.control.stop('token')).toMatchObject({ latched: true });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await refused;
      expect(calls).toEqual(['lock read']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { appLockStatus, goto });
      await own.close();
    }
  });

  it('an express whose move library read a stop and its resume overtook is not played', async () => {
    const own = await startRig({}, createManualClock());
    const { find } = own.moves;
    const { playMove } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.moves.find = async (name) => {
      calls.push('library read');
      await gate;
      return find.call(own.moves, name);
    };
    own.daemon.playMove = async (dataset, name) => {
      calls.push('play');
      return playMove.call(own.daemon, dataset, name);
    };
    try {
      const express = own.control.express('welcoming1', 'token');
      const refused = expect(express).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('library read'));
      expect(await own.control.stop('token')).toMatchObject({ latched: true });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await refused;
      expect(calls).toEqual(['library read']);
      expect(await own.running()).toEqual([]);
    } finally {
      own.moves.find = find;
      own.daemon.playMove = playMove;
      await own.close();
    }
  });
});

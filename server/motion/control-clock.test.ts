/**
 * Control's clock (ControlDeps.clock) runs every timing rule of the motion it composes, the move
 * events' among them: a move's wait for its end lapses when that clock says so.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../testing/manual-clock.ts';
import { startRig, until } from './testing/rig.ts';

/** Lets the promise callbacks a timer started run to their end. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("Control's clock", () => {
  it("ends a move's wait and hold on it: a 1 s look still running after 2 s of that clock lets the head go", async () => {
    const clock = createManualClock();
    // The simulator's clock never moves: the look plays on until someone cancels it.
    const rig = await startRig({ clock }, createManualClock());
    try {
      const look = await rig.control.look({ yaw: 10, duration: 1 }, 'token');
      expect(rig.control.arbiter.current()?.uuid).toBe(look.uuid);
      expect(rig.holds.live()).toContain('look');
      // A 1 s look is waited for 2 s (goto-controls.ts, maxSeconds), then its hold and the head are let go.
      clock.advance(2000);
      await settled();
      expect(rig.holds.live()).not.toContain('look');
      expect(rig.control.arbiter.current()).toBeUndefined();
    } finally {
      await rig.close();
    }
  });

  it("renews the joystick's look hold once a second of that clock, the holds' own, while frames keep coming", async () => {
    const clock = createManualClock();
    const rig = await startRig({ clock });
    try {
      const frame = { type: 'joystick', yaw: 10, pitch: 0 };
      const lookTakes = () => rig.holds.calls.filter((c) => c.op === 'take' && c.name === 'look').length;
      // A frame every 250 ms for 1.5 s: the stream stays up (idle after 300 ms) and its 2 s hold
      // must be taken again before it lapses, whatever little real time the loop takes.
      for (let t = 0; t <= 1500; t += 250) {
        expect(rig.control.streamTarget(frame, { kind: 'token' }).accepted).toBe(true);
        clock.advance(250);
      }
      expect(lookTakes()).toBe(2);
    } finally {
      await rig.close();
    }
  });

  it('re-reads the app lock for joystick frames once a second of that clock, and refuses them once an app holds the robot', async () => {
    const clock = createManualClock();
    const rig = await startRig({ clock });
    try {
      const frame = { type: 'joystick', yaw: 10, pitch: 0 };
      expect(rig.control.streamTarget(frame, { kind: 'token' }).accepted).toBe(true);
      await until(() => rig.control.appLock.last()?.state === 'free');
      await rig.simCall('/sim/app-lock', { state: 'local_app', holder: 'dancer' });
      // Frames for 1.5 s of Control's clock, whatever little real time they take: the last one
      // reads the lock again.
      for (let t = 0; t <= 1500; t += 250) {
        expect(rig.control.streamTarget(frame, { kind: 'token' }).accepted).toBe(true);
        clock.advance(250);
      }
      await until(() => rig.control.appLock.last()?.state === 'local_app');
      expect(rig.control.streamTarget(frame, { kind: 'token' })).toMatchObject({
        accepted: false,
        code: 'ROBOT_APP_LOCKED',
      });
    } finally {
      await rig.close();
    }
  });
});

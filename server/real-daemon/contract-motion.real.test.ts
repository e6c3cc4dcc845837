/**
 * Contract suite, motion part: the unchanged cockpit drives the real daemon, and every effect is
 * checked in the daemon's own state and move events. It runs on the mockup backend (no physics)
 * and, where the MuJoCo extra is installed, once more against physics (`--sim --headless`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../testing/cockpit-harness.ts';
import type { FullState } from '../daemon/wire.ts';
import { realDaemonInstall } from './testing/installed.ts';
import { DAEMON_START_MS, moveEvents, rad, startRealRig, type RealRig } from './testing/real-rig.ts';
import type { Flavour } from './venv.ts';

/** Physics settles near, not exactly on, the target; the mockup copies targets exactly. */
const TOLERANCE: Record<Flavour, number> = { mockup: rad(1), mujoco: rad(4) };

/**
 * The motor mode the daemon then reports. The MuJoCo backend accepts every mode and always
 * reports `enabled` (its set_motor_control_mode does nothing); the mockup stores the mode.
 */
const reportedMode = (flavour: Flavour, mode: string): string => (flavour === 'mujoco' ? 'enabled' : mode);

for (const flavour of ['mockup', 'mujoco'] as const) {
  const install = realDaemonInstall(flavour);
  if (!install.installed && install.required) {
    it(`the real daemon (${flavour}) is installed for CI`, () => {
      throw new Error(install.failure);
    });
  }
  describe.skipIf(!install.installed)(`real daemon motion contract, ${flavour} (${install.note})`, () => {
    let rig: RealRig;
    const tol = TOLERANCE[flavour];
    const full = async () => (await rig.daemonGet<FullState>('/api/state/full')).body;
    const near = (a: number | null | undefined, b: number) => typeof a === 'number' && Math.abs(a - b) <= tol;
    /** Polls the daemon's own state until the predicate holds (the move's duration plus slack). */
    const daemonReaches = (pred: (s: FullState) => boolean, ms = 10_000) => until(async () => pred(await full()), ms, 100);
    const resume = async () => {
      await rig.h.authed('/api/console/resume', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    };

    beforeAll(async () => {
      rig = await startRealRig(install.paths, flavour);
      // Motors on before moving: a daemon may boot with them in any mode.
      const motors = await rig.control('/api/control/motors', { mode: 'enabled' });
      expect(motors.status, JSON.stringify(motors.body)).toBe(200);
    }, DAEMON_START_MS + 30_000);
    afterAll(() => rig?.close());

    it('look moves the head: the daemon reports the pose', async () => {
      const res = await rig.control('/api/control/look', { yaw: 20, pitch: -10, duration: 0.5 });
      expect(res.status).toBe(200);
      expect(typeof res.body['uuid']).toBe('string');
      const pose = (s: FullState) => s.head_pose as { yaw: number; pitch: number };
      expect(await daemonReaches((s) => near(pose(s).yaw, rad(20)) && near(pose(s).pitch, rad(-10)))).toBe(true);
    });

    it("a look at the edge of the head's reach is taken, and one past it is refused unsent", async () => {
      type Pose = { z: number; roll: number; pitch: number };
      const pose = (s: FullState) => s.head_pose as Pose;
      const edge = await rig.control('/api/control/look', { pitch: 25, roll: 25, z: 8, duration: 0.5 });
      expect(edge.status, JSON.stringify(edge.body)).toBe(200);
      const atEdge = (s: FullState) =>
        near(pose(s).pitch, rad(25)) && near(pose(s).roll, rad(25)) && Math.abs(pose(s).z - 0.008) <= 0.003;
      expect(await daemonReaches(atEdge)).toBe(true);
      // Sent, the daemon would take the head part of the way and call the move completed.
      const past = await rig.control('/api/control/look', { pitch: 25, roll: 25, z: 20, duration: 0.5 });
      expect(past.status).toBe(400);
      expect(past.body).toMatchObject({ code: 'BAD_REQUEST' });
      expect((await rig.control('/api/control/home')).status).toBe(200);
      expect(await daemonReaches((s) => near(pose(s).pitch, 0) && near(pose(s).roll, 0))).toBe(true);
    });

    it('antennas and body yaw reach the daemon', async () => {
      expect((await rig.control('/api/control/antennas', { right: 30, left: -30 })).status).toBe(200);
      expect(
        await daemonReaches((s) => near(s.antennas_position?.[0], rad(30)) && near(s.antennas_position?.[1], rad(-30))),
      ).toBe(true);
      expect((await rig.control('/api/control/look', { yaw: 10, body_yaw: 25, duration: 0.5 })).status).toBe(200);
      expect(await daemonReaches((s) => near(s.body_yaw, rad(25)))).toBe(true);
    });

    it('a look naming the head only says where it takes the body along', async () => {
      expect((await rig.control('/api/control/look', { yaw: 40, body_yaw: 100, duration: 0.5 })).status).toBe(200);
      expect(await daemonReaches((s) => near(s.body_yaw, rad(100)))).toBe(true);
      // The body is 100° from the head's new yaw: the daemon keeps it within 65°, so it turns to 5°.
      const look = await rig.control('/api/control/look', { yaw: -60, duration: 0.5 });
      expect(look.status).toBe(200);
      expect(look.body['applied']).toMatchObject({ yaw: -60, body_yaw: 5 });
      // Once on a loaded machine (load 12), MuJoCo's body had not come within 4° of 5° after 10 s;
      // the message says where it was, should that come again.
      const reached = await daemonReaches((s) => near(s.body_yaw, rad(5)));
      expect(reached, `body at ${(((await full()).body_yaw ?? NaN) / rad(1)).toFixed(1)}°`).toBe(true);
    });

    it('home brings head and body back to neutral', async () => {
      expect((await rig.control('/api/control/home')).status).toBe(200);
      expect(
        await daemonReaches((s) => near((s.head_pose as { yaw: number }).yaw, 0) && near(s.body_yaw, 0)),
      ).toBe(true);
    });

    it('motor modes are set on the daemon', async () => {
      for (const mode of ['disabled', 'gravity_compensation', 'enabled'] as const) {
        const res = await rig.control('/api/control/motors', { mode });
        // Gravity compensation needs a kinematics engine the daemon may lack: a clear error, never a 500.
        if (mode === 'gravity_compensation' && res.status !== 200) {
          expect(res.status).toBe(502);
          expect(res.body).toMatchObject({ code: 'DAEMON_ERROR' });
          continue;
        }
        expect(res.status).toBe(200);
        expect((await rig.daemonGet<{ mode: string }>('/api/motors/status')).body.mode).toBe(reportedMode(flavour, mode));
      }
    });

    it('sleep runs the daemon move and relaxes the motors; wake brings the head up', async () => {
      const events = await moveEvents(rig.daemon.url);
      try {
        const sleep = await rig.control('/api/control/sleep');
        expect(sleep.status).toBe(200);
        const uuid = String(sleep.body['uuid']);
        expect(await until(() => events.events.some((e) => e.uuid === uuid && e.type === 'move_completed'), 20_000, 100)).toBe(true);
        const relaxed = reportedMode(flavour, 'disabled');
        expect(await until(async () => (await rig.daemonGet<{ mode: string }>('/api/motors/status')).body.mode === relaxed, 10_000, 100)).toBe(true);
        const wake = await rig.control('/api/control/wake');
        expect(wake.status).toBe(200);
        const woke = String(wake.body['uuid']);
        expect(await until(() => events.events.some((e) => e.uuid === woke && e.type === 'move_completed'), 20_000, 100)).toBe(true);
        expect((await rig.daemonGet<{ mode: string }>('/api/motors/status')).body.mode).toBe('enabled');
      } finally {
        events.close();
      }
    }, 60_000);

    it('STOP cancels a running move by its uuid: started, then cancelled, never completed', async () => {
      const events = await moveEvents(rig.daemon.url);
      try {
        const look = await rig.control('/api/control/look', { yaw: -25, duration: 6 });
        expect(look.status).toBe(200);
        const uuid = String(look.body['uuid']);
        expect(await until(async () => (await rig.daemonGet<{ uuid: string }[]>('/api/move/running')).body.some((m) => m.uuid === uuid), 5000, 50)).toBe(true);
        const stop = await rig.control('/api/control/stop');
        expect(stop.status).toBe(200);
        expect(stop.body).toMatchObject({ latched: true, daemon: { ok: true } });
        expect(stop.body['movesStopped']).toBeGreaterThanOrEqual(1);
        expect(await until(() => events.events.some((e) => e.uuid === uuid && e.type === 'move_cancelled'), 5000, 50)).toBe(true);
        const mine = events.events.filter((e) => e.uuid === uuid).map((e) => e.type);
        expect(mine).toEqual(['move_started', 'move_cancelled']);
        expect((await rig.daemonGet<unknown[]>('/api/move/running')).body).toEqual([]);
        // Latched: motion is refused until resume; STOP itself is never refused.
        expect((await rig.control('/api/control/look', { yaw: 5 })).body).toMatchObject({ code: 'STOP_LATCHED' });
        expect((await rig.control('/api/control/stop')).status).toBe(200);
      } finally {
        events.close();
        await resume();
      }
    });
  });
}

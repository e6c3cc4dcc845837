/** Motion over time: gotos, wake/sleep, recorded moves, motor modes, clamping. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { EMOTIONS_DATASET, EMOTION_NAMES, DANCES_DATASET } from './library-names.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { api, ok, openWs, waitFor } from './test-helpers.ts';

interface Pose {
  x: number;
  y: number;
  z: number;
  roll: number;
  pitch: number;
  yaw: number;
}

let sim: SimDaemon;
beforeEach(async () => {
  sim = await startSimDaemon();
});
afterEach(() => sim.close());

const headPose = (): Promise<Pose> => ok<Pose>(sim, 'GET', '/api/state/present_head_pose');
const running = async (): Promise<number> => (await ok<unknown[]>(sim, 'GET', '/api/move/running')).length;

describe('gotos', () => {
  it('move the pose smoothly over their duration and end on target', async () => {
    const clock = createManualClock();
    const timed = await startSimDaemon({ clock });
    try {
      await ok(timed, 'POST', '/api/move/goto', {
        head_pose: { z: 0.01, pitch: 0.2, yaw: 0.3 },
        antennas: [0.5, -0.5],
        body_yaw: 0.2,
        duration: 1.5,
        interpolation: 'linear',
      });
      const poseOf = () => ok<Pose>(timed, 'GET', '/api/state/present_head_pose');
      // Half-way through a linear goto the head is half-way there, and still moving.
      clock.advance(750);
      const mid = await poseOf();
      expect(mid.yaw).toBeGreaterThan(0.1);
      expect(mid.yaw).toBeLessThan(0.2);
      expect((await ok<unknown[]>(timed, 'GET', '/api/move/running')).length).toBe(1);
      clock.advance(800);
      await waitFor(async () => (await ok<unknown[]>(timed, 'GET', '/api/move/running')).length === 0);
      const full = await ok<{ head_pose: Pose; body_yaw: number; antennas_position: number[] }>(
        timed,
        'GET',
        '/api/state/full',
      );
      expect(full.head_pose.yaw).toBeCloseTo(0.3, 6);
      expect(full.head_pose.pitch).toBeCloseTo(0.2, 6);
      expect(full.head_pose.z).toBeCloseTo(0.01, 6);
      expect(full.body_yaw).toBeCloseTo(0.2, 6);
      expect(full.antennas_position[0]).toBeCloseTo(0.5, 6);
    } finally {
      await timed.close();
    }
  });

  it('keep fields left null, and overlapping gotos both run', async () => {
    await ok(sim, 'POST', '/api/move/goto', { body_yaw: 0.4, head_pose: { yaw: 0.4 }, duration: 0.3 });
    await waitFor(async () => (await running()) === 0);
    await ok(sim, 'POST', '/api/move/goto', { antennas: [0.3, -0.3], duration: 0.8 });
    await ok(sim, 'POST', '/api/move/goto', { head_pose: { roll: 0.1, yaw: 0.4 }, duration: 0.8 });
    expect(await running()).toBe(2);
    await waitFor(async () => (await running()) === 0 && Math.abs((await headPose()).roll - 0.1) < 1e-6);
    expect(await ok(sim, 'GET', '/api/state/present_body_yaw')).toBeCloseTo(0.4, 6);
    expect((await headPose()).roll).toBeCloseTo(0.1, 6);
  });

  it('stop the head where the path leaves the daemon\'s reach, and end completed (docs/daemon.md, "Moves")', async () => {
    // Pitch 25° with roll 25° and z 20 mm: each axis in range, the mix out of the head's reach.
    const clock = createManualClock();
    const slow = await startSimDaemon({ clock });
    try {
      const updates = await openWs(slow, '/api/move/ws/updates');
      const { uuid } = await ok<{ uuid: string }>(slow, 'POST', '/api/move/goto', {
        head_pose: { z: 0.02, roll: 0.4363, pitch: 0.4363 },
        duration: 1,
      });
      clock.advance(1100);
      await waitFor(() => updates.messages.length >= 2);
      expect(updates.messages).toEqual([
        { type: 'move_started', uuid, details: '' },
        { type: 'move_completed', uuid, details: '' },
      ]);
      // The daemon's IK has its last answer on this path at z 13.6 mm; daemon 1.13.0 under MuJoCo
      // stopped the same goto from the neutral pose at z 13.2 mm (docs/daemon.md, "Moves").
      const pose = await ok<Pose>(slow, 'GET', '/api/state/present_head_pose');
      expect(pose.z).toBeGreaterThan(0.012);
      expect(pose.z).toBeLessThan(0.0137);
      expect(pose.roll).toBeLessThan(0.3);
    } finally {
      await slow.close();
    }
  });
});

describe('set_target', () => {
  it('clamps the body yaw to 65° from the head and skips unreachable poses silently', async () => {
    expect(await ok(sim, 'POST', '/api/move/set_target', { target_body_yaw: 3.0 })).toEqual({ status: 'ok' });
    await waitFor(async () => Math.abs((await ok<number>(sim, 'GET', '/api/state/present_body_yaw')) - 1.1345) < 1e-3);
    const applied = sim.counters().targetsApplied;
    expect(await ok(sim, 'POST', '/api/move/set_target', { target_head_pose: { z: 0.1 } })).toEqual({ status: 'ok' });
    // The barrier: a reachable target after it. Once that one is applied, the first was skipped.
    await ok(sim, 'POST', '/api/move/set_target', { target_head_pose: { yaw: 0.05 } });
    await waitFor(() => sim.counters().targetsApplied > applied);
    expect(sim.counters().targetsApplied).toBe(applied + 1);
    expect((await headPose()).z).toBe(0);
  });

  it("skips a pose whose axes are each in range but together out of the daemon's reach", async () => {
    const applied = sim.counters().targetsApplied;
    const mix = { target_head_pose: { z: 0.02, roll: 0.4363, pitch: 0.4363 } };
    expect(await ok(sim, 'POST', '/api/move/set_target', mix)).toEqual({ status: 'ok' });
    // The barrier: a reachable target after it. Once that one is applied, the first was skipped.
    await ok(sim, 'POST', '/api/move/set_target', { target_head_pose: { yaw: 0.05 } });
    await waitFor(async () => Math.abs((await headPose()).yaw - 0.05) < 1e-9);
    expect(sim.counters().targetsApplied).toBe(applied + 1);
    expect((await headPose()).z).toBe(0);
  });

  it('takes the antennas of a target whose head is out of reach, as the daemon sets them apart from the IK', async () => {
    const mix = { target_head_pose: { z: 0.02, roll: 0.4363, pitch: 0.4363 }, target_antennas: [0.5, -0.5] };
    expect(await ok(sim, 'POST', '/api/move/set_target', mix)).toEqual({ status: 'ok' });
    await waitFor(
      async () => (await ok<number[]>(sim, 'GET', '/api/state/present_antenna_joint_positions'))[0] === 0.5,
    );
    expect((await headPose()).z).toBe(0);
  });

  it('accepts a row-major matrix pose', async () => {
    const m = [1, 0, 0, 0.01, 0, 1, 0, -0.01, 0, 0, 1, 0.005, 0, 0, 0, 1];
    await ok(sim, 'POST', '/api/move/set_target', { target_head_pose: { m } });
    await waitFor(async () => Math.abs((await headPose()).x - 0.01) < 1e-9);
    expect((await headPose()).y).toBeCloseTo(-0.01, 9);
  });
});

describe('wake-up and sleep (docs/daemon.md, "Moves")', () => {
  it('goto_sleep takes about 4 s, ends at the sleep pose with motors disabled; wake_up does not enable', async () => {
    const t0 = Date.now();
    await ok(sim, 'POST', '/api/move/play/goto_sleep');
    await waitFor(
      async () => (await ok<{ mode: string }>(sim, 'GET', '/api/motors/status')).mode === 'disabled',
      15_000,
    );
    expect(Date.now() - t0).toBeGreaterThan(3500);
    const asleep = await ok<{ head_pose: Pose; antennas_position: number[] }>(sim, 'GET', '/api/state/full');
    expect(asleep.head_pose.pitch).toBeCloseTo(0.425, 2);
    expect(asleep.antennas_position).toEqual([-3.05, 3.05]);
    expect(sim.counters().soundsPlayed.map((s) => s.file)).toContain('go_sleep.wav');

    await ok(sim, 'POST', '/api/move/play/wake_up');
    await waitFor(async () => (await running()) === 0 && Math.abs((await headPose()).pitch) < 1e-6, 15_000);
    expect((await ok<{ mode: string }>(sim, 'GET', '/api/motors/status')).mode).toBe('disabled');
    expect(sim.counters().soundsPlayed.map((s) => s.file)).toContain('wake_up.wav');
  });

  it('wake_up stands down silently when already awake at init', async () => {
    await ok(sim, 'POST', '/api/move/play/wake_up');
    await waitFor(async () => (await running()) === 0);
    expect(sim.counters().soundsPlayed).toEqual([]);
  });
});

describe('recorded moves (docs/daemon.md, "Moves")', () => {
  it('lists the datasets and 404s the unknown', async () => {
    expect(await ok(sim, 'GET', `/api/move/recorded-move-datasets/list/${EMOTIONS_DATASET}`)).toEqual([
      ...EMOTION_NAMES,
    ]);
    expect(await ok<string[]>(sim, 'GET', `/api/move/recorded-move-datasets/list/${DANCES_DATASET}`)).toHaveLength(19);
    expect((await api(sim, 'GET', '/api/move/recorded-move-datasets/list/nobody/nothing')).status).toBe(404);
    const missing = await api(sim, 'POST', `/api/move/play/recorded-move-dataset/${EMOTIONS_DATASET}/moonwalk`);
    expect(missing).toMatchObject({
      status: 404,
      json: { detail: `Move moonwalk not found in recorded moves library ${EMOTIONS_DATASET}` },
    });
  });

  it('plays a move with its sidecar sound, moving the head, then returns to neutral', async () => {
    const { uuid } = await ok<{ uuid: string }>(
      sim,
      'POST',
      `/api/move/play/recorded-move-dataset/${EMOTIONS_DATASET}/no1`,
    );
    expect(await ok(sim, 'GET', '/api/move/running')).toEqual([{ uuid }]);
    let maxYaw = 0;
    await waitFor(async () => {
      maxYaw = Math.max(maxYaw, Math.abs((await headPose()).yaw));
      return (await running()) === 0;
    }, 15_000);
    expect(maxYaw).toBeGreaterThan(0.05);
    expect(sim.counters().soundsPlayed.at(-1)).toMatchObject({ file: 'no1.wav' });
  });
});

describe('realistic motor modes', () => {
  it('permissive by default: gravity compensation accepted, disabled motors still move', async () => {
    expect((await api(sim, 'POST', '/api/motors/set_mode/gravity_compensation')).status).toBe(200);
    await ok(sim, 'POST', '/api/motors/set_mode/disabled');
    await ok(sim, 'POST', '/api/move/set_target', { target_head_pose: { yaw: 0.2 } });
    await waitFor(async () => Math.abs((await headPose()).yaw - 0.2) < 1e-9);
  });

  it('realistic: disabled gates motion and gravity compensation is a 500 text/plain', async () => {
    // On a manual clock the control loop ticks only when the test moves time: 150 ms is 7 ticks.
    const clock = createManualClock();
    const slow = await startSimDaemon({ clock });
    try {
      const pose = (): Promise<Pose> => ok<Pose>(slow, 'GET', '/api/state/present_head_pose');
      await ok(slow, 'POST', '/sim/realistic', { on: true });
      const gc = await api(slow, 'POST', '/api/motors/set_mode/gravity_compensation');
      expect(gc).toMatchObject({ status: 500, text: 'Internal Server Error' });
      expect(gc.contentType).toMatch(/^text\/plain/);
      await ok(slow, 'POST', '/api/motors/set_mode/disabled');
      expect(await ok(slow, 'POST', '/api/move/set_target', { target_head_pose: { yaw: 0.3 } })).toEqual({
        status: 'ok',
      });
      clock.advance(150);
      expect((await pose()).yaw).toBe(0);
      // Enabling pins the targets to the measured pose: nothing snaps to the old target.
      await ok(slow, 'POST', '/api/motors/set_mode/enabled');
      clock.advance(150);
      expect((await pose()).yaw).toBe(0);
      // The barrier: a new target does move the head on the next ticks.
      await ok(slow, 'POST', '/api/move/set_target', { target_head_pose: { yaw: 0.3 } });
      clock.advance(20);
      expect((await pose()).yaw).toBeCloseTo(0.3, 9);
    } finally {
      await slow.close();
    }
  });
});
